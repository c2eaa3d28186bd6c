//! Issue 39, the secretary's set-up in one sitting, at a desk: from an
//! empty installation (the administrator makes the league and names its
//! secretary), the new secretary makes the first season and sets up 8
//! teams at 4 venues in 2 divisions, 6 to 8 players each, every captain
//! with an email address, from one paste of a spreadsheet's rows. Every
//! form the browser submits from the secretary's first page on is counted
//! by the server itself (its request metrics): at most 8. The captains'
//! invitations reach a real SMTP server (aiosmtpd) and stay listed with
//! copy, resend and revoke until taken up.
//!
//! With `BONEYARD_BROWSER_SHOTS=1`, each page the set-up changed is left in
//! `target/browser-shots/setup-*.png`, at desktop width and at 390 px.

use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::{Value, json};

use super::{Browser, DESKTOP, PHONE, Server, TempDir, free_port, run};
use crate::mail::SmtpServer;

/// The most forms a new secretary may submit to set the league up.
const MOST_SUBMISSIONS: f64 = 8.0;

/// Teams, their venue and division; two teams share each venue.
const TEAMS: [(&str, &str, &str); 8] = [
    ("Crown A", "The Crown", "Premier"),
    ("Crown B", "The Crown", "Division One"),
    ("Plough A", "The Plough", "Premier"),
    ("Plough B", "The Plough", "Division One"),
    ("Anchor", "The Anchor", "Premier"),
    ("Anchor Rovers", "The Anchor", "Division One"),
    ("Swan", "The Swan", "Premier"),
    ("Swan Lakers", "The Swan", "Division One"),
];
const SURNAMES: [&str; 8] = [
    "Archer", "Baker", "Carter", "Dyer", "Ellis", "Fisher", "Glover", "Hunter",
];
const FIRST: [&str; 8] = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// The captain of team `t`: their name and address.
fn captain(t: usize) -> (String, String) {
    let (first, last) = (FIRST[0], SURNAMES[t]);
    (
        format!("{first} {last}"),
        format!(
            "{}.{}@example.org",
            first.to_lowercase(),
            last.to_lowercase()
        ),
    )
}

/// The spreadsheet's rows as copied: tabs between cells, a heading row, a
/// phone number on most rows and a column of notes. The team's venue and
/// division on its first row only.
fn rows() -> String {
    let mut out = String::from("Team\tPlayer\tEmail\tMobile\tCaptain\tVenue\tDivision\tNotes\n");
    for (t, (team, venue, division)) in TEAMS.iter().enumerate() {
        let size = 6 + t % 3;
        for (p, first) in FIRST.iter().enumerate().take(size) {
            let name = format!("{first} {}", SURNAMES[t]);
            let (email, captain, place, notes) = if p == 0 {
                (
                    captain(t).1,
                    "yes",
                    format!("{venue}\t{division}"),
                    "subs paid",
                )
            } else {
                (String::new(), "", "\t".to_owned(), "")
            };
            let phone = if p % 3 == 2 {
                String::new()
            } else {
                format!("07700 9{t}{p:04}")
            };
            out.push_str(&format!(
                "{team}\t{name}\t{email}\t{phone}\t{captain}\t{place}\t{notes}\n"
            ));
        }
    }
    out
}

/// The POSTs the server has answered, by its own count.
fn posts(metrics: u16) -> Result<f64, String> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", metrics)).map_err(|e| e.to_string())?;
    s.write_all(b"GET /metrics HTTP/1.0\r\nHost: metrics\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut text = String::new();
    s.read_to_string(&mut text).map_err(|e| e.to_string())?;
    let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
    let scrape = prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_owned())))
        .map_err(|e| e.to_string())?;
    Ok(scrape
        .samples
        .iter()
        .filter(|s| s.metric == "boneyard_http_requests_total")
        .filter(|s| s.labels.get("method") == Some("POST"))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum())
}

