//! The public pages, read by a visitor who is not signed in: every page of
//! a demo league, a division table checked against a table computed here
//! from the stored hands, a match page's hands with what was disregarded,
//! provisional results marked and left out of the table, escaping, and the
//! 404s.

use std::collections::{BTreeMap, HashMap, HashSet};

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::demo::{DemoOptions, fill};
use boneyard::league::match_format::MatchFormat;
use boneyard::rules::score_record;
use serde_json::json;

use crate::harness::client::{Client, Page};
use crate::harness::pages::{ok, rows, slug};
use crate::harness::results::record;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::{self, on_both};

on_both!(
    every_public_page_of_a_demo_league,
    the_round_up_names_the_feats_the_records_hold,
    a_game_won_to_nil_is_a_feat_of_its_week,
    a_division_as_json_is_its_table_and_fixtures,
    the_table_counts_approved_results_walkovers_and_deductions,
    a_match_page_shows_every_hand_and_what_was_disregarded,
    unknown_and_other_leagues_records_are_not_found,
    a_voided_fixtures_games_count_on_no_page,
    a_season_that_cannot_be_read_is_refused_alike_everywhere,
);

// ---------------------------------------------------------------------------
// Helpers

/// A board's result computed here: the engine on each stored record, the
/// home side found by the board's home players' names.
pub(crate) struct BoardTally {
    pub(crate) boards: [i64; 2],
    pub(crate) games: [i64; 2],
    pub(crate) pegs: [i64; 2],
}

pub(crate) fn tally(
    result: &MatchResult,
    format: &MatchFormat,
    names: &HashMap<PlayerId, String>,
) -> BoardTally {
    let mut t = BoardTally {
        boards: [0, 0],
        games: [0, 0],
        pegs: [0, 0],
    };
    for (i, board) in result.boards.iter().enumerate() {
        let home: HashSet<&str> = board.home.iter().map(|id| names[id].as_str()).collect();
        let mut won = [0, 0];
        for game in &board.games {
            let outcome = score_record(&game.record).expect("a stored record scores");
            let home_side = game
                .record
                .sides
                .iter()
                .position(|side| side.iter().any(|n| home.contains(n.as_str())))
                .unwrap();
            let oriented = |side: usize| if side == home_side { 0 } else { 1 };
            if let (true, Some(w)) = (outcome.finished, outcome.winner) {
                won[oriented(w)] += 1;
            }
            for side in 0..2 {
                t.pegs[oriented(side)] += i64::from(outcome.totals[side]);
            }
        }
        let need = i64::from(format.boards.get(i).map_or(1, |b| b.best_of / 2 + 1));
        for side in 0..2 {
            if won[side] >= need && won[side] > won[1 - side] {
                t.boards[side] += 1;
            }
            t.games[side] += won[side];
        }
    }
    t
}

/// A team's row as the page shows it: P W D L BF BA GF GA PF PA deducted
/// points.
pub(crate) type Line = [i64; 12];

/// The division's table computed here from the stored results (approved
/// ones only), walkovers and deductions, after round `after`.
pub(crate) async fn expected_table(
    db: &Db,
    league: LeagueId,
    season: &Season,
    division: DivisionId,
    after: Option<i64>,
) -> BTreeMap<String, Line> {
    let format = MatchFormat::parse(season.format, &season.match_format)
        .unwrap_or_else(|_| MatchFormat::default_for(season.format));
    let names: HashMap<PlayerId, String> = db
        .players(league)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let team_names: HashMap<TeamId, String> = db
        .teams(league)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let entered: Vec<TeamId> = db
        .team_entries(league, season.id)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.division_id == division)
        .map(|e| e.team_id)
        .collect();
    let mut lines: HashMap<TeamId, Line> = entered.iter().map(|t| (*t, [0; 12])).collect();
    let fixtures: HashMap<FixtureId, Fixture> = db
        .division_fixtures(league, division)
        .await
        .unwrap()
        .into_iter()
        .map(|f| (f.id, f))
        .collect();
    let counts = |f: &Fixture| after.is_none_or(|a| f.round <= a);
    let mut matches = Vec::new();
    for r in db.season_results(league, season.id, true).await.unwrap() {
        let Some(f) = fixtures.get(&r.version.fixture_id) else {
            continue;
        };
        if matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) || !counts(f) {
            continue;
        }
        let t = tally(&r.result, &format, &names);
        matches.push((f.home_team_id, f.away_team_id, t));
    }
    for f in fixtures.values() {
        if let (FixtureStatus::Walkover, Some(side), true) = (f.status, f.conceded_by, counts(f)) {
            let boards = format.boards.len() as i64;
            let games: i64 = format
                .boards
                .iter()
                .map(|b| i64::from(b.best_of / 2 + 1))
                .sum();
            let winner = if side == Side::Home { 1 } else { 0 };
            let mut t = BoardTally {
                boards: [0, 0],
                games: [0, 0],
                pegs: [0, 0],
            };
            t.boards[winner] = boards;
            t.games[winner] = games;
            matches.push((f.home_team_id, f.away_team_id, t));
        }
    }
    let p = format.points;
    for (home, away, t) in matches {
        for (side, team) in [(0, home), (1, away)] {
            let (mine, theirs) = (t.boards[side], t.boards[1 - side]);
            let l = lines.get_mut(&team).unwrap();
            l[0] += 1;
            let points = if mine > theirs {
                l[1] += 1;
                p.win
            } else if mine == theirs {
                l[2] += 1;
                p.draw
            } else {
                l[3] += 1;
                p.loss
                    + if theirs - mine == 1 {
                        p.losing_bonus
                    } else {
                        0
                    }
            };
            l[4] += mine;
            l[5] += theirs;
            l[6] += t.games[side];
            l[7] += t.games[1 - side];
            l[8] += t.pegs[side];
            l[9] += t.pegs[1 - side];
            l[11] += i64::from(points) + mine * i64::from(p.board);
        }
    }
    let kinds: HashMap<PenaltyKindId, PenaltyEffect> = db
        .penalty_kinds(league)
        .await
        .unwrap()
        .into_iter()
        .map(|k| (k.id, k.effect))
        .collect();
    for pen in db.penalties(league, season.id).await.unwrap() {
        let Some(team) = pen.team_id else { continue };
        if kinds[&pen.kind_id] != PenaltyEffect::LeaguePoints || pen.voided_at.is_some() {
            continue;
        }
        if let Some(f) = pen.fixture_id.and_then(|id| fixtures.get(&id)) {
            if !counts(f) {
                continue;
            }
        }
        if let Some(l) = lines.get_mut(&team) {
            l[10] += pen.amount;
            l[11] -= pen.amount;
        }
    }
    lines
        .into_iter()
        .map(|(team, line)| (team_names[&team].clone(), line))
        .collect()
}

