//! Cups: a secretary makes a cup, enters teams or players, draws each
//! round (at random from a kept seed, seeded, as the bracket runs, or by
//! hand), and the winners go through as results are approved; a
//! correction that changes a winner moves the next round, or is refused
//! once that round's tie is played. Cup games never count in the league's
//! tables, and a singles tie's card names only its two entrants.

use axum::http::StatusCode;
use boneyard::app::cup_commands::delete_cup;
use boneyard::db::pages::{FixtureLine, FixtureScope};
use boneyard::db::*;
use boneyard::league::cup::{self, Slot, Verdict};
use boneyard::league::match_format::MatchFormat;
use boneyard::league::match_score::scores_from_boards;
use boneyard::league::refusal::Refusal;
use boneyard::league::workflow::Actor;
use boneyard::rules::Format;

use crate::harness::builder::{BuiltTeam, simulated_result};
use crate::harness::client::{Client, Page};
use crate::harness::forms::error_beside;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    a_team_cup_is_played_through_to_a_winner,
    a_correction_that_changes_a_winner_moves_the_next_round_or_is_refused,
    a_void_tie_is_reinstated_and_played_again,
    a_cup_is_renamed_and_one_made_by_mistake_deleted,
    a_correction_racing_the_next_rounds_result_is_refused_or_saved_never_failed,
    a_random_draw_is_made_again_from_its_recorded_seed,
    a_singles_tie_names_only_its_two_entrants,
    a_seeded_draw_and_a_draw_by_hand,
    bad_cup_forms_are_refused_with_reasons,
    only_the_leagues_secretaries_run_its_cups,
);

const TEAMS: [&str; 5] = ["Anchor", "Bell", "Crown", "Dolphin", "Eagle"];

async fn cup_league(db: &Db, short: &str, teams: &[&str]) -> TestApp {
    TestApp::new(
        db,
        LeagueBuilder::new(short)
            .teams(teams)
            .players(6)
            .fixtures(0)
            .starting_at("2026-09-10T18:30:00Z".parse().unwrap()),
    )
    .await
}

fn console(app: &TestApp, path: &str) -> String {
    format!("/leagues/{}/console{path}", app.league.short)
}

fn redirected_to(page: &Page) -> String {
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    page.location.clone().unwrap()
}

/// Makes a cup through the console's form; its id.
async fn make_cup(sec: &mut Client, app: &TestApp, fields: &[(&str, &str)]) -> CupId {
    let path = console(app, &format!("/seasons/{}/cups", app.league.season));
    let page = sec.submit(&path, &path, fields).await;
    let to = redirected_to(&page);
    CupId(to.rsplit('/').next().unwrap().parse().unwrap())
}

async fn enter(sec: &mut Client, app: &TestApp, cup: CupId, fields: &[(&str, &str)]) -> Page {
    let page = console(app, &format!("/cups/{cup}"));
    sec.submit(&page, &format!("{page}/entrants"), fields).await
}

/// A team cup in the season's match format, every team of the league
/// entered, through the console's forms.
async fn team_cup(sec: &mut Client, app: &TestApp, name: &str) -> CupId {
    let cup = make_cup(
        sec,
        app,
        &[("name", name), ("entrants", "teams"), ("format", "season")],
    )
    .await;
    for t in &app.league.teams {
        let page = enter(sec, app, cup, &[("team", &t.id.to_string())]).await;
        redirected_to(&page);
    }
    cup
}

/// Presses "Draw round N" with `method`.
async fn draw(sec: &mut Client, app: &TestApp, cup: CupId, round: u32, method: &str) -> Page {
    let page = console(app, &format!("/cups/{cup}"));
    sec.submit(
        &page,
        &format!("{page}/draw"),
        &[
            ("round", &round.to_string()),
            ("method", method),
            ("date", "2026-10-01"),
            ("time", "19:30"),
        ],
    )
    .await
}

async fn secretary(db: &Db, app: &TestApp) -> Actor {
    let user = db.user_by_username(&app.league.secretary).await.unwrap();
    Actor::secretary(user.id)
}

fn team_of(app: &TestApp, id: TeamId) -> &BuiltTeam {
    app.league.teams.iter().find(|t| t.id == id).unwrap()
}

/// Plays a team cup tie's match and approves it (the secretary enters
/// it): the side its approved result sends through.
async fn play(db: &Db, app: &TestApp, line: &FixtureLine, seed: u64) -> Side {
    let l = &app.league;
    let result = simulated_result(
        l.rules,
        &l.format,
        team_of(app, line.home_team_id),
        team_of(app, line.away_team_id),
        seed,
    );
    boneyard::app::results::submit(db, l.id, line.id, &result, secretary(db, app).await)
        .await
        .unwrap();
    let boards = db
        .board_lines(l.id, &FixtureScope::One(line.id), true)
        .await
        .unwrap();
    let score = scores_from_boards(&boards, &l.format)[&line.id];
    let tally = cup::Tally {
        boards: score.boards,
        games: score.games,
        pegs: score.pegs,
    };
    match cup::verdict(FixtureStatus::Played, None, Some(tally)) {
        Verdict::Won(side) => side,
        other => panic!("a nine-board match is decided, not {other:?}"),
    }
}

async fn cup_lines(db: &Db, app: &TestApp, cup: CupId) -> Vec<FixtureLine> {
    db.fixture_lines(app.league.id, &FixtureScope::Cup(cup))
        .await
        .unwrap()
}

