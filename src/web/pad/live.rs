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
    /// `fixture-board`: how a follower's page finds the board an event
    /// is about.
    pub key: String,
    /// The board's pad revision shown.
    pub revision: i64,
    pub title: String,
    /// The board named in full (its match and number), whatever page it is
    /// on: its score's caption, the same in every page and event.
    pub caption: String,
    pub href: String,
    pub sides: [String; 2],
    pub totals: [u32; 2],
    pub games_won: [u32; 2],
    pub state: String,
    /// The side (0 home, 1 away) that won the board: no longer in play.
    pub winner: Option<usize>,
}

impl LiveLine {
    /// Board `board` of match `fixture` between `teams`, at `revision`,
    /// titled `title` on its page.
    pub fn new(
        (fixture, board, revision): (FixtureId, i64, i64),
        title: String,
        href: String,
        s: &Summary,
        teams: [&str; 2],
    ) -> LiveLine {
        let (sides, state) = crate::app::read::live::board_words(s, teams);
        LiveLine {
            key: format!("{}-{board}", fixture.0),
            revision,
            title,
            caption: format!("{} v {}, board {board}", teams[0], teams[1]),
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
            (b.fixture_id, b.board, b.revision),
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
    /// The stream of the league's taps from those read here.
    pub events: String,
}

impl LeagueLive {
    /// The live part of the league's live page, from its view (read
    /// once: boards, counts and where the stream starts).
    pub fn of(league: &League, view: &crate::app::read::live::LiveView) -> LeagueLive {
        LeagueLive {
            events: events_since(&links::at(league).live_events(), view.since),
            matches: view.matches_in_progress,
            lines: view.shown.iter().map(|b| LiveLine::of(league, b)).collect(),
        }
    }
}

/// The address of the stream `stream` (a league's or a match's events)
/// from the taps a page is about to read: the league's live generation,
/// read before the boards are, so that a tap between the page and its
/// stream reaches the follower (a tap read twice is shown once: a page
/// keeps a board's newest revision).
pub async fn events_from_now(state: &AppState, league: &League, stream: String) -> Result<String> {
    let since = state.db().live_generation(league.id).await?;
    Ok(events_since(&stream, since))
}

/// The address of the stream `stream` from the league's live generation
/// `since`, read before the boards (see [`events_from_now`]).
pub fn events_since(stream: &str, since: i64) -> String {
    format!("{stream}?since={since}")
}

/// The league's matches in progress (`league::live`), in one query.
pub async fn league_live(state: &AppState, league: &League) -> Result<LeagueLive> {
    let events = events_from_now(state, league, links::at(league).live_events()).await?;
    let (matches, boards) = crate::app::read::live::boards(state.db(), league).await?;
    Ok(LeagueLive {
        events,
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
                (b.fixture_id, b.board, b.revision),
                format!("Board {}", b.board),
                String::new(),
                &b.summary,
                [&b.home_team, &b.away_team],
            )
        })
        .collect())
}
