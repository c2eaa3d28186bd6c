//! A match: its fixture, state and score, and its current result board by
//! board and game by game, each game's record (hands and plays) as
//! RULES.md gives it. The match page and `/api/v1/.../matches/{id}` read
//! the same records here.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use super::fixtures::{FixtureSummary, summary};
use crate::app::by_generation::ByGeneration;
use crate::db::generation::PageGenerations;
use crate::db::pages::{BoardLine, FixtureLine, FixtureScope, PenaltyLine, PenaltyScope};
use crate::db::{Db, DbError, FixtureId, League, LeagueId, PlayerId, Result, Season, StoredResult};
use crate::league::match_format::MatchFormat;
use crate::league::match_score::{board_tally, scores_from_boards};

/// What the match's page and resource are made from, read once.
pub struct MatchData {
    pub line: FixtureLine,
    pub season: Season,
    /// The format it is played in: its cup's own, or its season's.
    pub format: MatchFormat,
    pub stored: Option<StoredResult>,
    /// The names of the players who may appear on its boards.
    pub roster: HashMap<PlayerId, String>,
    pub penalties: Vec<PenaltyLine>,
    pub boards: Vec<BoardLine>,
}

/// Each match's records, kept while its league's records stand: on a
/// league night its page is rendered again after every tap on its pads,
/// and a tap changes none of them (taps raise the live scopes only).
pub type KeptMatches = ByGeneration<(LeagueId, FixtureId), MatchData>;

/// [`load`], kept in `kept` under the league's records generation, with
/// the league's generations as read first, in one query: the records'
/// (a write in between leaves what is read here under the older number;
/// the ratings are kept under it too) and the taps' (where the match's
/// stream starts, so that a tap between this and the boards' read reaches
/// its follower).
pub async fn load_kept(
    db: &Db,
    kept: &KeptMatches,
    league: &League,
    id: FixtureId,
) -> Result<(Arc<MatchData>, PageGenerations)> {
    let generations = db.page_generations(Some(&league.short_name), &[]).await?;
    let data = kept
        .get_or_work((league.id, id), generations.records, || {
            load(db, league, id)
        })
        .await?;
    Ok((data, generations))
}

/// The match `id` of `league`.
pub async fn load(db: &Db, league: &League, id: FixtureId) -> Result<MatchData> {
    let scope = FixtureScope::One(id);
    let line = db
        .fixture_lines(league.id, &scope)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| DbError::NotFound(format!("The match `{id}`")))?;
    let season = db.season(league.id, line.season_id).await?;
    let format = season
        .rules()?
        .fixture_format(line.cup_format.as_ref())
        .clone();
    let stored = db.result(league.id, line.id).await?;
    let mut roster: HashMap<PlayerId, String> = db
        .fixture_roster(
            league.id,
            line.season_id,
            line.home_team_id,
            line.away_team_id,
        )
        .await?
        .into_iter()
        .map(|r| (r.player_id, r.name))
        .collect();
    // A pairs entrant's partner may be of another team.
    if line.cup_id.is_some()
        && let Some((home, away)) = db.cup_tie_players(league.id, line.id).await?
    {
        roster.extend(home.into_iter().chain(away).map(|p| (p.id, p.name)));
    }
    let penalties = db
        .penalty_lines(league.id, PenaltyScope::Fixture(line.id))
        .await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    Ok(MatchData {
        line,
        season,
        format,
        stored,
        roster,
        penalties,
        boards,
    })
}

