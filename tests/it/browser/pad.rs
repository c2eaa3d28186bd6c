//! A captain keeps a match on the score pad at phone size: every tap of a
//! simulated match, the connection cut in the middle of a game and the
//! page reloaded while offline, then the match submitted in one tap.

use boneyard::db::*;
use boneyard::league::match_format::{BoardKind, MatchFormat};
use boneyard::league::pad::{PadRules, Tap, replay, taps_for_board};
use boneyard::rules::pose::first_poser;
use boneyard::rules::simulate::{Rng, Style, simulate_board};
use boneyard::rules::{Format, Game, GameRecord, Ruleset, score_record};

use super::{Browser, PHONE, Server, TempDir, run};
use crate::harness::LeagueBuilder;

pub(super) use crate::harness::PASSWORD;

pub(super) struct Setup {
    pub short: String,
    pub fixture: FixtureId,
    pub format: MatchFormat,
    pub home: Vec<(i64, String)>,
    pub away: Vec<(i64, String)>,
    pub rules: Format,
    /// Usernames, each with the harness's password.
    pub home_captain: String,
    pub away_captain: String,
    pub secretary: String,
}

/// A league whose matches are a singles and a pairs board, a fixture
/// tomorrow night, its captains' and secretary's accounts.
pub(super) async fn setup(address: &str) -> Setup {
    setup_with(
        address,
        Format::FivesAndThrees,
        MatchFormat::with_boards(1, 1, 1),
    )
    .await
}

/// The same league playing `rules` with `format`'s boards, from the
/// harness's builder.
pub(super) async fn setup_with(address: &str, rules: Format, format: MatchFormat) -> Setup {
    setup_built(address, rules, pad_league(rules, format)).await
}

/// The pads' league with its match starting at `starts_at` (tonight's, say).
pub(super) async fn setup_starting(
    address: &str,
    starts_at: chrono::DateTime<chrono::Utc>,
) -> Setup {
    let rules = Format::FivesAndThrees;
    let league = pad_league(rules, MatchFormat::with_boards(1, 1, 1)).starting_at(starts_at);
    setup_built(address, rules, league).await
}

fn pad_league(rules: Format, format: MatchFormat) -> LeagueBuilder {
    LeagueBuilder::new("pad")
        .rules(rules)
        .boards(format)
        .players(6)
}

async fn setup_built(address: &str, rules: Format, league: LeagueBuilder) -> Setup {
    let db = Db::connect(address).await.unwrap();
    let built = league.build(&db).await;
    db.close().await;
    let roster = |t: usize| -> Vec<(i64, String)> {
        built.teams[t]
            .players
            .iter()
            .map(|(id, name)| (id.0, name.clone()))
            .collect()
    };
    Setup {
        short: built.short.clone(),
        fixture: built.fixtures[0],
        format: built.format.clone(),
        home: roster(0),
        away: roster(1),
        rules,
        home_captain: built.teams[0].captain.clone(),
        away_captain: built.teams[1].captain.clone(),
        secretary: built.secretary.clone(),
    }
}

/// A board played by the simulator, and the taps that keep it on the pad
/// (who poses first tapped rather than the draw).
pub(super) fn board_taps(s: &Setup, board: usize, seed: u64) -> (Vec<GameRecord>, Vec<Tap>) {
    board_taps_styled(s, board, seed, &Style::clean())
}

/// The same, with the simulator's `style` (penalties, muggins).
pub(super) fn board_taps_styled(
    s: &Setup,
    board: usize,
    seed: u64,
    style: &Style,
) -> (Vec<GameRecord>, Vec<Tap>) {
    let n = s.format.boards[board].kind.players_a_side();
    let (home, away) = board_players(s, board);
    let name = |id: i64| {
        s.home
            .iter()
            .chain(&s.away)
            .find(|p| p.0 == id)
            .unwrap()
            .1
            .clone()
    };
    let players: Vec<String> = (0..n)
        .flat_map(|j| [name(home[j]), name(away[j])])
        .collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|x| players.iter().skip(x).step_by(2).cloned().collect())
        .collect();
    let games = simulate_board(
        &Ruleset::new(s.rules),
        &players,
        &sides,
        s.format.boards[board].best_of,
        &mut Rng::new(seed),
        style,
    );
    let mut taps = taps_for_board(&home, &away, &games);
    let poser = first_poser(&Game::from_record(&games[0]).unwrap());
    taps[1] = Tap::Pose { seat: poser };
    (games, taps)
}

