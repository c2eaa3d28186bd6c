//! The demo league: every stored game re-scores to what was stored, the
//! summary says what is in the database, and a seed always makes the same
//! leagues; made on any day at any hour it is a league as it is that week
//! (tonight's matches under way, last week's results going through the
//! workflow, next week's to come, every result entered by its own
//! accounts); the accounts it makes have the roles they say, passwords new
//! on every run, and sign in with the password printed.
//!
//! Each body runs on a fresh SQLite file, and on a fresh Postgres database
//! when `BONEYARD_TEST_POSTGRES` holds a server address (`demo::sqlite::NAME`,
//! `demo::postgres::NAME`).

use std::collections::{BTreeMap, HashMap, HashSet};

use axum::http::StatusCode;
use boneyard::db::{
    Db, Fixture, FixtureStatus, LeagueId, ResultStatus, Role, RoleKind, SeasonId, UserId,
};
use boneyard::demo::{
    AccountTable, DemoAccount, DemoOptions, DemoSummary, PLAYER_ACCOUNTS, fill, fill_at,
    fill_with_accounts, fill_with_accounts_at,
};
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::score_record;
use boneyard::web::account::{check_password, check_username};
use boneyard::web::auth::verify_password;
use chrono::{DateTime, Duration, Utc};

use crate::harness::client::Client;
use crate::support::on_both;

fn small() -> DemoOptions {
    DemoOptions {
        leagues: 3,
        teams: 4,
        seasons: 2,
        divisions: None,
        seed: 7,
    }
}

async fn league_ids(db: &Db) -> HashSet<LeagueId> {
    db.leagues()
        .await
        .expect("leagues")
        .into_iter()
        .map(|l| l.id)
        .collect()
}

