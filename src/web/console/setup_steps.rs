//! The console's set-up checklist (issue 39): each first step of a new
//! league still to take, linked, in order. Gone once the newest season has
//! its fixtures.

use crate::db::{League, Season};
use crate::web::AppState;
use crate::web::error::Result;
use crate::web::links;

/// A first step still to take in a new league.
pub struct Step {
    pub text: String,
    pub href: String,
}

/// What is still to set up, in order; empty once the league is running.
/// `seasons` newest first.
pub async fn steps(state: &AppState, league: &League, seasons: &[Season]) -> Result<Vec<Step>> {
    let db = state.db();
    let console = links::at(league).console();
    let Some(season) = seasons.first() else {
        return Ok(vec![
            Step {
                text: "Create the first season: its rules and match format".into(),
                href: console.new_season(),
            },
            Step {
                text: "Then set it up in one paste from a spreadsheet: venues, divisions, teams, players and captains with their email addresses".into(),
                href: console.new_season(),
            },
        ]);
    };
    if db.has_fixtures(league.id, season.id).await? {
        return Ok(Vec::new());
    }
    let mut steps = Vec::new();
    let entered = db.team_entries(league.id, season.id).await?.len();
    if entered == 0 {
        steps.push(Step {
            text: format!(
                "Set up {} in one paste from a spreadsheet: venues, divisions, teams, players and captains with their email addresses",
                season.name
            ),
            href: console.season(season.id).import(),
        });
    }
    let waiting = db
        .waiting_invitations(league.id)
        .await?
        .iter()
        .filter(|w| w.kind == "captain")
        .count();
    if waiting > 0 {
        steps.push(Step {
            text: format!(
                "Captains' invitations not yet taken up: {waiting} (copy, resend or revoke them)"
            ),
            href: format!("{}#invitations", console.users()),
        });
    }
    if entered > 0 {
        steps.push(Step {
            text: format!("Generate each division's fixtures of {}", season.name),
            href: console.season(season.id).divisions(),
        });
    }
    Ok(steps)
}
