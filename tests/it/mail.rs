//! Email through a real SMTP server (issue 26): Debian's python3-aiosmtpd
//! started by the test as a process of its own, storing what it receives
//! in a maildir, read back with a real MIME parser. Without aiosmtpd these
//! tests say they were skipped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::time::Duration;

use axum::http::StatusCode;
use boneyard::app::mail::MailConfig;
use boneyard::db::mail::{MailStatus, NewMail};
use boneyard::db::*;
use boneyard::mail::{Mailer, Worker};
use mail_parser::MessageParser;

use crate::harness::client::Client;
use crate::harness::{LeagueBuilder, PASSWORD};
use crate::support::on_both;
use crate::web::results::{Match, client, setup, shown, simulated_card, submit_card};

on_both!(
    an_address_is_verified_by_the_link_sent_to_it,
    the_other_captain_is_emailed_a_link_to_confirm_after_a_submit,
    a_password_is_reset_by_email_end_to_end,
    a_sign_in_link_works_once,
    a_postponement_reaches_both_captains,
    a_reminder_is_sent_once_however_many_passes,
    no_reminder_goes_out_for_a_match_of_a_closed_season,
    messages_wait_while_the_smtp_server_is_down_and_go_once_it_is_back,
    two_workers_never_send_one_message_twice,
    an_operation_the_workflow_refuses_notifies_nobody,
    without_an_smtp_server_messages_are_kept_for_the_administrator,
    absolute_links_follow_the_public_url_not_the_host_header,
    a_pasted_roster_with_addresses_emails_each_new_player_an_invitation,
    an_invitation_given_an_address_is_emailed_and_shown,
    a_season_set_up_in_one_paste_invites_its_captains_and_keeps_each_invitation_listed,
    the_round_up_goes_to_confirmed_subscribers_once_and_stops_in_one_click,
    a_late_result_is_proposed_to_the_secretary_once_by_email,
    a_late_results_penalty_is_applied_in_one_click_once,
);

const PUBLIC: &str = "http://127.0.0.1:3000";
const PYTHON: &str = "/usr/bin/python3";

/// A real SMTP server: aiosmtpd's Mailbox handler writing a maildir.
pub(crate) struct SmtpServer {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl SmtpServer {
    /// Started on a free port, or `None` (said once) without aiosmtpd.
    pub(crate) async fn start() -> Option<SmtpServer> {
        static SKIPPED: Once = Once::new();
        let found = Command::new(PYTHON)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            SKIPPED.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "email tests skipped: install python3-aiosmtpd"
                );
            });
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = std::env::temp_dir().join(format!("boneyard-smtp-{port}-{}", std::process::id()));
        let mut server = SmtpServer {
            child: None,
            port,
            dir,
        };
        server.resume().await;
        Some(server)
    }

    /// Starts (again) on the same port, and waits until it answers.
    async fn resume(&mut self) {
        let child = Command::new(PYTHON)
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{}", self.port))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        self.child = Some(child);
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("aiosmtpd did not start on port {}", self.port);
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message received so far, parsed.
    pub(crate) fn received(&self) -> Vec<Received> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("new")) else {
            return Vec::new();
        };
        let mut out: Vec<Received> = entries
            .filter_map(Result::ok)
            .map(|e| {
                let bytes = std::fs::read(e.path()).unwrap();
                let m = MessageParser::default()
                    .parse(&bytes)
                    .expect("a MIME message");
                Received {
                    to: m
                        .to()
                        .and_then(|a| a.first())
                        .and_then(|a| a.address())
                        .unwrap_or_default()
                        .to_owned(),
                    to_name: m
                        .to()
                        .and_then(|a| a.first())
                        .and_then(|a| a.name())
                        .unwrap_or_default()
                        .to_owned(),
                    subject: m.subject().unwrap_or_default().to_owned(),
                    text: m.body_text(0).unwrap_or_default().into_owned(),
                    html: m.body_html(0).unwrap_or_default().into_owned(),
                    header_names: m.headers().iter().map(|h| h.name().to_owned()).collect(),
                    unsubscribe: m.header_raw("List-Unsubscribe").map(|v| {
                        v.trim()
                            .trim_start_matches('<')
                            .trim_end_matches('>')
                            .to_owned()
                    }),
                }
            })
            .collect();
        out.sort_by(|a, b| (&a.to, &a.subject).cmp(&(&b.to, &b.subject)));
        out
    }

    pub(crate) fn to(&self, address: &str) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|m| m.to == address)
            .collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub(crate) to: String,
    to_name: String,
    pub(crate) subject: String,
    pub(crate) text: String,
    html: String,
    header_names: Vec<String>,
    /// The `List-Unsubscribe` header's address, without its brackets.
    unsubscribe: Option<String>,
}

impl Received {
    /// The path of the first link to this site in the plain text.
    pub(crate) fn link(&self) -> String {
        self.text
            .split_whitespace()
            .find_map(|w| w.strip_prefix(PUBLIC))
            .unwrap_or_else(|| panic!("a link in {:?}", self.text))
            .to_owned()
    }
}

pub(crate) fn worker(db: &Db, smtp: &SmtpServer) -> Worker {
    let mailer = Mailer::smtp(&smtp.url(), "Card League <league@example.org>").unwrap();
    let mut w = Worker::new(db.clone(), mailer, MailConfig::new(PUBLIC));
    w.retry_base = chrono::Duration::zero();
    w
}

/// Gives `username` the confirmed address `email`, as its owner would:
/// the account page, then the link sent.
pub(crate) async fn confirmed(db: &Db, smtp: &SmtpServer, username: &str, email: &str) {
    let mut c = Client::new(db).await;
    c.sign_in(username, PASSWORD).await;
    let saved = c
        .submit("/account", "/account/email", &[("email", email)])
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    worker(db, smtp).pass().await.unwrap();
    let link = smtp
        .to(email)
        .into_iter()
        .rev()
        .find(|m| m.subject.contains("Confirm your email"))
        .expect("the verification message")
        .link();
    let page = c.get(&link).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
}