/// The table on a division page, by team name, checked to be in order of
/// points; each row's form (its last column: one letter a counted match,
/// at most five) checked against its played, won, drawn and lost.
pub(crate) fn shown_table(page: &Page) -> BTreeMap<String, Line> {
    let rows = rows(page, "<table class=\"standings\"");
    let points: Vec<i64> = rows.iter().map(|r| r[13].parse().unwrap()).collect();
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "ordered by points: {points:?}"
    );
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (i + 1).to_string());
    }
    rows.into_iter()
        .map(|r| {
            let numbers: Vec<i64> = r[2..14].iter().map(|n| n.parse().unwrap()).collect();
            let form = r[14].replace('–', "");
            let count = |c: char| form.chars().filter(|f| *f == c).count() as i64;
            assert_eq!(
                form.len() as i64,
                numbers[0].min(5),
                "{}: form {form}",
                r[1]
            );
            assert!(
                count('W') <= numbers[1] && count('D') <= numbers[2] && count('L') <= numbers[3],
                "{}: form {form} against {numbers:?}",
                r[1]
            );
            (r[1].clone(), numbers.try_into().unwrap())
        })
        .collect()
}

// ---------------------------------------------------------------------------
// A demo league, every page

async fn every_public_page_of_a_demo_league(db: Db) {
    let options = DemoOptions {
        leagues: 1,
        teams: 6,
        seasons: 2,
        divisions: Some(1),
        seed: 11,
    };
    fill(&db, &options).await.expect("the demo fills");
    let league = db.leagues().await.unwrap().remove(0);
    let l = league.id;
    let base = format!("/leagues/{}", league.short_name);
    let seasons = db.seasons(l).await.unwrap();
    let season = &seasons[0];
    assert_eq!(slug(&season.name), "2026-27");
    let division = db.divisions(l, season.id).await.unwrap().remove(0);
    let fixtures = db.division_fixtures(l, division.id).await.unwrap();
    let results = db.season_results(l, season.id, false).await.unwrap();
    let status: HashMap<FixtureId, ResultStatus> = results
        .iter()
        .map(|r| (r.version.fixture_id, r.version.status))
        .collect();
    let teams: HashMap<TeamId, Team> = db
        .teams(l)
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t))
        .collect();
    let mut c = Client::new(&db).await;

    // The league's home: its seasons, divisions, results and fixtures.
    let home = ok(&mut c, &base).await;
    assert!(home.has(&unescape_safe(&league.name)), "{}", home.body);
    assert!(home.has(&format!("href=\"{base}/2026-27/{}\"", slug(&division.name))));
    assert!(home.has("Recent results") && home.has("Next fixtures"));
    assert!(home.has(&format!("href=\"{base}/live\"")));
    assert!(home.has(&format!("href=\"{base}/{}\"", slug(&seasons[1].name))));

    // The season: divisions with their teams, the rules in words.
    let season_href = format!("{base}/2026-27");
    let page = ok(&mut c, &season_href).await;
    assert!(page.has(&unescape_safe(&division.name)));
    for t in teams.values() {
        assert!(
            page.has(&unescape_safe(&t.name)),
            "{} on the season page",
            t.name
        );
    }
    assert!(page.has(season.format.title()));
    assert!(page.has("6 singles + 3 pairs, 1 game each"));
    // Its results as a spreadsheet, linked.
    let csv = format!("{base}/seasons/{}/results.csv", season.id);
    assert!(page.has(&format!("href=\"{csv}\"")));
    let file = ok(&mut c, &csv).await;
    assert_eq!(file.headers["content-type"], "text/csv; charset=utf-8");

    // The division's table, row for row as computed here.
    let div_href = format!("{season_href}/{}", slug(&division.name));
    let page = ok(&mut c, &div_href).await;
    let expected = expected_table(&db, l, season, division.id, None).await;
    assert_eq!(shown_table(&page), expected);
    assert!(expected.values().any(|line| line[0] > 0), "results counted");
    assert!(
        expected.values().any(|line| line[10] > 0),
        "points deducted"
    );
    assert!(page.has("<th scope=\"col\""));
    assert!(page.has("<caption>The table as it stands</caption>"));
    // Provisional results exist and are said not to count.
    let pending: Vec<&Fixture> = fixtures
        .iter()
        .filter(|f| {
            status
                .get(&f.id)
                .is_some_and(|s| *s != ResultStatus::Approved)
        })
        .collect();
    assert!(!pending.is_empty(), "the demo has pending results");
    assert!(page.has("awaiting approval"));
    // The table after round 1, and the form that asks for it.
    let page = ok(&mut c, &format!("{div_href}?after=1")).await;
    assert_eq!(
        shown_table(&page),
        expected_table(&db, l, season, division.id, Some(1)).await
    );
    assert!(page.has("<option value=\"1\" selected>"));
    assert!(page.has("<label for=\"after\">"));

    // Fixtures and results by round: pending results marked in words.
    let page = ok(&mut c, &format!("{div_href}/fixtures")).await;
    // Each round under its own heading (the "By round" heading above them
    // went: the rounds come first, the list by team after them).
    assert!(page.has("<h2 id=\"round-1\">Round 1</h2>"));
    for f in &pending {
        let href = format!("href=\"{base}/matches/{}\"", f.id);
        let at = page.body.find(&href).expect("the pending match is listed");
        let row_start = page.body[..at].rfind("<tr").unwrap();
        let row_end = at + page.body[at..].find("</tr>").unwrap();
        let row = &page.body[row_start..row_end];
        assert!(row.starts_with("<tr class=\"provisional\""), "{row}");
        assert!(
            row.contains("<span class=\"badge pending\">provisional"),
            "{row}"
        );
    }
    for (state, word) in [
        (FixtureStatus::Postponed, "postponed"),
        (FixtureStatus::Walkover, "walkover: "),
        (FixtureStatus::Void, "void"),
    ] {
        if fixtures.iter().any(|f| f.status == state) {
            assert!(page.has(word), "{word} shown");
        }
    }

    // A team: venue, captains, players, fixtures, penalties.
    let team = &teams[&fixtures[0].home_team_id];
    let team_href = format!("{base}/teams/{}-{}", team.id, slug(&team.name));
    let page = ok(&mut c, &team_href).await;
    assert!(page.has(&format!("<h1>{}</h1>", unescape_safe(&team.name))));
    let venue = db.venue(l, team.venue_id.unwrap()).await.unwrap();
    assert!(page.has(&unescape_safe(&venue.name)));
    for p in db.captains(l, season.id, team.id).await.unwrap() {
        assert!(page.has(&unescape_safe(&p.name)));
    }
    let players = db.team_players(l, season.id, team.id).await.unwrap();
    for p in &players {
        assert!(page.has(&format!("{}/players/{}-{}", base, p.id, slug(&p.name))));
    }
    assert!(page.has(&format!("{base}/matches/{}", fixtures[0].id)));
    for pen in db.penalties(l, season.id).await.unwrap() {
        if pen.team_id == Some(team.id) && !pen.note.is_empty() {
            assert!(page.has(&unescape_safe(&pen.note)), "penalty reason shown");
        }
    }
    // A wrong or missing slug is sent to the right address.
    for wrong in [
        format!("{base}/teams/{}-wrong", team.id),
        format!("{base}/teams/{}", team.id),
    ] {
        let moved = c.get(&wrong).await;
        assert_eq!(moved.status, StatusCode::PERMANENT_REDIRECT);
        assert_eq!(moved.location.as_deref(), Some(team_href.as_str()));
    }

    // Its calendar to subscribe to (webcal, this site) or download, and
    // its position after each round, drawn with its words.
    assert!(page.has(&format!(
        "href=\"webcal://127.0.0.1:3000{base}/calendar/team/{}.ics\"",
        team.id
    )));
    assert!(page.has(&format!(
        "href=\"{base}/calendar/team/{}.ics\" download",
        team.id
    )));
    assert!(page.has("position after each round</figcaption>"));
    assert!(page.has("<svg role=\"img\" aria-labelledby=\"position-title position-desc\""));
    assert!(page.has("After round 1: "));

    // A player: team by season, games played and won; first, their team's
    // next match, if one is still to play.
    let next = fixtures
        .iter()
        .filter(|f| f.home_team_id == team.id || f.away_team_id == team.id)
        .filter(|f| {
            matches!(
                f.status,
                FixtureStatus::Scheduled | FixtureStatus::Postponed
            )
        })
        .filter(|f| !status.contains_key(&f.id))
        .filter(|f| {
            f.starts_at
                .is_some_and(|t| t >= league.time_zone.today(chrono::Utc::now()).0)
        })
        .min_by_key(|f| (f.starts_at, f.id));
    let player = &players[0];
    let page = ok(
        &mut c,
        &format!("{base}/players/{}-{}", player.id, slug(&player.name)),
    )
    .await;
    assert!(page.has(&format!("<h1>{}</h1>", unescape_safe(&player.name))));
    match next {
        Some(f) => {
            let at = page
                .body
                .find("<section class=\"next-match\">")
                .expect("the next match");
            assert!(
                at < page.body.find("<h2>Teams and games").unwrap(),
                "shown first"
            );
            let other = if f.home_team_id == team.id {
                f.away_team_id
            } else {
                f.home_team_id
            };
            let section = &page.body[at..];
            assert!(section.contains(&unescape_safe(&teams[&other].name)));
            assert!(section.contains(&format!("href=\"{base}/matches/{}\"", f.id)));
        }
        None => assert!(!page.has("next-match")),
    }
    let games = db.player_games(l, season.id).await.unwrap();
    let (played, won) = games
        .iter()
        .find(|g| g.player_id == player.id)
        .map_or((0, 0), |g| (g.played, g.won));
    let seasons_rows = rows(&page, "<table>");
    let row = seasons_rows
        .iter()
        .find(|r| r[0] == season.name)
        .expect("this season's row");
    assert_eq!(row[1], team.name);
    assert_eq!(
        (
            row[3].parse::<i64>().unwrap(),
            row[4].parse::<i64>().unwrap()
        ),
        (played, won)
    );

    // An approved match: totals computed from the hands.
    let names: HashMap<PlayerId, String> = db
        .players(l)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let format = MatchFormat::parse(season.format, &season.match_format).unwrap();
    let approved = results
        .iter()
        .find(|r| {
            r.version.status == ResultStatus::Approved
                && fixtures.iter().any(|f| f.id == r.version.fixture_id)
        })
        .unwrap();
    let f = fixtures
        .iter()
        .find(|f| f.id == approved.version.fixture_id)
        .unwrap();
    let page = ok(&mut c, &format!("{base}/matches/{}", f.id)).await;
    let t = tally(&approved.result, &format, &names);
    let totals = rows(&page, "<table>");
    assert_eq!(totals[0][0], teams[&f.home_team_id].name);
    assert_eq!(
        totals[0][1..4],
        [t.boards[0], t.games[0], t.pegs[0]].map(|n| n.to_string())
    );
    assert_eq!(
        totals[1][1..4],
        [t.boards[1], t.games[1], t.pegs[1]].map(|n| n.to_string())
    );
    assert_eq!(
        page.body.matches("<section id=\"board-").count(),
        approved.result.boards.len()
    );
    assert!(page.has("Posed by") && page.has("Draw for pose"));
    // A pairs board: the columns name both partners, each play its maker.
    let pairs = approved
        .result
        .boards
        .iter()
        .position(|b| b.kind == BoardKind::Pairs)
        .expect("a pairs board");
    let partners = approved.result.boards[pairs]
        .home
        .iter()
        .map(|id| unescape_safe(&names[id]))
        .collect::<Vec<_>>();
    let section = &page.body[page
        .body
        .find(&format!("id=\"board-{}\"", pairs + 1))
        .unwrap()..];
    assert!(
        section.contains(&format!("{} &#38; {} scored", partners[0], partners[1]))
            || section.contains(&format!("{} &#38; {} scored", partners[1], partners[0])),
        "{section}"
    );
    assert!(page.has("poses the first hand of the next game on this board"));
    assert!(!page.has("badge pending"));

    // A pending match: provisional, in words.
    let page = ok(&mut c, &format!("{base}/matches/{}", pending[0].id)).await;
    assert!(page.has("<span class=\"badge pending\">provisional"));
    assert!(page.has("does not count in the table"));

    // Matches in progress: the pending results.
    let page = ok(&mut c, &format!("{base}/live")).await;
    for f in &pending {
        assert!(page.has(&format!("{base}/matches/{}", f.id)));
    }
    assert!(page.has("badge pending"));

    // No page needs a script.
    for path in [base.clone(), div_href.clone(), team_href.clone()] {
        assert!(!c.get(&path).await.has("<script"), "{path}");
    }
}