const PLAY: &str = "section[data-phase=play]";

/// Who plays a board: the k-th singles board the team's k-th player, the
/// j-th pairs board players 2j and 2j + 1 (of the first six).
pub(super) fn board_players(s: &Setup, board: usize) -> (Vec<i64>, Vec<i64>) {
    let before = &s.format.boards[..board];
    let seats: Vec<usize> = match s.format.boards[board].kind {
        BoardKind::Singles => {
            vec![
                before
                    .iter()
                    .filter(|b| b.kind == BoardKind::Singles)
                    .count()
                    % 6,
            ]
        }
        BoardKind::Pairs => {
            let j = before.iter().filter(|b| b.kind == BoardKind::Pairs).count();
            vec![(2 * j) % 6, (2 * j + 1) % 6]
        }
    };
    let ids = |team: &[(i64, String)]| seats.iter().map(|&i| team[i].0).collect();
    (ids(&s.home), ids(&s.away))
}

/// Taps one tap on the pad as a person would: who, then how much.
pub(super) async fn tap(b: &Browser, names: &[String], t: &Tap) -> Result<(), String> {
    match t {
        Tap::Players { home, away } => {
            for (i, id) in home.iter().enumerate() {
                b.select(&format!("#home{i}"), &id.to_string()).await?;
            }
            for (i, id) in away.iter().enumerate() {
                b.select(&format!("#away{i}"), &id.to_string()).await?;
            }
            b.click_named("section[data-phase=players]", "Start the board")
                .await
        }
        Tap::Pose { seat } => {
            b.click_named("section[data-phase=opening]", &names[*seat])
                .await
        }
        Tap::Play { seat, points } => {
            b.click_named("section[data-phase=play]", &names[*seat])
                .await?;
            b.click_named("section[data-phase=play]", &points.to_string())
                .await
        }
        Tap::Out {
            seat,
            left: Some(left),
            ..
        } => {
            b.click_named(PLAY, &names[*seat]).await?;
            b.select("#left", &left.to_string()).await?;
            b.click_named(PLAY, "Out").await
        }
        Tap::Out { seat, points, .. } => {
            b.click_named(PLAY, &names[*seat]).await?;
            if has(b, "fieldset.out-points").await? {
                b.click_named(PLAY, &format!("Out {points}")).await
            } else {
                b.click_named(PLAY, "Out").await
            }
        }
        // Fives and Threes asks no counts unless the winner poses.
        Tap::Blocked { pips } if pips.is_empty() || !has(b, "details.blocked").await? => {
            b.click_named(PLAY, "Blocked").await
        }
        Tap::Blocked { pips } => {
            b.click("details.blocked summary").await?;
            for (seat, p) in pips.iter().enumerate() {
                b.select(&format!("#pips{seat}"), &p.to_string()).await?;
            }
            b.click_named("details.blocked", "Blocked").await
        }
        Tap::Abandoned => b.click_named(PLAY, "Abandoned").await,
        Tap::Penalty {
            seat,
            kind,
            minutes,
        } => {
            b.click_named(PLAY, &names[*seat]).await?;
            if let Some(m) = minutes {
                b.select("#minutes", &m.to_string()).await?;
            }
            let mut label = kind.clone();
            label[..1].make_ascii_uppercase();
            b.click_named(PLAY, &label).await
        }
        other => Err(format!("no way to tap {other:?} in this test")),
    }
}

/// Whether the page has an element matching `css`.
async fn has(b: &Browser, css: &str) -> Result<bool, String> {
    Ok(b.count(css).await? > 0)
}

/// What the engine says the pad should show after these taps.
pub(super) fn expected(s: &Setup, board: usize, taps: &[Tap]) -> [u32; 2] {
    let ruleset = Ruleset::new(s.rules);
    let spec = s.format.boards[board];
    let rules = PadRules {
        ruleset: &ruleset,
        kind: spec.kind,
        best_of: spec.best_of,
        home: &s.home,
        away: &s.away,
    };
    let (b, refused) = replay(&rules, taps);
    assert_eq!(refused, None);
    b.current().map_or([0, 0], |g| g.outcome.totals)
}

