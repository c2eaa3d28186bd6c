//! Ratings (issue 27) as a visitor reads them: every figure of a league's
//! rating lists recomputed here from the seasons' results exports (CSV)
//! with the method as the ratings page states it (written out again here,
//! not the app's code), the same ratings whichever order results were
//! approved in, and the player table's rating column.

use std::collections::HashMap;

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::demo::{DemoOptions, fill};
use boneyard::league::match_format::MatchFormat;

use crate::harness::LeagueBuilder;
use crate::harness::builder::simulated_result;
use crate::harness::client::{Client, Page};
use crate::harness::pages::{ok, rows, slug};
use crate::support::on_both;

on_both!(
    every_rating_shown_is_recomputed_from_the_results_exports,
    ratings_are_the_same_whichever_order_results_are_approved_in,
    the_player_table_shows_and_sorts_by_rating,
    the_secretary_sets_the_games_a_rating_is_provisional_for,
    the_match_page_shows_each_boards_chances_from_the_ratings,
);

/// The method as the ratings page states it.
const BETA: f64 = 25.0 / 6.0;
const KAPPA: f64 = 0.000_001;

#[derive(Clone, Copy, Debug)]
pub(super) struct Mu {
    pub mu: f64,
    pub var: f64,
    pub games: u32,
}

impl Default for Mu {
    fn default() -> Mu {
        Mu {
            mu: 25.0,
            var: (25.0_f64 / 3.0).powi(2),
            games: 0,
        }
    }
}

/// One game of an export: its order, rule family, sides' player ids and
/// winner (0: side a).
pub(super) struct ExportGame {
    order: (String, i64, i64, i64),
    format: String,
    pub sides: [Vec<i64>; 2],
    winner: usize,
}

/// The counted games of a season's export.
pub(super) fn export_games(csv_text: &str) -> Vec<ExportGame> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}: {header:?}"))
    };
    let (record, id, date) = (col("record"), col("id"), col("date"));
    let (board, game, format) = (col("board"), col("game"), col("format"));
    let (a, b, winner, counts) = (
        col("side a ids"),
        col("side b ids"),
        col("winner"),
        col("counts"),
    );
    let ids = |s: &str| -> Vec<i64> {
        s.split(';')
            .map(|x| x.trim())
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap())
            .collect()
    };
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[record] == "game" && &r[counts] == "yes" && !r[winner].is_empty())
        .map(|r| {
            // A fixture with no date is played after every dated one.
            let day = if r[date].is_empty() {
                "~".to_owned()
            } else {
                r[date].to_owned()
            };
            ExportGame {
                order: (
                    day,
                    r[id].parse().unwrap(),
                    r[board].parse().unwrap(),
                    r[game].parse().unwrap(),
                ),
                format: r[format].to_owned(),
                sides: [ids(&r[a]), ids(&r[b])],
                winner: usize::from(&r[winner] == "b"),
            }
        })
        .collect()
}

/// Every player's rating per rule family, replayed in the order played.
pub(super) fn recompute(mut games: Vec<ExportGame>) -> HashMap<(i64, String), Mu> {
    games.sort_by(|x, y| x.order.cmp(&y.order));
    let mut now: HashMap<(i64, String), Mu> = HashMap::new();
    for g in games {
        let get = |p: &i64| {
            now.get(&(*p, g.format.clone()))
                .copied()
                .unwrap_or_default()
        };
        let sides: [Vec<Mu>; 2] = [
            g.sides[0].iter().map(get).collect(),
            g.sides[1].iter().map(get).collect(),
        ];
        let r = |s: &[Mu]| s.iter().map(|m| m.mu).sum::<f64>();
        let v = |s: &[Mu]| s.iter().map(|m| m.var).sum::<f64>();
        let c = (2.0 * BETA * BETA + v(&sides[0]) + v(&sides[1])).sqrt();
        let pa = (r(&sides[0]) / c).exp() / ((r(&sides[0]) / c).exp() + (r(&sides[1]) / c).exp());
        for (s, (ids, side)) in g.sides.iter().zip(&sides).enumerate() {
            let p = if s == 0 { pa } else { 1.0 - pa };
            let result = if g.winner == s { 1.0 } else { 0.0 };
            let side_sd = v(side).sqrt();
            for (id, m) in ids.iter().zip(side) {
                let shrink = (1.0 - m.var * side_sd * p * (1.0 - p) / c.powi(3)).max(KAPPA);
                now.insert(
                    (*id, g.format.clone()),
                    Mu {
                        mu: m.mu + m.var / c * (result - p),
                        var: m.var * shrink,
                        games: m.games + 1,
                    },
                );
            }
        }
    }
    now
}