/// A name as it appears in the page's HTML: askama escapes `&`, `'`, `"`,
/// `<` and `>`; demo names have at most an apostrophe or ampersand.
fn unescape_safe(name: &str) -> String {
    name.replace('&', "&#38;").replace('\'', "&#39;")
}

// ---------------------------------------------------------------------------
// A league built by hand

pub(crate) fn won_game(home: &str, away: &str) -> boneyard::rules::GameRecord {
    let eight = json!({"by": home, "points": 8});
    record(json!({
        "format": "fives-and-threes",
        "players": [home, away],
        "sides": [[home], [away]],
        "draw": {home: "6-6", away: "0-0"},
        "hands": [
            {"plays": [eight, {"by": away, "points": 2}, eight, eight, eight, eight, eight,
                       {"by": home, "points": 8, "out": true}],
             "end": {"out": home}},
            {"plays": [{"by": home, "points": 1}, {"by": home, "points": 4},
                       {"by": home, "points": 3}]}
        ]
    }))
}

pub(crate) fn one_board(
    l: &Built,
    home: PlayerId,
    record: boneyard::rules::GameRecord,
) -> MatchResult {
    let outcome = score_record(&record).unwrap();
    MatchResult {
        boards: vec![BoardResult {
            kind: BoardKind::Singles,
            home: vec![home],
            away: vec![l.away_players()[0]],
            games: vec![GameResult {
                outcome: Some(GameOutcome {
                    totals: outcome.totals.map(i64::from),
                    winner: outcome.winner,
                    finished: outcome.finished,
                    next_pose: record.players.get(outcome.next_pose).cloned(),
                }),
                record,
                score_only: false,
            }],
            conceded_by: None,
        }],
    }
}