/// Reads back every league made since `before`, checks it, and counts it
/// the way [`DemoSummary`] does.
async fn check_and_count(db: &Db, before: &HashSet<LeagueId>) -> DemoSummary {
    let mut n = DemoSummary::default();
    let mut game_penalty_kinds = HashSet::new();
    let mut seen = HashSet::new();
    for league in db.leagues().await.expect("leagues") {
        if before.contains(&league.id) {
            continue;
        }
        let l = league.id;
        n.leagues += 1;
        n.venues += db.venues(l).await.expect("venues").len() as u64;
        let teams = db.teams(l).await.expect("teams");
        n.teams += teams.len() as u64;
        n.players += db.players(l).await.expect("players").len() as u64;
        n.fines += db.fines(l).await.expect("fines").len() as u64;
        let kinds: BTreeMap<_, _> = db
            .penalty_kinds(l)
            .await
            .expect("penalty kinds")
            .into_iter()
            .map(|k| (k.id, k.code))
            .collect();
        for code in [
            "table-warning",
            "late-card",
            "team-late",
            "unregistered",
            "fine",
        ] {
            assert!(
                kinds.values().any(|c| c == code),
                "{}: no penalty kind `{code}`",
                league.short_name
            );
        }

        // Newest first: the first is the half-played season, named for
        // the year it started in (a start before June is the season of the
        // year before).
        let seasons = db.seasons(l).await.expect("seasons");
        let first = db
            .fixtures(l, seasons[0].id)
            .await
            .expect("fixtures")
            .iter()
            .filter_map(|f| f.starts_at)
            .min()
            .expect("fixtures with dates");
        let started = league.time_zone.local(first).date();
        let year =
            chrono::Datelike::year(&started) - i32::from(chrono::Datelike::month(&started) < 6);
        assert_eq!(seasons[0].name, format!("{year}/{:02}", (year + 1) % 100));
        for (i, season) in seasons.iter().enumerate() {
            let current = i == 0;
            let s = season.id;
            n.seasons += 1;
            // Past seasons are kept as they were; the current one is open.
            assert_eq!(season.is_closed(), !current, "{}", season.name);
            let format = MatchFormat::parse(season.format, &season.match_format)
                .expect("a match format the league core reads");
            assert_eq!(format, MatchFormat::default_for(season.format));
            n.divisions += db.divisions(l, s).await.expect("divisions").len() as u64;
            let penalties = db.penalties(l, s).await.expect("penalties");
            n.penalties += penalties.len() as u64;
            let codes: HashSet<&str> = penalties
                .iter()
                .map(|p| kinds[&p.kind_id].as_str())
                .collect();
            for code in [
                "table-warning",
                "late-card",
                "team-late",
                "unregistered",
                "fine",
            ] {
                assert!(
                    codes.contains(code),
                    "{} {}: no `{code}` penalty",
                    league.short_name,
                    season.name
                );
            }
            for entry in db.team_entries(l, s).await.expect("entries") {
                let captains = db
                    .captains(l, s, entry.team_id)
                    .await
                    .expect("captains")
                    .len();
                assert!((1..=2).contains(&captains), "{captains} captains");
            }

            let (fixtures, cup_ties): (Vec<_>, Vec<_>) = db
                .fixtures(l, s)
                .await
                .expect("fixtures")
                .into_iter()
                .partition(|f| f.cup_id.is_none());
            cups_part_played(db, l, s, current, &cup_ties).await;
            n.fixtures += fixtures.len() as u64;
            let mut statuses: BTreeMap<&str, u32> = BTreeMap::new();
            let mut pending: BTreeMap<&str, u32> = BTreeMap::new();
            for f in &fixtures {
                *statuses.entry(f.status.as_str()).or_default() += 1;
                let Some(stored) = db.result(l, f.id).await.expect("result") else {
                    assert_ne!(f.status, FixtureStatus::Played, "played without a result");
                    continue;
                };
                assert_eq!(f.status, FixtureStatus::Played, "a result, not played");
                if stored.version.status != ResultStatus::Approved {
                    *pending.entry(stored.version.status.as_str()).or_default() += 1;
                }
                n.results += 1;
                assert_eq!(stored.result.boards.len(), format.boards.len());
                for (b, board) in stored.result.boards.iter().enumerate() {
                    // As the match format says, and played to its end.
                    let spec = &format.boards[b];
                    assert_eq!(board.kind.as_str(), spec.kind.as_str());
                    let mut won = [0, 0];
                    for game in &board.games {
                        won[game
                            .outcome
                            .as_ref()
                            .and_then(|o| o.winner)
                            .expect("a winner")] += 1;
                    }
                    assert!(board.games.len() <= spec.best_of as usize);
                    assert_eq!(won.into_iter().max(), Some(MatchFormat::games_to_win(spec)));
                    let mut next_pose: Option<String> = None;
                    for (g, game) in board.games.iter().enumerate() {
                        let record = &game.record;
                        n.games += 1;
                        n.hands += record.hands.len() as u64;
                        n.game_penalties += record.penalties.len() as u64;
                        game_penalty_kinds.extend(record.penalties.iter().map(|p| p.kind.clone()));
                        let where_ = format!("fixture {}, board {}, game {}", f.id, b + 1, g + 1);
                        // Only a board's first game opens with the draw.
                        if g == 0 {
                            assert!(record.draw.is_some(), "{where_}: no draw");
                        } else {
                            assert_eq!(record.first_pose, next_pose, "{where_}: pose");
                        }
                        let stored = game.outcome.as_ref().expect("an outcome");
                        let outcome = score_record(record)
                            .unwrap_or_else(|e| panic!("{where_}: refused: {e}"));
                        let totals = outcome.totals.map(i64::from);
                        assert_eq!(stored.totals, totals, "{where_}: totals");
                        assert_eq!(stored.winner, outcome.winner, "{where_}: winner");
                        assert_eq!(stored.finished, outcome.finished, "{where_}: finished");
                        assert!(outcome.finished, "{where_}: unfinished");
                        let poser = record.players.get(outcome.next_pose).cloned();
                        assert_eq!(stored.next_pose, poser, "{where_}: next pose");
                        next_pose = poser;
                    }
                }
            }
            if current {
                // Last week's results going through the workflow; a league
                // as small as these keeps half its played fixtures
                // approved, so it may show fewer of the other cases.
                assert!(statuses.contains_key("scheduled"), "nothing to play");
                for status in ["entered", "confirmed", "disputed"] {
                    assert_eq!(pending.get(status), Some(&1), "{status}");
                }
                for status in ["postponed", "walkover", "void"] {
                    let n = statuses.get(status).copied().unwrap_or(0);
                    assert!(n <= 1, "{n} {status}");
                    if n > 0 {
                        seen.insert(status);
                    }
                }
            } else {
                assert_eq!(statuses.get("played").copied(), Some(fixtures.len() as u32));
                assert!(pending.is_empty(), "a finished season has pending results");
            }
        }
    }
    for kind in ["exposed", "late", "violation"] {
        assert!(
            game_penalty_kinds.contains(kind),
            "no in-game `{kind}` penalty anywhere"
        );
    }
    for status in ["postponed", "walkover"] {
        assert!(seen.contains(status), "no {status} fixture anywhere");
    }
    n
}

/// The season being played has a team cup and a singles (or pairs)
/// knockout, drawn and played part of the way, each result in the cup's
/// own format; a finished season has none.
async fn cups_part_played(db: &Db, l: LeagueId, s: SeasonId, current: bool, ties: &[Fixture]) {
    let cups = db.cups(l, s).await.expect("cups");
    if !current {
        assert!(cups.is_empty() && ties.is_empty());
        return;
    }
    let kinds: Vec<&str> = cups.iter().map(|c| c.entrants.as_str()).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(kinds.contains(&"teams"), "{kinds:?}");
    for cup in &cups {
        let data = db.cup_data(l, cup.id).await.expect("cup");
        assert!(!data.rounds.is_empty(), "{}: drawn", cup.name);
        let mine: Vec<&Fixture> = ties.iter().filter(|f| f.cup_id == Some(cup.id)).collect();
        let (mut approved, mut undecided) = (0, 0);
        for f in &mine {
            if let Some(stored) = db.result(l, f.id).await.expect("result") {
                let boards = cup.match_format.as_ref().map(|m| m.boards.len());
                if let Some(boards) = boards {
                    assert_eq!(stored.result.boards.len(), boards, "{}", cup.name);
                }
                let done = stored.version.status == ResultStatus::Approved;
                approved += usize::from(done);
                undecided += usize::from(!done);
            } else if f.status != FixtureStatus::Walkover {
                undecided += 1;
            }
        }
        assert!(approved > 0, "{}: some ties decided", cup.name);
        // A league of two or three teams may have played its final.
        if data.entrants.len() >= 4 {
            assert!(undecided > 0, "{}: played part of the way", cup.name);
        }
    }
}

