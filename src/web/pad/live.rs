//! Boards being played, for anyone following from home, on the league's
//! live page. The page reads without a script; a small one refreshes the
//! lines every few seconds.

use crate::web::links;

use crate::db::pad::LiveBoard;
use crate::db::{FixtureId, League, now};
use crate::league::live::{self, PadState};
use crate::league::pad::Summary;

use super::super::AppState;
use super::super::error::Result;

/// One board in words.
pub struct LiveLine {
    pub title: String,
    pub href: String,
    pub sides: [String; 2],
    pub totals: [u32; 2],
    pub games_won: [u32; 2],
    pub state: String,
    /// The side (0 home, 1 away) that won the board: no longer in play.
    pub winner: Option<usize>,
}

impl LiveLine {
    pub fn new(title: String, href: String, s: &Summary, teams: [&str; 2]) -> LiveLine {
        let (sides, state) = crate::app::read::live::board_words(s, teams);
        LiveLine {
            title,
            href,
            sides,
            totals: s.totals,
            games_won: s.games_won,
            state,
            winner: s.winner,
        }
    }

    pub fn of(league: &League, b: &LiveBoard) -> LiveLine {
        LiveLine::new(
            format!("{} v {}, board {}", b.home_team, b.away_team, b.board),
            links::at(league).match_page(b.fixture_id).to_string(),
            &b.summary,
            [&b.home_team, &b.away_team],
        )
    }
}

/// The league's matches in progress and their boards, as the live page,
/// the league's screen and the league home show them.
pub struct LeagueLive {
    /// How many matches are in progress.
    pub matches: usize,
    /// Their boards played tonight, in play or just won, in words.
    pub lines: Vec<LiveLine>,
}

/// The league's matches in progress (`league::live`), in one query.
pub async fn league_live(state: &AppState, league: &League) -> Result<LeagueLive> {
    let (matches, boards) = crate::app::read::live::boards(state.db(), league).await?;
    Ok(LeagueLive {
        matches,
        lines: boards.iter().map(|b| LiveLine::of(league, b)).collect(),
    })
}

/// A match's boards played tonight (`league::live`), while its result is
/// not in, in words: its page's live part and its screen.
pub async fn fixture_boards(
    state: &AppState,
    league: &League,
    fixture: FixtureId,
) -> Result<Vec<LiveLine>> {
    let night = live::night_begins(league.time_zone, now());
    let boards = state
        .db()
        .fixture_live_boards(league.id, night, fixture)
        .await?;
    // The query left out the boards whose result is in.
    Ok(boards
        .iter()
        .filter(|b| PadState::new(&b.summary, false, b.updated_at).tonight(night))
        .map(|b| {
            LiveLine::new(
                format!("Board {}", b.board),
                String::new(),
                &b.summary,
                [&b.home_team, &b.away_team],
            )
        })
        .collect())
}