async fn a_match_page_shows_every_hand_and_what_was_disregarded(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("pub")).await;
    let l = &app.league;
    let evil = "<script>alert(1)</script>";
    let p = db.create_player(l.id, evil).await.unwrap().id;
    boneyard::app::registrations::register_player(&db, l.id, l.season, l.home(), p)
        .await
        .unwrap();
    let away = l.away_names()[0].clone();
    let rec = won_game(evil, &away);
    let outcome = score_record(&rec).unwrap();
    assert_eq!(outcome.totals, [61, 2]);
    assert_eq!(outcome.hands[1].disregarded, [2]);
    boneyard::app::results::write(&db, l.id, l.fixture(), &one_board(l, p, rec), None)
        .await
        .unwrap();

    let mut c = app.anonymous().await;
    let page = ok(&mut c, &format!("/leagues/pub/matches/{}", l.fixture())).await;
    assert!(!page.has("<script>"), "escaped: {}", page.body);
    let shown = if page.has("&#60;script&#62;") {
        "&#60;script&#62;alert(1)&#60;/script&#62;"
    } else {
        "&lt;script&gt;alert(1)&lt;/script&gt;"
    };
    assert!(page.has(shown));
    // The hand table: who posed, each side's plays, the disregarded play
    // struck through and said in words, how it ended, totals after.
    let hands = rows(&page, "<table class=\"hands\"");
    assert_eq!(hands.len(), 2);
    assert_eq!(hands[0][0], "1");
    assert_eq!(hands[0][1], evil);
    // A singles player's plays sit under their name.
    assert!(page.has(&format!("<th scope=\"col\">{shown} scored</th>")));
    assert_eq!(hands[0][2], "8; 8; 8; 8; 8; 8; 8 + 1, chipped out");
    assert_eq!(hands[0][3], "2");
    assert_eq!(hands[0][4], format!("out by {evil}"));
    assert_eq!(hands[0][5..], ["57", "2"]);
    assert_eq!(hands[1][1], away);
    assert_eq!(hands[1][2], "1; 4 disregarded; 3");
    assert!(page.has("<del>4</del> <strong>disregarded</strong>"));
    assert_eq!(hands[1][3], "none");
    assert_eq!(hands[1][4], "game won during the hand");
    assert_eq!(hands[1][5..], ["61", "2"]);
    assert!(page.has(&format!("Won by {shown} (pub Home), 61–2.")));
    assert!(page.has(&format!("{shown} 6-6")), "the draw");
    // Entered, not approved: provisional, and not in the table.
    assert!(page.has("<span class=\"badge pending\">provisional: not yet confirmed"));
    let totals = rows(&page, "<table>");
    assert_eq!(totals[0][..4], ["pub Home", "1", "1", "61"]);
    assert_eq!(totals[1][..4], ["pub Away", "0", "0", "2"]);

    // Escaped on the player's and the team's pages too.
    let slugged = format!("/leagues/pub/players/{p}-script-alert-1-script");
    let page = ok(&mut c, &slugged).await;
    assert!(!page.has("<script>") && page.has(shown));
    let page = ok(&mut c, &format!("/leagues/pub/teams/{}-pub-home", l.home())).await;
    assert!(!page.has("<script>") && page.has(shown));
    let page = ok(&mut c, "/leagues/pub/2026-27/premier/fixtures").await;
    assert!(page.has("provisional: not yet confirmed"));
}