/// Each row of a rating list: the player's id (from the link), the rating
/// and uncertainty shown, and the games.
fn shown(page: &Page) -> Vec<(i64, f64, f64, u32)> {
    let body = &page.body;
    let start = body
        .find("<table class=\"standings\" id=\"ratings\"")
        .unwrap();
    let table = &body[start..start + body[start..].find("</table>").unwrap()];
    let ids: Vec<i64> = table
        .split("/players/")
        .skip(1)
        .map(|s| s[..s.find('-').unwrap()].parse().unwrap())
        .collect();
    let cells = rows(page, "<table class=\"standings\" id=\"ratings\"");
    assert_eq!(ids.len(), cells.len());
    ids.into_iter()
        .zip(cells)
        .map(|(id, c)| {
            let rating: f64 = c[3].split_whitespace().next().unwrap().parse().unwrap();
            (id, rating, c[4].parse().unwrap(), c[5].parse().unwrap())
        })
        .collect()
}

async fn every_rating_shown_is_recomputed_from_the_results_exports(db: Db) {
    let options = DemoOptions {
        leagues: 3,
        teams: 4,
        seasons: 2,
        divisions: Some(1),
        seed: 11,
    };
    fill(&db, &options).await.unwrap();
    let mut c = Client::new(&db).await;
    let (mut checked, mut honoured) = (0, 0);
    for league in db.leagues().await.unwrap() {
        let mut games = Vec::new();
        let mut seasons = db.seasons(league.id).await.unwrap();
        seasons.sort_by_key(|s| s.id);
        // The finished season's honours: its top established ratings as
        // they stood after its last game, from its own export alone.
        let first = &seasons[0];
        let csv = ok(
            &mut c,
            &format!(
                "/leagues/{}/seasons/{}/results.csv",
                league.short_name, first.id
            ),
        )
        .await;
        let format = first.format.as_str().to_owned();
        let mut at_end: Vec<(i64, f64)> = recompute(export_games(&csv.body))
            .into_iter()
            .filter(|((_, f), m)| *f == format && m.games >= 10)
            .map(|((id, _), m)| (id, m.mu))
            .collect();
        at_end.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let honours = ok(
            &mut c,
            &format!(
                "/leagues/{}/{}/honours",
                league.short_name,
                slug(&first.name)
            ),
        )
        .await;
        let table = "<table class=\"honours-players\" id=\"top-rating\"";
        if at_end.is_empty() {
            assert!(!honours.has(table), "nobody established: no list");
        } else {
            let top = rows(&honours, table);
            assert_eq!(top.len(), at_end.len().min(3), "{}", honours.body);
            for (row, (_, mu)) in top.iter().zip(&at_end) {
                let shown: f64 = row[3].parse().unwrap();
                assert!((shown - mu).abs() <= 0.05 + 1e-9, "{row:?} {mu}");
                honoured += 1;
            }
        }
        for season in &seasons {
            let csv = ok(
                &mut c,
                &format!(
                    "/leagues/{}/seasons/{}/results.csv",
                    league.short_name, season.id
                ),
            )
            .await;
            games.extend(export_games(&csv.body));
        }
        assert!(!games.is_empty(), "{}: games exported", league.short_name);
        let expected = recompute(games);
        let format = db.seasons(league.id).await.unwrap()[0].format;
        let page = ok(
            &mut c,
            &format!("/leagues/{}/ratings/{}", league.short_name, format.as_str()),
        )
        .await;
        let list = shown(&page);
        let in_format = expected
            .keys()
            .filter(|(_, f)| f == format.as_str())
            .count();
        assert_eq!(list.len(), in_format, "{}", league.short_name);
        for (id, rating, uncertainty, games) in &list {
            let want = expected[&(*id, format.as_str().to_owned())];
            assert!(
                (rating - want.mu).abs() <= 0.05 + 1e-9,
                "player {id}: shown {rating}, recomputed {}",
                want.mu
            );
            assert!((uncertainty - want.var.sqrt()).abs() <= 0.05 + 1e-9);
            assert_eq!(*games, want.games);
            checked += 1;
        }
        // Highest first, as the list says.
        assert!(list.windows(2).all(|w| w[0].1 >= w[1].1));
        // The top player's page says the same figure.
        let (top, rating, _, _) = list[0];
        let player = db.player(league.id, PlayerId(top)).await.unwrap();
        // Its address without the name's slug sends to the full one.
        let moved = c
            .get(&format!("/leagues/{}/players/{top}", league.short_name))
            .await;
        let page = ok(&mut c, moved.location.as_deref().expect("redirected")).await;
        assert!(
            page.has(&format!("<strong class=\"big\">{rating:.1}</strong>")),
            "{}: {}",
            player.name,
            page.body
        );
        assert!(page.has(&format!("1st of {}", list.len())));
    }
    assert!(checked > 50, "{checked} ratings checked");
    assert!(honoured > 0, "some season's honours list ratings");
    // The installation's list holds every league's players.
    let all = ok(&mut c, "/ratings/fives-and-threes").await;
    assert!(all.has("League</th>"));
}

