//! Boards being played, for anyone following from home, on the league's
//! live page. The page reads without a script; a small one refreshes the
//! lines every few seconds.

use crate::web::links;
use chrono::Duration;

use crate::db::pad::LiveBoard;
use crate::db::{League, now};
use crate::league::pad::Summary;

use super::super::AppState;
use super::super::error::Result;

/// Boards tapped within this many hours count as being played.
const LIVE_HOURS: i64 = 12;

/// One board in words.
pub struct LiveLine {
    pub title: String,
    pub href: String,
    pub sides: [String; 2],
    pub totals: [u32; 2],
    pub games_won: [u32; 2],
    pub state: String,
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

/// The league's boards being played, in words.
pub async fn boards(state: &AppState, league: &League) -> Result<Vec<LiveLine>> {
    let boards = state
        .db()
        .live_boards(league.id, now() - Duration::hours(LIVE_HOURS))
        .await?;
    // A board whose every tap was undone has nothing to show.
    Ok(boards
        .iter()
        .filter(|b| !b.summary.players.is_empty())
        .map(|b| LiveLine::of(league, b))
        .collect())
}

/// A fixture's boards on the score pads, in words.
pub async fn fixture_boards(
    state: &AppState,
    league: &League,
    fixture: crate::db::FixtureId,
) -> Result<Vec<LiveLine>> {
    let pads = state.db().pad_boards(league.id, fixture).await?;
    Ok(pads
        .iter()
        .filter(|p| !p.summary.players.is_empty())
        .map(|p| {
            LiveLine::new(
                format!("Board {}", p.board),
                String::new(),
                &p.summary,
                ["Home", "Away"],
            )
        })
        .collect())
}
