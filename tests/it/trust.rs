//! Trust under attack (issue 44): the thirteen holes an attack on the
//! running server found in accounts, email, exports and restore, each
//! shown closed, on both databases; the mail ones against a real SMTP
//! server (aiosmtpd, see `mail.rs`), the restore and stop ones against the
//! server binary itself.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use boneyard::addresses;
use boneyard::db::mail::{MailStatus, NewMail};
use boneyard::db::*;
use boneyard::web::cache::CACHE_HEADER;
use boneyard::web::throttle::{MAIL_PER_CLIENT, MAIL_PER_RECIPIENT};
use sqlx::Connection;

use crate::harness::LeagueBuilder;
use crate::harness::client::Client;
use crate::mail::{SmtpServer, confirmed, worker};
use crate::support::{on_both, on_both_at};
use crate::web::results::{client, setup};

on_both!(
    a_verification_page_is_never_kept_for_the_next_visitor,
    whether_an_address_is_taken_is_never_told,
    an_unconfirmed_claim_never_blocks_the_addresss_owner,
    confirmation_mails_to_one_mailbox_are_limited_whatever_the_case,
    the_round_up_form_cannot_mail_many_addresses_from_one_client,
    a_password_reset_ends_every_other_session_of_the_account,
    a_sign_in_link_dies_with_the_address_it_was_sent_to,
    an_encoded_word_address_is_refused_and_never_mailed_elsewhere,
    results_csv_neutralises_formulas_behind_invisible_characters_and_pipes,
);

on_both_at!(
    healthz_checks_the_schema_not_only_the_migration_count,
    a_stopping_server_hands_back_its_mail_at_once_and_sends_each_once,
);

/// The path of the first link to this site in a message queued to `to`
/// whose subject has `subject` in it (read from the outbox: these tests
/// need no SMTP server).
async fn queued_link(db: &Db, to: &str, subject: &str) -> String {
    let mail = db.recent_mail(None, 100).await.unwrap();
    let m = mail
        .iter()
        .find(|m| m.to_address == to && m.subject.contains(subject))
        .unwrap_or_else(|| panic!("a message to {to}: {mail:?}"));
    m.text_body
        .split_whitespace()
        .find_map(|w| w.find("/account/verify/").map(|i| w[i..].to_owned()))
        .or_else(|| {
            m.text_body.split_whitespace().find_map(|w| {
                w.strip_prefix("http://")
                    .and_then(|rest| rest.find('/').map(|i| rest[i..].to_owned()))
            })
        })
        .unwrap_or_else(|| panic!("a link in {}", m.text_body))
}

// 1. ------------------------------------------------------------------------

async fn a_verification_page_is_never_kept_for_the_next_visitor(db: Db) {
    let _m = setup(&db).await;
    let mut home = client(&db, "home").await;
    let saved = home
        .submit(
            "/account",
            "/account/email",
            &[("email", "crown@example.org")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let link = queued_link(&db, "crown@example.org", "Confirm your email").await;
    // Twice without cookies, as the attack did: the first confirms, the
    // second must not be the first one's page from memory.
    let mut first = home.stranger();
    let confirmed = first.get(&link).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.body);
    assert!(confirmed.has("crown@example.org is confirmed"));
    assert!(!confirmed.headers.contains_key(CACHE_HEADER));
    assert_eq!(confirmed.headers["cache-control"], "no-store");
    let mut second = home.stranger();
    let again = second.get(&link).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.body);
    assert!(!again.has("crown@example.org"), "{}", again.body);
    assert!(!again.has("cap0-card"), "{}", again.body);
    assert!(!again.headers.contains_key(CACHE_HEADER));
    // The public pages are still kept.
    let league = db.league_by_short_name("card").await.unwrap();
    let home_page = addresses::at(&league).to_string();
    let mut visitor = Client::new(&db).await;
    visitor.get(&home_page).await;
    let kept = visitor.get(&home_page).await;
    assert_eq!(kept.headers[CACHE_HEADER], "hit", "{:?}", kept.headers);
}

// 2 and 3. ------------------------------------------------------------------