async fn an_address_is_verified_by_the_link_sent_to_it(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    let mut c = client(&db, "home").await;
    // A bad address is refused beside its field, and nothing is sent.
    let bad = c
        .submit(
            "/account",
            "/account/email",
            &[("email", "crown at example")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.has("name@example.org"), "{}", bad.body);
    assert!(
        !bad.has("is waiting for you"),
        "a refused address is not the account's"
    );
    let saved = c
        .submit(
            "/account",
            "/account/email",
            &[("email", "crown@example.org")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    let page = c.get("/account").await;
    assert!(
        page.has("A link to confirm it is on its way"),
        "{}",
        page.body
    );
    assert!(page.has("waiting for you to follow the link"));
    let user = db.user_by_username("cap0-card").await.unwrap();
    assert_eq!(db.contact(user.id).await.unwrap().verified(), None);
    let pass = worker(&db, &smtp).pass().await.unwrap();
    assert_eq!(pass.sent, 1);
    let mail = smtp.to("crown@example.org");
    assert_eq!(mail.len(), 1);
    assert!(mail[0].html.contains("Confirm this address"));
    let link = mail[0].link();
    let verified = c.get(&link).await;
    assert_eq!(verified.status, StatusCode::OK);
    assert!(verified.has("crown@example.org is confirmed"));
    assert_eq!(
        db.contact(user.id).await.unwrap().verified(),
        Some("crown@example.org")
    );
    // A second account may not take the same address, whatever its case;
    // nor learn that it is taken (issue 44): the answer is as for a free
    // address, and no link goes to the owner for someone else's claim.
    let mut away = client(&db, "away").await;
    let taken = away
        .submit(
            "/account",
            "/account/email",
            &[("email", "Crown@Example.org")],
        )
        .await;
    assert_eq!(taken.status, StatusCode::SEE_OTHER, "{}", taken.body);
    worker(&db, &smtp).pass().await.unwrap();
    assert_eq!(smtp.to("Crown@Example.org").len(), 0);
    assert_eq!(smtp.to("crown@example.org").len(), 1);
    assert_eq!(
        db.contact(user.id).await.unwrap().verified(),
        Some("crown@example.org"),
        "the confirmed owner keeps it"
    );
}

async fn the_other_captain_is_emailed_a_link_to_confirm_after_a_submit(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let m: Match = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    confirmed(&db, &smtp, "cap1-card", "anchor@example.org").await;
    confirmed(&db, &smtp, "cap2-card", "bell@example.org").await;
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 7);
    let entered = submit_card(&mut home, &m, &fields, "submit").await;
    assert_eq!(entered.status, StatusCode::SEE_OTHER, "{}", entered.body);
    let pass = worker(&db, &smtp).pass().await.unwrap();
    assert!(pass.events >= 1, "{pass:?}");
    let to_away: Vec<Received> = smtp
        .to("anchor@example.org")
        .into_iter()
        .filter(|r| r.subject.starts_with("Please confirm"))
        .collect();
    assert_eq!(to_away.len(), 1, "{:?}", smtp.received());
    let message = &to_away[0];
    assert_eq!(
        message.subject,
        "Please confirm the result of Crown v Anchor"
    );
    assert_eq!(message.to_name, "cap1-card");
    assert!(
        message.text.contains("why it was sent") || message.text.contains("You get this because")
    );
    assert!(
        message
            .html
            .contains("<a href=\"http://127.0.0.1:3000/leagues/card/matches/")
    );
    // Neither the captain who submitted nor the third team is told.
    for quiet in ["crown@example.org", "bell@example.org"] {
        assert!(
            smtp.to(quiet)
                .iter()
                .all(|r| !r.subject.starts_with("Please confirm")),
            "{quiet} was told"
        );
    }
    // The link opens the confirm page: at sign-in first, then signed in.
    let link = message.link();
    assert_eq!(link, m.path("/history"));
    let mut stranger = Client::new(&db).await;
    let at_sign_in = stranger.get(&link).await;
    assert_eq!(at_sign_in.status, StatusCode::SEE_OTHER);
    assert!(
        at_sign_in
            .location
            .as_deref()
            .unwrap()
            .starts_with("/sign-in?next=")
    );
    let mut away = client(&db, "away").await;
    let page = away.get(&link).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("/confirm"), "{}", page.body);
    let version = shown(&page);
    let done = away
        .post(
            &m.path("/confirm"),
            &[("csrf", &page.csrf()), ("version", &version)],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    // A second pass sends nothing again.
    let again = worker(&db, &smtp).pass().await.unwrap();
    assert_eq!(again.sent, 0, "{again:?}");
}

async fn a_password_is_reset_by_email_end_to_end(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    let mut c = Client::new(&db).await;
    let known = c
        .submit(
            "/password/forgot",
            "/password/forgot",
            &[("email", "crown@example.org")],
        )
        .await;
    let unknown = c
        .submit(
            "/password/forgot",
            "/password/forgot",
            &[("email", "nobody@example.org")],
        )
        .await;
    assert_eq!(known.status, StatusCode::OK);
    // The same answer whether or not the address is known.
    assert_eq!(
        known.body.replace("crown@example.org", "X"),
        unknown.body.replace("nobody@example.org", "X")
    );
    worker(&db, &smtp).pass().await.unwrap();
    assert!(smtp.to("nobody@example.org").is_empty());
    let reset = smtp
        .to("crown@example.org")
        .into_iter()
        .find(|m| m.subject == "Reset your Boneyard password")
        .expect("the reset message");
    let link = reset.link();
    let form = c.get(&link).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.has("cap0-card"));
    let short = c
        .post(
            &link,
            &[
                ("csrf", &form.csrf()),
                ("password", "short"),
                ("confirm", "short"),
            ],
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
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
    let account = c.get("/account").await;
    assert!(
        account.has("Your new password is saved"),
        "{}",
        account.body
    );
    // The new password signs in; the old one does not; the link is spent.
    let mut fresh = Client::new(&db).await;
    fresh.sign_in("cap0-card", new_password).await;
    assert_eq!(fresh.get("/account").await.status, StatusCode::OK);
    let mut old = Client::new(&db).await;
    let page = old.get("/sign-in").await;
    let refused = old
        .post(
            "/sign-in",
            &[
                ("csrf", &page.csrf()),
                ("username", "cap0-card"),
                ("password", PASSWORD),
                ("next", "/"),
            ],
        )
        .await;
    assert_ne!(refused.status, StatusCode::SEE_OTHER);
    assert_eq!(c.get(&link).await.status, StatusCode::NOT_FOUND);
}

async fn a_sign_in_link_works_once(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let _m = setup(&db).await;
    confirmed(&db, &smtp, "cap1-card", "anchor@example.org").await;
    let mut c = Client::new(&db).await;
    let asked = c
        .submit(
            "/sign-in/email",
            "/sign-in/email",
            &[("email", "anchor@example.org")],
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK);
    worker(&db, &smtp).pass().await.unwrap();
    let link = smtp
        .to("anchor@example.org")
        .into_iter()
        .find(|m| m.subject == "Your Boneyard sign-in link")
        .expect("the sign-in link")
        .link();
    // Opening the link spends nothing (a mail scanner may open it).
    let page = c.get(&link).await;
    assert_eq!(page.status, StatusCode::OK);
    let page = c.get(&link).await;
    assert!(page.has("Sign in as cap1-card"));
    let signed_in = c
        .post(&link, &[("csrf", &page.csrf()), ("next", "/account")])
        .await;
    assert_eq!(signed_in.status, StatusCode::SEE_OTHER);
    assert_eq!(signed_in.location.as_deref(), Some("/account"));
    let account = c.get("/account").await;
    assert!(
        account.has("You are signed in as cap1-card"),
        "{}",
        account.body
    );
    // Used twice: refused, and the second browser is not signed in.
    let mut other = Client::new(&db).await;
    let again = other.get(&link).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let token = other.get("/sign-in").await.csrf();
    let second = other
        .post(&link, &[("csrf", &token), ("next", "/account")])
        .await;
    assert_eq!(second.status, StatusCode::NOT_FOUND);
    assert_eq!(other.get("/account").await.status, StatusCode::SEE_OTHER);
}

async fn a_postponement_reaches_both_captains(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let m = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    confirmed(&db, &smtp, "cap1-card", "anchor@example.org").await;
    confirmed(&db, &smtp, "cap2-card", "bell@example.org").await;
    let mut sec = client(&db, "sec").await;
    let path = format!("/leagues/{}/fixtures/{}/postpone", m.short, m.fixture);
    let done = sec
        .submit(
            &path,
            &path,
            &[("date", ""), ("time", ""), ("status", "postponed")],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    worker(&db, &smtp).pass().await.unwrap();
    for to in ["crown@example.org", "anchor@example.org"] {
        let told: Vec<_> = smtp
            .to(to)
            .into_iter()
            .filter(|r| r.subject == "Crown v Anchor is postponed")
            .collect();
        assert_eq!(told.len(), 1, "{to}: {:?}", smtp.received());
        assert!(told[0].text.contains("untick it on your account page"));
    }
    assert!(
        smtp.to("bell@example.org")
            .iter()
            .all(|r| !r.subject.contains("postponed")),
        "the third team is not told"
    );
}

async fn a_reminder_is_sent_once_however_many_passes(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let played = chrono::Utc::now() - chrono::Duration::days(2);
    let built = LeagueBuilder::new("late")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .starting_at(played)
        .build(&db)
        .await;
    confirmed(&db, &smtp, &built.teams[0].captain, "crown@example.org").await;
    confirmed(&db, &smtp, &built.teams[1].captain, "anchor@example.org").await;
    let w = worker(&db, &smtp);
    for _ in 0..3 {
        w.pass().await.unwrap();
    }
    for to in ["crown@example.org", "anchor@example.org"] {
        let reminders: Vec<_> = smtp
            .to(to)
            .into_iter()
            .filter(|r| r.subject.starts_with("No result yet"))
            .collect();
        assert_eq!(reminders.len(), 1, "{to}: {:?}", smtp.received());
        assert!(reminders[0].link().ends_with("/card"));
    }
    // The secretary's console says who was reminded.
    let mut sec = Client::new(&db).await;
    sec.sign_in(&built.secretary, PASSWORD).await;
    let page = sec.get("/leagues/late/console/mail").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("No result yet for Crown v Anchor"));
    assert!(page.has("anchor@example.org"));
}

/// A closed season is kept as it is: its captains can no longer enter a
/// result, so they are not asked to (the console's to-do list and the
/// late-result rule already left closed seasons out).
async fn no_reminder_goes_out_for_a_match_of_a_closed_season(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let played = chrono::Utc::now() - chrono::Duration::days(2);
    let open = LeagueBuilder::new("open")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .starting_at(played)
        .build(&db)
        .await;
    let closed = LeagueBuilder::new("closed")
        .teams(&["Bell", "Swan"])
        .players(4)
        .starting_at(played)
        .build(&db)
        .await;
    db.close_season(closed.id, closed.season).await.unwrap();
    confirmed(&db, &smtp, &open.teams[0].captain, "crown@example.org").await;
    confirmed(&db, &smtp, &closed.teams[0].captain, "bell@example.org").await;
    worker(&db, &smtp).pass().await.unwrap();
    let reminded = |to: &str| {
        smtp.to(to)
            .iter()
            .filter(|r| r.subject.starts_with("No result yet"))
            .count()
    };
    assert_eq!(reminded("crown@example.org"), 1, "{:?}", smtp.received());
    assert_eq!(reminded("bell@example.org"), 0, "{:?}", smtp.received());
}

fn queued(n: usize) -> Vec<NewMail> {
    (0..n)
        .map(|i| NewMail {
            league_id: None,
            once_key: None,
            topic: "test".into(),
            to_address: format!("p{i}@example.org"),
            to_name: format!("Player {i}\r\nBcc: everyone@example.org"),
            subject: format!("Message {i}"),
            text_body: "Hello".into(),
            html_body: "<p>Hello</p>".into(),
            unsubscribe_url: None,
        })
        .collect()
}

async fn messages_wait_while_the_smtp_server_is_down_and_go_once_it_is_back(db: Db) {
    let Some(mut smtp) = SmtpServer::start().await else {
        return;
    };
    db.queue_mail(&queued(3)).await.unwrap();
    smtp.stop();
    let w = worker(&db, &smtp);
    let down = w.pass().await.unwrap();
    assert_eq!((down.sent, down.retried), (0, 3), "{down:?}");
    let waiting = db.recent_mail(None, 10).await.unwrap();
    assert!(
        waiting
            .iter()
            .all(|m| m.status == MailStatus::Waiting && m.last_error.is_some())
    );
    smtp.resume().await;
    let up = w.pass().await.unwrap();
    assert_eq!(up.sent, 3, "{up:?}");
    w.pass().await.unwrap();
    let got = smtp.received();
    assert_eq!(got.len(), 3, "each once: {got:?}");
    // A name with a line break added no header.
    for m in &got {
        assert!(
            !m.header_names.iter().any(|h| h.eq_ignore_ascii_case("bcc")),
            "{m:?}"
        );
    }
    let sent = db.recent_mail(None, 10).await.unwrap();
    assert!(
        sent.iter()
            .all(|m| m.status == MailStatus::Sent && m.attempts == 2)
    );
}

async fn two_workers_never_send_one_message_twice(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    db.queue_mail(&queued(40)).await.unwrap();
    let (a, b) = (worker(&db, &smtp), worker(&db, &smtp));
    let (ra, rb) = tokio::join!(
        tokio::spawn(async move { a.pass().await.unwrap() }),
        tokio::spawn(async move { b.pass().await.unwrap() })
    );
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.sent + rb.sent, 40, "{ra:?} {rb:?}");
    let got = smtp.received();
    let mut subjects: Vec<&str> = got.iter().map(|m| m.subject.as_str()).collect();
    subjects.sort_unstable();
    subjects.dedup();
    assert_eq!((got.len(), subjects.len()), (40, 40));
}

async fn an_operation_the_workflow_refuses_notifies_nobody(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let m = setup(&db).await;
    confirmed(&db, &smtp, "cap0-card", "crown@example.org").await;
    confirmed(&db, &smtp, "cap1-card", "anchor@example.org").await;
    confirmed(&db, &smtp, "sec-card", "sec@example.org").await;
    let before = smtp.received().len();
    let mut home = client(&db, "home").await;
    let (fields, _) = simulated_card(&m, 3);
    submit_card(&mut home, &m, &fields, "submit").await;
    worker(&db, &smtp).pass().await.unwrap();
    let after_submit = smtp.received().len();
    assert_eq!(
        after_submit,
        before + 1,
        "the submit told the other captain"
    );
    // The third team's captain may not dispute; the home captain may not
    // confirm their own result; a stale version is refused.
    let mut away = client(&db, "away").await;
    let version = shown(&away.get(&m.path("/history")).await);
    let mut other = client(&db, "other").await;
    let page = other.get("/account").await;
    let refused = other
        .post(
            &m.path("/dispute"),
            &[
                ("csrf", &page.csrf()),
                ("version", &version),
                ("note", "no"),
            ],
        )
        .await;
    assert_ne!(refused.status, StatusCode::SEE_OTHER);
    let page = home.get(&m.path("/history")).await;
    let own = home
        .post(
            &m.path("/confirm"),
            &[("csrf", &page.csrf()), ("version", &version)],
        )
        .await;
    assert_ne!(own.status, StatusCode::SEE_OTHER);
    let page = away.get(&m.path("/history")).await;
    let stale = away
        .post(
            &m.path("/dispute"),
            &[("csrf", &page.csrf()), ("version", "99"), ("note", "no")],
        )
        .await;
    assert_ne!(stale.status, StatusCode::SEE_OTHER);
    let pass = worker(&db, &smtp).pass().await.unwrap();
    assert_eq!((pass.events, pass.sent), (0, 0), "{pass:?}");
    assert_eq!(smtp.received().len(), after_submit);
}

async fn without_an_smtp_server_messages_are_kept_for_the_administrator(db: Db) {
    db.queue_mail(&queued(2)).await.unwrap();
    let w = Worker::new(db.clone(), Mailer::Keep, MailConfig::new(PUBLIC));
    let pass = w.pass().await.unwrap();
    assert_eq!(pass.kept, 2);
    let mut admin = crate::harness::client::admin(&db).await;
    let page = admin.get("/admin/mail").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("No mail server is configured"), "{}", page.body);
    assert!(page.has("Message 1"));
    // A captain may not read it.
    let _m = setup(&db).await;
    let mut home = client(&db, "home").await;
    assert_eq!(home.get("/admin/mail").await.status, StatusCode::FORBIDDEN);
}

