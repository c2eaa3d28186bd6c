//! A match page: every board, game and hand, with the totals the engine
//! computes from the stored records (never the stored totals), what was
//! disregarded, who posed each hand and who poses next.

use crate::web::auth::InLeague;
use crate::web::links;
use crate::web::links::{Address, MatchAt};
use std::collections::{HashMap, HashSet};

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::app::read;
use crate::db::pages::FixtureLine;
use crate::db::{
    BoardResult, FixtureId, FixtureStatus, GameResult, League, PlayerId, ResultStatus, Side,
    StoredResult,
};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::{board_tally, walkover_score};
use crate::rules::pose::first_poser;
use crate::rules::{End, Format, Game, GameRecord, Opening, Outcome, PenaltyKind, score};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::{
    ColsQuery, Link, PenaltyView, competition_link, datetime, league_href, match_href, not_found,
    penalty_views, pending_words, player_href, season_href, team_href, when,
};

#[derive(Deserialize)]
pub struct MatchPath {
    fixture: String,
}

#[derive(Template)]
#[template(path = "public/match.html")]
struct MatchPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    home: Link,
    away: Link,
    when: String,
    datetime: String,
    venue: String,
    /// The division or the cup.
    competition: Link,
    /// A cup tie: no league points, the competition called a cup.
    in_cup: bool,
    /// "round 3", or a cup's "Final".
    round: String,
    /// The fixture's state in words.
    status: String,
    /// The walkover score, home first, when one side conceded.
    walkover: Option<String>,
    /// The format's walkover rule in words, beside a walkover's score.
    walkover_rule: String,
    result: Option<ResultView>,
    penalties: Vec<PenaltyView>,
    /// This match's own address, for the links to its card and history.
    /// The match's page, and the addresses under it.
    at: Address<MatchAt>,
    /// The printable score sheet.
    sheet: String,
    /// The score in the heading: boards won, home first, or the walkover's.
    score: Option<String>,
    /// What a captain of the match or a secretary may do here (never for
    /// visitors).
    actions: Option<super::match_actions::Actions>,
    /// This match's boards on the score pads tonight, while its result is
    /// not in (`league::live`).
    lines: Vec<crate::web::pad::live::LiveLine>,
    /// The stream of this match's taps.
    events: String,
    /// Tonight's match, nothing on its pads yet: the live part is shown
    /// empty, to follow the first tap.
    awaiting_pads: bool,
    /// Some board on the pads is still being played.
    in_play: bool,
    /// The boards won so far on the pads, home first.
    so_far: [usize; 2],
    /// Each board's chances from the ratings, once its players are chosen
    /// on its pad and while the match is unplayed.
    chances: Vec<crate::app::ratings::BoardChance>,
    /// Every column of the hand tables on a phone too, and the address of
    /// the other view.
    all_columns: bool,
    cols_href: String,
}

struct ResultView {
    provisional: bool,
    /// "approved" or what the provisional badge says.
    status: String,
    note: String,
    version: i64,
    boards: Vec<BoardView>,
    /// Boards won, home first.
    score: [u32; 2],
    games: [u32; 2],
    pegs: [u32; 2],
    /// League points the score is worth, home first.
    points: (u32, u32),
    /// Boards neither side has won (unfinished or unreadable).
    undecided: u32,
    /// Some game has a hand table (its poser column a phone shows on
    /// demand), and some has scoring plays (its ends too).
    has_hands: bool,
    has_plays: bool,
}

struct BoardView {
    number: usize,
    kind: &'static str,
    home: Vec<Link>,
    away: Vec<Link>,
    games: Vec<GameView>,
    /// Games won by each side per the engine, home first.
    won: [u32; 2],
    /// The side (0 home, 1 away) that took the board.
    winner: Option<usize>,
    /// The side (0 home, 1 away) that conceded it, unplayed.
    conceded: Option<usize>,
    /// Who took the board, in words.
    verdict: String,
}