on_both!(
    a_demo_made_at_any_hour_of_any_day_is_a_league_this_week,
    every_game_rescores_and_the_summary_counts_the_database,
    the_same_seed_makes_the_same_leagues,
    options_out_of_range_are_refused,
    the_accounts_have_their_roles_and_sign_in,
    every_run_has_new_passwords_and_free_usernames,
);

// ---------------------------------------------------------------------------
// A league as it is this week

fn at(utc: &str) -> DateTime<Utc> {
    utc.parse().expect("a time")
}

/// The demo's accounts, by their users.
async fn roles_of(db: &Db, accounts: &[DemoAccount]) -> HashMap<UserId, Role> {
    let mut out = HashMap::new();
    for a in accounts {
        let user = db.user_by_username(&a.username).await.expect("the account");
        let role = db.user_roles(user.id).await.expect("roles").remove(0);
        out.insert(user.id, role);
    }
    out
}

/// What [`this_week`] counted.
#[derive(Debug, Default)]
struct Week {
    /// League fixtures more than a week old with no result (nor a
    /// walkover or void).
    old_without_result: usize,
    /// Of them, or younger, dated before today.
    missing: usize,
}

/// Checks each league made since `before` by a demo made at `now`, with
/// `accounts`, as a league is in that week (in its own time zone):
///
/// - every result entered by one of the demo's accounts, a captain of one
///   of the two teams (or the secretary), after its match and before
///   `now`; confirmed or disputed by the other team's captain, approved by
///   the secretary, after it was entered and before `now`;
/// - tonight's league fixtures (dated today) with some boards tapped today
///   before `now`, one at least in play a hand or more in, and others not
///   started (whole matches, and boards of the matches under way), none
///   with a result; no pad anywhere else;
/// - next week's fixtures, a week today;
/// - last week's results going through the workflow: one awaiting the
///   other captain, one awaiting approval, one disputed;
/// - every fixture dated before today settled (a result, a walkover or a
///   void, or postponed to a night to come) but for a result left late.
async fn this_week(
    db: &Db,
    accounts: &[DemoAccount],
    before: &HashSet<LeagueId>,
    now: DateTime<Utc>,
) -> Week {
    let roles = roles_of(db, accounts).await;
    let mut week = Week::default();
    for league in db.leagues().await.expect("leagues") {
        if before.contains(&league.id) {
            continue;
        }
        let (l, zone) = (league.id, league.time_zone);
        let today = zone.local(now).date();
        let date = |f: &Fixture| zone.local(f.starts_at.expect("dated")).date();
        let seasons = db.seasons(l).await.expect("seasons");
        let current = seasons[0].id;
        let mut pending: HashSet<ResultStatus> = HashSet::new();
        let (mut tonight, mut under_way, mut not_started, mut in_play) = (0, 0, 0, 0);
        let mut next_week = 0;
        for season in &seasons {
            let format = MatchFormat::parse(season.format, &season.match_format).expect("format");
            for f in db.fixtures(l, season.id).await.expect("fixtures") {
                let what = format!("{} fixture {} on {}", league.short_name, f.id, date(&f));
                let stored = db.result(l, f.id).await.expect("result");
                let pads = db.pad_boards(l, f.id).await.expect("pads");
                let league_fixture = f.cup_id.is_none();
                if let Some(stored) = &stored {
                    let v = &stored.version;
                    let by = v.created_by.expect("entered by someone");
                    let role = roles
                        .get(&by)
                        .unwrap_or_else(|| panic!("{what}: entered by {by}, not a demo account"));
                    let sides = [f.home_team_id, f.away_team_id];
                    let entering = match role.kind {
                        RoleKind::Captain => role.team_id.expect("a captain's team"),
                        RoleKind::Secretary => f.home_team_id,
                        other => panic!("{what}: entered by a {other}"),
                    };
                    assert_eq!(role.league_id, Some(l), "{what}");
                    assert!(sides.contains(&entering), "{what}: entered by another team");
                    assert!(
                        v.created_at <= now,
                        "{what}: entered after the demo was made"
                    );
                    // Cup ties played before the night they were to be
                    // played by are dated the night they were played.
                    assert!(
                        v.created_at >= f.starts_at.unwrap(),
                        "{what}: before its match"
                    );
                    if v.status != ResultStatus::Entered {
                        let by = v.status_by.expect("a status set by someone");
                        let role = roles.get(&by).unwrap_or_else(|| {
                            panic!("{what}: {} by {by}, not a demo account", v.status)
                        });
                        let status_at = v.status_at.expect("when");
                        assert!(v.created_at <= status_at && status_at <= now, "{what}");
                        if v.status == ResultStatus::Approved {
                            assert_eq!(role.kind, RoleKind::Secretary, "{what}");
                            assert_eq!(role.league_id, Some(l), "{what}");
                        } else {
                            assert_eq!(role.kind, RoleKind::Captain, "{what}");
                            let other = role.team_id.expect("a team");
                            assert!(sides.contains(&other) && other != entering, "{what}");
                        }
                    }
                }
                if !league_fixture {
                    assert!(pads.is_empty(), "{what}: a cup tie on the pads");
                    continue;
                }
                let day = date(&f);
                let settled = stored.is_some()
                    || matches!(f.status, FixtureStatus::Walkover | FixtureStatus::Void);
                if day < today && !settled && f.status != FixtureStatus::Postponed {
                    week.missing += 1;
                }
                if f.starts_at.unwrap() + Duration::days(7) < now && !settled {
                    week.old_without_result += 1;
                }
                if season.id != current {
                    assert!(settled, "{what}: a past season's fixture unsettled");
                    assert!(pads.is_empty(), "{what}: a past season's pads");
                    continue;
                }
                if f.status == FixtureStatus::Postponed {
                    assert!(day > today, "{what}: postponed to a night gone");
                }
                if let Some(stored) = &stored {
                    if stored.version.status != ResultStatus::Approved {
                        pending.insert(stored.version.status);
                    }
                }
                if day == today {
                    tonight += 1;
                    assert!(stored.is_none(), "{what}: tonight's, with a result");
                    assert_eq!(f.status, FixtureStatus::Scheduled, "{what}");
                    if pads.is_empty() {
                        not_started += 1;
                        continue;
                    }
                    under_way += 1;
                    assert!(
                        pads.len() < format.boards.len(),
                        "{what}: every board started"
                    );
                    for pad in &pads {
                        let tapped = pad.updated_at;
                        assert!(tapped <= now, "{what}: tapped after the demo was made");
                        assert_eq!(
                            zone.local(tapped).date(),
                            today,
                            "{what}: tapped another day"
                        );
                        assert!(!pad.taps.is_empty());
                        if pad.summary.winner.is_none() && pad.summary.hand >= 1 {
                            in_play += 1;
                        }
                    }
                } else {
                    assert!(pads.is_empty(), "{what}: pads of another night");
                }
                if day > today && day <= today + Duration::days(7) {
                    next_week += 1;
                    assert!(stored.is_none(), "{what}: next week's, with a result");
                }
            }
        }
        let name = &league.short_name;
        assert!(tonight > 0, "{name}: no match tonight");
        assert!(
            under_way > 0 && in_play > 0,
            "{name}: no board in play tonight"
        );
        assert!(not_started > 0, "{name}: every match tonight started");
        assert!(next_week > 0, "{name}: nothing next week");
        for status in [
            ResultStatus::Entered,
            ResultStatus::Confirmed,
            ResultStatus::Disputed,
        ] {
            assert!(pending.contains(&status), "{name}: none {status}");
        }
    }
    week
}

