//! The team sheet before the night (issue 42), on both databases: drawn
//! pairings (the same seed draws the same, another seed another, never
//! twice); a player's answer by their signed link without signing in; the
//! captain's sheet with every answer, one reminder to those who have not
//! answered; a line-up refused with its reason (the line-up rule, an
//! unregistered player), the suggested one saved in one tap, and the pads
//! opening with its players.

use axum::http::StatusCode;
use boneyard::addresses::at_short;
use boneyard::app::answer_links;
use boneyard::app::mail::{LinkKind, MailConfig, link_message};
use boneyard::app::team_sheet;
use boneyard::db::*;
use boneyard::league::draw::draw;
use boneyard::league::match_format::{MatchFormat, Pairings};
use boneyard::league::settings::SeasonSettings;
use boneyard::league::team_sheet::{Answer, DrawAt, LineUp};
use chrono::{Duration, Utc};

use crate::harness::pages::ok;
use crate::harness::{Built, LeagueBuilder, PASSWORD, TestApp};
use crate::support::on_both;

on_both!(
    drawn_pairings_follow_the_seed_and_are_never_drawn_twice,
    a_player_answers_by_link_and_the_captain_sets_the_line_up,
    those_who_have_not_answered_get_one_reminder,
);

/// Six singles and three pairs; each team's six players one singles and
/// one pairs board each, in order.
pub(crate) fn line_up(players: &[PlayerId]) -> LineUp {
    let p: Vec<i64> = players.iter().map(|p| p.0).collect();
    LineUp {
        singles: p[..6].to_vec(),
        pairs: vec![[p[0], p[1]], [p[2], p[3]], [p[4], p[5]]],
        substitutes: p[6..].to_vec(),
    }
}

async fn both_line_ups(db: &Db, l: &Built, fixture: FixtureId) {
    for (side, players) in [
        (Side::Home, l.home_players()),
        (Side::Away, l.away_players()),
    ] {
        team_sheet::save_line_up(db, l.id, fixture, side, &line_up(&players), None)
            .await
            .unwrap();
    }
}

async fn drawn_pairings_follow_the_seed_and_are_never_drawn_twice(db: Db) {
    let mut format = MatchFormat::with_boards(6, 3, 1);
    format.pairings = Pairings::Drawn;
    // The night started an hour ago; the season draws when it starts.
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("drawn")
            .boards(format)
            .players(7)
            .fixtures(2)
            .starting_at(Utc::now() - Duration::hours(1)),
    )
    .await;
    let l = &app.league;
    boneyard::app::seasons::set_season_settings(
        &db,
        l.id,
        l.season,
        &SeasonSettings {
            draw_at: DrawAt::Start,
            ..SeasonSettings::default()
        },
        None,
    )
    .await
    .unwrap();
    let f1 = l.fixture();
    let f2 = l.add_fixture(&db, l.home(), l.away()).await;
    let f3 = l.add_fixture(&db, l.home(), l.away()).await;
    for f in [f1, f2, f3] {
        both_line_ups(&db, l, f).await;
    }
    // No line-ups yet: nothing to draw from.
    let f4 = l.add_fixture(&db, l.home(), l.away()).await;
    let refused = team_sheet::draw(&db, l.id, f4, Some("SEED-0001".into()), None).await;
    assert!(
        matches!(&refused, Err(DbError::Refused(r)) if r.to_string().contains("both line-ups")),
        "{refused:?}"
    );

    let d1 = team_sheet::draw(&db, l.id, f1, Some("SEED-0001".into()), None)
        .await
        .unwrap();
    let d2 = team_sheet::draw(&db, l.id, f2, Some("SEED-0001".into()), None)
        .await
        .unwrap();
    assert_eq!(d1, d2, "the same seed, the same draw");
    assert_eq!(d1, draw("SEED-0001", 6, 3), "the documented draw");
    let d3 = team_sheet::draw(&db, l.id, f3, Some("SEED-0002".into()), None)
        .await
        .unwrap();
    assert_ne!(
        (&d1.home, &d1.away),
        (&d3.home, &d3.away),
        "another seed, another draw"
    );

    // Never twice: the captain's button and the use case alike.
    let again = team_sheet::draw(&db, l.id, f1, Some("SEED-9999".into()), None).await;
    assert!(
        matches!(&again, Err(DbError::Refused(r)) if r.to_string().contains("never made twice")),
        "{again:?}"
    );
    assert_eq!(db.pairing_draw(l.id, f1).await.unwrap(), Some(d1.clone()));
    let at = at_short(&l.short).match_page(f1);
    let mut cap = app.with_captain(1).await;
    let sheet = ok(&mut cap, &at.team_sheet(Side::Away).to_string()).await;
    assert!(sheet.has("Drawn with seed SEED-0001"), "{}", sheet.body);
    assert!(!sheet.has("Draw the pairings"), "no redraw offered");
    let redraw = cap
        .post(&at.draw_pairings(), &[("csrf", &sheet.csrf())])
        .await;
    assert_eq!(redraw.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(redraw.has("never made twice"), "{}", redraw.body);
    assert_eq!(db.pairing_draw(l.id, f1).await.unwrap(), Some(d1.clone()));
    // The line-up the draw was made from stands.
    let changed =
        team_sheet::save_line_up(&db, l.id, f1, Side::Home, &line_up(&l.home_players()), None)
            .await;
    assert!(matches!(changed, Err(DbError::Refused(_))), "{changed:?}");

    // The pads follow the draw: board 1 is the drawn singles.
    let (h, a) = (l.home_players(), l.away_players());
    let home1 = h[d1.home.singles[0]];
    let away1 = a[d1.away.singles[0]];
    let pad = ok(&mut cap, &at.pad_board(1)).await;
    let name = |team: usize, p: PlayerId| {
        l.teams[team]
            .players
            .iter()
            .find(|(id, _)| *id == p)
            .unwrap()
            .1
            .clone()
    };
    assert!(
        pad.has(&name(0, home1)) && pad.has(&name(1, away1)),
        "{}",
        pad.body
    );

    // A night still to come: the season draws when it starts.
    let later = l.fixtures[1];
    both_line_ups(&db, l, later).await;
    let early = team_sheet::draw(&db, l.id, later, None, None).await;
    assert!(
        matches!(&early, Err(DbError::Refused(r)) if r.to_string().contains("when the night starts")),
        "{early:?}"
    );
}

