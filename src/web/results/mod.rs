//! Entering results hand by hand, the captains' workflow, and results in
//! and out as game records and CSV.

use crate::web::links::{self, Address, MatchAt};
use crate::web::routes::Routes;
use axum::extract::{FromRef, FromRequestParts, Path};
use axum::http::request::Parts;
use axum::routing::{get, post};
use std::collections::HashMap;

use crate::db::{DbError, Fixture, FixtureId, League, RoleKind, Season, Side};
use crate::league::workflow::{Actor, Refusal};

use super::AppState;
use super::auth::{CurrentUser, league_from_path};
use super::error::AppError;

pub mod card;
mod exchange;
mod workflow;

pub fn router() -> Routes {
    Routes::new()
        .league("/matches/{fixture}/card", get(card::show).post(card::save))
        .league("/matches/{fixture}/history", get(workflow::history))
        .league("/matches/{fixture}/confirm", post(workflow::confirm))
        .league("/matches/{fixture}/dispute", post(workflow::dispute))
        .league("/matches/{fixture}/approve", post(workflow::approve))
        .league("/matches/{fixture}/restore", post(workflow::restore))
        .league("/matches/{fixture}/walkover", post(workflow::walkover))
        .league("/matches/{fixture}/void", post(workflow::void))
        .league("/matches/{fixture}/reinstate", post(workflow::reinstate))
        .league("/matches/{fixture}/games.json", get(exchange::export_games))
        .league("/matches/{fixture}/import", post(exchange::import_games))
        .league("/seasons/{season}/results.csv", get(exchange::season_csv))
        .league("/seasons/{season}/results.json", get(exchange::season_json))
}

/// What a user is to a fixture: a secretary of its league, or a captain of
/// one of its teams this season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Secretary,
    HomeCaptain,
    AwayCaptain,
}

/// The fixture named by the address's `{fixture}`, in the league of the
/// address: another league's fixture id is simply not found.
pub async fn path_fixture(
    parts: &mut Parts,
    app: &AppState,
    league: &League,
) -> Result<Fixture, AppError> {
    let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, app)
        .await
        .map_err(|_| AppError::NotFound("That match".into()))?;
    let id: i64 = params
        .get("fixture")
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| AppError::NotFound("That match".into()))?;
    Ok(app.db().fixture(league.id, FixtureId(id)).await?)
}

/// What `user` is to `fixture`, if anything: a secretary of its league, or
/// a captain of one of its teams in its season.
pub fn standing(user: &CurrentUser, league: &League, fixture: &Fixture) -> Option<Standing> {
    if user.is_secretary_of(league) {
        return Some(Standing::Secretary);
    }
    let captain_of = |team| {
        user.roles.iter().any(|r| {
            r.kind == RoleKind::Captain
                && r.league_id == Some(league.id)
                && r.season_id == Some(fixture.season_id)
                && r.team_id == Some(team)
        })
    };
    if captain_of(fixture.home_team_id) {
        Some(Standing::HomeCaptain)
    } else if captain_of(fixture.away_team_id) {
        Some(Standing::AwayCaptain)
    } else {
        None
    }
}

/// What the pages call a match's two sides: its teams, or for a singles or
/// pairs cup tie its entrants (two of whom may share a team).
pub async fn side_names(
    app: &AppState,
    league: &League,
    fixture: &Fixture,
) -> Result<[String; 2], AppError> {
    let db = app.db();
    let entrants = match fixture.cup_id {
        Some(_) => db.cup_tie_players(league.id, fixture.id).await?,
        None => None,
    };
    let names = |players: Vec<crate::db::Player>| {
        players
            .into_iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(" & ")
    };
    Ok(match entrants {
        Some((h, a)) => [names(h), names(a)],
        None => {
            db.team_names(league.id, fixture.home_team_id, fixture.away_team_id)
                .await?
        }
    })
}

/// A signed-in user allowed to enter or confirm this fixture's result,
/// with the fixture and its league loaded. Anyone else is refused here,
/// so no handler can forget the check.
pub struct FixtureAccess {
    pub user: CurrentUser,
    pub league: League,
    pub fixture: Fixture,
    pub season: Season,
    /// The season's ruleset and settings, and the fixture's match format
    /// (its cup's own, if it has one), read once.
    pub rules: crate::league::season::SeasonRules,
    /// The sides as the pages call them ([`side_names`]).
    pub names: [String; 2],
    pub standing: Standing,
}