async fn the_table_counts_approved_results_walkovers_and_deductions(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("pub")).await;
    let l = &app.league;
    let (home, away) = (l.home_names()[0].clone(), l.away_names()[0].clone());
    boneyard::app::results::write(
        &db,
        l.id,
        l.fixture(),
        &one_board(l, l.home_players()[0], won_game(&home, &away)),
        None,
    )
    .await
    .unwrap();
    let table = "/leagues/pub/2026-27/premier";
    let mut c = app.anonymous().await;
    let season = db.season(l.id, l.season).await.unwrap();
    let row = |p: &BTreeMap<String, Line>, team: &str| p[team];

    // Entered: nothing counted.
    let page = ok(&mut c, table).await;
    let shown = shown_table(&page);
    assert_eq!(row(&shown, "pub Home"), [0; 12]);
    assert!(page.has("1 result awaiting approval is not counted"));
    assert_eq!(
        shown,
        expected_table(&db, l.id, &season, l.division, None).await
    );

    // Approved: one board of nine won (the season's match format cannot be
    // read, so the default one applies), 61 pegs to 2.
    boneyard::app::results::set_status(&db, l.id, l.fixture(), ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let shown = shown_table(&ok(&mut c, table).await);
    assert_eq!(
        row(&shown, "pub Home"),
        [1, 1, 0, 0, 1, 0, 1, 0, 61, 2, 0, 3]
    );
    assert_eq!(
        row(&shown, "pub Away"),
        [1, 0, 0, 1, 0, 1, 0, 1, 2, 61, 0, 0]
    );

    // A walkover in round 2 (home conceded): all nine boards to the away
    // team. Deductions: one counted, one voided.
    let f2 = l.add_fixture(&db, l.home(), l.away()).await;
    let walkover = FixtureChange {
        round: 2,
        starts_at: Some("2026-09-24T19:30:00Z".parse().unwrap()),
        venue_id: Some(l.venue_id()),
        status: FixtureStatus::Walkover,
        conceded_by: Some(Side::Home),
    };
    boneyard::app::fixtures::change(&db, l.id, f2, &walkover, None)
        .await
        .unwrap();
    let kind = db
        .add_penalty_kind(
            l.id,
            &NewPenaltyKind {
                code: "late-card".into(),
                name: "Result card late".into(),
                effect: PenaltyEffect::LeaguePoints,
                amount: 2,
            },
        )
        .await
        .unwrap();
    let penalty = |note: &str| NewPenalty {
        season_id: l.season,
        fixture_id: Some(f2),
        team_id: Some(l.away()),
        player_id: None,
        kind_id: kind.id,
        amount: 2,
        note: note.into(),
    };
    boneyard::app::penalties::record(&db, l.id, &penalty("Card ten days late"), None)
        .await
        .unwrap();
    let voided = boneyard::app::penalties::record(&db, l.id, &penalty("Given in error"), None)
        .await
        .unwrap();
    db.void_penalty(l.id, voided.id, true, None).await.unwrap();

    let page = ok(&mut c, table).await;
    let shown = shown_table(&page);
    assert_eq!(
        row(&shown, "pub Home"),
        [2, 1, 0, 1, 1, 9, 1, 9, 61, 2, 0, 3]
    );
    assert_eq!(
        row(&shown, "pub Away"),
        [2, 1, 0, 1, 9, 1, 9, 1, 2, 61, 2, 11 - 2]
    );
    assert_eq!(
        shown,
        expected_table(&db, l.id, &season, l.division, None).await
    );
    assert!(
        page.has("pub Away: 2 points deducted, Result card late (round 2): Card ten days late")
    );
    assert!(!page.has("Given in error"));
    // Away (9 points) is now above home (3).
    assert_eq!(rows(&page, "<table class=\"standings\"")[0][1], "pub Away");

    // As it stood after round 1: the walkover and its deduction not yet.
    let shown = shown_table(&ok(&mut c, &format!("{table}?after=1")).await);
    assert_eq!(
        row(&shown, "pub Away"),
        [1, 0, 0, 1, 0, 1, 0, 1, 2, 61, 0, 0]
    );
    let bad = c.get(&format!("{table}?after=soon")).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    // The team page lists the penalty with its reason; the match page says
    // walkover.
    let page = ok(&mut c, &format!("/leagues/pub/teams/{}-pub-away", l.away())).await;
    assert!(page.has("Card ten days late"));
    assert!(page.has("<del>") && page.has("<strong>withdrawn</strong>"));
    let page = ok(&mut c, &format!("/leagues/pub/matches/{f2}")).await;
    assert!(page.has("walkover: pub Home conceded"));
    assert!(page.has("Walkover: pub Home 0–9 pub Away."));
}

async fn unknown_and_other_leagues_records_are_not_found(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("aa")).await;
    let a = &app.league;
    let b = LeagueBuilder::home_and_away("bb").build(&db).await;
    let mut c = app.anonymous().await;
    for path in [
        format!("/leagues/aa/teams/{}-aa-home", a.home()),
        format!("/leagues/aa/players/{}-aa-player-00", a.home_players()[0]),
        format!("/leagues/aa/matches/{}", a.fixture()),
        "/leagues/aa/2026-27/premier/fixtures".to_owned(),
        "/leagues/aa/live".to_owned(),
    ] {
        ok(&mut c, &path).await;
    }
    for path in [
        "/leagues/nope".to_owned(),
        "/leagues/nope/live".to_owned(),
        "/leagues/aa/2030-31".to_owned(),
        "/leagues/aa/2026-27/nope".to_owned(),
        "/leagues/aa/2026-27/nope/fixtures".to_owned(),
        "/leagues/aa/teams/999999-nobody".to_owned(),
        "/leagues/aa/teams/nobody".to_owned(),
        format!("/leagues/aa/teams/{}-bb-home", b.home()),
        format!("/leagues/aa/teams/{}", b.home()),
        "/leagues/aa/players/999999".to_owned(),
        format!("/leagues/aa/players/{}-bb-player-00", b.home_players()[0]),
        "/leagues/aa/matches/999999".to_owned(),
        "/leagues/aa/matches/first".to_owned(),
        format!("/leagues/aa/matches/{}", b.fixture()),
    ] {
        let page = c.get(&path).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}: {}", page.body);
        assert!(page.has("was not found"), "{path}: {}", page.body);
    }
    // Every page finds its league one way: a name no league can have (a
    // NUL byte Postgres refuses, capitals) is the same 404 everywhere,
    // never a 500, whichever route group serves the page.
    for league in ["nope", "No%00pe", "AA"] {
        for rest in [
            String::new(),
            "/players-table/1".to_owned(),
            "/screen".to_owned(),
            format!("/matches/{}/screen", a.fixture()),
            format!("/matches/{}/games.json", a.fixture()),
            "/ratings".to_owned(),
        ] {
            let path = format!("/leagues/{league}{rest}");
            let page = c.get(&path).await;
            assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}: {}", page.body);
            assert!(page.has("was not found"), "{path}: {}", page.body);
        }
    }
}