/// A player's account with a confirmed address.
pub(crate) async fn player_account(
    db: &Db,
    l: &Built,
    player: PlayerId,
    username: &str,
    email: &str,
) -> UserId {
    let hash = boneyard::web::auth::hash_password(PASSWORD.into())
        .await
        .unwrap();
    let user = db.create_user(username, &hash).await.unwrap().id;
    db.grant_role(&NewRole::player(user, l.id, player), None)
        .await
        .unwrap();
    confirm_address(db, user, username, email).await;
    user
}

/// Gives account `user` (`username`) the confirmed address `email`.
pub(crate) async fn confirm_address(db: &Db, user: UserId, username: &str, email: &str) {
    let mail = link_message(
        LinkKind::Verify,
        "http://example.org/verify".into(),
        &MailConfig::new("http://example.org"),
    )
    .to(None, "verify", username, email, None);
    let token = format!("verify-{username}");
    db.change_email(user, email, &token, chrono::Duration::hours(1), &mail)
        .await
        .unwrap();
    db.use_token(boneyard::db::mail::TokenPurpose::Verify, &token, None)
        .await
        .unwrap()
        .unwrap();
}

pub(crate) fn week_ahead() -> LeagueBuilder {
    LeagueBuilder::new("week")
        .boards(MatchFormat::with_boards(6, 3, 1))
        .players(8)
        .starting_at(Utc::now() + Duration::days(3))
}