/// A demo made now, as a newcomer gets it (a league of each format, a
/// past season), and one made at the edges of days and weeks: 00:30 on a
/// Monday and 23:30 on a Sunday in winter (GMT), 00:30 on a Monday in
/// summer (BST: 23:30 UTC the day before), and the Saturday before
/// Christmas weeks, when next week's round is on the first of them.
async fn a_demo_made_at_any_hour_of_any_day_is_a_league_this_week(db: Db) {
    // Five teams a division: a bye each round.
    let options = DemoOptions {
        leagues: 3,
        teams: 5,
        seasons: 2,
        divisions: None,
        seed: 9,
    };
    let before = league_ids(&db).await;
    let now = boneyard::db::now();
    let demo = fill_with_accounts_at(&db, &options, now)
        .await
        .expect("demo");
    let week = this_week(&db, &demo.accounts, &before, now).await;
    assert!(
        (1..=3).contains(&week.old_without_result),
        "a couple left late, not {week:?}"
    );
    assert_eq!(week.missing, week.old_without_result, "{week:?}");

    let one = DemoOptions {
        leagues: 1,
        seasons: 1,
        divisions: Some(1),
        ..options
    };
    for made in [
        "2026-11-30T00:30:00Z",
        "2026-11-29T23:30:00Z",
        "2027-06-13T23:30:00Z",
        "2026-12-19T21:00:00Z",
    ] {
        let before = league_ids(&db).await;
        let demo = fill_with_accounts_at(&db, &one, at(made))
            .await
            .expect("demo");
        let week = this_week(&db, &demo.accounts, &before, at(made)).await;
        assert!(week.missing <= 1, "{made}: {week:?}");
    }
}

