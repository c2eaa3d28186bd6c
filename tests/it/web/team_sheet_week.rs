//! The rest of the captain's week (issue 42), on both databases: a cup
//! tie's sheet in its cup's own format; the paper card and the pads
//! starting from the line-ups, and a change on the night audited; the
//! captain told once when the team goes short; a signed-in player's
//! answer from the team page and from home; the reminder at the captain's
//! time; the sheet on paper; the season's team-sheet settings.

use axum::http::StatusCode;
use boneyard::addresses::at_short;
use boneyard::app::mail::MailConfig;
use boneyard::app::team_sheet;
use boneyard::db::*;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::pad::Tap;
use boneyard::league::team_sheet::{Answer, LineUp};
use chrono::{Duration, Utc};
use serde_json::json;

use super::team_sheet::player_account;
use crate::harness::pages::ok;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    a_cup_ties_sheet_is_set_out_in_the_cups_own_format,
    the_paper_card_starts_from_the_line_ups,
    a_line_up_changed_on_the_pad_is_audited,
    the_captain_is_told_once_when_the_team_goes_short,
    a_signed_in_player_answers_from_the_team_page_and_from_home,
    the_reminder_goes_at_the_captains_time_and_only_once,
    the_sheet_prints_with_its_line_up,
);

/// A team cup of the league's two teams with its own match format, drawn:
/// its one tie.
async fn cup_tie(db: &Db, l: &Built, format: MatchFormat) -> Fixture {
    use boneyard::app::cup_commands::{add_cup_entrant, draw_cup_round};
    let cup = db
        .create_cup(
            l.id,
            &NewCup {
                season_id: l.season,
                name: "Knockout".into(),
                entrants: boneyard::league::cup::EntrantKind::Teams,
                match_format: Some(format),
            },
            None,
        )
        .await
        .unwrap()
        .id;
    for team in [l.home(), l.away()] {
        let entrant = NewEntrant {
            team_id: team,
            players: Vec::new(),
            seed: None,
        };
        add_cup_entrant(db, l.id, cup, &entrant, None)
            .await
            .unwrap();
    }
    let draw = DrawRequest {
        round: 1,
        starts_at: Utc::now() + Duration::days(2),
        play_by: false,
        venue_id: None,
        how: How::Random { seed: 7 },
    };
    draw_cup_round(db, l.id, cup, &draw, None).await.unwrap();
    let tie = db.cup_data(l.id, cup).await.unwrap().ties[0].fixture_id;
    db.fixture(l.id, tie.expect("the tie's match"))
        .await
        .unwrap()
}

fn config() -> MailConfig {
    MailConfig::new("http://example.org")
}

/// Six singles and three pairs from a team's first six players.
fn full_line_up(players: &[PlayerId]) -> LineUp {
    let p: Vec<i64> = players.iter().map(|p| p.0).collect();
    LineUp {
        singles: p[..6].to_vec(),
        pairs: vec![[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]],
        substitutes: p[6..].to_vec(),
    }
}

/// A night that started an hour ago: its card and pads are open.
fn tonight() -> LeagueBuilder {
    LeagueBuilder::new("tonight")
        .boards(MatchFormat::with_boards(6, 3, 1))
        .players(7)
        .starting_at(Utc::now() - Duration::hours(1))
}

fn week_ahead() -> LeagueBuilder {
    LeagueBuilder::new("week")
        .boards(MatchFormat::with_boards(6, 3, 1))
        .players(8)
        .starting_at(Utc::now() + Duration::days(3))
}

async fn both_line_ups(db: &Db, l: &Built, fixture: FixtureId) -> (LineUp, LineUp) {
    let (home, away) = (
        full_line_up(&l.home_players()),
        full_line_up(&l.away_players()),
    );
    for (side, lu) in [(Side::Home, &home), (Side::Away, &away)] {
        team_sheet::save_line_up(db, l.id, fixture, side, lu, None)
            .await
            .unwrap();
    }
    (home, away)
}