impl BoardView {
    /// A side's players (0 home, 1 away), as the board-by-board summary
    /// names them.
    fn names(&self, side: usize) -> String {
        let players = if side == 0 { &self.home } else { &self.away };
        players
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join(" & ")
    }

    /// Side `side` (0 home, 1 away) took the board.
    fn took(&self, side: usize) -> bool {
        self.winner == Some(side)
    }

    /// Side `side` conceded the board.
    fn gave(&self, side: usize) -> bool {
        self.conceded == Some(side)
    }
}

struct GameView {
    number: usize,
    /// Who poses first and why: the draw, or the rotation carried on.
    opening: String,
    /// The record could not be scored: why.
    error: Option<String>,
    home_label: String,
    away_label: String,
    /// `hands-won` records have no scoring plays.
    has_plays: bool,
    hands: Vec<HandView>,
    penalties: Vec<String>,
    /// The engine's totals, home first.
    totals: [u32; 2],
    /// The game's result in words.
    verdict: String,
    next_pose: String,
    /// The stored totals disagree with the engine's.
    mismatch: Option<String>,
    /// Entered by its final score only: no hands to show.
    score_only: bool,
}

struct HandView {
    number: usize,
    posed_by: String,
    home: Vec<PlayView>,
    away: Vec<PlayView>,
    end: String,
    totals: [u32; 2],
}

struct PlayView {
    text: String,
    disregarded: bool,
}

pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<MatchPath>,
    Query(cols): Query<ColsQuery>,
) -> Result<Response> {
    let unknown = || AppError::NotFound(format!("The match `{}`", p.fixture));
    let id: i64 = p.fixture.parse().map_err(|_| unknown())?;
    let (data, generations) =
        read::match_view::load_kept(state.db(), state.kept_matches(), &league, FixtureId(id))
            .await
            .map_err(|e| not_found(e, format!("The match `{}`", p.fixture)))?;
    let read::match_view::MatchData {
        line,
        season,
        format,
        stored,
        roster,
        penalties,
        ..
    } = &*data;
    let walkover = match (line.status, line.conceded_by) {
        (FixtureStatus::Walkover, Some(side)) => {
            let s = walkover_score(format, side);
            Some(format!("{}–{}", s.boards[0], s.boards[1]))
        }
        _ => None,
    };
    // A void fixture or a walkover shows its result, if any, for the
    // record; the status says it does not count.
    let stored_status = stored.as_ref().map(|s| s.version.status);
    let result = stored
        .as_ref()
        .map(|s| result_view(&league, line, s, roster, format));
    let result_in = crate::league::live::result_in(line.status, result.is_some());
    let events = crate::web::pad::live::events_since(
        &links::at(&league).match_page(line.id).events(),
        generations.live,
    );
    let lines = crate::web::pad::live::fixture_boards(&state, &league, line.id).await?;
    let chances = if result_in {
        Vec::new()
    } else {
        read::match_view::chances(
            state.db(),
            state.rating_cache(),
            &league,
            line.id,
            season.format,
            roster,
            generations.records,
        )
        .await?
    };
    let at = links::at(&league).match_page(line.id);
    let actions = super::match_actions::actions(
        &state,
        user.0.as_ref(),
        &league,
        season,
        line.id,
        stored_status,
        &at,
    )
    .await?;
    let score = match (&walkover, &result) {
        (Some(w), _) => Some(w.clone()),
        (None, Some(r)) => Some(format!("{}–{}", r.score[0], r.score[1])),
        (None, None) => None,
    };
    // Tonight's match with nothing on the pads yet: the page follows its
    // stream from the start, so the first tap shows without a reload.
    let awaiting_pads = lines.is_empty()
        && !result_in
        && line.starts_at.is_some_and(|t| {
            crate::league::live::on_the_night(league.time_zone, crate::db::now(), t)
        });
    let page = MatchPage {
        awaiting_pads,
        in_play: lines.iter().any(|l| l.winner.is_none()),
        so_far: [0, 1].map(|side| lines.iter().filter(|l| l.winner == Some(side)).count()),
        lines,
        events,
        chances,
        score,
        actions,
        all_columns: cols.all(),
        cols_href: cols.toggle(&match_href(&league, line.id)),
        ctx: user.ctx(),
        crumbs: vec![
            Link::new(league.name.clone(), league_href(&league)),
            Link::new(season.name.clone(), season_href(&league, &season.name)),
            competition_link(&league, &season.name, line),
        ],
        home: Link::new(
            line.home_label(),
            team_href(&league, line.home_team_id, &line.home_name),
        ),
        away: Link::new(
            line.away_label(),
            team_href(&league, line.away_team_id, &line.away_name),
        ),
        when: line
            .starts_at
            .map(|t| when(league.time_zone, t))
            .unwrap_or_default(),
        datetime: line
            .starts_at
            .map(|t| datetime(league.time_zone, t))
            .unwrap_or_default(),
        venue: line.venue_name.clone().unwrap_or_default(),
        competition: competition_link(&league, &season.name, line),
        in_cup: line.cup_id.is_some(),
        round: line.round_words(),
        status: fixture_status(line),
        walkover,
        walkover_rule: format.walkover.words(),
        result,
        penalties: penalty_views(&league, penalties),
        at,
        sheet: links::at(&league).print_fixture(line.id),
        league,
    };
    Ok(html(&page))
}