async fn a_player_answers_by_link_and_the_captain_sets_the_line_up(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let hp = l.home_players();
    let names = l.home_names();
    let at = at_short(&l.short).match_page(f);

    // The player's own link, as the email carries it: no sign-in.
    let key = db.link_key().await.unwrap();
    let expires = Utc::now() + Duration::days(4);
    let token = answer_links::sign(&key, l.id, f, hp[0], expires);
    let link = at_short(&l.short).answer_link(&token);
    let mut anyone = app.anonymous().await;
    let page = ok(&mut anyone, &link).await;
    assert!(
        page.has(&names[0]) && page.has("not answered yet"),
        "{}",
        page.body
    );
    let saved = anyone
        .post(&link, &[("csrf", &page.csrf()), ("answer", "yes")])
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert!(saved.has("Saved: Can play."));
    assert_eq!(db.answer(l.id, f, hp[0]).await.unwrap(), Some(Answer::Yes));
    // Changed until the night.
    let again = anyone
        .post(&link, &[("csrf", &saved.csrf()), ("answer", "maybe")])
        .await;
    assert!(again.has("Saved: Maybe."));
    // A link for another player or a later night is not this one.
    let forged = token.replacen(&format!("-{}-", hp[0].0), &format!("-{}-", hp[1].0), 1);
    let refused = anyone.get(&at_short(&l.short).answer_link(&forged)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    let old = answer_links::sign(&key, l.id, f, hp[0], Utc::now() - Duration::hours(1));
    let expired = anyone.get(&at_short(&l.short).answer_link(&old)).await;
    assert_eq!(expired.status, StatusCode::FORBIDDEN);
    assert!(expired.has("expired"));

    // Others answer: five can play, one can't.
    for (i, a) in [
        (0, Answer::Yes),
        (1, Answer::Yes),
        (2, Answer::Yes),
        (3, Answer::Yes),
        (4, Answer::Yes),
        (5, Answer::Yes),
        (6, Answer::No),
    ] {
        team_sheet::answer(
            &db,
            &db.league(l.id).await.unwrap(),
            f,
            hp[i],
            a,
            &MailConfig::new("http://x"),
        )
        .await
        .unwrap();
    }
    // Someone of the other team is no player of this sheet.
    let other = team_sheet::answer(
        &db,
        &db.league(l.id).await.unwrap(),
        f,
        PlayerId(hp[0].0 + 10_000),
        Answer::Yes,
        &MailConfig::new("http://x"),
    )
    .await;
    assert!(other.is_err());

    // The captain sees every answer, and a suggested line-up.
    let mut cap = app.with_captain(0).await;
    let sheet_at = at.team_sheet(Side::Home);
    let sheet = ok(&mut cap, &sheet_at.to_string()).await;
    assert!(
        sheet.has("6 can play, 0 maybe, 1 can") && sheet.has("t, 1 not answered"),
        "{}",
        sheet.body
    );
    assert!(sheet.has("id=\"suggested\""));
    // The other captain's sheet is theirs.
    let mut other_cap = app.with_captain(1).await;
    let theirs = other_cap.get(&sheet_at.to_string()).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);

    // A line-up that breaks the line-up rule is refused, naming it.
    let csrf = sheet.csrf();
    let id = |i: usize| hp[i].0.to_string();
    let mut fields: Vec<(String, String)> = vec![("csrf".into(), csrf.clone())];
    for k in 0..6 {
        fields.push((format!("s{}", k + 1), id(if k == 5 { 0 } else { k })));
    }
    for (k, (a, b)) in [(0, 1), (2, 3), (4, 5)].into_iter().enumerate() {
        fields.push((format!("p{}a", k + 1), id(a)));
        fields.push((format!("p{}b", k + 1), id(b)));
    }
    let line_up_at = sheet_at.line_up();
    let broken = post(&mut cap, &line_up_at, &fields).await;
    assert_eq!(broken.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        broken.has(&format!("{} is on singles boards 1 and 6", names[0])),
        "{}",
        broken.body
    );
    // An unregistered player (the other team's) is refused, named.
    let mut stranger = fields.clone();
    stranger[6].1 = l.away_players()[0].0.to_string();
    let refused = post(&mut cap, &line_up_at, &stranger).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.has(&format!(
            "{} is not registered for this team",
            l.away_names()[0]
        )),
        "{}",
        refused.body
    );
    assert!(
        db.line_ups(l.id, f).await.unwrap().is_empty(),
        "nothing saved"
    );

    // The suggestion, saved as shown: one tap.
    let suggested: Vec<(String, String)> = selected_fields(&sheet.body);
    let mut fields = vec![("csrf".to_owned(), csrf.clone())];
    fields.extend(suggested);
    let saved = post(&mut cap, &line_up_at, &fields).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let page = ok(&mut cap, saved.location.as_deref().unwrap()).await;
    assert!(page.has("Line-up saved. Singles:"), "{}", page.body);
    let stored = db.line_ups(l.id, f).await.unwrap();
    assert_eq!(stored.len(), 1);
    let lu = &stored[0].line_up;
    assert!(!lu.singles.contains(&hp[6].0), "never the one who can't");
    assert_eq!(lu.singles.len(), 6);
    // Audited.
    let audit = db.audit_entries(l.id, "line_up", f.0).await.unwrap();
    assert_eq!(audit.len(), 1);

    // Once both are in, the pads open with the players set.
    team_sheet::save_line_up(&db, l.id, f, Side::Away, &line_up(&l.away_players()), None)
        .await
        .unwrap();
    let pad = ok(&mut cap, &at.pad_board(1)).await;
    let first = names
        .iter()
        .zip(&hp)
        .find(|(_, p)| p.0 == lu.singles[0])
        .unwrap()
        .0;
    assert!(
        pad.has(first) && pad.has(&l.away_names()[0]),
        "{}",
        pad.body
    );

    // The captain's home: the team sheet one tap away.
    let home = ok(&mut cap, "/").await;
    assert!(home.has(&sheet_at.to_string()), "{}", home.body);
}