async fn every_game_rescores_and_the_summary_counts_the_database(db: Db) {
    let summary = fill(&db, &small()).await.expect("demo");
    assert_eq!(summary.leagues, 3);
    assert!(summary.games > 0 && summary.hands > summary.games);
    let counted = check_and_count(&db, &HashSet::new()).await;
    assert_eq!(counted, summary, "the summary counts what is stored");
    // The benchmark's demo: leagues only.
    assert_eq!(db.user_count().await.expect("users"), 0);
    board_sums_read_as_summed_from_the_games(&db).await;
    seat_counts_read_as_counted_from_the_plays(&db).await;
    // Each league has matches on the score pads tonight: a board decided,
    // others a few hands in.
    for l in league_ids(&db).await {
        let live = db
            .live_boards(l, boneyard::db::now() - Duration::hours(1))
            .await
            .expect("live boards");
        assert!(live.iter().any(|b| b.summary.winner.is_some()), "{live:?}");
        assert!(
            live.iter()
                .any(|b| b.summary.winner.is_none() && b.summary.hand >= 1),
            "{live:?}"
        );
    }
}

/// The sums kept on each board when its version was written read as the
/// same sums worked out from every game and seat, for every season of
/// every league: results in every state of the workflow, corrections among
/// them, approved only or not (conceded boards: `web::card`).
async fn board_sums_read_as_summed_from_the_games(db: &Db) {
    use boneyard::db::pages::FixtureScope;
    let mut lines = 0;
    for l in league_ids(db).await {
        for season in db.seasons(l).await.expect("seasons") {
            for approved_only in [false, true] {
                let scope = FixtureScope::Season(season.id);
                let kept = db
                    .board_lines(l, &scope, approved_only)
                    .await
                    .expect("kept");
                let summed = db
                    .board_lines_from_games(l, &scope, approved_only)
                    .await
                    .expect("summed");
                assert_eq!(kept, summed, "league {l:?}, season {}", season.name);
                lines += kept.len();
            }
        }
    }
    assert!(lines > 100, "{lines} board lines compared");
}

/// The 8-point plays and chip-outs kept on each seat when its version was
/// written read, in the player table's sums, as the same counts made from
/// every play of the season's hands: every season of every league, league
/// games, cup games and both.
async fn seat_counts_read_as_counted_from_the_plays(db: &Db) {
    use boneyard::db::stats::Counted;
    let (mut eights, mut chip_outs) = (0, 0);
    for l in league_ids(db).await {
        for season in db.seasons(l).await.expect("seasons") {
            for counted in [Counted::League, Counted::Cups, Counted::All] {
                let kept = db
                    .player_stat_lines(l, season.id, counted)
                    .await
                    .expect("kept");
                let from_plays = db
                    .player_stat_lines_from_plays(l, season.id, counted)
                    .await
                    .expect("counted");
                assert_eq!(
                    kept, from_plays,
                    "league {l:?}, season {}, {counted:?}",
                    season.name
                );
                eights += kept.iter().map(|p| p.eights).sum::<i64>();
                chip_outs += kept.iter().map(|p| p.chip_outs).sum::<i64>();
            }
        }
    }
    assert!(
        eights > 100 && chip_outs > 100,
        "{eights} eights, {chip_outs} chip-outs"
    );
}