/// Two leagues alike in every record: the same results approved in
/// opposite orders give the same ratings.
async fn ratings_are_the_same_whichever_order_results_are_approved_in(db: Db) {
    let mut c = Client::new(&db).await;
    let mut lists = Vec::new();
    for (short, forwards) in [("first", true), ("second", false)] {
        let built = LeagueBuilder::new(short)
            .teams(&["Crown", "Anchor", "Bell", "Swan"])
            .players(4)
            .fixtures(4)
            .starting_at("2026-09-01T19:00:00Z".parse().unwrap())
            .build(&db)
            .await;
        let format: MatchFormat = built.format.clone();
        let mut ids = Vec::new();
        for (i, f) in built.fixtures.iter().enumerate() {
            let fixture = db.fixture(built.id, *f).await.unwrap();
            let team = |id: TeamId| built.teams.iter().find(|t| t.id == id).unwrap();
            let result = simulated_result(
                built.rules,
                &format,
                team(fixture.home_team_id),
                team(fixture.away_team_id),
                i as u64 + 7,
            );
            boneyard::app::results::write(&db, built.id, *f, &result, None)
                .await
                .unwrap();
            ids.push(*f);
        }
        if !forwards {
            ids.reverse();
        }
        for f in ids {
            boneyard::app::results::set_status(&db, built.id, f, ResultStatus::Approved, "", None)
                .await
                .unwrap();
        }
        let page = ok(
            &mut c,
            &format!("/leagues/{short}/ratings/fives-and-threes"),
        )
        .await;
        let named: Vec<(String, String)> = rows(&page, "<table class=\"standings\" id=\"ratings\"")
            .into_iter()
            .map(|r| (r[1].clone(), r[3].clone()))
            .collect();
        assert!(named.len() >= 8, "{named:?}");
        lists.push(named);
        // The installation's list follows every league's records: after
        // each league's approvals it holds every league's players so far,
        // each with the rating their league's list shows.
        let all = ok(&mut c, "/ratings/fives-and-threes").await;
        let mut everyone: Vec<(String, String)> =
            rows(&all, "<table class=\"standings\" id=\"ratings\"")
                .into_iter()
                .map(|r| (r[1].clone(), r[4].clone()))
                .collect();
        let mut want: Vec<(String, String)> = lists.concat();
        everyone.sort();
        want.sort();
        assert_eq!(everyone, want, "{}", all.body);
    }
    assert_eq!(lists[0], lists[1]);
}