/// The `name=value` of every select's chosen option and every ticked box
/// of the line-up form.
fn selected_fields(body: &str) -> Vec<(String, String)> {
    let form = &body[body.find("class=\"form line-up\"").unwrap()..];
    let form = &form[..form.find("</form>").unwrap()];
    let mut out = Vec::new();
    for select in form.split("<select").skip(1) {
        let name = select
            .split("name=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let value = select
            .split("<option")
            .find(|o| o.contains(" selected"))
            .and_then(|o| o.split("value=\"").nth(1))
            .map(|v| v.split('"').next().unwrap().to_owned())
            .unwrap_or_default();
        out.push((name.to_owned(), value));
    }
    for input in form.split("<input type=\"checkbox\"").skip(1) {
        if input.split('>').next().unwrap().contains("checked") {
            let value = input
                .split("value=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            out.push(("sub".into(), value.to_owned()));
        }
    }
    out
}

async fn those_who_have_not_answered_get_one_reminder(db: Db) {
    let app = TestApp::new(&db, week_ahead()).await;
    let l = &app.league;
    let f = l.fixture();
    let hp = l.home_players();
    player_account(&db, l, hp[0], "ann", "ann@example.org").await;
    player_account(&db, l, hp[1], "bea", "bea@example.org").await;
    let league = db.league(l.id).await.unwrap();
    team_sheet::answer(
        &db,
        &league,
        f,
        hp[0],
        Answer::Yes,
        &MailConfig::new("http://x"),
    )
    .await
    .unwrap();
    let at = at_short(&l.short).match_page(f).team_sheet(Side::Home);
    let mut cap = app.with_captain(0).await;
    let sheet = ok(&mut cap, &at.to_string()).await;
    assert!(
        sheet.has("Remind the 1 who have not answered"),
        "{}",
        sheet.body
    );
    let reminded = cap.post(&at.remind(), &[("csrf", &sheet.csrf())]).await;
    assert_eq!(reminded.status, StatusCode::SEE_OTHER, "{}", reminded.body);
    let page = ok(&mut cap, reminded.location.as_deref().unwrap()).await;
    assert!(
        page.has("Reminder sent to 1 player who had not answered."),
        "{}",
        page.body
    );
    assert!(page.has("one reminder a match"));
    let reminders = |m: &[boneyard::db::mail::Mail]| {
        m.iter()
            .filter(|m| m.subject.starts_with("Reminder: can you play"))
            .map(|m| m.to_address.clone())
            .collect::<Vec<_>>()
    };
    let mail = db.recent_mail(Some(l.id), 50).await.unwrap();
    assert_eq!(reminders(&mail), vec!["bea@example.org".to_owned()]);
    // The one who answered is not reminded; a second tap is refused.
    let again = cap.post(&at.remind(), &[("csrf", &sheet.csrf())]).await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(again.has("sent already"));
    // The captain's time, passed, sends nothing more.
    assert_eq!(
        team_sheet::send_due_reminders(&db, &MailConfig::new("http://x"))
            .await
            .unwrap(),
        0
    );
    let mail = db.recent_mail(Some(l.id), 50).await.unwrap();
    assert_eq!(reminders(&mail).len(), 1);
}

async fn post(
    c: &mut crate::harness::client::Client,
    at: &str,
    fields: &[(String, String)],
) -> crate::harness::client::Page {
    let refs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    c.post(at, &refs).await
}
