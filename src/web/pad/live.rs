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

/// The address of the stream `stream` (a league's or a match's events)
/// from the taps a page is about to read: the league's live generation,
/// read before the boards are, so that a tap between the page and its
/// stream reaches the follower (a tap read twice is shown once: a page
/// keeps a board's newest revision).
pub async fn events_from_now(state: &AppState, league: &League, stream: String) -> Result<String> {
    let since = state.db().live_generation(league.id).await?;
    Ok(format!("{stream}?since={since}"))
}

/// The league's matches in progress (`league::live`), in one query.
pub async fn league_live(state: &AppState, league: &League) -> Result<LeagueLive> {
    let night = live::night_begins(league.time_zone, now());
    let events = events_from_now(state, league, links::at(league).live_events()).await?;
    let boards = state.db().live_boards(league.id, night).await?;
    // The query left out the boards whose result is in.
    let pads: Vec<(FixtureId, PadState)> = boards
        .iter()
        .map(|b| (b.fixture_id, PadState::new(&b.summary, false, b.updated_at)))
        .collect();
    let followed = live::followed(&pads, night);
    Ok(LeagueLive {
        events,
        matches: live::in_progress(&pads, night).len(),
        lines: boards
            .iter()
            .zip(followed)
            .filter(|(_, shown)| *shown)
            .map(|(b, _)| LiveLine::of(league, b))
            .collect(),
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