/// The chosen option of the select named `name` on a page ("" if none).
fn chosen(body: &str, name: &str) -> String {
    let Some(at) = body.find(&format!("name=\"{name}\"")) else {
        return String::new();
    };
    let end = body[at..].find("</select>").map_or(body.len(), |e| e + at);
    body[at..end]
        .split("<option")
        .find(|o| o.split('>').next().is_some_and(|t| t.contains(" selected")))
        .and_then(|o| o.split("value=\"").nth(1))
        .map(|v| v.split('"').next().unwrap_or_default().to_owned())
        .unwrap_or_default()
}

async fn a_cup_ties_sheet_is_set_out_in_the_cups_own_format(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    // The cup plays two singles and one pairs, not the season's nine.
    let tie = cup_tie(&db, l, MatchFormat::with_boards(2, 1, 1)).await;
    let (hp, ap) = (l.home_players(), l.away_players());
    let side_of = |team: TeamId| {
        if team == l.home() {
            (hp.clone(), ap.clone())
        } else {
            (ap.clone(), hp.clone())
        }
    };
    let (home_players, away_players) = side_of(tie.home_team_id);
    let small = |p: &[PlayerId]| LineUp {
        singles: vec![p[0].0, p[1].0],
        pairs: vec![[p[2].0, p[3].0]],
        substitutes: vec![],
    };
    // Its line-up has the cup's boards; the season's nine are refused.
    team_sheet::save_line_up(&db, l.id, tie.id, Side::Home, &small(&home_players), None)
        .await
        .expect("a cup line-up of two singles and a pair");
    let nine = team_sheet::save_line_up(
        &db,
        l.id,
        tie.id,
        Side::Away,
        &full_line_up(&away_players),
        None,
    )
    .await;
    assert!(
        matches!(&nine, Err(DbError::Refused(r)) if r.to_string().contains("singles")),
        "{nine:?}"
    );
    team_sheet::save_line_up(&db, l.id, tie.id, Side::Away, &small(&away_players), None)
        .await
        .unwrap();

    // The captain's sheet offers the cup's boards only.
    let home_cap = if tie.home_team_id == l.home() { 0 } else { 1 };
    let mut cap = app.with_captain(home_cap).await;
    let at = at_short(&l.short).match_page(tie.id);
    let sheet = ok(&mut cap, &at.team_sheet(Side::Home).to_string()).await;
    assert!(sheet.has("name=\"s2\""), "{}", sheet.body);
    assert!(!sheet.has("name=\"s3\""), "{}", sheet.body);
    assert!(sheet.has("name=\"p1a\"") && !sheet.has("name=\"p2a\""));
}

async fn the_paper_card_starts_from_the_line_ups(db: Db) {
    let app = TestApp::new(&db, tonight()).await;
    let l = &app.league;
    let f = l.fixture();
    let at = at_short(&l.short).match_page(f);
    let mut cap = app.with_captain(0).await;
    // No line-ups: an empty card.
    let empty = ok(&mut cap, &at.card()).await;
    assert_eq!(chosen(&empty.body, "b0.home0"), "");
    assert!(!empty.has("filled in from the captains"));

    let (home, away) = both_line_ups(&db, l, f).await;
    let card = ok(&mut cap, &at.card()).await;
    assert!(
        card.has("The players are filled in from the captains&#39; line-ups"),
        "{}",
        card.body
    );
    // Nothing is in error on a card just opened: the games are to come.
    assert!(!card.has("class=\"notice error\""), "{}", card.body);
    assert!(!card.has("type the first game"), "{}", card.body);
    // Singles boards 1-6 in the line-ups' order, then the pairs.
    for (b, (h, a)) in home.singles.iter().zip(&away.singles).enumerate() {
        assert_eq!(chosen(&card.body, &format!("b{b}.home0")), h.to_string());
        assert_eq!(chosen(&card.body, &format!("b{b}.away0")), a.to_string());
    }
    for (k, (h, a)) in home.pairs.iter().zip(&away.pairs).enumerate() {
        let b = 6 + k;
        for j in 0..2 {
            assert_eq!(
                chosen(&card.body, &format!("b{b}.home{j}")),
                h[j].to_string()
            );
            assert_eq!(
                chosen(&card.body, &format!("b{b}.away{j}")),
                a[j].to_string()
            );
        }
    }
    // A card the secretary opens starts the same way.
    let mut sec = app.with_secretary().await;
    let theirs = ok(&mut sec, &at.card()).await;
    assert_eq!(
        chosen(&theirs.body, "b8.away1"),
        away.pairs[2][1].to_string()
    );
}