/// The entrant a side of a tie is, by its team.
fn team_entrant(data: &CupData, team: TeamId) -> CupEntrantId {
    data.entrants.iter().find(|e| e.team_id == team).unwrap().id
}

async fn a_team_cup_is_played_through_to_a_winner(db: Db) {
    let app = cup_league(&db, "cupa", &TEAMS).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = team_cup(&mut sec, &app, "League Cup").await;
    let shown = sec.get(&console(&app, &format!("/cups/{cup}"))).await;
    assert!(
        shown.has("Team cup, ties in the season&#39;s match format")
            || shown.has("Team cup, ties in the season's match format"),
        "{}",
        shown.body
    );
    assert!(shown.has("5 entrants"), "{}", shown.body);
    assert!(
        shown.has("3 byes bring the round to a power of two"),
        "{}",
        shown.body
    );

    // Round 1: five teams in a bracket of eight, three byes, one match.
    let drawn = draw(&mut sec, &app, cup, 1, "random").await;
    redirected_to(&drawn);
    let said = sec.get(&redirected_to(&drawn)).await;
    assert!(said.has("Round 1 drawn at random (seed "), "{}", said.body);
    assert!(said.has(": 4 ties, 3 byes."), "{}", said.body);
    let data = db.cup_data(l.id, cup).await.unwrap();
    assert_eq!(data.ties.len(), 4);
    assert_eq!(
        data.ties
            .iter()
            .filter(|t| t.away_entrant_id.is_none())
            .count(),
        3
    );
    let lines = cup_lines(&db, &app, cup).await;
    assert_eq!(lines.len(), 1, "byes make no match");
    assert_eq!(lines[0].division_id, None);
    assert_eq!(lines[0].competition, "League Cup");
    assert_eq!(lines[0].round_name(), "Quarter-finals");
    // Its night is past: the secretary's list of missing results has it.
    let home = sec.get(&console(&app, "")).await;
    let start = home
        .body
        .find("id=\"missing-list\"")
        .expect("the missing results");
    let end = home.body[start..].find("</section>").unwrap() + start;
    let missing = &home.body[start..end];
    let title = format!("{} v {}", lines[0].home_name, lines[0].away_name);
    assert!(
        missing.contains("League Cup") && missing.contains(&title),
        "{missing}"
    );

    // The one match of round 1, then round 2 as the bracket runs.
    let side = play(&db, &app, &lines[0], 1).await;
    let first_winner = match side {
        Side::Home => lines[0].home_team_id,
        Side::Away => lines[0].away_team_id,
    };
    redirected_to(&draw(&mut sec, &app, cup, 2, "bracket").await);
    let lines = cup_lines(&db, &app, cup).await;
    let semis: Vec<&FixtureLine> = lines.iter().filter(|f| f.round == 2).collect();
    assert_eq!(
        semis.len(),
        2,
        "every semi-final's sides are known: both made"
    );
    assert_eq!(semis[0].round_name(), "Semi-finals");
    assert!(
        semis
            .iter()
            .any(|f| f.home_team_id == first_winner || f.away_team_id == first_winner),
        "round 1's winner goes through"
    );
    let loser = if first_winner == lines[0].home_team_id {
        lines[0].away_team_id
    } else {
        lines[0].home_team_id
    };
    assert!(
        !semis
            .iter()
            .any(|f| f.home_team_id == loser || f.away_team_id == loser)
    );

    // A walkover decides one semi-final, a result the other.
    let sec_actor = secretary(&db, &app).await;
    boneyard::app::results::walkover(&db, l.id, semis[0].id, Side::Away, sec_actor)
        .await
        .unwrap();
    let other = play(&db, &app, semis[1], 2).await;
    let finalists = [
        semis[0].home_team_id,
        match other {
            Side::Home => semis[1].home_team_id,
            Side::Away => semis[1].away_team_id,
        },
    ];
    redirected_to(&draw(&mut sec, &app, cup, 3, "random").await);
    let final_line = cup_lines(&db, &app, cup)
        .await
        .into_iter()
        .find(|f| f.round == 3)
        .expect("the final's match");
    assert_eq!(final_line.round_name(), "Final");
    let mut met = [final_line.home_team_id, final_line.away_team_id];
    met.sort();
    let mut want = finalists;
    want.sort();
    assert_eq!(met, want);
    let won = play(&db, &app, &final_line, 3).await;
    let champion = match won {
        Side::Home => &final_line.home_name,
        Side::Away => &final_line.away_name,
    };
    // No more rounds to draw.
    let more = draw(&mut sec, &app, cup, 4, "random").await;
    assert_eq!(
        more.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        more.body
    );

    let mut anyone = app.anonymous().await;
    let public = anyone
        .get(&format!("/leagues/{}/cups/{cup}-league-cup", l.short))
        .await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    assert!(
        public.has(&format!("Won by {champion}.")),
        "{}",
        public.body
    );
    assert!(public.has("Semi-finals") && public.has(">Final</h2>"));
    assert!(public.has("walkover:"), "{}", public.body);
    let moved = anyone
        .get(&format!("/leagues/{}/cups/{cup}-old-name", l.short))
        .await;
    assert_eq!(moved.status, StatusCode::PERMANENT_REDIRECT);

    // The team's page lists its cup ties; its league record has none.
    let team = team_of(&app, final_line.home_team_id);
    let page = anyone
        .get(&format!("/leagues/{}/teams/{}", l.short, team.id))
        .await;
    let page = anyone.get(page.location.as_deref().unwrap()).await;
    assert!(page.has("League Cup"), "{}", page.body);
    assert!(
        page.has("played 0: won 0, drawn 0, lost 0"),
        "{}",
        page.body
    );
    let season = db.season(l.id, l.season).await.unwrap();
    let calendar = anyone
        .get(&format!(
            "/leagues/{}/calendar/team/{}.ics",
            l.short, team.id
        ))
        .await;
    assert!(
        calendar.has("League Cup") && calendar.has("Final."),
        "{}",
        calendar.body
    );

    // The division's table counts no cup game; the player table counts
    // them only when asked.
    let table = db
        .fixture_lines(l.id, &FixtureScope::Division(l.division))
        .await
        .unwrap();
    assert!(table.is_empty());
    for counted in [Counted::League, Counted::Cups, Counted::All] {
        let lines = db.player_stat_lines(l.id, l.season, counted).await.unwrap();
        assert_eq!(lines.is_empty(), counted == Counted::League, "{counted:?}");
    }
    let path = format!("/leagues/{}/players-table/{}?min=0", l.short, season.id);
    let league_games = anyone.get(&path).await;
    assert!(
        !league_games.has(&team.players[0].1),
        "{}",
        league_games.body
    );
    let cup_games = anyone.get(&format!("{path}&games=cups")).await;
    assert!(cup_games.has(&team.players[0].1), "{}", cup_games.body);
    assert!(cup_games.has("cup games only"));
    let bad = anyone.get(&format!("{path}&games=friendlies")).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let player = anyone
        .get(&format!(
            "/leagues/{}/players/{}",
            l.short, team.players[0].0
        ))
        .await;
    let player = anyone.get(player.location.as_deref().unwrap()).await;
    assert!(player.has("Cup W/P"), "{}", player.body);
    assert!(player.has("League Cup: "), "{}", player.body);
}

