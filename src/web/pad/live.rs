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
    let night = live::night_begins(league.time_zone, now());
    let boards = state.db().live_boards(league.id, night).await?;
    // The query left out the boards whose result is in.
    let pads: Vec<(FixtureId, PadState)> = boards
        .iter()
        .map(|b| (b.fixture_id, PadState::new(&b.summary, false, b.updated_at)))
        .collect();
    let followed = live::followed(&pads, night);
    Ok(LeagueLive {
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
                format!("Board {}", b.board),
                String::new(),
                &b.summary,
                [&b.home_team, &b.away_team],
            )
        })
        .collect())
}