async fn the_player_table_shows_and_sorts_by_rating(db: Db) {
    let options = DemoOptions {
        leagues: 1,
        teams: 4,
        seasons: 2,
        divisions: Some(1),
        seed: 5,
    };
    fill(&db, &options).await.unwrap();
    let league = db.leagues().await.unwrap().remove(0);
    // The finished season: every player ranked.
    let season = db.seasons(league.id).await.unwrap().remove(0);
    let mut c = Client::new(&db).await;
    let base = format!("/leagues/{}/players-table/{}", league.short_name, season.id);
    let table = ok(&mut c, &base).await;
    assert!(table.has(&format!("href=\"{base}?sort=rating\"")));
    let sorted = ok(&mut c, &format!("{base}?sort=rating")).await;
    // Each of the page's tables (ranked, not ranked yet) by rating.
    let mut rated = 0;
    for (at, _) in sorted.body.match_indices("<table class=\"standings\"") {
        let table = Page {
            status: sorted.status,
            location: None,
            headers: sorted.headers.clone(),
            body: sorted.body[at..].to_owned(),
        };
        let ratings: Vec<f64> = rows(&table, "<table class=\"standings\"")
            .iter()
            .filter_map(|r| r[6].trim_end_matches('*').parse().ok())
            .collect();
        assert!(
            ratings.windows(2).all(|w| w[0] >= w[1]),
            "highest first: {ratings:?}"
        );
        rated += ratings.len();
    }
    assert!(rated > 4, "{}", sorted.body);
    let wrong = c.get(&format!("{base}?sort=colour")).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
}

async fn the_secretary_sets_the_games_a_rating_is_provisional_for(db: Db) {
    let built = LeagueBuilder::new("prov")
        .teams(&["Crown", "Anchor"])
        .players(4)
        .fixtures(2)
        .played(2)
        .starting_at("2026-09-01T19:00:00Z".parse().unwrap())
        .build(&db)
        .await;
    let mut c = Client::new(&db).await;
    let list = "/leagues/prov/ratings/fives-and-threes";
    let page = ok(&mut c, list).await;
    assert!(page.has("fewer than 10 rated games"));
    assert!(
        page.has("provisional</span>"),
        "two nights: every rating provisional"
    );
    let mut sec = Client::new(&db).await;
    sec.sign_in(&built.secretary, crate::harness::PASSWORD)
        .await;
    let form = "/leagues/prov/console/league";
    let details = |n: &'static str| {
        vec![
            ("name", "Prov league"),
            ("rules_summary", ""),
            ("contact", ""),
            ("time_zone", "Europe/London"),
            ("provisional_games", n),
        ]
    };
    let bad = sec.submit(form, form, &details("lots")).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(
        crate::harness::forms::error_beside(&bad, "provisional_games").contains("whole number")
    );
    let saved = sec.submit(form, form, &details("0")).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert_eq!(db.league(built.id).await.unwrap().provisional_games, 0);
    let page = ok(&mut c, list).await;
    assert!(page.has("fewer than 0 rated games"));
    assert!(!page.has("provisional</span>"), "{}", page.body);
}