/// Everything a league holds, told by names rather than ids (which differ
/// from run to run in one database), and without the times the database
/// stamps itself.
async fn describe(db: &Db, l: LeagueId) -> Vec<String> {
    let league = db.league(l).await.expect("league");
    let teams: BTreeMap<_, _> = db
        .teams(l)
        .await
        .expect("teams")
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let players: BTreeMap<_, _> = db
        .players(l)
        .await
        .expect("players")
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let venues: BTreeMap<_, _> = db
        .venues(l)
        .await
        .expect("venues")
        .into_iter()
        .map(|v| {
            (
                v.id,
                format!("{} ({}; {} tables)", v.name, v.address, v.tables),
            )
        })
        .collect();
    let kinds: BTreeMap<_, _> = db
        .penalty_kinds(l)
        .await
        .expect("kinds")
        .into_iter()
        .map(|k| {
            (
                k.id,
                format!("{} {} {} {}", k.code, k.name, k.effect, k.amount),
            )
        })
        .collect();
    let team = |id| teams.get(&id).cloned();
    let player = |id| players.get(&id).cloned();
    let mut out = vec![
        format!(
            "{} | {} | {}",
            league.name, league.rules_summary, league.contact
        ),
        format!("{:?}", teams.values().collect::<Vec<_>>()),
        format!("{:?}", players.values().collect::<Vec<_>>()),
        format!("{:?}", venues.values().collect::<Vec<_>>()),
        format!("{:?}", kinds.values().collect::<Vec<_>>()),
    ];
    for fine in db.fines(l).await.expect("fines") {
        out.push(format!(
            "fine {:?} {:?} {} {} {:?}",
            fine.team_id.map(team),
            fine.player_id.map(player),
            fine.amount_pence,
            fine.reason,
            fine.paid_at
        ));
    }
    for season in db.seasons(l).await.expect("seasons") {
        out.push(format!(
            "{} {} {} {}",
            season.name,
            season.format,
            season.match_format,
            serde_json::Value::Object(season.options.clone())
        ));
        for p in db.penalties(l, season.id).await.expect("penalties") {
            out.push(format!(
                "penalty {} {:?} {:?} {} {}",
                kinds[&p.kind_id],
                p.team_id.map(team),
                p.player_id.map(player),
                p.amount,
                p.note
            ));
        }
        for entry in db.team_entries(l, season.id).await.expect("entries") {
            let captains: Vec<String> = db
                .captains(l, season.id, entry.team_id)
                .await
                .expect("captains")
                .into_iter()
                .map(|p| p.name)
                .collect();
            let registered: Vec<String> = db
                .team_players(l, season.id, entry.team_id)
                .await
                .expect("players")
                .into_iter()
                .map(|p| p.name)
                .collect();
            let division = db.division(l, entry.division_id).await.expect("division");
            out.push(format!(
                "{:?} in {}: {registered:?}, captains {captains:?}",
                team(entry.team_id),
                division.name
            ));
        }
        for f in db.fixtures(l, season.id).await.expect("fixtures") {
            out.push(format!(
                "round {} {:?} {:?} v {:?} at {:?}: {} {:?}",
                f.round,
                f.starts_at,
                team(f.home_team_id),
                team(f.away_team_id),
                f.venue_id.map(|v| venues[&v].clone()),
                f.status,
                f.conceded_by
            ));
            if let Some(stored) = db.result(l, f.id).await.expect("result") {
                out.push(format!("{}", stored.version.status));
                for board in stored.result.boards {
                    let names = |ids: &[boneyard::db::PlayerId]| -> Vec<Option<String>> {
                        ids.iter().map(|&id| player(id)).collect()
                    };
                    out.push(format!(
                        "{} {:?} {:?}",
                        board.kind,
                        names(&board.home),
                        names(&board.away)
                    ));
                    for game in board.games {
                        out.push(format!(
                            "{:?} {:?}",
                            serde_json::to_string(&game.record),
                            game.outcome
                        ));
                    }
                }
            }
        }
    }
    out
}

async fn the_same_seed_makes_the_same_leagues(db: Db) {
    // Three runs in one database: the later ones take `wessex-2`, ... Three
    // teams a division, so each round one has a bye.
    let mut runs = Vec::new();
    for seed in [7, 7, 8] {
        let before = league_ids(&db).await;
        let options = DemoOptions {
            seed,
            teams: 3,
            ..small()
        };
        // Made on the same day: the same fixtures on the same nights.
        let summary = fill_at(&db, &options, at("2026-11-27T11:30:00Z"))
            .await
            .expect("demo");
        let mut made: Vec<LeagueId> = league_ids(&db).await.difference(&before).copied().collect();
        made.sort();
        // League by league, in no particular order: on Postgres several
        // leagues are written at once, so their ids interleave.
        let mut content = Vec::new();
        for l in made {
            content.push(describe(&db, l).await);
        }
        content.sort();
        runs.push((summary, content));
    }
    assert_eq!(runs[0].0, runs[1].0, "summaries");
    assert!(runs[0].1 == runs[1].1, "the same seed made other leagues");
    assert!(runs[0].1 != runs[2].1, "another seed made the same leagues");
    let short_names: HashSet<String> = db
        .leagues()
        .await
        .expect("leagues")
        .into_iter()
        .map(|l| l.short_name)
        .collect();
    for name in ["wessex", "wessex-2", "wessex-3", "purbeck-3", "mendip-2"] {
        assert!(
            short_names.contains(name),
            "no league `{name}`: {short_names:?}"
        );
    }
}

async fn options_out_of_range_are_refused(db: Db) {
    for options in [
        DemoOptions {
            teams: 1,
            ..DemoOptions::default()
        },
        DemoOptions {
            leagues: 0,
            ..DemoOptions::default()
        },
        DemoOptions {
            seasons: 0,
            ..DemoOptions::default()
        },
        DemoOptions {
            divisions: Some(0),
            ..DemoOptions::default()
        },
    ] {
        let err = fill(&db, &options).await.expect_err("refused");
        assert!(err.to_string().starts_with("demo options:"), "{err}");
    }
    assert!(db.leagues().await.expect("leagues").is_empty());
}

// ---------------------------------------------------------------------------
// Accounts

/// One league of three teams in one division, one season: quick to make.
fn tiny(seed: u64) -> DemoOptions {
    DemoOptions {
        leagues: 1,
        teams: 3,
        seasons: 1,
        divisions: Some(1),
        seed,
    }
}

/// A name as the pages print it.
fn escaped(name: &str) -> String {
    name.replace('&', "&#38;").replace('\'', "&#39;")
}