fn fixture_status(line: &FixtureLine) -> String {
    line.state_words(line.result_status.is_some())
}

fn result_view(
    league: &League,
    line: &FixtureLine,
    stored: &StoredResult,
    roster: &HashMap<PlayerId, String>,
    format: &MatchFormat,
) -> ResultView {
    let v = &stored.version;
    // A singles or pairs tie's sides are its players.
    let side =
        |entrant: &Option<String>, team: &str| entrant.clone().unwrap_or_else(|| team.into());
    let (home, away) = (
        side(&line.home_entrant, &line.home_name),
        side(&line.away_entrant, &line.away_name),
    );
    let teams = [home.as_str(), away.as_str()];
    let boards: Vec<BoardView> = stored
        .result
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            board_view(
                league,
                i + 1,
                b,
                roster,
                format,
                teams,
                &v.format,
                &v.options,
            )
        })
        .collect();
    let mut score = [0, 0];
    let mut games = [0, 0];
    let mut pegs = [0, 0];
    let mut undecided = 0;
    for b in &boards {
        match b.winner {
            Some(side) => score[side] += 1,
            None => undecided += 1,
        }
        games[0] += b.won[0];
        games[1] += b.won[1];
        for g in &b.games {
            pegs[0] += g.totals[0];
            pegs[1] += g.totals[1];
        }
    }
    let provisional = v.status != ResultStatus::Approved;
    ResultView {
        provisional,
        status: if provisional {
            pending_words(v.status).to_owned()
        } else {
            "approved".to_owned()
        },
        note: v.status_note.clone(),
        version: v.version,
        score,
        games,
        pegs,
        points: format.match_points(score[0], score[1]),
        undecided,
        has_hands: boards
            .iter()
            .any(|b| b.games.iter().any(|g| !g.score_only && g.error.is_none())),
        has_plays: boards
            .iter()
            .any(|b| b.games.iter().any(|g| g.has_plays && !g.score_only)),
        boards,
    }
}