async fn a_correction_that_changes_a_winner_moves_the_next_round_or_is_refused(db: Db) {
    let app = cup_league(&db, "cupb", &TEAMS[..4]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = team_cup(&mut sec, &app, "Knockout").await;
    redirected_to(&draw(&mut sec, &app, cup, 1, "random").await);
    // The final drawn before the semi-finals are played: the winners of
    // ties 1 and 2.
    redirected_to(&draw(&mut sec, &app, cup, 2, "bracket").await);
    let data = db.cup_data(l.id, cup).await.unwrap();
    let final_tie = data.ties.iter().find(|t| t.round == 2).unwrap();
    assert_eq!(final_tie.home_entrant_id, None);
    assert_eq!(final_tie.fixture_id, None);
    let lines = cup_lines(&db, &app, cup).await;
    let tie_line = |n: i64| {
        let tie = data
            .ties
            .iter()
            .find(|t| t.round == 1 && t.number == n)
            .unwrap();
        lines
            .iter()
            .find(|f| Some(f.id) == tie.fixture_id)
            .unwrap()
            .clone()
    };
    let (one, two) = (tie_line(1), tie_line(2));
    let actor = secretary(&db, &app).await;

    boneyard::app::results::walkover(&db, l.id, one.id, Side::Away, actor)
        .await
        .unwrap();
    let data = db.cup_data(l.id, cup).await.unwrap();
    let final_tie = *data.ties.iter().find(|t| t.round == 2).unwrap();
    assert_eq!(
        final_tie.home_entrant_id,
        Some(team_entrant(&data, one.home_team_id)),
        "tie 1's winner is in the final"
    );
    assert_eq!(final_tie.fixture_id, None, "its opponent is not known yet");
    boneyard::app::results::walkover(&db, l.id, two.id, Side::Home, actor)
        .await
        .unwrap();
    let final_line = cup_lines(&db, &app, cup)
        .await
        .into_iter()
        .find(|f| f.round == 2)
        .expect("the final is made once both sides are known");
    assert_eq!(
        (final_line.home_team_id, final_line.away_team_id),
        (one.home_team_id, two.away_team_id)
    );

    // A correction before the final is played: the final follows it.
    let mut secretary_client = app.with_secretary().await;
    let history = format!("/leagues/{}/matches/{}/history", l.short, one.id);
    let page = secretary_client
        .submit(
            &history,
            &format!("/leagues/{}/matches/{}/walkover", l.short, one.id),
            &[("conceded_by", "home")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    let moved = db.fixture(l.id, final_line.id).await.unwrap();
    assert_eq!(
        (moved.home_team_id, moved.away_team_id),
        (one.away_team_id, two.away_team_id),
        "the same match, its home side now tie 1's new winner"
    );

    // Once the final has a result, tie 1's winner can no longer change.
    let final_line = cup_lines(&db, &app, cup)
        .await
        .into_iter()
        .find(|f| f.round == 2)
        .unwrap();
    play(&db, &app, &final_line, 9).await;
    let refused = boneyard::app::results::walkover(&db, l.id, one.id, Side::Away, actor).await;
    match refused {
        Err(DbError::Refused(r)) => assert!(
            r.to_string().contains("tie 1 of the final")
                && r.to_string().contains("Nothing was saved"),
            "{r}"
        ),
        other => panic!("a correction past a played final is refused, not {other:?}"),
    }
    let kept = db.fixture(l.id, one.id).await.unwrap();
    assert_eq!(kept.conceded_by, Some(Side::Home), "nothing was saved");
    let page = secretary_client
        .submit(
            &history,
            &format!("/leagues/{}/matches/{}/walkover", l.short, one.id),
            &[("conceded_by", "away")],
        )
        .await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST, "{}", page.body);
    assert!(page.has("Correct that tie first"), "{}", page.body);

    // Nor can tie 2's winner be taken back by voiding its match.
    let refused = boneyard::app::results::void(&db, l.id, two.id, actor).await;
    assert!(matches!(refused, Err(DbError::Refused(_))), "{refused:?}");
    // Every step is in the cup's audit trail.
    let audit = db.audit_entries(l.id, "cup", cup.0).await.unwrap();
    assert!(audit.iter().filter(|a| a.action == "draw").count() == 2);
    assert!(audit.iter().any(
        |a| a.action == "advance" && a.after.as_deref().is_some_and(|t| t.contains("retarget"))
    ));
}

async fn a_void_tie_is_reinstated_and_played_again(db: Db) {
    let app = cup_league(&db, "cupv", &TEAMS[..2]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = team_cup(&mut sec, &app, "Final only").await;
    redirected_to(&draw(&mut sec, &app, cup, 1, "random").await);
    let tie = cup_lines(&db, &app, cup).await.remove(0);
    let base = format!("/leagues/{}/matches/{}", l.short, tie.id);
    let history = format!("{base}/history");
    let bracket = format!("/leagues/{}/cups/{cup}-final-only", l.short);
    let mut anyone = app.anonymous().await;
    // Voided (the match abandoned): nobody has won, and the history page
    // offers to take the void back.
    let page = sec.submit(&history, &format!("{base}/void"), &[]).await;
    let page = sec.get(&redirected_to(&page)).await;
    assert!(page.has("The fixture is void"), "{}", page.body);
    assert!(page.has("Reinstate the fixture"), "{}", page.body);
    assert!(!anyone.get(&bracket).await.has("Won by"));
    // Reinstated: to be played, a result can be entered and its winner
    // wins the cup.
    let page = sec
        .submit(&history, &format!("{base}/reinstate"), &[])
        .await;
    let page = sec.get(&redirected_to(&page)).await;
    assert!(
        page.has("Reinstated: the fixture is to be played"),
        "{}",
        page.body
    );
    assert!(!page.has("Reinstate the fixture"), "{}", page.body);
    let f = db.fixture(l.id, tie.id).await.unwrap();
    assert_eq!(f.status, FixtureStatus::Scheduled);
    let won = play(&db, &app, &tie, 3).await;
    let (winner, loser) = match won {
        Side::Home => (&tie.home_name, &tie.away_name),
        Side::Away => (&tie.away_name, &tie.home_name),
    };
    let page = anyone.get(&bracket).await;
    assert!(page.has(&format!("Won by {winner}.")), "{}", page.body);
    // A walkover against the winner, taken back: the played result counts
    // again.
    let actor = secretary(&db, &app).await;
    boneyard::app::results::walkover(&db, l.id, tie.id, won, actor)
        .await
        .unwrap();
    let page = anyone.get(&bracket).await;
    assert!(page.has(&format!("Won by {loser}.")), "{}", page.body);
    let page = sec
        .submit(&history, &format!("{base}/reinstate"), &[])
        .await;
    let page = sec.get(&redirected_to(&page)).await;
    assert!(page.has("its result counts again"), "{}", page.body);
    assert_eq!(
        db.fixture(l.id, tie.id).await.unwrap().status,
        FixtureStatus::Played
    );
    let page = anyone.get(&bracket).await;
    assert!(page.has(&format!("Won by {winner}.")), "{}", page.body);
    // A played fixture has nothing to take back; a captain may not.
    let refused = boneyard::app::results::reinstate(&db, l.id, tie.id, actor).await;
    assert!(matches!(refused, Err(DbError::Refused(_))), "{refused:?}");
}

async fn a_cup_is_renamed_and_one_made_by_mistake_deleted(db: Db) {
    let app = cup_league(&db, "cupr", &TEAMS[..2]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let kept = team_cup(&mut sec, &app, "League Cup").await;
    let mistake = team_cup(&mut sec, &app, "Leauge Cup").await;
    let edit = console(&app, &format!("/cups/{mistake}/edit"));
    // Another cup's name is refused beside the field; nothing changes.
    let page = sec.submit(&edit, &edit, &[("name", "League Cup")]).await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(
        error_beside(&page, "name").contains("already exists"),
        "{}",
        page.body
    );
    assert_eq!(db.cup(l.id, mistake).await.unwrap().name, "Leauge Cup");
    let page = sec.submit(&edit, &edit, &[("name", "Plate")]).await;
    let page = sec.get(&redirected_to(&page)).await;
    assert!(page.has("Cup Leauge Cup renamed Plate."), "{}", page.body);
    // The old address of its bracket still leads to it.
    let mut anyone = app.anonymous().await;
    let old = anyone
        .get(&format!("/leagues/{}/cups/{mistake}-leauge-cup", l.short))
        .await;
    assert_eq!(old.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(
        old.location.as_deref(),
        Some(format!("/leagues/{}/cups/{mistake}-plate", l.short).as_str())
    );
    // Not drawn yet: it can be deleted, entrants and all.
    let delete = console(&app, &format!("/cups/{mistake}/delete"));
    let page = sec.submit(&edit, &delete, &[]).await;
    let to = redirected_to(&page);
    let page = sec.get(&to).await;
    assert!(
        page.has("Cup Plate deleted, with its entrants."),
        "{}",
        page.body
    );
    assert!(matches!(
        db.cup(l.id, mistake).await,
        Err(DbError::NotFound(_))
    ));
    // A drawn cup has matches: deleting it is refused and keeps it.
    redirected_to(&draw(&mut sec, &app, kept, 1, "random").await);
    let edit = console(&app, &format!("/cups/{kept}/edit"));
    let page = sec.get(&edit).await;
    assert!(page.has("can no longer be deleted"), "{}", page.body);
    assert!(!page.has("Delete League Cup"));
    let refused = delete_cup(&db, l.id, kept, None).await;
    assert!(
        matches!(refused, Err(DbError::Refused(Refusal::CupHasMatches))),
        "{refused:?}"
    );
    assert_eq!(cup_lines(&db, &app, kept).await.len(), 1);
}

/// Both move a cup's draw: each waits for the other, and neither fails for
/// anything but the cup's own rule (a correction past a played tie).
async fn a_correction_racing_the_next_rounds_result_is_refused_or_saved_never_failed(db: Db) {
    let app = cup_league(&db, "cupd", &TEAMS[..4]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = team_cup(&mut sec, &app, "Race").await;
    redirected_to(&draw(&mut sec, &app, cup, 1, "random").await);
    redirected_to(&draw(&mut sec, &app, cup, 2, "bracket").await);
    let actor = secretary(&db, &app).await;
    let lines = cup_lines(&db, &app, cup).await;
    let (one, two) = (lines[0].clone(), lines[1].clone());
    boneyard::app::results::walkover(&db, l.id, one.id, Side::Away, actor)
        .await
        .unwrap();
    boneyard::app::results::walkover(&db, l.id, two.id, Side::Away, actor)
        .await
        .unwrap();
    let final_line = cup_lines(&db, &app, cup)
        .await
        .into_iter()
        .find(|f| f.round == 2)
        .unwrap();
    let result = simulated_result(
        l.rules,
        &l.format,
        team_of(&app, final_line.home_team_id),
        team_of(&app, final_line.away_team_id),
        5,
    );
    for round in 0..12 {
        let side = if round % 2 == 0 {
            Side::Home
        } else {
            Side::Away
        };
        let (correction, submitted) = tokio::join!(
            boneyard::app::results::walkover(&db, l.id, two.id, side, actor),
            boneyard::app::results::submit(&db, l.id, final_line.id, &result, actor),
        );
        assert!(
            matches!(correction, Ok(_) | Err(DbError::Refused(_))),
            "round {round}: {correction:?}"
        );
        // The final's result is refused only when the correction moved
        // its sides first (the card then names the wrong team).
        assert!(
            matches!(submitted, Ok(_) | Err(DbError::Refused(_))),
            "round {round}: {submitted:?}"
        );
    }
}

async fn a_random_draw_is_made_again_from_its_recorded_seed(db: Db) {
    let names = ["A1", "B2", "C3", "D4", "E5", "F6", "G7"];
    let app = cup_league(&db, "cupc", &names).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = team_cup(&mut sec, &app, "Shield").await;
    redirected_to(&draw(&mut sec, &app, cup, 1, "random").await);
    let audit = db.audit_entries(l.id, "cup", cup.0).await.unwrap();
    let entry = audit.iter().find(|a| a.action == "draw").unwrap();
    let after: serde_json::Value = serde_json::from_str(entry.after.as_deref().unwrap()).unwrap();
    let seed = cup::parse_seed(after["seed"].as_str().unwrap()).unwrap();
    let qualifiers: Vec<Slot> = serde_json::from_value(after["qualifiers"].clone()).unwrap();
    let data = db.cup_data(l.id, cup).await.unwrap();
    let entrant_ids: Vec<Slot> = data.entrants.iter().map(|e| Slot::Entrant(e.id)).collect();
    assert_eq!(
        qualifiers, entrant_ids,
        "the entrants, in the order drawn from"
    );
    // The seed makes the draw again: the ties stored, in order.
    let again = cup::draw_random(&qualifiers, seed);
    let stored: Vec<(Option<CupEntrantId>, Option<CupEntrantId>)> = data
        .ties
        .iter()
        .map(|t| (t.home_entrant_id, t.away_entrant_id))
        .collect();
    let made: Vec<(Option<CupEntrantId>, Option<CupEntrantId>)> = again
        .iter()
        .map(|d| {
            let id = |s: Slot| match s {
                Slot::Entrant(e) => e,
                Slot::WinnerOf(_) => panic!("round 1 is drawn from entrants"),
            };
            (Some(id(d.home)), d.away.map(id))
        })
        .collect();
    assert_eq!(stored, made);
    // And the round says its seed for all to see.
    let public = app
        .anonymous()
        .await
        .get(&format!("/leagues/{}/cups/{cup}-shield", l.short))
        .await;
    assert!(
        public.has(&format!("seed {}", cup::seed_text(seed))),
        "{}",
        public.body
    );
    assert!(public.has("bye"));
}

/// A singles tie between two players of `team`s, best of 3, as the
/// simulator plays it.
fn singles(
    app: &TestApp,
    (home, h): (&BuiltTeam, PlayerId),
    (away, a): (&BuiltTeam, PlayerId),
) -> MatchResult {
    let only = |team: &BuiltTeam, p: PlayerId| BuiltTeam {
        players: team.players.iter().filter(|x| x.0 == p).cloned().collect(),
        ..team.clone()
    };
    simulated_result(
        app.league.rules,
        &MatchFormat::with_boards(1, 0, 3),
        &only(home, h),
        &only(away, a),
        5,
    )
}

async fn a_singles_tie_names_only_its_two_entrants(db: Db) {
    let app = cup_league(&db, "cupd", &["Crown", "Anchor"]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = make_cup(
        &mut sec,
        &app,
        &[
            ("name", "Singles KO"),
            ("entrants", "singles"),
            ("best_of", "3"),
        ],
    )
    .await;
    let crown = &l.teams[0];
    let anchor = &l.teams[1];
    let (ann, bea, cy) = (&crown.players[0], &crown.players[1], &crown.players[2]);
    for p in [ann, bea, &anchor.players[0]] {
        redirected_to(&enter(&mut sec, &app, cup, &[("player", &p.0.to_string())]).await);
    }
    let data = db.cup_data(l.id, cup).await.unwrap();
    let entrant = |p: PlayerId| {
        data.entrants
            .iter()
            .find(|e| e.player_id == Some(p))
            .unwrap()
            .id
    };
    assert_eq!(
        data.entrants[0].team_id, crown.id,
        "named for the player's team"
    );
    // Drawn by hand: the two Crown players meet, Anchor's has the bye.
    let path = console(&app, &format!("/cups/{cup}/draw-by-hand"));
    let form = sec.get(&path).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    assert!(form.has("None: a bye"));
    let page = sec
        .submit(
            &path,
            &path,
            &[
                ("round", "1"),
                ("t1.home", &format!("e{}", entrant(ann.0))),
                ("t1.away", &format!("e{}", entrant(bea.0))),
                ("t2.home", &format!("e{}", entrant(anchor.players[0].0))),
                ("t2.away", ""),
                ("date", "2026-09-10"),
                ("time", "19:30"),
            ],
        )
        .await;
    redirected_to(&page);
    let line = cup_lines(&db, &app, cup).await.remove(0);
    assert_eq!(
        line.home_team_id, line.away_team_id,
        "two entrants of one team"
    );
    assert_eq!(line.home_label(), format!("{} (Crown)", ann.1));

    // The card offers each side its entrant only.
    let card = sec
        .get(&format!("/leagues/{}/matches/{}/card", l.short, line.id))
        .await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.body);
    let select = |field: &str| {
        let at = card.body.find(&format!("name=\"{field}\"")).unwrap();
        let end = card.body[at..].find("</select>").unwrap() + at;
        card.body[at..end].to_owned()
    };
    let (home, away) = (select("b0.home0"), select("b0.away0"));
    assert!(
        home.contains(&ann.1) && !home.contains(&bea.1) && !home.contains(&cy.1),
        "{home}"
    );
    assert!(away.contains(&bea.1) && !away.contains(&ann.1), "{away}");
    assert!(
        card.has("Game 3") || card.has("b0.g2"),
        "best of three: {}",
        card.body
    );

    let actor = secretary(&db, &app).await;
    // Another player of the team is not the entrant.
    let wrong = boneyard::app::results::submit(
        &db,
        l.id,
        line.id,
        &singles(&app, (crown, cy.0), (crown, bea.0)),
        actor,
    )
    .await;
    assert!(
        matches!(wrong, Err(DbError::Refused(Refusal::Board { .. }))),
        "{wrong:?}"
    );
    boneyard::app::results::submit(
        &db,
        l.id,
        line.id,
        &singles(&app, (crown, ann.0), (crown, bea.0)),
        actor,
    )
    .await
    .unwrap();
    let match_page = app
        .anonymous()
        .await
        .get(&format!("/leagues/{}/matches/{}", l.short, line.id))
        .await;
    assert!(
        match_page.has(&format!("{} (Crown)", bea.1)),
        "{}",
        match_page.body
    );
    assert!(match_page.has("<dt>Cup</dt>"));
    // The tie is on both players' pages and in their calendars.
    let mut anyone = app.anonymous().await;
    for p in [ann, bea] {
        let page = anyone
            .get(&format!("/leagues/{}/players/{}", l.short, p.0))
            .await;
        let page = anyone.get(page.location.as_deref().unwrap()).await;
        assert!(
            page.has("Cup ties") && page.has("Singles KO"),
            "{}",
            page.body
        );
        let calendar = anyone
            .get(&format!("/leagues/{}/calendar/player/{}.ics", l.short, p.0))
            .await;
        assert_eq!(calendar.status, StatusCode::OK);
        assert!(
            calendar.has(&format!("SUMMARY:{} (Crown) v {} (Crown)", ann.1, bea.1)),
            "{}",
            calendar.body
        );
    }
    let cy_calendar = anyone
        .get(&format!(
            "/leagues/{}/calendar/player/{}.ics",
            l.short, cy.0
        ))
        .await;
    assert!(
        !cy_calendar.has("Singles KO"),
        "a team-mate's tie is not Cy's"
    );
    assert!(!match_page.has("League points"));
    // Round 2 (the final) is drawn from round 1's winners, one of them
    // known already.
    redirected_to(&draw(&mut sec, &app, cup, 2, "bracket").await);
    assert_eq!(cup_lines(&db, &app, cup).await.len(), 2);
    let format = db.cup(l.id, cup).await.unwrap().match_format.unwrap();
    assert_eq!(format, MatchFormat::with_boards(1, 0, 3));
}

async fn a_seeded_draw_and_a_draw_by_hand(db: Db) {
    let app = cup_league(&db, "cupe", &TEAMS).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = make_cup(
        &mut sec,
        &app,
        &[
            ("name", "Plate"),
            ("entrants", "teams"),
            ("format", "own"),
            ("singles", "2"),
            ("pairs", "1"),
            ("best_of", "1"),
        ],
    )
    .await;
    for (i, t) in l.teams.iter().enumerate() {
        let seed = match i {
            3 => "1",
            4 => "2",
            _ => "",
        };
        redirected_to(
            &enter(
                &mut sec,
                &app,
                cup,
                &[("team", &t.id.to_string()), ("seed", seed)],
            )
            .await,
        );
    }
    let twice = enter(&mut sec, &app, cup, &[("team", &l.teams[0].id.to_string())]).await;
    assert_eq!(twice.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        error_beside(&twice, "team"),
        "That team is in the cup already."
    );
    let page = draw(&mut sec, &app, cup, 1, "seeded").await;
    redirected_to(&page);
    let data = db.cup_data(l.id, cup).await.unwrap();
    let bye_holders: Vec<TeamId> = data
        .ties
        .iter()
        .filter(|t| t.away_entrant_id.is_none())
        .map(|t| {
            data.entrants
                .iter()
                .find(|e| Some(e.id) == t.home_entrant_id)
                .unwrap()
                .team_id
        })
        .collect();
    assert!(bye_holders.contains(&l.teams[3].id) && bye_holders.contains(&l.teams[4].id));
    // The cup's own match format: three boards.
    let line = cup_lines(&db, &app, cup).await.remove(0);
    assert_eq!(line.cup_format, Some(MatchFormat::with_boards(2, 1, 1)));
    // Entrants are fixed once drawn.
    let late = enter(&mut sec, &app, cup, &[("team", &l.teams[0].id.to_string())]).await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(late.has("can no longer change"), "{}", late.body);

    // Round 2 by hand: the page names round 1's ties.
    let path = console(&app, &format!("/cups/{cup}/draw-by-hand"));
    let form = sec.get(&path).await;
    assert!(form.has("Winner of tie"), "{}", form.body);
    let ties: Vec<CupTieId> = data.ties.iter().map(|t| t.id).collect();
    let w = |i: usize| format!("w{}", ties[i]);
    // The same winner twice is refused, beside the tie.
    let page = sec
        .submit(
            &path,
            &path,
            &[
                ("round", "2"),
                ("t1.home", &w(0)),
                ("t1.away", &w(0)),
                ("t2.home", &w(2)),
                ("t2.away", &w(3)),
                ("date", "2026-11-05"),
            ],
        )
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(page.has("id=\"tie-1-error\""), "{}", page.body);
    assert!(page.has("is drawn in tie 1 already"), "{}", page.body);
    let page = sec
        .submit(
            &path,
            &path,
            &[
                ("round", "2"),
                ("t1.home", &w(3)),
                ("t1.away", &w(0)),
                ("t2.home", &w(2)),
                ("t2.away", &w(1)),
                ("date", "2026-11-05"),
                ("play_by", "yes"),
            ],
        )
        .await;
    redirected_to(&page);
    let data = db.cup_data(l.id, cup).await.unwrap();
    let round2 = data.rounds.iter().find(|r| r.round == 2).unwrap();
    assert!(round2.play_by);
    assert_eq!(round2.method, cup::Method::Hand);
    let tie = data
        .ties
        .iter()
        .find(|t| t.round == 2 && t.number == 1)
        .unwrap();
    assert_eq!(
        (tie.home_from, tie.away_from),
        (Some(ties[3]), Some(ties[0]))
    );
    let public = app
        .anonymous()
        .await
        .get(&format!("/leagues/{}/cups/{cup}-plate", l.short))
        .await;
    assert!(public.has("play by Thu 5 Nov 2026"), "{}", public.body);
    assert!(public.has("drawn on the night, entered by hand"));
}

async fn bad_cup_forms_are_refused_with_reasons(db: Db) {
    let app = cup_league(&db, "cupf", &TEAMS[..2]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cups = console(&app, &format!("/seasons/{}/cups", l.season));
    let page = sec
        .submit(
            &cups,
            &cups,
            &[("name", ""), ("entrants", "teams"), ("format", "season")],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    let page = sec
        .submit(
            &cups,
            &cups,
            &[("name", "X"), ("entrants", "dogs"), ("format", "season")],
        )
        .await;
    assert_eq!(
        error_beside(&page, "entrants"),
        "Pick teams, players or pairs."
    );
    let page = sec
        .submit(
            &cups,
            &cups,
            &[
                ("name", "X"),
                ("entrants", "teams"),
                ("format", "own"),
                ("singles", "0"),
                ("pairs", "0"),
                ("best_of", "2"),
            ],
        )
        .await;
    assert_eq!(
        error_beside(&page, "singles"),
        "A tie needs at least one board."
    );
    let page = sec
        .submit(
            &cups,
            &cups,
            &[("name", "X"), ("entrants", "singles"), ("best_of", "2")],
        )
        .await;
    assert!(error_beside(&page, "best_of").contains("best of an odd number"));
    let page = sec
        .submit(
            &cups,
            &cups,
            &[("name", "!!"), ("entrants", "teams"), ("format", "season")],
        )
        .await;
    assert!(error_beside(&page, "name").contains("letter or digit"));
    let cup = make_cup(
        &mut sec,
        &app,
        &[("name", "Cup"), ("entrants", "teams"), ("format", "season")],
    )
    .await;
    let page = sec
        .submit(
            &cups,
            &cups,
            &[("name", "Cup"), ("entrants", "teams"), ("format", "season")],
        )
        .await;
    assert_eq!(
        error_beside(&page, "name"),
        "A cup with this name already exists in this season."
    );

    // Drawing before there are two entrants, or with a bad date.
    let page = draw(&mut sec, &app, cup, 1, "random").await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert!(page.has("at least two entrants"), "{}", page.body);
    for t in &l.teams {
        redirected_to(&enter(&mut sec, &app, cup, &[("team", &t.id.to_string())]).await);
    }
    let cup_page = console(&app, &format!("/cups/{cup}"));
    let page = sec
        .submit(
            &cup_page,
            &format!("{cup_page}/draw"),
            &[
                ("round", "1"),
                ("method", "random"),
                ("date", "1 Oct"),
                ("time", "25:00"),
            ],
        )
        .await;
    assert_eq!(error_beside(&page, "date"), "Give the date as YYYY-MM-DD.");
    assert!(page.has("id=\"time-error\""));
    let page = sec
        .submit(
            &cup_page,
            &format!("{cup_page}/draw"),
            &[
                ("round", "1"),
                ("method", "bracket"),
                ("date", "2026-10-01"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        error_beside(&page, "method").contains("no bracket before it"),
        "{}",
        page.body
    );
    let page = sec
        .submit(
            &cup_page,
            &format!("{cup_page}/draw"),
            &[
                ("round", "1"),
                ("method", "random"),
                ("date", "2026-10-01"),
                ("venue", "999999"),
            ],
        )
        .await;
    assert!(page.has("id=\"venue-error\""));
    // Whatever is typed, no 500.
    for garbage in [
        "",
        "e",
        "w",
        "x1",
        "e-1",
        "w99999999999999999999",
        "%00",
        "<b>",
    ] {
        let path = console(&app, &format!("/cups/{cup}/draw-by-hand"));
        let page = sec
            .submit(
                &path,
                &path,
                &[("round", garbage), ("t1.home", garbage), ("date", garbage)],
            )
            .await;
        assert!(page.status.is_client_error(), "{garbage}: {}", page.status);
    }
    // Sent twice: the second finds round 1 drawn.
    redirected_to(&draw(&mut sec, &app, cup, 1, "random").await);
    let again = draw(&mut sec, &app, cup, 1, "random").await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        again.has("this page was out of date") || again.has("no more rounds"),
        "{}",
        again.body
    );
    assert_eq!(db.cup_data(l.id, cup).await.unwrap().rounds.len(), 1);

    let page = sec.get(&console(&app, "/cups/999999")).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    let page = sec.get(&console(&app, "/cups/nope")).await;
    assert!(page.status.is_client_error());
    let public = app
        .anonymous()
        .await
        .get(&format!("/leagues/{}/cups/nope", l.short))
        .await;
    assert_eq!(public.status, StatusCode::NOT_FOUND);

    // A singles knockout in a season of partnership sets.
    let sets = TestApp::new(
        &db,
        LeagueBuilder::new("sets")
            .rules(Format::HandsWon)
            .teams(&["P", "Q"])
            .fixtures(0),
    )
    .await;
    let mut sets_sec = sets.with_secretary().await;
    let path = console(&sets, &format!("/seasons/{}/cups", sets.league.season));
    let page = sets_sec
        .submit(
            &path,
            &path,
            &[
                ("name", "Singles"),
                ("entrants", "singles"),
                ("best_of", "1"),
            ],
        )
        .await;
    assert!(error_beside(&page, "entrants").contains("pairs knockout"));
}

async fn only_the_leagues_secretaries_run_its_cups(db: Db) {
    let app = cup_league(&db, "cupg", &TEAMS[..2]).await;
    let other = cup_league(&db, "cuph", &TEAMS[..2]).await;
    let l = &app.league;
    let mut sec = app.with_secretary().await;
    let cup = make_cup(
        &mut sec,
        &app,
        &[("name", "Cup"), ("entrants", "teams"), ("format", "season")],
    )
    .await;
    let mut captain = app.with_captain(0).await;
    let mut stranger = other.with_secretary().await;
    let mut anyone = app.anonymous().await;
    let gets = [
        console(&app, &format!("/seasons/{}/cups", l.season)),
        console(&app, &format!("/cups/{cup}")),
        console(&app, &format!("/cups/{cup}/draw-by-hand")),
    ];
    for path in &gets {
        assert_eq!(
            captain.get(path).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
        assert!(stranger.get(path).await.status.is_client_error(), "{path}");
        assert_eq!(
            anyone.get(path).await.status,
            StatusCode::SEE_OTHER,
            "{path}"
        );
    }
    // Another league's console cannot reach this cup by its id.
    let theirs = format!("/leagues/{}/console/cups/{cup}", other.league.short);
    assert_eq!(stranger.get(&theirs).await.status, StatusCode::NOT_FOUND);
    // No form without its token.
    let page = sec
        .post(
            &format!("{}/entrants", gets[1]),
            &[("team", &l.teams[0].id.to_string())],
        )
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(db.cup_data(l.id, cup).await.unwrap().entrants.is_empty());
    let page = captain
        .post(
            &format!("{}/draw", gets[1]),
            &[("round", "1"), ("method", "random")],
        )
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
}