impl FixtureAccess {
    pub fn is_secretary(&self) -> bool {
        self.standing == Standing::Secretary
    }

    /// "Crown v Anchor", or a singles or pairs tie's "Ann v Bea".
    pub fn title(&self) -> String {
        format!("{} v {}", self.names[0], self.names[1])
    }

    /// The fixture's page, and the addresses under it.
    pub fn at(&self) -> Address<MatchAt> {
        links::at(&self.league).match_page(self.fixture.id)
    }
}

impl<S> FromRequestParts<S> for FixtureAccess
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        let app = AppState::from_ref(state);
        let league = league_from_path(parts, &app).await?;
        let fixture = path_fixture(parts, &app, &league).await?;
        let db = app.db();
        let standing = standing(&user, &league, &fixture).ok_or_else(|| {
            AppError::Forbidden(
                "Only the two captains of this match and the league's secretaries may enter or confirm its result.".into(),
            )
        })?;
        let season = db.season(league.id, fixture.season_id).await?;
        crate::league::season::results_open(
            &season.name,
            season.is_closed(),
            standing == Standing::Secretary,
        )
        .map_err(|why| AppError::Forbidden(why.to_string()))?;
        let names = side_names(&app, &league, &fixture).await?;
        let rules =
            crate::app::formats::fixture_season_rules(db, &league, &season, &fixture).await?;
        Ok(FixtureAccess {
            user,
            league,
            fixture,
            season,
            rules,
            names,
            standing,
        })
    }
}

impl FixtureAccess {
    /// Who is acting, as the result workflow's rules see them.
    pub fn actor(&self) -> Actor {
        match self.standing {
            Standing::Secretary => Actor::secretary(self.user.id),
            Standing::HomeCaptain => Actor::captain(self.user.id, Side::Home),
            Standing::AwayCaptain => Actor::captain(self.user.id, Side::Away),
        }
    }

    /// A refusal of the workflow as the user should read it: dates in the
    /// league's time zone.
    pub fn refused(&self, e: DbError) -> AppError {
        match e {
            DbError::Refused(Refusal::TooEarly { starts_at }) => AppError::BadRequest(format!(
                "This match is not until {}: its result can be entered from the day before. Nothing was saved.",
                crate::web::dates::when(self.league.time_zone, starts_at)
            )),
            DbError::Refused(Refusal::Locked { since }) => AppError::Forbidden(format!(
                "The result of this match locked on {}: only a secretary can enter or correct it now. Nothing was saved.",
                crate::web::dates::when(self.league.time_zone, since)
            )),
            other => AppError::Db(other),
        }
    }

    /// The season's settings.
    pub fn settings(&self) -> &crate::league::settings::SeasonSettings {
        &self.rules.settings
    }

    /// When this fixture's result locked for its captains, if it has: the
    /// page says so instead of offering a form that would be refused.
    pub fn locked_since(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        if self.is_secretary() {
            return None;
        }
        let state = crate::league::workflow::FixtureState {
            status: self.fixture.status,
            starts_at: self.fixture.starts_at,
            lock_days: self.settings().lock_days,
            season_closed: false,
        };
        state.locks_at().filter(|since| chrono::Utc::now() > *since)
    }
}

/// Stores a submitted result (from the card or the pads) as the fixture's
/// next version, in one transaction: approved at once when a secretary
/// enters it, the fixture marked played, refused more than a day ahead of
/// the fixture (see `league::workflow::submit`).
pub async fn store_result(
    state: &AppState,
    access: &FixtureAccess,
    result: &crate::db::MatchResult,
) -> Result<crate::db::ResultVersion, AppError> {
    let version = crate::app::results::submit(
        state.db(),
        access.league.id,
        access.fixture.id,
        result,
        access.actor(),
    )
    .await
    .map_err(|e| access.refused(e))?;
    tell_followers(state, access).await;
    Ok(version)
}

/// The match's followers told that it changed (its result in, a walkover,
/// a void) once that is saved. The change stands whatever happens here: a
/// follower not told reads its page again within a minute.
pub async fn tell_followers(state: &AppState, access: &FixtureAccess) {
    let told = crate::app::pad::tell_match_changed(
        state.db(),
        state.hub(),
        access.league.id,
        access.fixture.id,
    )
    .await;
    if let Err(e) = told {
        tracing::warn!(error = %e, fixture = access.fixture.id.0, "could not tell the match's followers");
    }
}