async fn a_line_up_changed_on_the_pad_is_audited(db: Db) {
    let app = TestApp::new(&db, tonight()).await;
    let l = &app.league;
    let f = l.fixture();
    let at = at_short(&l.short).match_page(f);
    let (home, away) = both_line_ups(&db, l, f).await;
    let audits = || async {
        db.audit_entries(l.id, "line_up", f.0)
            .await
            .unwrap()
            .into_iter()
            .filter(|e| e.action == "pad change")
            .collect::<Vec<_>>()
    };
    let mut cap = app.with_captain(0).await;
    let pad = ok(&mut cap, &at.pad_board(1)).await;
    let csrf = pad.csrf();
    let planned = Tap::Players {
        home: vec![home.singles[0]],
        away: vec![away.singles[0]],
    };
    // Played as planned: the players' first tap is no change.
    let kept = cap
        .post_json(
            &format!("{}/sync", at.pad_board(1)),
            &json!({ "taps": [planned] }),
            &csrf,
        )
        .await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
    assert!(audits().await.is_empty(), "no change, nothing audited");

    // The substitute plays board 1 instead: undone and chosen again.
    let sub = home.substitutes[0];
    let changed = Tap::Players {
        home: vec![sub],
        away: vec![away.singles[0]],
    };
    let r = cap
        .post_json(
            &format!("{}/sync", at.pad_board(1)),
            &json!({ "taps": [planned, Tap::Undo, changed] }),
            &csrf,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let entries = audits().await;
    assert_eq!(entries.len(), 1, "{entries:?}");
    let before: serde_json::Value =
        serde_json::from_str(entries[0].before.as_deref().unwrap()).unwrap();
    let after: serde_json::Value =
        serde_json::from_str(entries[0].after.as_deref().unwrap()).unwrap();
    assert_eq!(before["board"], 1);
    assert_eq!(before["home"], json!([home.singles[0]]));
    assert_eq!(after["home"], json!([sub]));
    assert_eq!(after["away"], json!([away.singles[0]]));
    // The captain's account made the change.
    let captain = db.user_by_username(&l.teams[0].captain).await.unwrap();
    assert_eq!(entries[0].user_id, Some(captain.id));
}

/// Gives the account `username` a confirmed address.
async fn confirm(db: &Db, username: &str, email: &str) {
    let user = db.user_by_username(username).await.unwrap().id;
    let mail = boneyard::app::mail::link_message(
        boneyard::app::mail::LinkKind::Verify,
        "http://example.org/verify".into(),
        &config(),
    )
    .to(None, "verify", username, email, None);
    let token = format!("verify-{username}");
    db.change_email(user, email, &token, Duration::hours(1), &mail)
        .await
        .unwrap();
    db.use_token(boneyard::db::mail::TokenPurpose::Verify, &token, None)
        .await
        .unwrap()
        .unwrap();
}

async fn the_captain_is_told_once_when_the_team_goes_short(db: Db) {
    // Eight registered; nine boards of six singles and three pairs need
    // six players. Short once three can't.
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let hp = l.home_players();
    confirm(&db, &l.teams[0].captain, "home.captain@example.org").await;
    confirm(&db, &l.teams[1].captain, "away.captain@example.org").await;
    let league = db.league(l.id).await.unwrap();
    let short_mail = || async {
        db.recent_mail(Some(l.id), 100)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| m.subject.starts_with("Short for"))
            .collect::<Vec<_>>()
    };
    for p in &hp[..2] {
        team_sheet::answer(&db, &league, f, *p, Answer::No, &config())
            .await
            .unwrap();
    }
    assert!(short_mail().await.is_empty(), "six can still play");
    team_sheet::answer(&db, &league, f, hp[2], Answer::No, &config())
        .await
        .unwrap();
    let told = short_mail().await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].to_address, "home.captain@example.org");
    let names = l.home_names();
    for n in &names[..3] {
        assert!(
            told[0].text_body.contains(n.as_str()),
            "{}",
            told[0].text_body
        );
    }
    assert!(
        told[0]
            .text_body
            .contains("3 of 8 registered players can't play")
    );
    // Another "can't", or the same answer again: still one message.
    team_sheet::answer(&db, &league, f, hp[3], Answer::No, &config())
        .await
        .unwrap();
    team_sheet::answer(&db, &league, f, hp[2], Answer::No, &config())
        .await
        .unwrap();
    assert_eq!(short_mail().await.len(), 1);
    // The other team is not short, and its captain heard nothing.
    assert!(
        short_mail()
            .await
            .iter()
            .all(|m| m.to_address != "away.captain@example.org")
    );
}

