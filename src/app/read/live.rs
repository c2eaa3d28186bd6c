//! The league's matches tonight: the boards being played on the score pads
//! (in words, as the live page and the screen show them), tonight's
//! fixtures and the results of other nights awaiting approval. The live
//! page and `/api/v1/.../live` show this view.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::fixtures::{FixtureSummary, summaries};
use crate::app::by_generation::ByGeneration;
use crate::app::formats::{match_formats, scores_by_season};
use crate::db::pad::LiveBoard;
use crate::db::pages::FixtureScope;
use crate::db::{Db, FixtureId, League, LeagueId, Result, now};
use crate::league::live::{self, PadState};
use crate::league::pad::Summary;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LiveBoardView {
    pub fixture_id: i64,
    /// 1-based.
    pub board: i64,
    pub home_team: String,
    pub away_team: String,
    /// The players at the board, home first (the team before they are
    /// chosen).
    pub sides: [String; 2],
    /// The current game's points, home first.
    pub totals: [u32; 2],
    pub games_won: [u32; 2],
    /// Where the board stands, in words.
    pub state: String,
    /// `home` or `away` once the board is won.
    pub winner: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LiveView {
    /// Matches in progress on the pads now.
    pub matches_in_progress: usize,
    /// Their boards played tonight, in play or just won.
    pub boards: Vec<LiveBoardView>,
    /// Tonight's fixtures, whatever their state.
    pub tonight: Vec<FixtureSummary>,
    /// Results of other nights entered, not yet approved.
    pub pending: Vec<FixtureSummary>,
    /// The boards of `boards` as read, for the pages that word them
    /// themselves (with their keys and revisions).
    #[serde(skip)]
    pub shown: Vec<LiveBoard>,
    /// The league's live generation read before the boards: where the
    /// page's stream of taps starts (see `web::pad::live::events_from_now`).
    #[serde(skip)]
    pub since: i64,
    /// The league's seasons' names by id, for the fixtures' links.
    #[serde(skip)]
    pub season_names: HashMap<i64, String>,
}

/// A board's sides and state in words, from its pad's summary.
pub fn board_words(s: &Summary, teams: [&str; 2]) -> ([String; 2], String) {
    let side = |i: usize| {
        let names: Vec<&str> = s
            .players
            .iter()
            .skip(i)
            .step_by(2)
            .map(String::as_str)
            .collect();
        if names.is_empty() {
            teams[i].to_owned()
        } else {
            names.join(" & ")
        }
    };
    let sides = [side(0), side(1)];
    let state = match (s.winner, s.game_over) {
        (Some(w), _) => format!(
            "{} won the board {}–{}",
            sides[w],
            s.games_won[w],
            s.games_won[1 - w]
        ),
        (None, true) => format!(
            "game {} won; {} poses game {}",
            s.game,
            s.next_poser.clone().unwrap_or_default(),
            s.game + 1
        ),
        (None, false) if s.game == 0 => "setting up".to_owned(),
        (None, false) => format!(
            "game {}, hand {}: {} poses{}",
            s.game,
            s.hand,
            s.poser.clone().unwrap_or_default(),
            s.next_poser
                .as_ref()
                .map(|n| format!(", {n} next"))
                .unwrap_or_default()
        ),
    };
    (sides, state)
}

pub fn board_view(b: &LiveBoard) -> LiveBoardView {
    let (sides, state) = board_words(&b.summary, [&b.home_team, &b.away_team]);
    LiveBoardView {
        fixture_id: b.fixture_id.0,
        board: b.board,
        home_team: b.home_team.clone(),
        away_team: b.away_team.clone(),
        sides,
        totals: b.summary.totals,
        games_won: b.summary.games_won,
        state,
        winner: b
            .summary
            .winner
            .map(|w| if w == 0 { "home" } else { "away" }.to_owned()),
    }
}

/// The boards in play (or just won) tonight and how many matches they
/// make, in one query.
pub async fn boards(db: &Db, league: &League) -> Result<(usize, Vec<LiveBoard>)> {
    let night = live::night_begins(league.time_zone, now());
    let boards = db.live_boards(league.id, night).await?;
    // The query left out the boards whose result is in.
    let pads: Vec<(FixtureId, PadState)> = boards
        .iter()
        .map(|b| (b.fixture_id, PadState::new(&b.summary, false, b.updated_at)))
        .collect();
    let followed = live::followed(&pads, night);
    let matches = live::in_progress(&pads, night).len();
    let shown = boards
        .into_iter()
        .zip(followed)
        .filter(|(_, shown)| *shown)
        .map(|(b, _)| b)
        .collect();
    Ok((matches, shown))
}

/// What the live page shows that follows the league's records, not its
/// taps: tonight's fixtures, the results of other nights awaiting
/// approval, and the seasons' names for their links.
pub struct LiveRecords {
    tonight: Vec<FixtureSummary>,
    pending: Vec<FixtureSummary>,
    season_names: HashMap<i64, String>,
}

/// Each league's [`LiveRecords`] by the start of the night, kept while its
/// records stand: on a league night the live page is rendered again after
/// every tap, and a tap changes none of them.
pub type KeptLiveRecords = ByGeneration<(LeagueId, DateTime<Utc>), LiveRecords>;

async fn live_records(
    db: &Db,
    league: &League,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<LiveRecords> {
    let seasons = db.seasons(league.id).await?;
    let lines = db
        .fixture_lines(league.id, &FixtureScope::Live { from, to })
        .await?;
    let ids = lines.iter().map(|f| f.id).collect();
    let board_lines = db
        .board_lines(league.id, &FixtureScope::Ids(ids), false)
        .await?;
    let formats = match_formats(&seasons)?;
    let scores = scores_by_season(&lines, &board_lines, &formats);
    let (mut tonight, mut pending): (Vec<_>, Vec<_>) = lines
        .into_iter()
        .partition(|f| f.starts_at.is_some_and(|t| from <= t && t < to));
    tonight.sort_by_key(|f| (f.starts_at, f.id));
    pending.sort_by_key(|f| (f.starts_at, f.id));
    Ok(LiveRecords {
        tonight: summaries(&tonight, &scores, &formats),
        pending: summaries(&pending, &scores, &formats),
        season_names: seasons.iter().map(|s| (s.id.0, s.name.clone())).collect(),
    })
}

pub async fn live(db: &Db, kept: &KeptLiveRecords, league: &League) -> Result<LiveView> {
    let (from, to) = live::night(league.time_zone, now());
    // One read for both generations, before the records and the boards: a
    // write in between leaves the records under the older number, and a tap
    // in between reaches the page's stream (a board read twice is shown
    // once, at its newest revision).
    let generations = db.page_generations(Some(&league.short_name), &[]).await?;
    let records: Arc<LiveRecords> = kept
        .get_or_work((league.id, from), generations.records, || {
            live_records(db, league, from, to)
        })
        .await?;
    let (matches, shown) = boards(db, league).await?;
    Ok(LiveView {
        matches_in_progress: matches,
        boards: shown.iter().map(board_view).collect(),
        tonight: records.tonight.clone(),
        pending: records.pending.clone(),
        shown,
        since: generations.live,
        season_names: records.season_names.clone(),
    })
}