async fn absolute_links_follow_the_public_url_not_the_host_header(db: Db) {
    let built = LeagueBuilder::new("pub")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .build(&db)
        .await;
    let mut plain = Client::new(&db).await;
    let first = plain
        .get(&format!("/leagues/pub/teams/{}", built.teams[0].id))
        .await;
    // The team's address carries its name.
    let team = first
        .location
        .unwrap_or_else(|| format!("/leagues/pub/teams/{}", built.teams[0].id));
    let mut plain = Client::new(&db).await;
    let by_host = plain.get_with(&team, &[("host", "evil.example")]).await;
    assert!(
        by_host.has("webcal://evil.example/"),
        "without --public-url the request's host is used"
    );
    let mut public = Client::with_public_url(&db, "https://league.example.org").await;
    let page = public.get_with(&team, &[("host", "evil.example")]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.has("webcal://league.example.org/leagues/pub/"),
        "{}",
        page.body
    );
    assert!(!page.has("evil.example"));
}

async fn a_pasted_roster_with_addresses_emails_each_new_player_an_invitation(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let built = LeagueBuilder::new("card")
        .name("Card League")
        .teams(&["Crown", "Anchor"])
        .players(2)
        .build(&db)
        .await;
    let mut sec = client(&db, "sec-card").await;
    let roster = format!(
        "/leagues/card/console/teams/{}/seasons/{}",
        built.teams[0].id, built.season
    );
    let paste = format!("{roster}/roster");
    // A bad address refuses the list, beside its line; nothing is queued.
    let bad = sec
        .submit(
            &roster,
            &paste,
            &[("names", "Zoe New, zoe@example"), ("action", "save")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(bad.has("not an email address"), "{}", bad.body);
    let names = format!(
        "Zoe New, zoe@example.org\nYan Other <yan@example.org>\nXi Plain\n{}\tcrown0@example.org\n",
        built.teams[0].players[0].1
    );
    let checked = sec
        .submit(&roster, &paste, &[("names", &names), ("action", "check")])
        .await;
    assert!(
        checked.has("new player: added and registered; invitation emailed to zoe@example.org"),
        "{}",
        checked.body
    );
    let saved = sec
        .submit(&roster, &paste, &[("names", &names), ("action", "save")])
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let page = sec.get(saved.location.as_deref().unwrap()).await;
    assert!(
        page.has("Invitations emailed to 3 players."),
        "{}",
        page.body
    );
    worker(&db, &smtp).pass().await.unwrap();
    assert!(smtp.to("xi@example.org").is_empty());
    let zoe = smtp.to("zoe@example.org");
    assert_eq!(zoe.len(), 1, "one invitation each");
    assert_eq!(zoe[0].to_name, "Zoe New");
    assert!(zoe[0].subject.contains("Zoe New, a player in Card League"));
    assert_eq!(smtp.to("yan@example.org").len(), 1);
    assert_eq!(smtp.to("crown0@example.org").len(), 1);
    // Zoe follows her link, keeps the suggested username, and her account
    // has the address, confirmed by her opening it.
    let link = zoe[0].link();
    let mut c = Client::new(&db).await;
    let form = c.get(&link).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.has("value=\"zoe.new\""), "{}", form.body);
    let made = c
        .post(
            &link,
            &[
                ("csrf", &form.csrf()),
                ("username", "zoe.new"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let user = db.user_by_username("zoe.new").await.unwrap();
    assert_eq!(
        db.contact(user.id).await.unwrap().verified(),
        Some("zoe@example.org")
    );
    let zoe_player = db
        .players(built.id)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == "Zoe New")
        .unwrap();
    let roles = db.league_roles(built.id).await.unwrap();
    assert!(
        roles
            .iter()
            .any(|r| r.user_id == user.id && r.player_id == Some(zoe_player.id))
    );
    // Pasted again, nobody with an account is invited twice.
    let again = sec
        .submit(
            &roster,
            &paste,
            &[("names", "Zoe New, zoe@example.org"), ("action", "save")],
        )
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    worker(&db, &smtp).pass().await.unwrap();
    assert_eq!(smtp.to("zoe@example.org").len(), 1);
}

async fn an_invitation_given_an_address_is_emailed_and_shown(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let built = LeagueBuilder::new("card")
        .name("Card League")
        .teams(&["Crown", "Anchor"])
        .players(2)
        .build(&db)
        .await;
    let mut sec = client(&db, "sec-card").await;
    let users = "/leagues/card/console/users";
    let team = format!("{}-{}", built.season, built.teams[1].id);
    let bad = sec
        .submit(
            users,
            users,
            &[
                ("username", "new.captain"),
                ("email", "new captain"),
                ("role", "captain"),
                ("team", &team),
            ],
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.has("An email address has an @"), "{}", bad.body);
    let done = sec
        .submit(
            users,
            users,
            &[
                ("username", "new.captain"),
                ("email", "anchor@example.org"),
                ("role", "captain"),
                ("team", &team),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let page = sec.get(done.location.as_deref().unwrap()).await;
    assert!(page.has("emailed to anchor@example.org"), "{}", page.body);
    // The secretary still sees the link, and it is the one emailed.
    worker(&db, &smtp).pass().await.unwrap();
    let mail = smtp.to("anchor@example.org");
    assert_eq!(mail.len(), 1);
    assert!(
        mail[0].subject.contains("captain of"),
        "{}",
        mail[0].subject
    );
    assert!(mail[0].subject.contains("Anchor"), "{}", mail[0].subject);
    let link = mail[0].link();
    assert!(page.has(&link), "{}", page.body);
    let opened = Client::new(&db).await.get(&link).await;
    assert_eq!(opened.status, StatusCode::OK);
}

/// Issue 39: captains marked in a pasted spreadsheet are named and their
/// invitations emailed; every invitation stays listed (users page and its
/// team's page) with its link until it is taken up; resending sends the
/// same link again, revoking stops it, taking it up takes it off the list.
async fn a_season_set_up_in_one_paste_invites_its_captains_and_keeps_each_invitation_listed(
    db: Db,
) {
    use boneyard::addresses::at_short;
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let built = LeagueBuilder::new("card")
        .name("Card League")
        .teams(&["Crown", "Anchor"])
        .players(2)
        .build(&db)
        .await;
    let console = at_short("card").console();
    let mut sec = client(&db, "sec-card").await;
    let form = console.season(built.season).import();
    let rows = "Team\tPlayer\tEmail\tMobile\tCaptain\tVenue\n\
                Swan\tEve New\teve@example.org\t07700 900001\tyes\tThe Swan\n\
                Swan\tFay New\t\t07700 900002\t\t\n\
                Lamb\tGus New\tgus@example.org\t\tyes\tThe Lamb\n\
                Lamb\tHal New\thal@example.org\t\t\t\n\
                Lamb\tIvy New\t\t\tx\t\n";
    let checked = sec
        .submit(&form, &form, &[("csv", rows), ("action", "check")])
        .await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
    assert!(
        checked.has("2 new venues, 0 new divisions, 2 new teams, 2 teams entered in a division, 5 new players, 5 registrations, 3 captains named, 3 email addresses; 2 phone numbers read and not kept."),
        "{}",
        checked.body
    );
    assert!(
        db.teams(built.id).await.unwrap().len() == 2,
        "nothing saved yet"
    );
    let saved = sec
        .submit(&form, &form, &[("csv", rows), ("action", "save")])
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let done = sec.get(saved.location.as_deref().unwrap()).await;
    assert!(
        done.has("3 captains named. Invitations: 2 emailed to captains, 1 emailed to player, 1 to copy and send yourself (no address); each stays listed"),
        "{}",
        done.body
    );
    worker(&db, &smtp).pass().await.unwrap();
    let eve = smtp.to("eve@example.org");
    assert_eq!(eve.len(), 1);
    assert!(
        eve[0].subject.contains("captain of Swan in Card League"),
        "{}",
        eve[0].subject
    );
    assert!(
        smtp.to("gus@example.org")[0]
            .subject
            .contains("captain of Lamb")
    );
    assert!(
        smtp.to("hal@example.org")[0]
            .subject
            .contains("Hal New, a player")
    );
    assert_eq!(smtp.received().len(), 3);
    // Each waits on the users page with its link, the one emailed.
    let waiting = db.waiting_invitations(built.id).await.unwrap();
    let id = |name: &str| {
        waiting
            .iter()
            .find(|w| w.player_name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} invited"))
            .id
    };
    assert_eq!(waiting.len(), 4);
    let users = sec.get(&console.users()).await;
    for name in ["Eve New", "Gus New", "Hal New", "Ivy New"] {
        assert!(
            users.has(&format!("id=\"invitation-{}\"", id(name))),
            "{name}"
        );
    }
    let eve_link = eve[0].link();
    assert!(users.has(&eve_link), "the link emailed is there to copy");
    assert!(users.has("Resend<span class=\"visually-hidden\">: the invitation of Eve New"));
    assert!(users.has("Revoke<span class=\"visually-hidden\">: the invitation of Eve New"));
    // And on its team's page: Lamb's three, not Swan's.
    let lamb = db
        .teams(built.id)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Lamb")
        .unwrap();
    let team_page = sec
        .get(&console.team(lamb.id).season(built.season).to_string())
        .await;
    for (name, listed) in [
        ("Gus New", true),
        ("Hal New", true),
        ("Ivy New", true),
        ("Eve New", false),
    ] {
        assert_eq!(
            team_page.has(&format!("id=\"invitation-{}\"", id(name))),
            listed,
            "{name} on Lamb's page"
        );
    }
    // Resent: a new message, with the same link, good for longer.
    let resend = console.invitation(id("Eve New")).resend();
    let page = sec
        .submit(&console.users(), &resend, &[("back", "users")])
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    worker(&db, &smtp).pass().await.unwrap();
    let eve = smtp.to("eve@example.org");
    assert_eq!(eve.len(), 2, "resending sends a new message");
    assert_eq!(eve[1].link(), eve_link);
    // Ivy has no address: resending asks for one, then sends it there.
    let ivy = console.invitation(id("Ivy New"));
    let page = sec
        .submit(&console.users(), &ivy.resend(), &[("back", "users")])
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(
        page.has("Give the address to email the link to"),
        "{}",
        page.body
    );
    let page = sec
        .submit(
            &ivy.to_string(),
            &ivy.resend(),
            &[("email", "ivy@example.org"), ("back", "users")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    worker(&db, &smtp).pass().await.unwrap();
    assert!(
        smtp.to("ivy@example.org")[0]
            .subject
            .contains("captain of Lamb")
    );
    // Revoked: the link stops working and leaves the lists.
    let gus_link = smtp.to("gus@example.org")[0].link();
    let team = format!("team-{}-{}", lamb.id, built.season);
    let page = sec
        .submit(
            &console.users(),
            &console.invitation(id("Gus New")).revoke(),
            &[("back", &team)],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(
        page.location.as_deref(),
        Some(
            console
                .team(lamb.id)
                .season(built.season)
                .to_string()
                .as_str()
        )
    );
    let opened = Client::new(&db).await.get(&gus_link).await;
    assert_eq!(opened.status, StatusCode::GONE, "{}", opened.body);
    let mut gus = Client::new(&db).await;
    let form_page = gus.get(&eve_link).await;
    let refused = gus
        .post(
            &gus_link,
            &[
                ("csrf", &form_page.csrf()),
                ("username", "gus.new"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(refused.status, StatusCode::GONE, "{}", refused.body);
    assert!(db.user_by_username("gus.new").await.is_err());
    // Taken up: Eve's account is the captain's, and her invitation is off
    // the list.
    let mut c = Client::new(&db).await;
    let form_page = c.get(&eve_link).await;
    let made = c
        .post(
            &eve_link,
            &[
                ("csrf", &form_page.csrf()),
                ("username", "eve.new"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let users = sec.get(&console.users()).await;
    assert!(!users.has(&format!("id=\"invitation-{}\"", id("Eve New"))));
    assert!(!users.has(&format!("id=\"invitation-{}\"", id("Gus New"))));
    assert!(users.has(&format!("id=\"invitation-{}\"", id("Hal New"))));
    let eve_user = db.user_by_username("eve.new").await.unwrap();
    let swan = db
        .teams(built.id)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Swan")
        .unwrap();
    assert!(db.league_roles(built.id).await.unwrap().iter().any(|r| {
        r.user_id == eve_user.id && r.kind == RoleKind::Captain && r.team_id == Some(swan.id)
    }));
    // Pressed again, a spent invitation's buttons do nothing and say so.
    let page = sec
        .submit(&console.users(), &resend, &[("back", "users")])
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert!(
        sec.get(&console.users())
            .await
            .has("taken up or revoked already")
    );
    worker(&db, &smtp).pass().await.unwrap();
    assert_eq!(smtp.to("eve@example.org").len(), 2);
}

async fn the_round_up_goes_to_confirmed_subscribers_once_and_stops_in_one_click(db: Db) {
    use chrono::{Datelike, Days, TimeZone, Utc};
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let today = Utc::now().date_naive();
    let this_monday = today - Days::new(u64::from(today.weekday().num_days_from_monday()));
    let last_wednesday = this_monday - Days::new(5);
    let kick_off = Utc.from_utc_datetime(&last_wednesday.and_hms_opt(19, 30, 0).unwrap());
    LeagueBuilder::new("card")
        .name("Card League")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .played(1)
        .starting_at(kick_off)
        .build(&db)
        .await;
    let tuesday =
        Utc.from_utc_datetime(&(this_monday + Days::new(1)).and_hms_opt(12, 0, 0).unwrap());
    let state = boneyard::web::AppState::new(db.clone());
    let form = "/leagues/card/round-up/subscribe";
    let mut c = Client::new(&db).await;
    let round_up = c.get("/leagues/card/round-up").await;
    let week = c.get(round_up.location.as_deref().unwrap()).await;
    assert!(week.has(form), "the round-up links to its list");
    let bad = c.submit(form, form, &[("email", "fan at example")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.has("An email address has an @"));
    let asked = c.submit(form, form, &[("email", "fan@example.org")]).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert!(
        asked.has("a link to confirm it is on its way"),
        "{}",
        asked.body
    );
    // Asked twice in a row: one confirmation.
    c.submit(form, form, &[("email", "FAN@example.org")]).await;
    // Unconfirmed, nothing but the confirmation goes.
    assert_eq!(
        boneyard::web::queue_round_ups(&state, tuesday)
            .await
            .unwrap(),
        0
    );
    worker(&db, &smtp).pass().await.unwrap();
    let confirmation = smtp.to("fan@example.org");
    assert_eq!(confirmation.len(), 1, "{confirmation:?}");
    assert!(confirmation[0].subject.contains("Confirm"));
    let link = confirmation[0].link();
    // Opening the link confirms nothing (a mail scanner opens links).
    let button = c.get(&link).await;
    assert_eq!(button.status, StatusCode::OK);
    assert!(button.has("fan@example.org"));
    assert_eq!(
        boneyard::web::queue_round_ups(&state, tuesday)
            .await
            .unwrap(),
        0
    );
    let confirmed = c.post(&link, &[("csrf", &button.csrf())]).await;
    assert!(
        confirmed.has("Confirmed: fan@example.org"),
        "{}",
        confirmed.body
    );
    // Monday before nine: not yet; after: once, however many checks.
    let early = Utc.from_utc_datetime(&this_monday.and_hms_opt(7, 0, 0).unwrap());
    assert_eq!(
        boneyard::web::queue_round_ups(&state, early).await.unwrap(),
        0
    );
    assert_eq!(
        boneyard::web::queue_round_ups(&state, tuesday)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        boneyard::web::queue_round_ups(&state, tuesday)
            .await
            .unwrap(),
        0
    );
    worker(&db, &smtp).pass().await.unwrap();
    let all = smtp.to("fan@example.org");
    let weekly: Vec<&Received> = all
        .iter()
        .filter(|m| m.subject.contains("round-up:"))
        .collect();
    assert_eq!(weekly.len(), 1, "{all:?}");
    let weekly = weekly[0];
    assert!(
        weekly.subject.starts_with("Card League round-up: Mon"),
        "{}",
        weekly.subject
    );
    assert!(weekly.text.contains("RESULTS"), "{}", weekly.text);
    assert!(weekly.text.contains("Crown"), "{}", weekly.text);
    assert!(weekly.html.contains("Crown"));
    assert!(
        weekly
            .header_names
            .iter()
            .any(|h| h.eq_ignore_ascii_case("List-Unsubscribe-Post")),
        "{:?}",
        weekly.header_names
    );
    let stop = weekly
        .unsubscribe
        .clone()
        .expect("a List-Unsubscribe header");
    let stop = stop.strip_prefix(PUBLIC).expect("on this site").to_owned();
    assert!(
        weekly.text.contains(&stop),
        "the way out is in the text too"
    );
    // A mail program's one-click unsubscribe: a POST, no session, no token.
    let mut mail_program = Client::new(&db).await;
    let gone = mail_program
        .post(&stop, &[("List-Unsubscribe", "One-Click")])
        .await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    assert!(gone.has("fan@example.org is off the Card League round-up list"));
    assert!(db.leagues_with_subscribers().await.unwrap().is_empty());
}

/// Three fixtures of Crown v Anchor a week apart: 17 days ago (played),
/// 10 days ago (no result) and 3 days ago (no result), and a league rule
/// proposing its `late-card` kind (2 league points) after 7 days, set on
/// the penalty kinds page. The secretary's client comes back.
async fn late_league(db: &Db) -> (crate::harness::Built, Client, PenaltyKindId) {
    let built = LeagueBuilder::new("late")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .fixtures(3)
        .played(1)
        .starting_at(chrono::Utc::now() - chrono::Duration::days(17))
        .build(db)
        .await;
    let mut sec = Client::new(db).await;
    sec.sign_in(&built.secretary, PASSWORD).await;
    let kinds = "/leagues/late/console/penalty-kinds";
    let added = sec
        .submit(
            kinds,
            kinds,
            &[
                ("code", "late-card"),
                ("name", "Result card late"),
                ("effect", "league_points"),
                ("amount", "2"),
            ],
        )
        .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.body);
    let kind = db.penalty_kinds(built.id).await.unwrap()[0].id;
    let rule = format!("{kinds}/late-results");
    let kind_text = kind.to_string();
    let set = sec
        .submit(
            kinds,
            &rule,
            &[("late_days", "7"), ("late_kind", &kind_text)],
        )
        .await;
    assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.body);
    (built, sec, kind)
}

async fn a_late_result_is_proposed_to_the_secretary_once_by_email(db: Db) {
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let (built, _, _) = late_league(&db).await;
    confirmed(&db, &smtp, &built.secretary, "sec@example.org").await;
    confirmed(&db, &smtp, &built.teams[0].captain, "crown@example.org").await;
    let w = worker(&db, &smtp);
    for _ in 0..3 {
        w.pass().await.unwrap();
    }
    let proposals: Vec<_> = smtp
        .received()
        .into_iter()
        .filter(|m| m.subject.starts_with("Late result"))
        .collect();
    assert_eq!(proposals.len(), 1, "{:?}", smtp.received());
    let p = &proposals[0];
    assert_eq!(p.to, "sec@example.org", "the secretary, not the captain");
    assert_eq!(p.subject, "Late result: Crown v Anchor");
    assert!(p.text.contains("no result for 10 days"), "{}", p.text);
    assert!(p.text.contains("Result card late"), "{}", p.text);
    assert!(p.text.contains("untick it on your account page"));
    assert_eq!(p.link(), "/leagues/late/console/approvals#late");
    // The link opens the proposal for the secretary.
    let mut sec = Client::new(&db).await;
    sec.sign_in(&built.secretary, PASSWORD).await;
    let page = sec.get("/leagues/late/console/approvals").await;
    assert!(
        page.has("Result card late <span class=\"muted\">(Crown)</span>"),
        "{}",
        page.body
    );
}

async fn a_late_results_penalty_is_applied_in_one_click_once(db: Db) {
    let (built, mut sec, kind) = late_league(&db).await;
    // The rule's form says what is wrong, beside the field, and keeps it.
    let kinds = "/leagues/late/console/penalty-kinds";
    let rule = format!("{kinds}/late-results");
    let bad = sec
        .submit(kinds, &rule, &[("late_days", "0"), ("late_kind", "")])
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert_eq!(
        crate::harness::forms::error_beside(&bad, "late_days"),
        "Give a whole number from 1 to 366."
    );
    assert_eq!(
        db.late_result_rule(built.id).await.unwrap().map(|r| r.days),
        Some(7),
        "a refused change keeps the rule"
    );
    let saved = sec.get(kinds).await;
    assert_eq!(crate::harness::forms::value_of(&saved, "late_days"), "7");
    let approvals = "/leagues/late/console/approvals";
    let page = sec.get(approvals).await;
    assert_eq!(page.status, StatusCode::OK);
    // Only the fixture 10 days late: the played one and the one 3 days
    // ago are not proposed.
    assert!(page.has("1 late result, oldest first"), "{}", page.body);
    let late = built.fixtures[1];
    let apply = format!("/leagues/late/console/late-results/{late}/apply");
    assert!(page.has(&apply), "{}", page.body);
    // A captain cannot apply it.
    let mut captain = Client::new(&db).await;
    captain.sign_in(&built.teams[0].captain, PASSWORD).await;
    let refused = captain
        .submit("/", &apply, &[("kind", &kind.to_string())])
        .await;
    assert!(
        refused.status.is_client_error(),
        "{}: {}",
        refused.status,
        refused.body
    );
    assert!(
        db.penalties(built.id, built.season)
            .await
            .unwrap()
            .is_empty()
    );
    let done = sec
        .submit(approvals, &apply, &[("kind", &kind.to_string())])
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let shown = sec.get(approvals).await;
    assert!(
        shown.has("Penalty recorded: “Result card late” against Crown for Crown v Anchor, 10 days without a result."),
        "{}",
        shown.body
    );
    assert!(shown.has("No fixture is late without its penalty."));
    let given = db.penalties(built.id, built.season).await.unwrap();
    assert_eq!(given.len(), 1);
    let p = &given[0];
    assert_eq!(
        (p.fixture_id, p.team_id, p.player_id, p.kind_id, p.amount),
        (Some(late), Some(built.teams[0].id), None, kind, 2)
    );
    assert!(p.recorded_by.is_some());
    let audited = db.audit_log(built.id, 50).await.unwrap();
    assert!(
        audited
            .iter()
            .any(|a| a.entity == "penalty" && a.entity_id == p.id.0 && a.action == "record"),
        "{audited:?}"
    );
    // The same click again (a second tab, a double tap): nothing more.
    let again = sec
        .post(
            &apply,
            &[("csrf", &shown.csrf()), ("kind", &kind.to_string())],
        )
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    let said = sec.get(approvals).await;
    assert!(said.has("Nothing recorded"), "{}", said.body);
    assert_eq!(db.penalties(built.id, built.season).await.unwrap().len(), 1);
    // The table counts it: Crown are 2 points down.
    let deductions = db.deduction_lines(built.id, built.season).await.unwrap();
    assert_eq!(
        deductions
            .iter()
            .map(|d| (d.team_id, d.amount))
            .collect::<Vec<_>>(),
        [(built.teams[0].id, 2)]
    );
}