/// Checks each account's username, password (it verifies against the
/// stored hash) and its one role against the league's records.
async fn check_accounts(db: &Db, accounts: &[DemoAccount]) {
    let usernames: HashSet<&str> = accounts.iter().map(|a| a.username.as_str()).collect();
    assert_eq!(usernames.len(), accounts.len(), "usernames repeat");
    let passwords: HashSet<&str> = accounts.iter().map(|a| a.password.as_str()).collect();
    assert_eq!(passwords.len(), accounts.len(), "passwords repeat");
    for a in accounts {
        assert_eq!(check_username(&a.username), None, "{}", a.username);
        assert_eq!(check_password(&a.password), None, "{a:?}");
        // Sixteen base32 characters in four groups, nothing to misread.
        assert_eq!(a.password.len(), 19, "{a:?}");
        assert!(
            a.password.split('-').all(|g| g.len() == 4
                && g.bytes().all(
                    |b| b.is_ascii_digit() || (b.is_ascii_lowercase() && !b"ilou".contains(&b))
                )),
            "{a:?}"
        );
        let user = db.user_by_username(&a.username).await.expect("the account");
        assert!(user.password_hash.starts_with("$argon2id$"), "{a:?}");
        assert!(
            verify_password(a.password.clone(), user.password_hash.clone())
                .await
                .expect("verify"),
            "{a:?}: the password does not match"
        );
        let roles = db.user_roles(user.id).await.expect("roles");
        assert_eq!(roles.len(), 1, "{a:?}: {roles:?}");
        let role = &roles[0];
        assert_eq!(role.kind, a.role, "{a:?}");
        if a.role == RoleKind::Administrator {
            assert_eq!(role.league_id, None);
            continue;
        }
        let league = db.league_by_short_name(&a.league).await.expect("league");
        let l = league.id;
        assert_eq!(role.league_id, Some(l), "{a:?}");
        let current = db.seasons(l).await.expect("seasons").remove(0);
        let team = db
            .teams(l)
            .await
            .expect("teams")
            .into_iter()
            .find(|t| t.name == a.team);
        match a.role {
            RoleKind::Secretary => assert_eq!(a.team, ""),
            RoleKind::Captain => {
                let team = team.expect("the captain's team");
                assert_eq!(role.season_id, Some(current.id), "{a:?}");
                assert_eq!(role.team_id, Some(team.id), "{a:?}");
            }
            RoleKind::Player => {
                // Registered with the team this season, and not its captain.
                let team = team.expect("the player's team");
                let player = role.player_id.expect("a player");
                let registered = db
                    .team_players(l, current.id, team.id)
                    .await
                    .expect("registered");
                assert!(registered.iter().any(|p| p.id == player), "{a:?}");
                let captains = db.captains(l, current.id, team.id).await.expect("captains");
                assert!(captains.iter().all(|p| p.id != player), "{a:?}");
            }
            RoleKind::Administrator => unreachable!(),
        }
    }
}

async fn the_accounts_have_their_roles_and_sign_in(db: Db) {
    let demo = fill_with_accounts(&db, &tiny(3)).await.expect("demo");
    assert_eq!((demo.summary.leagues, demo.summary.seasons), (1, 1));
    let league = db.leagues().await.expect("leagues").remove(0);
    let short = league.short_name.clone();
    let teams = db.teams(league.id).await.expect("teams");
    let a = &demo.accounts;

    // The administrator (the installation had no account), the secretary,
    // a captain a team, then the players, each from another team.
    assert_eq!(a.len(), 2 + teams.len() + PLAYER_ACCOUNTS, "{a:?}");
    assert_eq!(
        (a[0].role, a[0].username.as_str()),
        (RoleKind::Administrator, "admin")
    );
    assert_eq!(a[1].role, RoleKind::Secretary);
    assert_eq!(a[1].username, format!("sec-{short}"));
    let captains: Vec<&DemoAccount> = a.iter().filter(|a| a.role == RoleKind::Captain).collect();
    let mut captained: Vec<&str> = captains.iter().map(|c| c.team.as_str()).collect();
    captained.sort();
    let mut names: Vec<&str> = teams.iter().map(|t| t.name.as_str()).collect();
    names.sort();
    assert_eq!(captained, names, "a captain for each team");
    for c in &captains {
        assert!(c.username.starts_with(&format!("cap-{short}-")), "{c:?}");
    }
    let players: Vec<&DemoAccount> = a.iter().filter(|a| a.role == RoleKind::Player).collect();
    assert_eq!(players.len(), PLAYER_ACCOUNTS);
    let player_teams: HashSet<&str> = players.iter().map(|p| p.team.as_str()).collect();
    assert_eq!(player_teams.len(), PLAYER_ACCOUNTS.min(teams.len()));
    for p in &players {
        assert!(p.username.starts_with(&format!("player-{short}-")), "{p:?}");
    }
    check_accounts(&db, a).await;

    // The table printed: a heading, then each account on its line.
    let table = AccountTable(a).to_string();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), a.len() + 1);
    assert!(lines[0].starts_with("league") && lines[0].ends_with("password"));
    for (line, account) in lines[1..].iter().zip(a) {
        let league = if account.league.is_empty() {
            "-"
        } else {
            account.league.as_str()
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], league, "{line}");
        assert_eq!(words[1], account.role.as_str(), "{line}");
        assert_eq!(
            words[words.len() - 2..],
            [account.username.as_str(), account.password.as_str()],
            "{line}"
        );
    }

    // Signed in through the form, each sees their own pages.
    let mut secretary = Client::new(&db).await;
    secretary.sign_in(&a[1].username, &a[1].password).await;
    let console = secretary.get(&format!("/leagues/{short}/console")).await;
    assert_eq!(console.status, StatusCode::OK, "{}", console.body);

    let captain = captains[0];
    let mut c = secretary.stranger();
    c.sign_in(&captain.username, &captain.password).await;
    let home = c.get("/").await;
    assert!(home.has("Your matches"), "{}", home.body);
    assert!(home.has(&escaped(&captain.team)), "{}", home.body);
    let console = c.get(&format!("/leagues/{short}/console")).await;
    assert_eq!(console.status, StatusCode::FORBIDDEN);

    let mut p = secretary.stranger();
    p.sign_in(&players[0].username, &players[0].password).await;
    let home = p.get("/").await;
    assert!(home.has("Your record"), "{}", home.body);

    let mut admin = secretary.stranger();
    admin.sign_in("admin", &a[0].password).await;
    let page = admin.get("/admin").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);

    // A wrong password is refused as for any account.
    let mut wrong = secretary.stranger();
    let page = wrong
        .submit(
            "/sign-in",
            "/sign-in",
            &[("username", &a[1].username), ("password", &a[2].password)],
        )
        .await;
    assert_ne!(
        page.status,
        StatusCode::SEE_OTHER,
        "signed in with another's password"
    );
}