// ---------------------------------------------------------------------------
// The weekly round-up

/// The feats of a week worked out here, from the stored records scored by
/// the engine (written again, not the app's own code).
#[derive(Debug, Default, PartialEq)]
struct WeekFeats {
    whitewashes: usize,
    without_reply: usize,
    nil_sets: usize,
    /// The fewest hands a fives-and-threes game was won in, and how many
    /// games were won in it.
    quickest: Option<(usize, usize)>,
    eights: usize,
    /// The most 8-point plays one player made in one match.
    most_eights: usize,
}

/// A section of the round-up's text: the lines under the heading that
/// starts with `title`, and the heading itself.
fn section<'a>(text: &'a str, title: &str) -> Option<(&'a str, Vec<&'a str>)> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(title));
    let heading = lines.next()?;
    Some((heading, lines.take_while(|l| l.starts_with("  ")).collect()))
}

fn shown_feats(text: &str) -> WeekFeats {
    let count = |title: &str| section(text, title).map_or(0, |(_, lines)| lines.len());
    let eights = section(text, "8-point plays");
    let number = |s: &str, before: &str| -> usize {
        s.split(before)
            .next()
            .unwrap()
            .trim()
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    WeekFeats {
        whitewashes: count("Whitewashes"),
        without_reply: count("Games won without reply"),
        nil_sets: count("Sets won to nil"),
        quickest: section(text, "Quickest to 61")
            .map(|(heading, lines)| (number(heading, " hands"), lines.len())),
        eights: eights
            .as_ref()
            .map_or(0, |(_, lines)| number(lines[0], " in all")),
        most_eights: eights.as_ref().map_or(0, |(_, lines)| {
            let most = lines[1];
            assert!(most.contains("Most in a match: "), "{most}");
            number(most, " against")
        }),
    }
}

async fn week_feats(db: &Db, league: &League, season: &Season, fixtures: &[&Fixture]) -> WeekFeats {
    let format = MatchFormat::parse(season.format, &season.match_format)
        .unwrap_or_else(|_| MatchFormat::default_for(season.format));
    let names: HashMap<PlayerId, String> = db
        .players(league.id)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let mut out = WeekFeats::default();
    let mut quickest: Vec<usize> = Vec::new();
    for r in db.season_results(league.id, season.id, true).await.unwrap() {
        let Some(f) = fixtures.iter().find(|f| f.id == r.version.fixture_id) else {
            continue;
        };
        if matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) {
            continue;
        }
        let t = tally(&r.result, &format, &names);
        let boards = format.boards.len() as i64;
        if (t.boards[0] == boards && t.boards[1] == 0)
            || (t.boards[1] == boards && t.boards[0] == 0)
        {
            out.whitewashes += 1;
        }
        let mut eights: HashMap<String, usize> = HashMap::new();
        for game in r.result.boards.iter().flat_map(|b| &b.games) {
            if game.score_only {
                continue;
            }
            let outcome = score_record(&game.record).unwrap();
            let fat = game.record.format == "fives-and-threes";
            if fat {
                for play in game.record.hands.iter().flat_map(|h| &h.plays) {
                    if play.points == 8 {
                        out.eights += 1;
                        *eights.entry(play.by.clone()).or_default() += 1;
                    }
                }
            }
            let (true, Some(w)) = (outcome.finished, outcome.winner) else {
                continue;
            };
            if outcome.totals[1 - w] == 0 {
                if game.record.format == "hands-won" {
                    out.nil_sets += 1;
                } else {
                    out.without_reply += 1;
                }
            }
            if fat {
                // A record holds no hand after the one the game was won in.
                quickest.push(game.record.hands.len());
            }
        }
        out.most_eights = out
            .most_eights
            .max(eights.values().copied().max().unwrap_or(0));
    }
    if let Some(min) = quickest.iter().min() {
        out.quickest = Some((*min, quickest.iter().filter(|h| *h == min).count()));
    }
    out
}

async fn the_round_up_names_the_feats_the_records_hold(db: Db) {
    let options = DemoOptions {
        leagues: 3,
        teams: 4,
        seasons: 1,
        divisions: Some(1),
        seed: 5,
    };
    fill(&db, &options).await.expect("the demo fills");
    let mut c = Client::new(&db).await;
    let mut weeks = 0;
    let mut seen = WeekFeats::default();
    for league in db.leagues().await.unwrap() {
        let base = format!("/leagues/{}", league.short_name);
        let season = db.seasons(league.id).await.unwrap().remove(0);
        let fixtures = db.fixtures(league.id, season.id).await.unwrap();
        // The league's home links the round-up, which opens on the latest
        // week with a result.
        assert!(
            ok(&mut c, &base)
                .await
                .has(&format!("href=\"{base}/round-up\""))
        );
        let latest = c.get(&format!("{base}/round-up")).await;
        assert_eq!(latest.status, StatusCode::SEE_OTHER);
        let newest = fixtures
            .iter()
            .filter(|f| f.status == FixtureStatus::Played || f.status == FixtureStatus::Walkover)
            .filter_map(|f| f.starts_at)
            .max()
            .unwrap();
        let zone = league.time_zone;
        let (monday, ..) = zone.week(zone.local(newest).date());
        assert_eq!(
            latest.location.as_deref(),
            Some(format!("{base}/round-up/{monday}").as_str())
        );
        let mondays: std::collections::BTreeSet<_> = fixtures
            .iter()
            .filter(|f| f.status == FixtureStatus::Played)
            .filter_map(|f| f.starts_at)
            .map(|t| zone.week(zone.local(t).date()).0)
            .collect();
        for monday in mondays {
            let (_, from, to) = zone.week(monday);
            let ours: Vec<&Fixture> = fixtures
                .iter()
                .filter(|f| f.starts_at.is_some_and(|t| t >= from && t < to))
                .collect();
            let expected = week_feats(&db, &league, &season, &ours).await;
            let text = ok(&mut c, &format!("{base}/round-up/{monday}.txt")).await;
            assert_eq!(
                text.headers["content-type"], "text/plain; charset=utf-8",
                "plain text"
            );
            let shown = shown_feats(&text.body);
            assert_eq!(shown, expected, "{base}, week of {monday}:\n{}", text.body);
            // Each result of the week is listed, by its teams.
            for f in &ours {
                if f.status == FixtureStatus::Played {
                    let teams = db.teams(league.id).await.unwrap();
                    let name = |id| teams.iter().find(|t| t.id == id).unwrap().name.clone();
                    assert!(text.has(&name(f.home_team_id)) && text.has(&name(f.away_team_id)));
                }
            }
            let page = ok(&mut c, &format!("{base}/round-up/{monday}")).await;
            assert!(page.has("<h1>Round-up: "));
            assert!(page.has("<textarea id=\"round-up-text\""));
            assert!(!page.has("<script"));
            seen.eights += shown.eights;
            seen.nil_sets += shown.nil_sets;
            seen.quickest = seen.quickest.or(shown.quickest);
            weeks += 1;
        }
        // Any day of a week is sent to its Monday.
        let tuesday = c.get(&format!("{base}/round-up/2026-09-01.txt")).await;
        assert_eq!(tuesday.status, StatusCode::SEE_OTHER);
        assert_eq!(
            tuesday.location.as_deref(),
            Some(format!("{base}/round-up/2026-08-31.txt").as_str())
        );
        assert_eq!(
            c.get(&format!("{base}/round-up/soon")).await.status,
            StatusCode::NOT_FOUND
        );
    }
    assert!(weeks >= 3, "weeks with results: {weeks}");
    // The demo's weeks hold feats of several kinds, so the comparison
    // above compared something.
    assert!(seen.eights > 0 && seen.quickest.is_some(), "{seen:?}");
}

