//! The account page on a phone (390 px): an address saved and confirmed
//! by the link sent to it, the notification choices saved and shown again,
//! and the forgotten-password journey from the sign-in page to signing in
//! with the new password. The real binary serves, with no SMTP server, so
//! messages are kept in the database, where the test reads their links as
//! the administrator's console lists them.

use boneyard::db::Db;

use super::journeys::demo_of;
use super::{Browser, PHONE, Server, TempDir, run};

/// The link in the newest kept message to `to` whose subject has `subject`.
async fn link(db: &Db, server: &Server, to: &str, subject: &str) -> Result<String, String> {
    let origin = server.url("");
    let mail = db.recent_mail(None, 50).await.map_err(|e| e.to_string())?;
    let m = mail
        .iter()
        .find(|m| m.to_address == to && m.subject.contains(subject))
        .ok_or_else(|| format!("no message `{subject}` to {to}"))?;
    m.text_body
        .split_whitespace()
        .find(|w| w.starts_with(&origin))
        .map(str::to_owned)
        .ok_or_else(|| format!("no link in {:?}", m.text_body))
}

async fn narrow(b: &Browser, what: &str) -> Result<(), String> {
    if b.scrolls_sideways().await? {
        return Err(format!("{what} scrolls sideways at 390 px"));
    }
    Ok(())
}

async fn checked(b: &Browser, css: &str) -> Result<bool, String> {
    b.client
        .execute(
            "return document.querySelector(arguments[0]).checked;",
            vec![serde_json::Value::String(css.to_owned())],
        )
        .await
        .map_err(|e| e.to_string())?
        .as_bool()
        .ok_or_else(|| format!("no checkbox `{css}`"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_page_and_a_forgotten_password_on_a_phone() {
    let name = "the_account_page_and_a_forgotten_password_on_a_phone";
    if !super::available(name) {
        return;
    }
    let dir = TempDir::new("account");
    let file = format!("sqlite://{}", dir.0.join("league.db").display());
    let accounts = demo_of(&file, 1, 1);
    let captain = accounts
        .iter()
        .find(|a| a.role == "captain")
        .expect("the demo printed a captain")
        .clone();
    let server = Server::start(&file);
    let db = Db::connect(&file).await.unwrap();
    let email = "captain@example.org";
    run(name, PHONE, |b| async move {
        let steps = async {
            b.sign_in(&server, &captain.username, &captain.password)
                .await?;
            b.goto(&server.url("/account")).await?;
            narrow(&b, "the account page").await?;
            // A bad address is refused beside its field.
            b.fill("#email", "captain at example").await?;
            b.click("form[action='/account/email'] button[type=submit]")
                .await?;
            b.wait_text("#email-error", "email address").await?;
            b.client
                .find(fantoccini::Locator::Css("#email"))
                .await
                .map_err(|e| e.to_string())?
                .clear()
                .await
                .map_err(|e| e.to_string())?;
            b.fill("#email", email).await?;
            b.click("form[action='/account/email'] button[type=submit]")
                .await?;
            b.wait_text("#saved", "A link to confirm it is on its way")
                .await?;
            narrow(&b, "the account page with its message").await?;
            b.goto(&link(&db, &server, email, "Confirm your email").await?)
                .await?;
            b.wait_text("main", "is confirmed").await?;
            // The choices: every kind on at first; one turned off stays off.
            b.goto(&server.url("/account")).await?;
            if !checked(&b, "#topic-reminder").await? {
                return Err("reminders start on".into());
            }
            b.click("label[for='topic-reminder']").await?;
            b.click("form[action='/account/notices'] button[type=submit]")
                .await?;
            b.wait_text("#saved", "you will not be sent 1 kind of message")
                .await?;
            if checked(&b, "#topic-reminder").await?
                || !checked(&b, "#topic-result-submitted").await?
            {
                return Err("the page does not show the choices saved".into());
            }
            narrow(&b, "the account page after saving the choices").await?;
            // Forgotten password, from the sign-in page.
            b.sign_out().await?;
            b.goto(&server.url("/sign-in")).await?;
            b.click("a[href='/password/forgot']").await?;
            b.fill("#email", email).await?;
            b.click("form[action='/password/forgot'] button[type=submit]")
                .await?;
            b.wait_text("main", email).await?;
            narrow(&b, "the forgotten-password answer").await?;
            b.goto(&link(&db, &server, email, "Reset your Boneyard password").await?)
                .await?;
            b.wait_text("main", &captain.username).await?;
            narrow(&b, "the new password form").await?;
            let new_password = "a brand new pass phrase";
            b.fill("#password", new_password).await?;
            b.fill("#confirm", new_password).await?;
            b.click("form[action^='/password/reset/'] button[type=submit]")
                .await?;
            b.wait_text("#saved", "Your new password is saved").await?;
            b.sign_out().await?;
            b.sign_in(&server, &captain.username, new_password).await?;
            Ok(())
        };
        let outcome = steps.await;
        (b, outcome)
    })
    .await;
}
