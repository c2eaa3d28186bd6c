//! What a captain of a match, or a secretary, may do from its page: score
//! it on the pads (on the night, one large button), enter or correct the
//! result from a card, follow the result's versions. Visitors see none of
//! it: it is the page's own slot (`web::personal`), empty on the page kept
//! for everyone and filled in for the user it belongs to.

use crate::db::{FixtureId, FixtureStatus, League, ResultStatus, Season, Side, now};
use crate::league::live::on_the_night;
use crate::league::workflow::{Actor, FixtureState, submit};
use crate::web::auth::CurrentUser;
use crate::web::links::{Address, MatchAt};
use crate::web::results::{Standing, standing};

use super::super::AppState;
use super::super::error::Result;

/// The actions slot of a match's page, filled in for a signed-in user.
#[derive(askama::Template)]
#[template(path = "public/match_actions.html")]
pub(crate) struct ActionsSlot {
    pub(crate) actions: Option<Actions>,
}

/// The actions a match's page offers its user.
pub(crate) struct Actions {
    /// The match is tonight and its boards are to be scored: the large
    /// "Score this match" button.
    pub(super) tonight: bool,
    /// The score pads (the match still open, its result not in).
    pub(super) pads: Option<String>,
    /// The card, and what it does here ("Enter the result from a card",
    /// "Correct the result").
    pub(super) card: Option<(String, &'static str)>,
    /// The result's versions (where its captains confirm or dispute it and a
    /// secretary approves it), and what the link says.
    pub(super) history: Option<(String, &'static str)>,
}

impl Actions {
    pub(super) fn is_empty(&self) -> bool {
        self.pads.is_none() && self.card.is_none() && self.history.is_none()
    }
}

/// What `user` may do on this match's page: nothing unless they captain one
/// of its teams this season or are the league's secretary. Entering a
/// result is offered only where the workflow would take it (not after the
/// season's result lock, not more than a day ahead).
pub(crate) async fn actions(
    state: &AppState,
    user: Option<&CurrentUser>,
    league: &League,
    season: &Season,
    fixture: FixtureId,
    result: Option<ResultStatus>,
    at: &Address<MatchAt>,
) -> Result<Option<Actions>> {
    let Some(user) = user else {
        return Ok(None);
    };
    let fixture = crate::app::read::match_view::fixture(state.db(), league, fixture).await?;
    let Some(standing) = standing(user, league, &fixture) else {
        return Ok(None);
    };
    let actor = match standing {
        Standing::Secretary => Actor::secretary(user.id),
        Standing::HomeCaptain => Actor::captain(user.id, Side::Home),
        Standing::AwayCaptain => Actor::captain(user.id, Side::Away),
    };
    let now = now();
    let may_enter = submit(
        actor,
        FixtureState {
            status: fixture.status,
            starts_at: fixture.starts_at,
            lock_days: season.rules()?.settings.lock_days,
            season_closed: season.is_closed(),
        },
        now,
    )
    .is_ok();
    let has_result = result.is_some();
    let open = fixture.status.is_open() && !has_result;
    let scores = open && may_enter;
    let card = match (
        may_enter,
        has_result || fixture.status == FixtureStatus::Played,
    ) {
        (false, _) => None,
        (true, false) => Some((at.card(), "Enter the result from a card")),
        (true, true) => Some((at.card(), "Correct the result")),
    };
    Ok(Some(Actions {
        tonight: scores
            && fixture
                .starts_at
                .is_some_and(|t| on_the_night(league.time_zone, now, t)),
        pads: scores.then(|| at.pad()),
        card,
        history: result.map(|status| {
            let words = match standing {
                Standing::Secretary if status != ResultStatus::Approved => "Approve the result",
                _ => "The result's versions",
            };
            (at.history(), words)
        }),
    }))
}