/// The invitation link's path in a message's text.
fn link_in(text: &str) -> Option<String> {
    let at = text.find("/invitations/")?;
    let token: String = text[at + "/invitations/".len()..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (token.len() == 64).then(|| format!("/invitations/{token}"))
}

/// Waits until `address` has received `n` messages; their texts.
async fn mail_to(smtp: &SmtpServer, address: &str, n: usize) -> Result<Vec<String>, String> {
    let start = Instant::now();
    loop {
        let got = smtp.to(address);
        if got.len() >= n {
            return Ok(got.into_iter().map(|m| m.text).collect());
        }
        if start.elapsed() > Duration::from_secs(40) {
            return Err(format!(
                "{address} has {} messages, waited for {n}",
                got.len()
            ));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Waits for a page whose `h1` says `want` (a click does not wait for the
/// page it leads to).
async fn heading(b: &Browser, want: &str) -> Result<(), String> {
    b.wait_text("h1", want).await
}

/// When asked for, the page at desktop width and at 390 px: a screenful
/// at a time from the top, a few screens at most.
async fn shots(b: &Browser, name: &str) -> Result<(), String> {
    if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_none() {
        return Ok(());
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
    let _ = std::fs::create_dir_all(&dir);
    for ((width, height), label) in [(DESKTOP, "desktop"), (PHONE, "390")] {
        b.client
            .set_window_size(width, height)
            .await
            .map_err(|e| e.to_string())?;
        let tall = b
            .client
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await
            .map_err(|e| e.to_string())?
            .as_u64()
            .unwrap_or(0);
        let step = u64::from(height) - 60;
        for (i, top) in (0..tall.max(1)).step_by(step as usize).take(4).enumerate() {
            b.client
                .execute(&format!("window.scrollTo(0, {top});"), vec![])
                .await
                .map_err(|e| e.to_string())?;
            if let Ok(png) = b.client.screenshot().await {
                let _ =
                    std::fs::write(dir.join(format!("setup-{name}-{label}-{}.png", i + 1)), png);
            }
        }
    }
    b.client
        .execute("window.scrollTo(0, 0);", vec![])
        .await
        .map_err(|e| e.to_string())?;
    b.client
        .set_window_size(DESKTOP.0, DESKTOP.1)
        .await
        .map_err(|e| e.to_string())
}

/// The text of every element `css` matches.
async fn texts(b: &Browser, css: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for el in b
        .client
        .find_all(Locator::Css(css))
        .await
        .map_err(|e| e.to_string())?
    {
        out.push(el.text().await.map_err(|e| e.to_string())?);
    }
    Ok(out)
}

/// An element's `value` (a text field's).
async fn value(b: &Browser, css: &str) -> Result<String, String> {
    Ok(b.client
        .execute(
            "return document.querySelector(arguments[0]).value;",
            vec![Value::String(css.to_owned())],
        )
        .await
        .map_err(|e| e.to_string())?
        .as_str()
        .unwrap_or_default()
        .to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_secretary_sets_up_eight_teams_in_one_sitting() {
    let name = "a_new_secretary_sets_up_eight_teams_in_one_sitting";
    if !super::available(name) {
        return;
    }
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let dir = TempDir::new("setup");
    let address = format!("sqlite://{}", dir.0.join("new.db").display());
    let metrics = free_port();
    let server = Server::start_with(
        &address,
        &[
            "--smtp-url".into(),
            smtp.url(),
            "--metrics-listen".into(),
            format!("127.0.0.1:{metrics}"),
        ],
    );
    let (server, smtp) = (&server, &smtp);
    run("setup_journey", DESKTOP, |b| async move {
        let outcome = async {
            // The administrator: the installation's first account, the
            // league, and its secretary (a one-time link, no password
            // chosen for them).
            b.goto(&server.url("/")).await?;
            b.fill("input[name=username]", "admin").await?;
            b.fill("input[name=password]", "a long admin password").await?;
            b.fill("input[name=confirm]", "a long admin password").await?;
            b.click("main form button[type=submit]").await?;
            b.wait_text("header.site", "Sign out").await?;
            b.goto(&server.url("/admin")).await?;
            b.fill("input[name=name]", "Dudley Dominoes League").await?;
            b.fill("input[name=short_name]", "dudley").await?;
            b.click_named("main", "Create the league").await?;
            b.wait_text("main", "Dudley Dominoes League").await?;
            b.goto(&server.url("/admin/leagues/dudley/secretaries")).await?;
            b.fill("input[name=username]", "dudleysec").await?;
            b.click_named("main", "Name the secretary").await?;
            b.wait_text("#saved", "one-time link").await?;
            let saved = b.text("#saved").await?;
            let link = link_in(&saved).ok_or("no invitation link for the secretary")?;
            b.sign_out().await?;

            // The secretary, from here on counted.
            let before = posts(metrics)?;
            b.goto(&server.url(&link)).await?;
            b.fill("input[name=password]", "a long secretary password").await?;
            b.fill("input[name=confirm]", "a long secretary password").await?;
            b.click_named("main", "Make my account").await?;
            heading(&b, "Dudley Dominoes League: console").await?;
            // The checklist leads from an empty league: first the season.
            shots(&b, "console-empty").await?;
            b.click_named("main", "Create the first season: its rules and match format")
                .await?;
            heading(&b, "New season").await?;
            b.fill("input[name=name]", "2026/27").await?;
            b.click_named("main", "Create the season").await?;
            // Then, at once, the set-up page.
            heading(&b, "Set up 2026/27").await?;
            b.wait_text("#saved", "now paste its teams").await?;
            // The rows pasted as a spreadsheet copies them, tabs and all.
            b.click("#csv").await?;
            b.cdp("Input.insertText", json!({ "text": rows() })).await?;
            b.click_named("main", "Check the rows").await?;
            b.wait_text("#import-summary", "new teams").await?;
            let summary = b.text("#import-summary").await?;
            let phones = rows().matches("\t07700 ").count();
            for want in [
                "4 new venues".to_owned(),
                "2 new divisions".to_owned(),
                "8 new teams".to_owned(),
                "8 teams entered in a division".to_owned(),
                "55 new players".to_owned(),
                "8 captains named".to_owned(),
                "8 email addresses".to_owned(),
                format!("{phones} phone numbers read and not kept"),
            ] {
                if !summary.contains(&want) {
                    return Err(format!("the preview says `{summary}`, not {want}"));
                }
            }
            let columns = texts(&b, "#columns tbody tr").await?;
            let expected = [
                "1 Team the team",
                "2 Player the player's name",
                "3 Email an email address: the invitation is sent to it",
                "4 Mobile a phone number: not kept",
                "5 Captain whether the player captains the team",
                "6 Venue the team's home venue",
                "7 Division the team's division",
                "8 Notes not used",
            ];
            if columns != expected {
                return Err(format!("the columns read {columns:?}"));
            }
            let plan = b.text("#plan").await?;
            if !plan.contains("Ann Archer, captain") || plan.contains("07700") {
                return Err(format!("the teams previewed: {plan}"));
            }
            shots(&b, "import-preview").await?;
            b.click_named("main", "Save: set up these teams").await?;
            b.wait_text("#saved", "Set up in 2026/27").await?;
            let saved = b.text("#saved").await?;
            if !saved.contains("8 new teams (8 entered in a division), 55 new players (55 registered), 8 captains named. Invitations: 8 emailed to captains; each stays listed") {
                return Err(format!("the set-up says `{saved}`"));
            }
            shots(&b, "divisions-after").await?;
            let submitted = posts(metrics)? - before;
            eprintln!("the secretary's set-up: {submitted} form submissions");
            if submitted > MOST_SUBMISSIONS {
                return Err(format!(
                    "{submitted} form submissions, more than {MOST_SUBMISSIONS}"
                ));
            }

            // Every captain's invitation reaches the SMTP server.
            let mut links = Vec::new();
            for t in 0..TEAMS.len() {
                let (captain, email) = captain(t);
                let text = mail_to(smtp, &email, 1).await?;
                let link = link_in(&text[0]).ok_or(format!("no link emailed to {captain}"))?;
                links.push(link);
            }
            // The console's checklist now says what waits, and leads there.
            b.click("header.site a[href='/leagues/dudley/console']").await?;
            heading(&b, "console").await?;
            shots(&b, "console-after").await?;
            b.click_named(
                "main",
                "Captains' invitations not yet taken up: 8 (copy, resend or revoke them)",
            )
            .await?;
            heading(&b, "Users and roles").await?;
            if b.count("#invitations-list > li").await? != 8 {
                return Err("the users page does not list the 8 invitations".into());
            }
            // Each with its link to copy (the one emailed) and a Copy
            // button the script shows.
            let first = b
                .client
                .find(Locator::Css("#invitations-list input[readonly]"))
                .await
                .map_err(|e| e.to_string())?;
            let id = first
                .attr("id")
                .await
                .map_err(|e| e.to_string())?
                .ok_or("a link field without an id")?;
            let shown = value(&b, &format!("#{id}")).await?;
            if !links.iter().any(|l| shown.ends_with(l.as_str())) {
                return Err(format!("the link to copy, {shown}, is none of those emailed"));
            }
            // The script shows the button, which says what it did.
            let copy = format!("button[data-copy='{id}']");
            b.click(&copy).await?;
            let said = b.text(&copy).await?;
            if !said.starts_with("Copied") && !said.starts_with("Select and copy") {
                return Err(format!("the copy button says `{said}`"));
            }
            shots(&b, "users").await?;

            // Resent: a new message to Ann Archer, with the same link.
            b.click_named("main", "Resend: the invitation of Ann Archer").await?;
            b.wait_text("#saved", "emailed again to ann.archer@example.org").await?;
            let again = mail_to(smtp, &captain(0).1, 2).await?;
            if again.iter().any(|t| link_in(t) != Some(links[0].clone())) {
                return Err("the resent message has another link".into());
            }
            // Revoked: Ann Baker's link stops working.
            b.click_named("main", "Revoke: the invitation of Ann Baker").await?;
            b.wait_text("#saved", "revoked").await?;
            if b.count("#invitations-list > li").await? != 7 {
                return Err("a revoked invitation is still listed".into());
            }
            // Crown A's page lists its captain's invitation too.
            b.goto(&server.url("/leagues/dudley/console/teams")).await?;
            b.wait_text("#setup", "paste them from a spreadsheet into 2026/27")
                .await?;
            shots(&b, "teams").await?;
            b.click_named("main", "Crown A").await?;
            heading(&b, "Crown A").await?;
            b.click("main a[href*='/seasons/']").await?;
            heading(&b, "Crown A, 2026/27").await?;
            b.wait_text("#invitations-list", "Ann Archer").await?;
            shots(&b, "team").await?;
            // A late signing pasted with their number: the number is
            // left out of the name, and the preview says so.
            b.click("#names").await?;
            b.cdp("Input.insertText", json!({ "text": "Gus Archer\t07700 900099" }))
                .await?;
            b.click_named("main", "Check the list").await?;
            b.wait_text("#columns", "a phone number: not kept").await?;
            b.wait_text("#plan", "Gus Archer").await?;
            shots(&b, "roster-paste").await?;
            b.sign_out().await?;
            b.goto(&server.url(&links[1])).await?;
            b.wait_text("main", "used or has expired").await?;
            // Taken up: Ann Carter makes her account from her message and
            // leaves the list.
            b.goto(&server.url(&links[2])).await?;
            b.fill("input[name=password]", "a long captain password").await?;
            b.fill("input[name=confirm]", "a long captain password").await?;
            b.click_named("main", "Make my account").await?;
            b.wait_text("#saved", "captain of Plough A").await?;
            b.sign_out().await?;
            b.sign_in(server, "dudleysec", "a long secretary password").await?;
            b.goto(&server.url("/leagues/dudley/console/users")).await?;
            let listed = b.text("#invitations-list").await?;
            if listed.contains("Ann Carter") || !listed.contains("Ann Dyer") {
                return Err(format!("after one was taken up the list is: {listed}"));
            }
            if b.count("#invitations-list > li").await? != 6 {
                return Err("the list is not 8 less one revoked and one taken up".into());
            }
            // One invitation's own page, where another address is typed.
            b.click_named("main", "Send to another address: the invitation of Ann Archer")
                .await?;
            heading(&b, "Invitation of Ann Archer").await?;
            shots(&b, "invitation").await?;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
