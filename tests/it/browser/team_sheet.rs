//! A captain's week on a 390 px phone (issue 42), taps counted: from the
//! home page to the team sheet in one tap, the squad asked by email (a
//! real SMTP server), a player answering from the emailed link without
//! signing in, the one who has not answered reminded in one tap (the
//! reminder reaches the SMTP server once), a line-up that breaks the
//! line-up rule and one naming an unregistered player refused with the
//! reason, the suggested line-up saved in one tap, and the pads opening
//! with the players set.

use std::time::{Duration, Instant};

use boneyard::addresses::at_short;
use boneyard::app::team_sheet;
use boneyard::db::{Db, Side};
use boneyard::league::match_format::MatchFormat;
use boneyard::league::team_sheet::LineUp;
use chrono::Utc;

use super::{Browser, PHONE, Server, TempDir, run};
use crate::harness::{LeagueBuilder, PASSWORD};
use crate::mail::SmtpServer;
use crate::web::team_sheet::player_account;

/// Waits until `address` has received a message whose subject starts
/// with `subject`; the texts of all such.
async fn mail_to(smtp: &SmtpServer, address: &str, subject: &str) -> Result<Vec<String>, String> {
    let start = Instant::now();
    loop {
        let got: Vec<String> = smtp
            .to(address)
            .into_iter()
            .filter(|m| m.subject.starts_with(subject))
            .map(|m| m.text)
            .collect();
        if !got.is_empty() {
            return Ok(got);
        }
        if start.elapsed() > Duration::from_secs(40) {
            return Err(format!("{address} has no message `{subject}...`"));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The answer link's path in a message's text.
fn answer_path(text: &str) -> Option<String> {
    let word = text.split_whitespace().find(|w| w.contains("/answer/"))?;
    Some(word[word.find("/leagues/")?..].to_owned())
}

/// Clicks `css` and waits until `#saved` or `#refused` says `want`.
async fn tap_then(b: &Browser, css: &str, result: &str, want: &str) -> Result<(), String> {
    b.click(css).await?;
    b.wait_text(result, want).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_captains_week_on_a_phone_from_answers_to_the_pads() {
    let name = "a_captains_week_on_a_phone_from_answers_to_the_pads";
    if !super::available(name) {
        return;
    }
    let Some(smtp) = SmtpServer::start().await else {
        return;
    };
    let dir = TempDir::new("team-sheet");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.unwrap();
    // Two singles and a pairs board; three players a team; in three days.
    let l = LeagueBuilder::new("week")
        .boards(MatchFormat::with_boards(2, 1, 1))
        .players(3)
        .starting_at(Utc::now() + chrono::Duration::days(3))
        .build(&db)
        .await;
    let hp = l.home_players();
    let hn = l.home_names();
    player_account(&db, &l, hp[0], "ann", "ann@example.org").await;
    player_account(&db, &l, hp[1], "bea", "bea@example.org").await;
    // The other side's line-up is in.
    let ap: Vec<i64> = l.away_players().iter().map(|p| p.0).collect();
    let away = LineUp {
        singles: vec![ap[0], ap[1]],
        pairs: vec![[ap[0], ap[1]]],
        substitutes: vec![ap[2]],
    };
    team_sheet::save_line_up(&db, l.id, l.fixture(), Side::Away, &away, None)
        .await
        .unwrap();
    // Each side sees the other's line-up as soon as it is set.
    boneyard::app::seasons::set_season_settings(
        &db,
        l.id,
        l.season,
        &boneyard::league::settings::SeasonSettings {
            line_up_shown: boneyard::league::team_sheet::LineUpShown::AtOnce,
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    db.close().await;
    let server = Server::start_with(&address, &["--smtp-url".into(), smtp.url()]);
    let at = at_short(&l.short).match_page(l.fixture());
    let sheet = at.team_sheet(Side::Home);
    let captain = l.teams[0].captain.clone();
    let stranger = l.away_players()[2].0;
    let (server, smtp, sheet, at) = (&server, &smtp, &sheet, &at);
    run(name, PHONE, |b| async move {
        let outcome = async {
            let mut taps = 0;
            // The captain, from the home page: the team sheet in one tap.
            b.sign_in(server, &captain, PASSWORD).await?;
            b.goto(&server.url("/")).await?;
            b.click(&format!("main a[href='{sheet}']")).await?;
            taps += 1;
            b.wait_text("h1", "Team sheet").await?;
            tap_then(&b, &format!("form[action='{}'] button", sheet.ask()), "#saved", "Asked 2 players").await?;
            taps += 1;
            let ann = mail_to(smtp, "ann@example.org", "Can you play").await?;
            let link = answer_path(&ann[0]).ok_or("no answer link in Ann's message")?;

            // Ann, not signed in, answers from the link.
            b.sign_out().await?;
            b.goto(&server.url(&link)).await?;
            b.wait_text("h1", &hn[0]).await?;
            b.click_named("main", "Can play").await?;
            b.wait_text("#saved", "Saved: Can play").await?;
            b.wait_text("header.site", "Sign in").await?;

            // The captain sees every answer and reminds the one who has not.
            b.sign_in(server, &captain, PASSWORD).await?;
            b.goto(&server.url(&sheet.to_string())).await?;
            b.wait_text("#counts", "1 can play, 0 maybe, 0 can't, 2 not answered").await?;
            tap_then(&b, "#remind", "#saved", "Reminder sent to 1 player").await?;
            taps += 1;
            mail_to(smtp, "bea@example.org", "Reminder").await?;
            // Passes of the worker later, still one reminder.
            tokio::time::sleep(Duration::from_secs(7)).await;
            let reminders = |who: &str| {
                smtp.to(who)
                    .iter()
                    .filter(|m| m.subject.starts_with("Reminder"))
                    .count()
            };
            if reminders("bea@example.org") != 1 {
                return Err(format!("Bea got {} reminders", reminders("bea@example.org")));
            }
            if reminders("ann@example.org") != 0 {
                return Err("Ann, who answered, was reminded".into());
            }

            // A line-up breaking the rule: Ann on both singles boards.
            b.select("#s2", &hp[0].0.to_string()).await?;
            tap_then(&b, "#save-line-up", "#refused", "is on singles boards 1 and 2").await?;
            // A player not registered for the team, slipped into the form.
            b.client
                .execute(
                    &format!(
                        "const s = document.getElementById('s2'); const o = document.createElement('option'); o.value = '{stranger}'; o.text = 'x'; s.add(o); s.value = '{stranger}';"
                    ),
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            tap_then(&b, "#save-line-up", "#refused", "is not registered for this team").await?;

            // The suggestion, saved in one tap.
            b.goto(&server.url(&sheet.to_string())).await?;
            tap_then(&b, "#save-line-up", "#saved", "Line-up saved").await?;
            taps += 1;
            b.wait_text("#boards", "Board 1:").await?;
            let _ = b.screenshot("team-sheet-390").await;
            if b.scrolls_sideways().await? {
                return Err("the team sheet scrolls sideways at 390 px".into());
            }

            // The pads open with the players set.
            b.click_named("main", "Open the score pads").await?;
            b.goto(&server.url(&at.pad_board(1))).await?;
            let page = b.text("main").await?;
            if !page.contains(&hn[0]) || !page.contains(&l.away_names()[0]) {
                return Err(format!("board 1's pad has no players set: {page}"));
            }
            eprintln!("the captain's week: {taps} taps (sheet, ask, remind, save)");
            if taps > 4 {
                return Err(format!("{taps} taps"));
            }
            Ok(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
