//! A walkover of a given board score (LEAGUE.md, "Match format"): a 5-4
//! walkover counts in the table, the team's record and the honours exactly
//! as a played 5-4 does, and the match page says the rule.

use std::collections::BTreeMap;

use boneyard::db::*;
use boneyard::league::match_format::{MatchFormat, Walkover};
use boneyard::rules::score_record;

use super::public::{Line, shown_table, won_game};
use crate::harness::client::Client;
use crate::harness::pages::ok;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(a_five_four_walkover_counts_as_a_played_five_four);

/// Nine singles boards, a walkover 5-4: nine players a team so that the
/// played match needs nobody twice.
fn league(short: &str) -> LeagueBuilder {
    let mut format = MatchFormat::with_boards(9, 0, 1);
    format.walkover = Walkover::Score { won: 5, lost: 4 };
    LeagueBuilder::new(short)
        .boards(format)
        .players(9)
        .starting_at("2026-09-10T19:30:00Z".parse().unwrap())
}

/// The played 5-4: home wins boards 1 to 5, away boards 6 to 9.
fn played_five_four(l: &Built) -> MatchResult {
    let (hp, ap) = (l.home_players(), l.away_players());
    let (hn, an) = (l.home_names(), l.away_names());
    let boards = (0..9)
        .map(|i| {
            let record = if i < 5 {
                won_game(&hn[i], &an[i])
            } else {
                won_game(&an[i], &hn[i])
            };
            let outcome = score_record(&record).unwrap();
            BoardResult {
                kind: BoardKind::Singles,
                home: vec![hp[i]],
                away: vec![ap[i]],
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
            }
        })
        .collect();
    MatchResult { boards }
}

async fn status(db: &Db, l: &Built, status: FixtureStatus, conceded_by: Option<Side>) {
    let fixture = db.fixture(l.id, l.fixture()).await.unwrap();
    let change = FixtureChange {
        status,
        conceded_by,
        ..FixtureChange::from(&fixture)
    };
    boneyard::app::fixtures::change(db, l.id, l.fixture(), &change, None)
        .await
        .unwrap();
}

/// The division's table, the "Champions" lines of the honours and each
/// team's record line, as shown.
async fn figures(c: &mut Client, l: &Built) -> (BTreeMap<String, Line>, Vec<String>, Vec<String>) {
    let season = format!("/leagues/{}/2026-27", l.short);
    let table = shown_table(&ok(c, &format!("{season}/one")).await);
    let text = ok(c, &format!("{season}/honours.txt")).await.body;
    let places = text
        .lines()
        // "Leading" and "Second" while the season runs.
        .filter(|line| {
            line.trim_start().starts_with("Leading:") || line.trim_start().starts_with("Second:")
        })
        .map(str::to_owned)
        .collect();
    let mut records = Vec::new();
    for t in &l.teams {
        let page = ok(
            c,
            &format!(
                "/leagues/{}/teams/{}-{}",
                l.short,
                t.id,
                t.name.to_lowercase()
            ),
        )
        .await;
        let at = page.body.find("League record").expect("the team's record");
        records.push(page.body[at..at + 160].to_owned());
    }
    (table, places, records)
}

async fn a_five_four_walkover_counts_as_a_played_five_four(db: Db) {
    let walked = TestApp::new(&db, league("wo")).await;
    let played = TestApp::new(&db, league("pl")).await;
    let (w, p) = (&walked.league, &played.league);

    // The away side concedes: the home side takes the walkover's 5-4.
    status(&db, w, FixtureStatus::Walkover, Some(Side::Away)).await;
    boneyard::app::results::write(&db, p.id, p.fixture(), &played_five_four(p), None)
        .await
        .unwrap();
    boneyard::app::results::set_status(&db, p.id, p.fixture(), ResultStatus::Approved, "", None)
        .await
        .unwrap();
    status(&db, p, FixtureStatus::Played, None).await;

    let mut c = walked.anonymous().await;
    let (w_table, w_places, w_records) = figures(&mut c, w).await;
    let (p_table, p_places, p_records) = figures(&mut c, p).await;
    // Played, won, drawn, lost, boards, games and points alike; pegs are
    // what the played games scored, and a walkover invents none.
    let without_pegs = |l: &Line| [&l[..8], &l[10..]].concat();
    for team in ["Crown", "Anchor"] {
        assert_eq!(
            without_pegs(&w_table[team]),
            without_pegs(&p_table[team]),
            "{team}: {w_table:?} against {p_table:?}"
        );
        assert_eq!(w_table[team][8..10], [0, 0], "no pegs in a walkover");
    }
    // Crown: 1 played, won, 5 boards to 4, 5 games to 4, 2 + 5 points.
    assert_eq!(w_table["Crown"], [1, 1, 0, 0, 5, 4, 5, 4, 0, 0, 0, 7]);
    assert_eq!(w_table["Anchor"][11], 4, "a board a point for the loser");
    assert_eq!(w_places, p_places);
    assert!(
        w_places
            .first()
            .is_some_and(|p| p.contains("Leading: Crown, 7 points from 1 match")),
        "{w_places:?}"
    );
    assert_eq!(w_records, p_records);

    // The match page says the score and the rule it comes from.
    let page = ok(&mut c, &format!("/leagues/wo/matches/{}", w.fixture())).await;
    assert!(page.has("Walkover: Crown 5–4 Anchor."), "{}", page.body);
    assert!(page.has("A walkover counts 5-4 in boards to the side that did not concede"));
    // The league's page says it too.
    let about = ok(&mut c, "/leagues/wo").await;
    let rules = c.get("/leagues/wo/2026-27").await;
    assert!(
        about.has("A walkover counts 5-4") || rules.has("A walkover counts 5-4"),
        "the season's rules name the walkover's score"
    );
}