/// A match with its current result.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MatchView {
    pub fixture: FixtureSummary,
    /// The current result version; absent before any is entered.
    pub result: Option<ResultView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ResultView {
    /// 1 for the first entry, then 2, 3... for corrections.
    pub version: i64,
    /// `entered`, `confirmed`, `disputed` or `approved`.
    pub status: String,
    pub provisional: bool,
    /// The note of a dispute or an approval.
    pub note: String,
    pub boards: Vec<BoardView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardView {
    /// 1-based.
    pub number: usize,
    /// `singles` or `pairs`.
    pub kind: String,
    pub home: Vec<Ref>,
    pub away: Vec<Ref>,
    /// A board not played: `home` or `away` conceded it.
    pub conceded_by: Option<String>,
    /// Games won, home first, as counted.
    pub games_won: [u32; 2],
    /// Pegs (points scored in its games), home first.
    pub pegs: [u32; 2],
    /// `home` or `away`; absent while undecided.
    pub winner: Option<String>,
    pub games: Vec<GameView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameView {
    /// 1-based.
    pub number: usize,
    /// Entered by its final score only: its record has no hands.
    pub score_only: bool,
    /// The game record as RULES.md defines it (`format`, `players`,
    /// `sides`, `hands` with their plays and ends, ...).
    #[schema(value_type = Object)]
    pub record: serde_json::Value,
    /// The engine's totals in the order of the record's `sides`.
    pub totals: Option<[i64; 2]>,
    /// The index in `sides` of the side that won it.
    pub winner: Option<usize>,
    pub finished: Option<bool>,
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

impl MatchData {
    pub fn view(&self) -> MatchView {
        let scores = scores_from_boards(&self.boards, &self.format);
        let name = |id: &PlayerId| {
            Ref::new(
                id.0,
                self.roster
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| format!("player {id}")),
            )
        };
        let lines: HashMap<i64, &BoardLine> = self.boards.iter().map(|b| (b.board, b)).collect();
        let result = self.stored.as_ref().map(|s| ResultView {
            version: s.version.version,
            status: s.version.status.as_str().to_owned(),
            provisional: s.version.status != crate::db::ResultStatus::Approved,
            note: s.version.status_note.clone(),
            boards: s
                .result
                .boards
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let number = i + 1;
                    let line = i64::try_from(number).ok().and_then(|n| lines.get(&n));
                    let won = line.map_or([0, 0], |l| [count(l.home_games), count(l.away_games)]);
                    let tally = board_tally(&self.format, number, b.conceded_by, won);
                    BoardView {
                        number,
                        kind: b.kind.as_str().to_owned(),
                        home: b.home.iter().map(name).collect(),
                        away: b.away.iter().map(name).collect(),
                        conceded_by: b.conceded_by.map(|s| s.as_str().to_owned()),
                        games_won: tally.games,
                        pegs: line.map_or([0, 0], |l| [count(l.home_pegs), count(l.away_pegs)]),
                        winner: tally
                            .winner
                            .map(|w| if w == 0 { "home" } else { "away" }.to_owned()),
                        games: b
                            .games
                            .iter()
                            .enumerate()
                            .map(|(g, game)| GameView {
                                number: g + 1,
                                score_only: game.score_only,
                                record: serde_json::to_value(&game.record)
                                    .unwrap_or(serde_json::Value::Null),
                                totals: game.outcome.as_ref().map(|o| o.totals),
                                winner: game.outcome.as_ref().and_then(|o| o.winner),
                                finished: game.outcome.as_ref().map(|o| o.finished),
                            })
                            .collect(),
                    }
                })
                .collect(),
        });
        MatchView {
            fixture: summary(&self.line, &scores, &self.format),
            result,
        }
    }
}

/// The fixture `id` of `league` as stored (its status and date, for what
/// a captain or the secretary may do on its page).
pub async fn fixture(db: &Db, league: &League, id: FixtureId) -> Result<crate::db::Fixture> {
    db.fixture(league.id, id).await
}

/// Each board's chances as the score pads stand, by the players' ratings
/// in `format` (`app::ratings::board_chances`).
pub async fn chances(
    db: &Db,
    ratings: &crate::app::ratings::RatingCache,
    league: &League,
    fixture: FixtureId,
    format: crate::rules::Format,
    roster: &HashMap<PlayerId, String>,
    records: i64,
) -> Result<Vec<crate::app::ratings::BoardChance>> {
    let pads = db.pad_boards(league.id, fixture).await?;
    let rated = ratings.of_at(db, league, records).await?;
    Ok(crate::app::ratings::board_chances(
        &pads,
        &rated.ratings,
        format,
        roster,
    ))
}