async fn whether_an_address_is_taken_is_never_told(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    let mut away = client(&db, "away").await;
    let mut answers = Vec::new();
    for email in ["CROWN@example.org", "free@example.org"] {
        let saved = away
            .submit("/account", "/account/email", &[("email", email)])
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
        assert_eq!(saved.location.as_deref(), Some("/account"));
        let page = away.get("/account").await;
        answers.push(page.body.replace(email, "X").replace(&page.csrf(), "T"));
    }
    assert_eq!(answers[0], answers[1], "the same answer, taken or not");
    worker(&db, &smtp).pass().await.unwrap();
    // The owner is not mailed for someone else's claim; the free address is.
    assert_eq!(smtp.to("CROWN@example.org").len(), 0);
    assert_eq!(smtp.to("free@example.org").len(), 1);
}

async fn an_unconfirmed_claim_never_blocks_the_addresss_owner(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    // A player puts someone else's address on their account and never
    // confirms it.
    let mut squatter = client(&db, "away").await;
    for email in ["owner@example.org", "invited@example.org"] {
        let saved = squatter
            .submit("/account", "/account/email", &[("email", email)])
            .await;
        assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    }
    let squatter_id = db.user_by_username("cap1-card").await.unwrap().id;
    let saved = squatter
        .submit(
            "/account",
            "/account/email",
            &[("email", "owner@example.org")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    // The owner sets it on their own account and confirms it.
    confirmed(&db, &smtp, "cap0-card", "Owner@Example.org").await;
    let owner = db.user_by_username("cap0-card").await.unwrap().id;
    assert_eq!(
        db.contact(owner).await.unwrap().verified(),
        Some("Owner@Example.org")
    );
    // The unconfirmed claim is let go, and its link no longer works.
    assert_eq!(db.contact(squatter_id).await.unwrap().email, None);
    let claim = smtp
        .to("owner@example.org")
        .into_iter()
        .rev()
        .find(|m| m.subject.contains("Confirm your email"))
        .expect("the squatter's link");
    let dead = Client::new(&db).await.get(&claim.link()).await;
    assert_eq!(dead.status, StatusCode::NOT_FOUND, "{}", dead.body);
    assert_eq!(db.contact(squatter_id).await.unwrap().verified(), None);

    // An invitation to an address someone claimed without confirming:
    // the account it makes has the address, confirmed.
    let saved = squatter
        .submit(
            "/account",
            "/account/email",
            &[("email", "invited@example.org")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let mut sec = client(&db, "sec").await;
    let league = db.league_by_short_name("card").await.unwrap();
    let season = db.seasons(league.id).await.unwrap().remove(0).id;
    let anchor = db
        .teams(league.id)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Anchor")
        .unwrap()
        .id;
    let users = addresses::at(&league).console().users();
    let invited = sec
        .submit(
            &users,
            &users,
            &[
                ("username", "new.player"),
                ("email", "invited@example.org"),
                ("role", "captain"),
                ("team", &format!("{season}-{anchor}")),
            ],
        )
        .await;
    assert_eq!(invited.status, StatusCode::SEE_OTHER, "{}", invited.body);
    worker(&db, &smtp).pass().await.unwrap();
    let link = smtp
        .to("invited@example.org")
        .into_iter()
        .find(|m| m.subject.contains("invited"))
        .expect("the invitation")
        .link();
    let mut newcomer = Client::new(&db).await;
    let made = newcomer
        .submit(
            &link,
            &link,
            &[
                ("username", "new.player"),
                ("password", "a long enough password"),
                ("confirm", "a long enough password"),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let new = db.user_by_username("new.player").await.unwrap().id;
    assert_eq!(
        db.contact(new).await.unwrap().verified(),
        Some("invited@example.org")
    );
    assert_eq!(db.contact(squatter_id).await.unwrap().email, None);
}

// 4 and 5. ------------------------------------------------------------------

async fn confirmation_mails_to_one_mailbox_are_limited_whatever_the_case(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    let mut player = client(&db, "home").await;
    let mut refused = 0;
    for i in 0..8 {
        let email = if i % 2 == 0 {
            "victim@t.test"
        } else {
            "VICTIM@t.test"
        };
        let saved = player
            .submit("/account", "/account/email", &[("email", email)])
            .await;
        match saved.status {
            StatusCode::SEE_OTHER => {}
            StatusCode::TOO_MANY_REQUESTS => {
                refused += 1;
                assert!(saved.has("Too many messages"), "{}", saved.body);
            }
            other => panic!("{other}: {}", saved.body),
        }
    }
    worker(&db, &smtp).pass().await.unwrap();
    let to_victim = smtp
        .received()
        .into_iter()
        .filter(|m| m.to.eq_ignore_ascii_case("victim@t.test"))
        .count();
    assert_eq!(to_victim, MAIL_PER_RECIPIENT as usize);
    assert_eq!(refused, 8 - MAIL_PER_RECIPIENT);
    // The same mailbox is limited on the other forms too: a stranger's
    // reset asks for it are counted with the above.
    let mut stranger = Client::new(&db).await;
    let asked = stranger
        .submit(
            "/password/forgot",
            "/password/forgot",
            &[("email", "Victim@T.test")],
        )
        .await;
    assert_eq!(asked.status, StatusCode::TOO_MANY_REQUESTS);
}

async fn the_round_up_form_cannot_mail_many_addresses_from_one_client(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let built = LeagueBuilder::new("card").build(&db).await;
    let league = db.league(built.id).await.unwrap();
    let form = addresses::at(&league).round_up_subscribe();
    let mut visitor = Client::new(&db).await;
    let began = Instant::now();
    let mut refused = 0;
    for i in 0..30 {
        let email = format!("fan{i}@example.org");
        let asked = visitor.submit(&form, &form, &[("email", &email)]).await;
        match asked.status {
            StatusCode::OK => {}
            StatusCode::TOO_MANY_REQUESTS => refused += 1,
            other => panic!("{other}: {}", asked.body),
        }
    }
    worker(&db, &smtp).pass().await.unwrap();
    let sent = smtp.received().len();
    assert_eq!(sent, MAIL_PER_CLIENT as usize, "{:?}", smtp.received());
    assert_eq!(refused, 30 - MAIL_PER_CLIENT);
    assert!(
        began.elapsed() < Duration::from_secs(15),
        "refused at once, not slowed"
    );
    // Another client is not held up by this one.
    let mut other = Client::behind_proxy(&db).await;
    other.address = Some("203.0.113.5".into());
    let form_page = other.get(&form).await;
    let asked = other
        .post(
            &form,
            &[("csrf", &form_page.csrf()), ("email", "else@example.org")],
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
}

// 6 and 7. ------------------------------------------------------------------

async fn a_password_reset_ends_every_other_session_of_the_account(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    // Signed in on two browsers (one, say, the attacker's).
    let mut laptop = client(&db, "home").await;
    let mut phone = client(&db, "home").await;
    assert_eq!(laptop.get("/account").await.status, StatusCode::OK);
    assert_eq!(phone.get("/account").await.status, StatusCode::OK);
    // The password is reset from a third.
    let mut c = Client::new(&db).await;
    let asked = c
        .submit(
            "/password/forgot",
            "/password/forgot",
            &[("email", "crown@example.org")],
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK);
    worker(&db, &smtp).pass().await.unwrap();
    let link = smtp
        .to("crown@example.org")
        .into_iter()
        .find(|m| m.subject == "Reset your Boneyard password")
        .expect("the reset message")
        .link();
    let form = c.get(&link).await;
    let new_password = "a new long password";
    let done = c
        .post(
            &link,
            &[
                ("csrf", &form.csrf()),
                ("password", new_password),
                ("confirm", new_password),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    // The browser that reset it is signed in; the others are not.
    assert_eq!(c.get("/account").await.status, StatusCode::OK);
    for other in [&mut laptop, &mut phone] {
        let page = other.get("/account").await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
        assert!(
            page.location.as_deref().unwrap().starts_with("/sign-in"),
            "{page:?}"
        );
    }
}

async fn a_sign_in_link_dies_with_the_address_it_was_sent_to(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    confirmed(&db, &smtp, "cap1-card", "anchor@example.org").await;
    let mut visitor = Client::new(&db).await;
    for path in ["/sign-in/email", "/password/forgot"] {
        let asked = visitor
            .stranger()
            .submit(path, path, &[("email", "anchor@example.org")])
            .await;
        assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    }
    worker(&db, &smtp).pass().await.unwrap();
    let mail = smtp.to("anchor@example.org");
    let link_of = |subject: &str| {
        mail.iter()
            .find(|m| m.subject == subject)
            .unwrap_or_else(|| panic!("{subject}: {mail:?}"))
            .link()
    };
    let sign_in = link_of("Your Boneyard sign-in link");
    let reset = link_of("Reset your Boneyard password");
    assert_eq!(visitor.get(&sign_in).await.status, StatusCode::OK);
    // The owner takes the address off the account (it was lost, say).
    let mut owner = client(&db, "away").await;
    let removed = owner
        .submit("/account", "/account/email", &[("email", "")])
        .await;
    assert_eq!(removed.status, StatusCode::SEE_OTHER);
    // Neither link works any more, shown or used.
    let mut holder = Client::new(&db).await;
    assert_eq!(holder.get(&sign_in).await.status, StatusCode::NOT_FOUND);
    assert_eq!(holder.get(&reset).await.status, StatusCode::NOT_FOUND);
    let token = holder.get("/sign-in").await.csrf();
    let used = holder
        .post(&sign_in, &[("csrf", &token), ("next", "/account")])
        .await;
    assert_eq!(used.status, StatusCode::NOT_FOUND);
    assert_eq!(holder.get("/account").await.status, StatusCode::SEE_OTHER);
}

// 8. ------------------------------------------------------------------------

async fn an_encoded_word_address_is_refused_and_never_mailed_elsewhere(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    let mut player = client(&db, "home").await;
    let encoded = "=?utf-8?b?ZXZpbEBldmlsLnRlc3Q=?=@x.test";
    for bad in [encoded, "\"evil@evil.test\"@x.test", "x@[127.0.0.1]"] {
        let refused = player
            .submit("/account", "/account/email", &[("email", bad)])
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            refused.body
        );
    }
    let user = db.user_by_username("cap0-card").await.unwrap().id;
    assert_eq!(db.contact(user).await.unwrap().email, None);
    // Such an address queued before the check (an old row) is not sent,
    // to it or anywhere else.
    db.queue_mail(&[NewMail {
        league_id: None,
        once_key: None,
        topic: "verify".into(),
        to_address: encoded.into(),
        to_name: "cap0-card".into(),
        subject: "Old".into(),
        text_body: "Hello".into(),
        html_body: "<p>Hello</p>".into(),
        unsubscribe_url: None,
    }])
    .await
    .unwrap();
    let pass = worker(&db, &smtp).pass().await.unwrap();
    assert_eq!((pass.sent, pass.failed), (0, 1), "{pass:?}");
    assert!(smtp.received().is_empty(), "{:?}", smtp.received());
    let row = db.recent_mail(None, 1).await.unwrap().remove(0);
    assert_eq!(row.status, MailStatus::Failed);
}

// 9. ------------------------------------------------------------------------

async fn results_csv_neutralises_formulas_behind_invisible_characters_and_pipes(db: Db) {
    let built = LeagueBuilder::new("csv")
        .teams(&["Crown", "Anchor"])
        .players(2)
        .fixtures(1)
        .build(&db)
        .await;
    let league = db.league(built.id).await.unwrap();
    db.update_team(built.id, built.teams[0].id, "\u{feff}=1+1", None)
        .await
        .unwrap();
    db.update_team(built.id, built.teams[1].id, "|calc", None)
        .await
        .unwrap();
    let mut visitor = Client::new(&db).await;
    let csv = visitor
        .get(&addresses::at(&league).results_csv(built.season))
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    assert!(csv.has(",'\u{feff}=1+1,"), "{}", csv.body);
    assert!(csv.has(",'|calc,"), "{}", csv.body);
    assert!(!csv.has(",\u{feff}=1+1"), "{}", csv.body);
    assert!(!csv.has(",|calc"), "{}", csv.body);
}

// 10 and 11: /healthz. -------------------------------------------------------

/// Runs `sql` on the database at `address` behind the app's back (on a
/// thread of its own: sqlx's futures over a borrowed connection are not
/// `Send`).
async fn behind_the_apps_back(address: &str, sql: &str) {
    let (address, sql) = (address.to_owned(), sql.to_owned());
    tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            if address.starts_with("sqlite:") {
                let mut c = sqlx::SqliteConnection::connect(&address).await.unwrap();
                sqlx::raw_sql(&sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            } else {
                let mut c = sqlx::PgConnection::connect(&address).await.unwrap();
                sqlx::raw_sql(&sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            }
        });
    })
    .await
    .unwrap();
}

async fn healthz_checks_the_schema_not_only_the_migration_count(db: Db, address: String) {
    let mut c = Client::new(&db).await;
    let ok = c.get("/healthz").await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    // A table gone: the count of migrations is right, the schema is not.
    behind_the_apps_back(&address, "DROP TABLE mail").await;
    let gone = c.get("/healthz").await;
    assert_eq!(
        gone.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        gone.body
    );
    assert!(gone.has("table mail is missing"), "{}", gone.body);
    let health = db.health().await.unwrap();
    assert!(!health.is_current(), "{health:?}");
    // A migration edited after it ran (its checksum), or left unfinished.
    let zero = if address.starts_with("sqlite:") {
        "x'00'"
    } else {
        "decode('00', 'hex')"
    };
    behind_the_apps_back(
        &address,
        &format!("UPDATE _sqlx_migrations SET checksum = {zero} WHERE version = 21"),
    )
    .await;
    let edited = c.get("/healthz").await;
    assert!(edited.has("migration 21 differs"), "{}", edited.body);
}

// 12: restore while serving. --------------------------------------------------

/// The server binary on `database`, on a free port, optionally with an
/// SMTP server; stopped with SIGINT as Ctrl-C does.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    async fn start(database: &str, smtp: Option<&str>) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_boneyard"));
        command.args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database",
            database,
        ]);
        if let Some(url) = smtp {
            command.args(["--smtp-url", url]);
        }
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the boneyard binary starts");
        let begun = Instant::now();
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                begun.elapsed() < Duration::from_secs(30),
                "the server did not start"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Server { child, port }
    }

    /// Ctrl-C, and the wait for the process to end.
    async fn interrupt(mut self) {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let begun = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status:?}");
                return;
            }
            assert!(
                begun.elapsed() < Duration::from_secs(40),
                "the server did not stop"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn boneyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args(args)
        .output()
        .expect("run boneyard")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restore_is_refused_while_a_server_serves_the_file() {
    let dir = std::env::temp_dir().join(format!("boneyard-serving-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join("live.db");
    let address = format!("sqlite://{}", live.display());
    let copy = dir.join("copy.db");
    {
        let db = Db::connect(&address).await.unwrap();
        LeagueBuilder::new("before").build(&db).await;
        db.backup_to(&copy).await.unwrap();
        db.close().await;
    }
    let server = Server::start(&address, None).await;
    let _ = server.port;
    let refused = boneyard(&["restore", "--database", &address, copy.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "restored under a running server");
    assert!(said.contains("serving"), "{said}");
    assert!(!dir.join("live.db.before-restore").exists());
    server.interrupt().await;
    let restored = boneyard(&["restore", "--database", &address, copy.to_str().unwrap()]);
    assert!(
        restored.status.success(),
        "{}",
        String::from_utf8_lossy(&restored.stderr)
    );
    assert!(dir.join("live.db.before-restore").exists());
    // And a server does not start while a restore holds the file.
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy whose migrations differ from the binary's, or which lacks a
/// table, is refused before it is put in place (the app would refuse to
/// start on the first, and fail request by request on the second).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restore_refuses_a_copy_with_edited_or_unfinished_migrations_or_a_table_missing() {
    use boneyard::db::backup::check_copy;
    let dir = std::env::temp_dir().join(format!("boneyard-copies-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join("live.db");
    let db = Db::connect(&format!("sqlite://{}", live.display()))
        .await
        .unwrap();
    LeagueBuilder::new("kept").build(&db).await;
    let copy = dir.join("copy.db");
    db.backup_to(&copy).await.unwrap();
    db.close().await;
    check_copy(&copy).await.unwrap();
    let spoilt = |name: &str, sql: &'static str| {
        let path = dir.join(name);
        std::fs::copy(&copy, &path).unwrap();
        async move {
            behind_the_apps_back(&format!("sqlite://{}", path.display()), sql).await;
            path
        }
    };
    let edited = spoilt(
        "edited.db",
        "UPDATE _sqlx_migrations SET checksum = x'00' WHERE version = 21",
    )
    .await;
    let unfinished = spoilt(
        "unfinished.db",
        "UPDATE _sqlx_migrations SET success = FALSE \
         WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)",
    )
    .await;
    let no_mail = spoilt("no-mail.db", "DROP TABLE mail").await;
    let why = check_copy(&edited).await.unwrap_err();
    assert!(why.contains("migration 21 differs"), "{why}");
    let why = check_copy(&unfinished).await.unwrap_err();
    assert!(why.contains("did not finish"), "{why}");
    let why = check_copy(&no_mail).await.unwrap_err();
    assert!(why.contains("table mail is missing"), "{why}");
    // The app itself refuses the first two: what restore refuses is what
    // would not start.
    for path in [&edited, &unfinished] {
        assert!(
            Db::connect(&format!("sqlite://{}", path.display()))
                .await
                .is_err(),
            "{}",
            path.display()
        );
    }
    // Refused, the restore leaves the live file as it was.
    let address = format!("sqlite://{}", live.display());
    for path in [&edited, &unfinished, &no_mail] {
        let out = boneyard(&["restore", "--database", &address, path.to_str().unwrap()]);
        assert!(!out.status.success(), "{}", path.display());
    }
    assert!(!dir.join("live.db.before-restore").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

// 13: a graceful stop. --------------------------------------------------------

async fn a_stopping_server_hands_back_its_mail_at_once_and_sends_each_once(
    db: Db,
    address: String,
) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    const N: usize = 300;
    let mail: Vec<NewMail> = (0..N)
        .map(|i| NewMail {
            league_id: None,
            once_key: None,
            topic: "test".into(),
            to_address: format!("p{i}@example.org"),
            to_name: format!("Player {i}"),
            subject: format!("Message {i}"),
            text_body: "Hello".into(),
            html_body: "<p>Hello</p>".into(),
            unsubscribe_url: None,
        })
        .collect();
    db.queue_mail(&mail).await.unwrap();
    let server = Server::start(&address, Some(&smtp.url())).await;
    // Ctrl-C while it sends.
    let begun = Instant::now();
    while smtp.received().is_empty() {
        assert!(begun.elapsed() < Duration::from_secs(30), "nothing sent");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.interrupt().await;
    let stopped_at = chrono::Utc::now();
    let rows = db.recent_mail(None, N as i64).await.unwrap();
    let waiting: Vec<_> = rows
        .iter()
        .filter(|m| m.status == MailStatus::Waiting)
        .collect();
    assert!(!waiting.is_empty(), "stopped before the end");
    for m in &waiting {
        assert!(
            m.next_attempt_at <= stopped_at,
            "held after the stop: {m:?}"
        );
        assert_eq!(m.attempts, 0, "{m:?}");
    }
    // Started again: the rest go at once, each message once.
    let server = Server::start(&address, Some(&smtp.url())).await;
    let begun = Instant::now();
    while smtp.received().len() < N {
        assert!(
            begun.elapsed() < Duration::from_secs(60),
            "{} of {N} sent",
            smtp.received().len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.interrupt().await;
    let got = smtp.received();
    let mut subjects: Vec<&str> = got.iter().map(|m| m.subject.as_str()).collect();
    subjects.sort_unstable();
    subjects.dedup();
    assert_eq!((got.len(), subjects.len()), (N, N));
}