async fn totals(b: &Browser) -> Result<[u32; 2], String> {
    let read = |t: String| {
        t.trim()
            .parse::<u32>()
            .map_err(|e| format!("total `{t}`: {e}"))
    };
    Ok([
        read(b.text("[data-bind=total0]").await?)?,
        read(b.text("[data-bind=total1]").await?)?,
    ])
}

/// Boards the home side won and the points it pegged, as the engine scores
/// the simulated games.
fn home_boards_and_pegs(boards: &[(Vec<GameRecord>, Vec<Tap>)]) -> (u32, u32) {
    let (mut won, mut pegs) = (0, 0);
    for (games, _) in boards {
        let mut games_won = [0, 0];
        for g in games {
            let o = score_record(g).unwrap();
            pegs += o.totals[0];
            if let Some(w) = o.winner {
                games_won[w] += 1;
            }
        }
        if games_won[0] > games_won[1] {
            won += 1;
        }
    }
    (won, pegs)
}

/// The board (0-based: the pairs board) on which the connection is lost.
const OFFLINE: usize = 2;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_captain_keeps_a_match_on_the_pad_through_a_lost_connection() {
    if !super::available("a_captain_keeps_a_match_on_the_pad_through_a_lost_connection") {
        return;
    }
    let dir = TempDir::new("pad");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    // A match of the league's boards, singles and pairs: two singles and a
    // pairs board of the default nine (each board a minute of taps; the
    // forms for every board count are the web tests' to cover).
    let mut whole = MatchFormat::default_for(Format::FivesAndThrees);
    whole.boards = vec![whole.boards[0], whole.boards[1], whole.boards[6]];
    let count = whole.boards.len();
    let s = setup_with(&address, Format::FivesAndThrees, whole).await;
    let mut server = Server::start(&address);
    let boards: Vec<(Vec<GameRecord>, Vec<Tap>)> = (0..s.format.boards.len())
        .map(|i| board_taps(&s, i, 11 + i as u64))
        .collect();
    let match_path = format!("/leagues/{}/matches/{}", s.short, s.fixture);
    let server_ref = &mut server;
    let (s_ref, boards_ref) = (&s, &boards);
    run("pad_journey", PHONE, |b| async move {
        let outcome = async {
            b.sign_in(server_ref, &s_ref.home_captain, PASSWORD).await?;
            let (s, boards) = (s_ref, boards_ref);
            // Links for every board, each shown with its address and QR
            // code: the page still fits the phone.
            b.goto(&server_ref.url(&format!("{match_path}/pad"))).await?;
            b.click_named("main", "Make links for every board").await?;
            b.wait_text("main", &format!("Saved: {count} new board links")).await?;
            b.client
                .execute("document.querySelectorAll('details').forEach(d => d.open = true);", vec![])
                .await
                .map_err(|e| e.to_string())?;
            if b.count("main .qr svg").await? != count {
                return Err("the review page does not show a QR code for every board".into());
            }
            // At the narrowest phone we design for, 360 px.
            b.client.set_window_size(360, 844).await.map_err(|e| e.to_string())?;
            let sideways = b.scrolls_sideways().await?;
            b.client.set_window_size(PHONE.0, PHONE.1).await.map_err(|e| e.to_string())?;
            if sideways {
                return Err("the review page with its links scrolls sideways at 360 px".into());
            }
            for (i, (games, taps)) in boards.iter().enumerate() {
                b.goto(&server_ref.url(&format!("{match_path}/pad"))).await?;
                b.click_named("main", &format!("Open board {}'s pad", i + 1)).await?;
                b.wait_text("h1", &format!("Board {}", i + 1)).await?;
                if b.scrolls_sideways().await? {
                    return Err("the pad scrolls sideways at phone size".into());
                }
                let names = games[0].players.clone();
                let cut = taps.len() / 2;
                for (k, t) in taps.iter().enumerate() {
                    // Board 7 (pairs): the connection is lost halfway, and the page
                    // is reloaded with no connection.
                    if i == OFFLINE && k == cut {
                        b.wait_text("#pad-sync", "Saved on the server").await?;
                        server_ref.stop();
                    }
                    if i == OFFLINE && k == cut + 3 {
                        b.wait_text("#pad-sync", "kept on this phone only").await?;
                        b.client.refresh().await.map_err(|e| format!("reload offline: {e}"))?;
                        b.wait_text("#pad-sync", "kept on this phone only").await?;
                        let want = expected(s, i, &taps[..k]);
                        let got = totals(&b).await?;
                        if got != want {
                            return Err(format!("after the offline reload the pad shows {got:?}, the engine {want:?}"));
                        }
                    }
                    if i == OFFLINE && k == cut + 6 {
                        server_ref.restart();
                    }
                    tap(&b, &names, t).await?;
                    if k >= 2 {
                        let want = expected(s, i, &taps[..=k]);
                        let got = totals(&b).await?;
                        if got != want {
                            return Err(format!("board {} tap {k} ({t:?}): the pad shows {got:?}, the engine {want:?}", i + 1));
                        }
                    }
                }
                b.wait_text("[data-bind=verdict]", "won the board").await?;
                b.wait_text("#pad-sync", "Saved on the server").await?;
            }
            b.goto(&server_ref.url(&format!("{match_path}/pad"))).await?;
            b.click_named("main", "Submit the result").await?;
            b.wait_text("main", "Saved: the result from the score pads").await?;
            // The other captain confirms on the spot, on the same phone.
            b.sign_out().await?;
            b.sign_in(server_ref, &s_ref.away_captain, PASSWORD).await?;
            b.goto(&server_ref.url(&format!("{match_path}/history"))).await?;
            b.click_named("main", "Confirm version 1").await?;
            b.wait_text("main", "confirmed").await?;
            // The secretary approves it, and the table follows the hands.
            b.sign_out().await?;
            b.sign_in(server_ref, &s.secretary, PASSWORD).await?;
            b.goto(&server_ref.url(&format!("{match_path}/history"))).await?;
            b.click_named("main", "Approve version 1").await?;
            b.wait_text("main", "approved").await?;
            // On a phone the boards and pegs are among the columns shown on
            // demand: the table with all its columns.
            b.goto(&server_ref.url("/leagues/pad/2026-27/one?cols=all")).await?;
            let row = b
                .client
                .find(fantoccini::Locator::XPath(
                    "//table[contains(@class,'standings')]//tr[th//a[normalize-space(.)='Crown']]",
                ))
                .await
                .map_err(|e| format!("no Crown row in the table: {e}"))?;
            let mut cells = Vec::new();
            for td in row
                .find_all(fantoccini::Locator::Css("td"))
                .await
                .map_err(|e| e.to_string())?
            {
                cells.push(td.text().await.map_err(|e| e.to_string())?);
            }
            // Pos, P, W, D, L, boards for, against, games for, against, pegs for, against.
            let (boards_for, pegs_for) = home_boards_and_pegs(boards);
            let want = ["1".to_owned(), boards_for.to_string(), pegs_for.to_string()];
            let got = [cells[1].clone(), cells[5].clone(), cells[9].clone()];
            if got != want {
                return Err(format!("Crown's row reads {cells:?}; played, boards for and pegs for should be {want:?}"));
            }
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;

    // What the server stored scores exactly as `boneyard score` scores the
    // simulator's records.
    let db = Db::connect(&address).await.unwrap();
    let league = db.league_by_short_name(&s.short).await.unwrap();
    let stored = db.result(league.id, s.fixture).await.unwrap().unwrap();
    assert_eq!(stored.version.status, ResultStatus::Approved);
    assert_eq!(stored.result.boards.len(), count);
    for (board, (games, _)) in stored.result.boards.iter().zip(&boards) {
        assert_eq!(board.games.len(), games.len());
        for (g, sim) in board.games.iter().zip(games) {
            let ours = score_record(&g.record).unwrap();
            let theirs = score_record(sim).unwrap();
            assert_eq!((ours.totals, ours.winner), (theirs.totals, theirs.winner));
            assert_eq!(ours.hands.len(), theirs.hands.len());
        }
    }
    db.close().await;
}