fn names(ids: &[PlayerId], roster: &HashMap<PlayerId, String>) -> Vec<String> {
    ids.iter()
        .map(|id| {
            roster
                .get(id)
                .cloned()
                .unwrap_or_else(|| format!("player {id}"))
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn board_view(
    league: &League,
    number: usize,
    board: &BoardResult,
    roster: &HashMap<PlayerId, String>,
    format: &MatchFormat,
    teams: [&str; 2],
    version_format: &str,
    version_options: &Map<String, Value>,
) -> BoardView {
    let link = |id: &PlayerId| {
        let name = roster
            .get(id)
            .cloned()
            .unwrap_or_else(|| format!("player {id}"));
        Link::new(name.clone(), player_href(league, *id, &name))
    };
    let home_names: HashSet<String> = names(&board.home, roster).into_iter().collect();
    let mut won = [0, 0];
    let games: Vec<GameView> = board
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let (view, winner) = game_view(
                i + 1,
                g,
                &home_names,
                teams,
                version_format,
                version_options,
            );
            if let Some(side) = winner {
                won[side] += 1;
            }
            view
        })
        .collect();
    let tally = board_tally(format, number, board.conceded_by, won);
    let won = tally.games;
    if let Some(side) = board.conceded_by {
        let (conceding, taking) = match side {
            Side::Home => (0, 1),
            Side::Away => (1, 0),
        };
        return BoardView {
            number,
            kind: board.kind.as_str(),
            home: Vec::new(),
            away: Vec::new(),
            games,
            won,
            winner: tally.winner,
            conceded: Some(conceding),
            verdict: format!(
                "Not played: {} conceded the board, so it goes to {}.",
                teams[conceding], teams[taking]
            ),
        };
    }
    let need = format
        .boards
        .get(number - 1)
        .map_or(1, MatchFormat::games_to_win);
    let verdict = match tally.winner {
        Some(side) => format!(
            "Board to {}, {} game{} to {}.",
            teams[side],
            won[side],
            if won[side] == 1 { "" } else { "s" },
            won[1 - side]
        ),
        None => format!(
            "Not decided: {} {}, {} {} (a side needs {need}).",
            teams[0], won[0], teams[1], won[1]
        ),
    };
    BoardView {
        number,
        kind: board.kind.as_str(),
        home: board.home.iter().map(link).collect(),
        away: board.away.iter().map(link).collect(),
        games,
        won,
        winner: tally.winner,
        conceded: None,
        verdict,
    }
}

/// A game entered by its final score only: the stored totals, no hands.
fn score_only_view(
    number: usize,
    result: &GameResult,
    home_names: &HashSet<String>,
    teams: [&str; 2],
) -> (GameView, Option<usize>) {
    let r = &result.record;
    let home = (0..2)
        .find(|&s| {
            r.sides
                .get(s)
                .is_some_and(|side| side.iter().any(|n| home_names.contains(n)))
        })
        .unwrap_or(0);
    let label = |s: usize| r.sides.get(s).map(|m| m.join(" & ")).unwrap_or_default();
    let stored = result.outcome.as_ref().map_or([0, 0], |o| o.totals);
    let total = |s: usize| u32::try_from(stored[s].max(0)).unwrap_or(0);
    let totals = [total(home), total(1 - home)];
    let winner = result
        .outcome
        .as_ref()
        .and_then(|o| o.winner)
        .map(|w| usize::from(w != home));
    let verdict = match winner {
        Some(w) => format!(
            "{} won {}–{} (final score only).",
            teams[w],
            totals[w],
            totals[1 - w]
        ),
        None => "Not finished.".to_owned(),
    };
    let view = GameView {
        number,
        opening: "Entered by its final score only: this game has no hand-by-hand detail, so it counts in the tables but not in the per-hand statistics.".into(),
        error: None,
        home_label: label(home),
        away_label: label(1 - home),
        has_plays: false,
        hands: Vec::new(),
        penalties: Vec::new(),
        totals,
        verdict,
        next_pose: String::new(),
        mismatch: None,
        score_only: true,
    };
    (view, winner)
}

/// The record as it is scored: the result version's ruleset options (the
/// season's when it was written) under the record's own.
fn scoring_record(
    record: &GameRecord,
    version_format: &str,
    version_options: &Map<String, Value>,
) -> GameRecord {
    let mut record = record.clone();
    if record.format == version_format && !version_options.is_empty() {
        let mut options = version_options.clone();
        options.extend(record.options.take().unwrap_or_default());
        record.options = Some(options);
    }
    record
}

/// A game as the page shows it, and the side (0 home, 1 away) that won it.
fn game_view(
    number: usize,
    result: &GameResult,
    home_names: &HashSet<String>,
    teams: [&str; 2],
    version_format: &str,
    version_options: &Map<String, Value>,
) -> (GameView, Option<usize>) {
    if result.score_only {
        return score_only_view(number, result, home_names, teams);
    }
    let record = scoring_record(&result.record, version_format, version_options);
    let scored = Game::from_record(&record).and_then(|game| {
        let outcome = score(&game)?;
        Ok((game, outcome))
    });
    let (game, outcome) = match scored {
        Ok(x) => x,
        Err(e) => {
            let label = |i: usize| {
                record
                    .sides
                    .get(i)
                    .map(|s| s.join(" & "))
                    .unwrap_or_default()
            };
            let view = GameView {
                number,
                opening: String::new(),
                error: Some(format!("This game's record cannot be scored: {e}.")),
                home_label: label(0),
                away_label: label(1),
                has_plays: false,
                hands: Vec::new(),
                penalties: Vec::new(),
                totals: [0, 0],
                verdict: "Not counted: the record is not valid.".into(),
                next_pose: String::new(),
                mismatch: None,
                score_only: false,
            };
            return (view, None);
        }
    };
    // Which side of the record is the home team's.
    let home = (0..2)
        .find(|&s| {
            game.sides[s]
                .iter()
                .any(|&seat| home_names.contains(&game.players[seat]))
        })
        .unwrap_or(0);
    let away = 1 - home;
    let name = |seat: usize| game.players[seat].clone();
    let label = |side: usize| {
        game.sides[side]
            .iter()
            .map(|&s| name(s))
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let (home_label, away_label) = (label(home), label(away));
    let team_of = |side: usize| if side == home { teams[0] } else { teams[1] };
    let format = game.ruleset.format;

    let opening = match &game.opening {
        Opening::Draw(tiles) => {
            let drawn: Vec<String> = tiles
                .iter()
                .enumerate()
                .map(|(seat, t)| format!("{} {t}", name(seat)))
                .collect();
            format!(
                "Draw for pose: {}; {} poses first.",
                drawn.join(", "),
                name(first_poser(&game))
            )
        }
        Opening::Pose(seat) => format!(
            "{} poses first: the rotation of pose carries on from the board's last game.",
            name(*seat)
        ),
    };

    let hands = game
        .hands
        .iter()
        .zip(&outcome.hands)
        .enumerate()
        .map(|(h, (hand, out))| {
            let mut plays = [Vec::new(), Vec::new()];
            for (i, play) in hand.plays.iter().enumerate() {
                // The column names a singles player; a pair's plays say
                // which partner made them.
                let side = game.side_of[play.by];
                let mut text = if game.sides[side].len() == 1 {
                    play.points.to_string()
                } else {
                    format!("{} {}", name(play.by), play.points)
                };
                if play.out && format == Format::FivesAndThrees {
                    text.push_str(" + 1, chipped out");
                } else if play.out {
                    text.push_str(", out");
                }
                if play.muggins {
                    text.push_str(" (muggins)");
                }
                plays[if side == home { 0 } else { 1 }].push(PlayView {
                    text,
                    disregarded: out.disregarded.contains(&(i + 1)),
                });
            }
            let mut end = match &hand.end {
                None => "game won during the hand".to_owned(),
                Some(End::Out { player, left }) if format == Format::AllFives => {
                    let opponents = 1 - game.side_of[*player];
                    let held: Vec<String> = game.sides[opponents]
                        .iter()
                        .map(|&s| format!("{} {}", name(s), left[s]))
                        .collect();
                    format!(
                        "out by {}; opponents held {}",
                        name(*player),
                        held.join(", ")
                    )
                }
                Some(End::Out { player, .. }) => format!("out by {}", name(*player)),
                Some(End::Blocked { pips: None }) => "blocked".to_owned(),
                Some(End::Blocked { pips: Some(pips) }) => {
                    let counts: Vec<String> = (0..game.players.len())
                        .map(|s| format!("{} {}", name(s), pips[s]))
                        .collect();
                    format!("blocked: {}", counts.join(", "))
                }
                Some(End::Abandoned) => "abandoned: void".to_owned(),
            };
            if format == Format::HandsWon {
                match out.winner {
                    Some(side) => end.push_str(&format!(
                        "; won by {} ({} game{})",
                        label(side),
                        out.worth,
                        if out.worth == 1 { "" } else { "s" }
                    )),
                    None if hand.end.is_some() => end.push_str("; nobody wins the hand"),
                    None => {}
                }
            }
            let [home_plays, away_plays] = plays;
            HandView {
                number: h + 1,
                posed_by: name(out.posed_by),
                home: home_plays,
                away: away_plays,
                end,
                totals: [out.totals_after[home], out.totals_after[away]],
            }
        })
        .collect();

    let penalties = game
        .penalties
        .iter()
        .map(|p| {
            let what = match p.kind {
                PenaltyKind::Talking => "talking to partner".to_owned(),
                PenaltyKind::Exposed => "exposed tile".to_owned(),
                PenaltyKind::Late { minutes } => format!("late by {minutes} minutes"),
                PenaltyKind::Violation => "rules violation".to_owned(),
            };
            let when = if p.before_hand >= game.hands.len() {
                "After the last hand".to_owned()
            } else {
                format!("Before hand {}", p.before_hand + 1)
            };
            format!(
                "{when}: {} ({}), {what}.",
                name(p.player),
                team_of(game.side_of[p.player])
            )
        })
        .collect();

    let totals = [outcome.totals[home], outcome.totals[away]];
    let verdict = match (outcome.finished, outcome.winner) {
        (true, Some(w)) => {
            let lost = 1 - w;
            format!(
                "Won by {} ({}), {}–{}.",
                label(w),
                team_of(w),
                outcome.totals[w],
                outcome.totals[lost]
            )
        }
        _ => format!(
            "Not finished: {} {}, {} {}.",
            home_label, totals[0], away_label, totals[1]
        ),
    };
    let next_pose = if outcome.finished {
        format!(
            "{} poses the first hand of the next game on this board.",
            name(outcome.next_pose)
        )
    } else {
        format!("{} poses the next hand.", name(outcome.next_pose))
    };
    let mismatch = mismatch(result, &outcome);
    let winner = outcome
        .finished
        .then_some(outcome.winner)
        .flatten()
        .map(|w| if w == home { 0 } else { 1 });
    let view = GameView {
        number,
        opening,
        error: None,
        home_label,
        away_label,
        has_plays: format != Format::HandsWon,
        hands,
        penalties,
        totals,
        verdict,
        next_pose,
        mismatch,
        score_only: false,
    };
    (view, winner)
}

/// Says so when the outcome stored with a game differs from the engine's.
fn mismatch(result: &GameResult, outcome: &Outcome) -> Option<String> {
    let stored = result.outcome.as_ref()?;
    let computed = [i64::from(outcome.totals[0]), i64::from(outcome.totals[1])];
    let same = stored.totals == computed
        && stored.finished == outcome.finished
        && stored.winner == outcome.winner;
    (!same).then(|| {
        format!(
            "The totals stored with this game ({}–{}) differ from what its hands give ({}–{}); \
             this page shows the hands' totals.",
            stored.totals[0], stored.totals[1], computed[0], computed[1]
        )
    })
}