async fn every_run_has_new_passwords_and_free_usernames(db: Db) {
    let first = fill_with_accounts(&db, &tiny(5)).await.expect("demo");
    // Someone has the name the second run's secretary would have had.
    let short = "wessex-2";
    let hash = boneyard::web::auth::hash_password("not a demo password".into())
        .await
        .expect("hash");
    db.create_user(&format!("sec-{short}"), &hash)
        .await
        .expect("an account");
    // The same seed: the same leagues, but never the same passwords.
    let second = fill_with_accounts(&db, &tiny(5)).await.expect("demo");
    assert_eq!(first.summary, second.summary);
    assert_eq!(first.accounts[0].role, RoleKind::Administrator);
    assert!(
        second
            .accounts
            .iter()
            .all(|a| a.role != RoleKind::Administrator),
        "the installation has an administrator already"
    );
    assert_eq!(first.accounts.len(), second.accounts.len() + 1);
    let secretary = &second.accounts[0];
    assert_eq!(secretary.league, short);
    assert_eq!(secretary.username, format!("sec-{short}-2"));
    let all: Vec<DemoAccount> = first
        .accounts
        .iter()
        .chain(&second.accounts)
        .cloned()
        .collect();
    // No password or username twice, across the runs too.
    check_accounts(&db, &all).await;
    for (a, b) in first.accounts[1..].iter().zip(&second.accounts) {
        assert_eq!((a.role, &a.team), (b.role, &b.team));
        assert_ne!(a.password, b.password);
    }
}

/// `boneyard demo` prints each account once, and the password printed is
/// the one that signs in.
#[tokio::test]
async fn the_command_prints_passwords_that_sign_in() {
    struct TempDir(std::path::PathBuf);
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let dir =
        TempDir(std::env::temp_dir().join(format!("boneyard-demo-command-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let database = format!("sqlite://{}", dir.0.join("demo.db").display());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boneyard"))
        .args(["demo", "--database", &database])
        .args([
            "--leagues",
            "1",
            "--teams",
            "2",
            "--seasons",
            "1",
            "--divisions",
            "1",
        ])
        .env_remove("BONEYARD_DATABASE")
        .output()
        .expect("run boneyard demo");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("shown only this once"), "{stdout}");
    // Not a terminal: a plain progress line per league.
    assert!(stderr.contains("demo: league 1 of 1 written"), "{stderr}");
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("league "))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    // The administrator, the secretary, two captains and three players.
    assert_eq!(rows.len(), 7, "{stdout}");
    let db = Db::connect(&database).await.unwrap();
    for row in rows {
        let (username, password) = (row[row.len() - 2], row[row.len() - 1]);
        let user = db.user_by_username(username).await.expect(username);
        assert!(
            verify_password(password.to_owned(), user.password_hash)
                .await
                .unwrap(),
            "{username}: the printed password does not sign in"
        );
    }
    db.close().await;
    // The bulk load left a sound file, its log written through.
    let pool = sqlx::SqlitePool::connect(&database).await.unwrap();
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
    let broken: Vec<(String,)> = sqlx::query_as("PRAGMA foreign_key_check")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(broken.is_empty(), "{broken:?}");
    let wal = dir.0.join("demo.db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "the log was checkpointed into the database"
    );
    pool.close().await;
}