/// Before a match, each board whose pad names its players shows each side's
/// chance of winning a game: the figure is worked out here from the
/// season's export with the formula the ratings page states (p_A of one
/// game, each side's ratings and variances added), and a board whose
/// players are not chosen yet shows none.
async fn the_match_page_shows_each_boards_chances_from_the_ratings(db: Db) {
    use boneyard::league::pad::Tap;
    // Weekly fixtures, all in the past: four played and approved, the
    // fifth still to be played.
    let first = chrono::Utc::now() - chrono::Duration::days(7 * 4 + 1);
    let built = LeagueBuilder::new("odds")
        .teams(&["Crown", "Anchor"])
        .players(6)
        .boards(MatchFormat::with_boards(2, 1, 3))
        .fixtures(5)
        .starting_at(first)
        .build(&db)
        .await;
    let team = |id: TeamId| built.teams.iter().find(|t| t.id == id).unwrap();
    for (i, f) in built.fixtures[..4].iter().enumerate() {
        let fixture = db.fixture(built.id, *f).await.unwrap();
        let result = simulated_result(
            built.rules,
            &built.format,
            team(fixture.home_team_id),
            team(fixture.away_team_id),
            i as u64 + 31,
        );
        boneyard::app::results::write(&db, built.id, *f, &result, None)
            .await
            .unwrap();
        boneyard::app::results::set_status(&db, built.id, *f, ResultStatus::Approved, "", None)
            .await
            .unwrap();
    }
    let next = built.fixtures[4];
    let fixture = db.fixture(built.id, next).await.unwrap();
    let (home, away) = (team(fixture.home_team_id), team(fixture.away_team_id));
    let at = |rest: &str| format!("/leagues/odds/matches/{next}{rest}");
    let mut visitor = Client::new(&db).await;

    // No board has its players yet: no chances.
    let before = ok(&mut visitor, &at("")).await;
    assert!(!before.has("Chances by the ratings"), "{}", before.body);

    // The home captain names board 1's players and the pairs board's
    // (board 3); board 2 is left.
    let mut captain = Client::new(&db).await;
    captain
        .sign_in(&home.captain, crate::harness::PASSWORD)
        .await;
    let csrf = captain.get(&at("/pad/1")).await.csrf();
    let sides = [
        (1, vec![home.players[0].0.0], vec![away.players[1].0.0]),
        (
            3,
            vec![home.players[2].0.0, home.players[3].0.0],
            vec![away.players[2].0.0, away.players[0].0.0],
        ),
    ];
    for (board, h, a) in &sides {
        let tap = Tap::Players {
            home: h.clone(),
            away: a.clone(),
        };
        let r = captain
            .post_json(
                &at(&format!("/pad/{board}/sync")),
                &serde_json::json!({ "taps": [tap] }),
                &csrf,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }

    // The ratings now, recomputed from the season's export.
    let export = ok(
        &mut visitor,
        &format!("/leagues/odds/seasons/{}/results.csv", built.season),
    )
    .await;
    let rated = recompute(export_games(&export.body));
    let family = "fives-and-threes".to_owned();
    let side = |ids: &[i64]| {
        ids.iter()
            .map(|id| {
                rated
                    .get(&(*id, family.clone()))
                    .copied()
                    .unwrap_or_default()
            })
            .collect::<Vec<Mu>>()
    };
    let page = ok(&mut visitor, &at("")).await;
    assert!(page.has("Chances by the ratings"), "{}", page.body);
    let shown = rows(&page, "<caption>Board by board");
    assert_eq!(shown.len(), 2, "boards 1 and 3 only: {shown:?}");
    let mut differed = false;
    for ((board, h, a), row) in sides.iter().zip(&shown) {
        let (sa, sb) = (side(h), side(a));
        let r = |s: &[Mu]| s.iter().map(|m| m.mu).sum::<f64>();
        let v = |s: &[Mu]| s.iter().map(|m| m.var).sum::<f64>();
        let c = (2.0 * BETA * BETA + v(&sa) + v(&sb)).sqrt();
        let pa = (r(&sa) / c).exp() / ((r(&sa) / c).exp() + (r(&sb) / c).exp());
        let home_percent = (pa * 100.0).round() as u32;
        let percent = |cell: &str| cell.trim_end_matches('%').parse::<u32>().unwrap();
        assert_eq!(row[0], board.to_string());
        assert_eq!(percent(&row[2]), home_percent, "board {board}: {row:?}");
        assert_eq!(percent(&row[3]), 100 - home_percent, "board {board}");
        differed |= home_percent != 50;
        // Each side named as its players.
        let name = |id: &i64, t: &crate::harness::builder::BuiltTeam| {
            t.players.iter().find(|p| p.0.0 == *id).unwrap().1.clone()
        };
        for id in h {
            assert!(row[1].contains(&name(id, home)), "{row:?}");
        }
        for id in a {
            assert!(row[4].contains(&name(id, away)), "{row:?}");
        }
    }
    assert!(
        differed,
        "the played games make some board uneven: {shown:?}"
    );

    // Once the result is in, the chances give way to it.
    let result = simulated_result(built.rules, &built.format, home, away, 99);
    boneyard::app::results::write(&db, built.id, next, &result, None)
        .await
        .unwrap();
    let after = ok(&mut visitor, &at("")).await;
    assert!(!after.has("Chances by the ratings"), "{}", after.body);
}