async fn a_game_won_to_nil_is_a_feat_of_its_week(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("nil")).await;
    let l = &app.league;
    let (home, away) = (l.home_names()[0].clone(), l.away_names()[0].clone());
    let eight = json!({"by": home, "points": 8});
    let nil = record(json!({
        "format": "fives-and-threes",
        "players": [home, away],
        "sides": [[home], [away]],
        "draw": {home.clone(): "6-6", away.clone(): "0-0"},
        "hands": [
            {"plays": [eight, eight, eight, eight, eight, eight,
                       {"by": home, "points": 8, "out": true}],
             "end": {"out": home}},
            {"plays": [{"by": home, "points": 4}]}
        ]
    }));
    boneyard::app::results::write(
        &db,
        l.id,
        l.fixture(),
        &one_board(l, l.home_players()[0], nil),
        None,
    )
    .await
    .unwrap();
    let path = "/leagues/nil/round-up/2026-09-07.txt";
    let mut c = app.anonymous().await;
    // Entered, not approved: listed as provisional, no feats yet.
    let text = ok(&mut c, path).await;
    assert!(
        text.has("nil Home 1–0 nil Away (provisional: not yet confirmed)"),
        "{}",
        text.body
    );
    assert!(text.has("FEATS\nNone this week."), "{}", text.body);
    boneyard::app::results::set_status(&db, l.id, l.fixture(), ResultStatus::Approved, "", None)
        .await
        .unwrap();
    let text = ok(&mut c, path).await;
    let (_, lines) = section(&text.body, "Games won without reply").expect("the feat");
    assert_eq!(
        lines,
        [format!(
            "  {home} (nil Home) won 61–0 against {away} (nil Away) (board 1)"
        )]
    );
    let (heading, _) = section(&text.body, "Quickest to 61").unwrap();
    assert_eq!(heading, "Quickest to 61: 2 hands");
    let (_, lines) = section(&text.body, "8-point plays").unwrap();
    assert_eq!(lines[0], "  7 in all");
    assert!(
        text.has("Premier: nil Home, 3 points from 1 match"),
        "{}",
        text.body
    );
    // The page says the same, escaped.
    let page = ok(&mut c, "/leagues/nil/round-up/2026-09-07").await;
    assert!(page.has("won 61–0 against"));
}

// ---------------------------------------------------------------------------
// A division as JSON

async fn a_division_as_json_is_its_table_and_fixtures(db: Db) {
    let options = DemoOptions {
        leagues: 1,
        teams: 5,
        seasons: 1,
        divisions: Some(1),
        seed: 3,
    };
    fill(&db, &options).await.expect("the demo fills");
    let league = db.leagues().await.unwrap().remove(0);
    let season = db.seasons(league.id).await.unwrap().remove(0);
    let division = db.divisions(league.id, season.id).await.unwrap().remove(0);
    let href = format!(
        "/leagues/{}/{}/{}",
        league.short_name,
        slug(&season.name),
        slug(&division.name)
    );
    let mut c = Client::new(&db).await;
    let table = ok(&mut c, &href).await;
    assert!(table.has(&format!("href=\"{href}/data\"")), "linked");
    let docs = ok(&mut c, &format!("{href}/data")).await;
    assert!(docs.has(&format!("{href}/data.json")) && docs.has("<code>version</code>"));
    let page = ok(&mut c, &format!("{href}/data.json")).await;
    assert_eq!(page.headers["content-type"], "application/json");
    assert_eq!(page.headers["access-control-allow-origin"], "*");
    let doc: serde_json::Value = serde_json::from_str(&page.body).unwrap();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["division"]["name"], division.name.as_str());
    assert_eq!(doc["division"]["path"], href.as_str());
    assert_eq!(doc["time_zone"], league.time_zone.name());
    // The table is the page's, row for row.
    let shown = shown_table(&table);
    let rows = doc["table"].as_array().unwrap();
    assert_eq!(rows.len(), shown.len());
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["position"], i + 1);
        let line = shown[r["team"]["name"].as_str().unwrap()];
        for (k, want) in support::TABLE_JSON_KEYS.iter().zip(line) {
            assert_eq!(r[*k], want, "{k} of {}", r["team"]["name"]);
        }
        assert!(r["form"].as_array().unwrap().len() <= 5);
    }
    // Every fixture, with its status and result as stored.
    let fixtures = db.division_fixtures(league.id, division.id).await.unwrap();
    let listed = doc["fixtures"].as_array().unwrap();
    assert_eq!(listed.len(), fixtures.len());
    for f in &fixtures {
        let j = listed.iter().find(|j| j["id"] == f.id.0).unwrap();
        assert_eq!(j["status"], f.status.as_str());
        assert_eq!(j["round"], f.round);
        assert_eq!(j["playoff"], false);
        match f.status {
            FixtureStatus::Scheduled => assert!(j["result"].is_null()),
            FixtureStatus::Walkover => assert_eq!(j["result"]["status"], "walkover"),
            _ => {}
        }
    }
    assert!(listed.iter().any(|j| j["result"]["provisional"] == true));
    // Another league's division is not found under this league.
    let missing = c
        .get(&format!(
            "/leagues/{}/2030-31/nope/data.json",
            league.short_name
        ))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