async fn a_signed_in_player_answers_from_the_team_page_and_from_home(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let hp = l.home_players();
    player_account(&db, l, hp[0], "ann", "ann@example.org").await;
    let mut ann = app.anonymous().await;
    ann.sign_in("ann", crate::harness::PASSWORD).await;
    let at = at_short(&l.short);
    let answer_at = at.match_page(f).availability();

    // From the team page: the box, one tap, back to the team page saying
    // what was saved.
    let team_page = format!(
        "/leagues/{}/teams/{}-{}",
        l.short,
        l.teams[0].id,
        crate::harness::pages::slug(&l.teams[0].name)
    );
    let page = ok(&mut ann, &team_page).await;
    assert!(page.has("Can you play?"), "{}", page.body);
    assert!(
        page.has(&format!("action=\"{answer_at}\"")),
        "{}",
        page.body
    );
    let saved = ann
        .post(
            &answer_at,
            &[
                ("csrf", &page.csrf()),
                ("answer", "maybe"),
                ("back", &team_page),
            ],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert_eq!(saved.location.as_deref(), Some(team_page.as_str()));
    let back = ok(&mut ann, &team_page).await;
    assert!(back.has("Saved: Maybe for this match."), "{}", back.body);
    assert_eq!(
        db.answer(l.id, f, hp[0]).await.unwrap(),
        Some(Answer::Maybe)
    );

    // From home: changed to "can play".
    let home = ok(&mut ann, "/").await;
    assert!(
        home.has(&format!("action=\"{answer_at}\"")),
        "{}",
        home.body
    );
    let saved = ann
        .post(
            &answer_at,
            &[("csrf", &home.csrf()), ("answer", "yes"), ("back", "/")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert_eq!(db.answer(l.id, f, hp[0]).await.unwrap(), Some(Answer::Yes));
    let home = ok(&mut ann, "/").await;
    assert!(home.has("Saved: Can play for this match."), "{}", home.body);

    // Nobody answers for a match they are not in, nor with a made-up answer.
    let odd = ann
        .post(
            &answer_at,
            &[("csrf", &home.csrf()), ("answer", "perhaps"), ("back", "/")],
        )
        .await;
    assert_eq!(odd.status, StatusCode::BAD_REQUEST, "{}", odd.body);
    let (mut someone, _) = app.with_account("nobody").await;
    let csrf = ok(&mut someone, "/").await.csrf();
    let stranger = someone
        .post(
            &answer_at,
            &[("csrf", &csrf), ("answer", "yes"), ("back", "/")],
        )
        .await;
    assert_eq!(stranger.status, StatusCode::FORBIDDEN, "{}", stranger.body);
    // The captain sees the answer on the sheet.
    let mut cap = app.with_captain(0).await;
    let sheet = ok(
        &mut cap,
        &at.match_page(f).team_sheet(Side::Home).to_string(),
    )
    .await;
    assert!(sheet.has("1 can play, 0 maybe"), "{}", sheet.body);
}

async fn the_reminder_goes_at_the_captains_time_and_only_once(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let hp = l.home_players();
    player_account(&db, l, hp[0], "ann", "ann@example.org").await;
    player_account(&db, l, hp[1], "bea", "bea@example.org").await;
    let league = db.league(l.id).await.unwrap();
    team_sheet::answer(&db, &league, f, hp[0], Answer::Yes, &config())
        .await
        .unwrap();
    let reminders = || async {
        db.recent_mail(Some(l.id), 100)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| m.subject.starts_with("Reminder: can you play"))
            .map(|m| m.to_address)
            .collect::<Vec<_>>()
    };
    // The captain sets the time on the sheet's form, in the league's zone.
    let at = at_short(&l.short).match_page(f).team_sheet(Side::Home);
    let mut cap = app.with_captain(0).await;
    let sheet = ok(&mut cap, &at.to_string()).await;
    let when = league
        .time_zone
        .local(Utc::now() + Duration::days(1))
        .format("%Y-%m-%dT%H:%M")
        .to_string();
    let set = cap
        .post(&at.remind_at(), &[("csrf", &sheet.csrf()), ("at", &when)])
        .await;
    assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.body);
    // A time after the match starts is refused, saying why.
    let late = league
        .time_zone
        .local(Utc::now() + Duration::days(4))
        .format("%Y-%m-%dT%H:%M")
        .to_string();
    let refused = cap
        .post(&at.remind_at(), &[("csrf", &sheet.csrf()), ("at", &late)])
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.has("choose an earlier time"), "{}", refused.body);

    // Not yet due: nothing sent.
    assert_eq!(
        team_sheet::send_due_reminders(&db, &config())
            .await
            .unwrap(),
        0
    );
    assert!(reminders().await.is_empty());
    // Due (the time moved to a minute ago, as the clock would): the one who
    // has not answered is reminded, once, however often the worker runs.
    team_sheet::set_reminder(&db, l.id, f, Side::Home, Utc::now() - Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(
        team_sheet::send_due_reminders(&db, &config())
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        team_sheet::send_due_reminders(&db, &config())
            .await
            .unwrap(),
        0
    );
    assert_eq!(reminders().await, vec!["bea@example.org".to_owned()]);
    // The captain's button now says it went.
    let after = cap.post(&at.remind(), &[("csrf", &sheet.csrf())]).await;
    assert_eq!(after.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(after.has("sent already"), "{}", after.body);
}

async fn the_sheet_prints_with_its_line_up(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let (home, _) = both_line_ups(&db, l, f).await;
    let at = at_short(&l.short).match_page(f).team_sheet(Side::Home);
    let mut cap = app.with_captain(0).await;
    let paper = ok(&mut cap, &at.print()).await;
    let names = l.home_names();
    let hp = l.home_players();
    let name = |id: i64| names[hp.iter().position(|p| p.0 == id).unwrap()].clone();
    // Every board with its players, in order, and no forms of the sheet.
    let first = paper.body.find(&name(home.singles[0])).expect("board 1");
    let sixth = paper.body.find(&name(home.singles[5])).expect("board 6");
    assert!(first < sixth, "boards in order");
    for pair in &home.pairs {
        assert!(paper.has(&name(pair[0])) && paper.has(&name(pair[1])));
    }
    assert!(!paper.has("class=\"form line-up\""), "{}", paper.body);
    assert!(!paper.has("name=\"answer\""), "{}", paper.body);
    // The other captain cannot print this side's sheet.
    let mut other = app.with_captain(1).await;
    let theirs = other.get(&at.print()).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
}