// ---------------------------------------------------------------------------
// What counts

/// A player's games played, won and 8-point plays in `results` (approved
/// current versions), counted here from the records: a game counts when
/// the engine finds it over, and is won when its winning side names them.
fn counted_here(results: &[StoredResult], player: PlayerId, name: &str) -> (usize, usize, usize) {
    let (mut played, mut won, mut eights) = (0, 0, 0);
    for r in results {
        for board in &r.result.boards {
            if !board.home.contains(&player) && !board.away.contains(&player) {
                continue;
            }
            for game in &board.games {
                let outcome = score_record(&game.record).unwrap();
                let (true, Some(w)) = (outcome.finished, outcome.winner) else {
                    continue;
                };
                played += 1;
                if game.record.sides[w].iter().any(|n| n == name) {
                    won += 1;
                }
                eights += game
                    .record
                    .hands
                    .iter()
                    .flat_map(|h| &h.plays)
                    .filter(|p| p.points == 8 && p.by == name)
                    .count();
            }
        }
    }
    (played, won, eights)
}

/// The played, won and 8-point plays a player page, the player table (all
/// columns) and the round-up's text of the first fixture's week show.
async fn shown(c: &mut Client, app: &TestApp, player: PlayerId, name: &str) -> [(usize, usize); 2] {
    let l = &app.league;
    let href = format!("/leagues/{}/players/{}-{}", l.short, player, slug(name));
    let page = ok(c, &href).await;
    let season = rows(&page, "<table>")
        .into_iter()
        .find(|r| r[0] == "2026/27")
        .expect("the season's row");
    let on_page = (season[3].parse().unwrap(), season[4].parse().unwrap());
    let table = ok(
        c,
        &format!(
            "/leagues/{}/players-table/{}?min=0&cols=all",
            l.short, l.season
        ),
    )
    .await;
    let row = rows(&table, "<table")
        .into_iter()
        .find(|r| r[1] == name)
        .unwrap_or_else(|| panic!("{name} in the player table: {}", table.body));
    let in_table = (row[3].parse().unwrap(), row[4].parse().unwrap());
    [on_page, in_table]
}

async fn a_voided_fixtures_games_count_on_no_page(db: Db) {
    // Two matches a week apart, both played and approved; the first then
    // voided by the secretary.
    let monday = chrono::NaiveDate::from_ymd_opt(2026, 8, 31).unwrap();
    let app = TestApp::new(
        &db,
        LeagueBuilder::new("vd")
            .played(2)
            .starting_at("2026-09-01T18:30:00Z".parse().unwrap()),
    )
    .await;
    let l = &app.league;
    let (player, name) = l.teams[0].players[0].clone();
    let mut c = app.anonymous().await;
    let results = db.season_results(l.id, l.season, true).await.unwrap();
    assert_eq!(results.len(), 2);
    let both = counted_here(&results, player, &name);
    assert!(both.0 > 0);
    assert_eq!(
        shown(&mut c, &app, player, &name).await,
        [(both.0, both.1); 2]
    );
    let week = format!("/leagues/{}/round-up/{monday}.txt", l.short);
    let before = ok(&mut c, &week).await.body;
    let first_week: Vec<StoredResult> = results
        .iter()
        .filter(|r| r.version.fixture_id == l.fixtures[0])
        .cloned()
        .collect();
    let eights_before: usize = l
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|(id, n)| counted_here(&first_week, *id, n).2)
        .sum();
    assert_eq!(shown_feats(&before).eights, eights_before);

    let mut sec = app.with_secretary().await;
    let history = sec.get(&l.path("/history")).await;
    let void = sec
        .post(&l.path("/void"), &[("csrf", &history.csrf())])
        .await;
    assert_eq!(void.status, StatusCode::SEE_OTHER, "{}", void.body);

    // What is left counts alike everywhere: the second match's games.
    let second: Vec<StoredResult> = results
        .iter()
        .filter(|r| r.version.fixture_id == l.fixtures[1])
        .cloned()
        .collect();
    let left = counted_here(&second, player, &name);
    assert!(left.0 < both.0, "the voided match had games of theirs");
    assert_eq!(
        shown(&mut c, &app, player, &name).await,
        [(left.0, left.1); 2]
    );
    // The round-up of the voided match's week names none of its feats.
    let after = ok(&mut c, &week).await.body;
    assert_eq!(shown_feats(&after), WeekFeats::default(), "{after}");
}

/// A season record no form would store (written by hand, or by an older
/// version) is refused the same way by every page that reads it: saying
/// which season and which part, never a guessed default on one page and a
/// bare error on another.
async fn a_season_that_cannot_be_read_is_refused_alike_everywhere(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("bad")).await;
    let l = &app.league;
    let season = db.season(l.id, l.season).await.unwrap();
    let stored = boneyard::app::seasons::set_season_rules(
        &db,
        l.id,
        l.season,
        season.format,
        &season.options,
        &json!({"boards": "many"}),
        None,
    )
    .await;
    assert!(
        stored.is_ok(),
        "the record is written as a test's damage: {stored:?}"
    );
    let mut sec = app.with_secretary().await;
    let mut anyone = app.anonymous().await;
    let base = format!("/leagues/{}", l.short);
    for (secretary, path) in [
        (false, format!("{base}/2026-27/one")),
        (false, format!("{base}/matches/{}", l.fixtures[0])),
        (false, format!("{base}/players-table/{}", l.season)),
        (true, l.path("/card")),
        (true, l.path("/pad")),
    ] {
        let c = if secretary { &mut sec } else { &mut anyone };
        let page = c.get(&path).await;
        assert_eq!(
            page.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{path}: {}",
            page.body
        );
        assert!(
            page.has("the season 2026/27&#39;s match format cannot be read")
                || page.has("the season 2026/27's match format cannot be read"),
            "{path}: {}",
            page.body
        );
    }
}
