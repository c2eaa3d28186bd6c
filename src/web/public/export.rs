//! A division's table and fixtures as JSON, for leagues that show their
//! table on their own website (`…/{division}/data.json`), and the page that
//! documents it (`…/{division}/data`). The shape is stable: fields may be
//! added, never renamed or removed, and `version` says which shape it is.

use crate::web::auth::InLeague;
use crate::web::links;
use askama::Template;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::db::{FixtureStatus, League, Side, TeamId};

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::page::{Ctx, html};
use super::division::{DivisionPath, resolve};
use super::{Link, datetime, division_href, league_href, match_href, season_href, team_href};
use crate::league::match_score::fixture_score;
use crate::web::error::Result;

/// The shape's version.
const VERSION: u32 = 1;

#[derive(Serialize)]
pub struct DivisionJson {
    pub version: u32,
    pub league: Named,
    pub season: SeasonJson,
    pub division: Named,
    /// The league's time zone (IANA), in which `starts_at` offsets are given.
    pub time_zone: String,
    /// In table order, as it stands (approved results and walkovers).
    pub table: Vec<TableRowJson>,
    /// By round, then date.
    pub fixtures: Vec<FixtureJson>,
}

#[derive(Serialize)]
pub struct Named {
    pub name: String,
    /// The page's path on this site.
    pub path: String,
}

#[derive(Serialize)]
pub struct SeasonJson {
    pub name: String,
    pub path: String,
    /// Over: its results are final.
    pub closed: bool,
}

#[derive(Serialize)]
pub struct TeamJson {
    pub id: i64,
    pub name: String,
    pub path: String,
}

#[derive(Serialize)]
pub struct TableRowJson {
    pub position: usize,
    pub team: TeamJson,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub boards_for: u32,
    pub boards_against: u32,
    pub games_for: u32,
    pub games_against: u32,
    pub pegs_for: u32,
    pub pegs_against: u32,
    pub points_deducted: u32,
    pub points: i64,
    /// The last five results, oldest first: `"W"`, `"D"` or `"L"`.
    pub form: Vec<&'static str>,
}

#[derive(Serialize)]
pub struct FixtureJson {
    pub id: i64,
    pub round: i64,
    /// RFC 3339 with the league's offset; `null` when no date is set.
    pub starts_at: Option<String>,
    pub home: TeamJson,
    pub away: TeamJson,
    pub venue: Option<String>,
    /// `scheduled`, `postponed`, `played`, `walkover` or `void`.
    pub status: &'static str,
    /// `home` or `away` for a walkover: the side that conceded.
    pub conceded_by: Option<&'static str>,
    /// Settles teams level on every rule; never counted in the table.
    pub playoff: bool,
    pub result: Option<ResultJson>,
    pub path: String,
}

#[derive(Serialize)]
pub struct ResultJson {
    pub home_boards: u32,
    pub away_boards: u32,
    /// `approved`, or `entered`, `confirmed`, `disputed` while provisional;
    /// `walkover` for a walkover's score.
    pub status: &'static str,
    /// Not approved yet: not counted in the table.
    pub provisional: bool,
}

fn team(league: &League, id: TeamId, name: &str) -> TeamJson {
    TeamJson {
        id: id.0,
        name: name.to_owned(),
        path: team_href(league, id, name),
    }
}

pub async fn data_json(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
) -> Result<Response> {
    let (league, season, division) = resolve(&state, league, &p).await?;
    let data = crate::app::division_table::DivisionData::load_kept(
        state.db(),
        state.kept_divisions(),
        &league,
        &season,
        division.id,
    )
    .await?;
    let names = data.names();
    let zone = league.time_zone;
    let doc = DivisionJson {
        version: VERSION,
        league: Named {
            name: league.name.clone(),
            path: league_href(&league),
        },
        season: SeasonJson {
            name: season.name.clone(),
            path: season_href(&league, &season.name),
            closed: season.is_closed(),
        },
        division: Named {
            name: division.name.clone(),
            path: division_href(&league, &season.name, &division.name),
        },
        time_zone: zone.to_string(),
        table: data
            .rows(None)
            .iter()
            .enumerate()
            .map(|(i, r)| TableRowJson {
                position: i + 1,
                team: team(
                    &league,
                    TeamId(r.team),
                    names.get(&r.team).copied().unwrap_or_default(),
                ),
                played: r.played,
                won: r.won,
                drawn: r.drawn,
                lost: r.lost,
                boards_for: r.boards_for,
                boards_against: r.boards_against,
                games_for: r.games_for,
                games_against: r.games_against,
                pegs_for: r.pegs_for,
                pegs_against: r.pegs_against,
                points_deducted: r.deducted,
                points: r.points,
                form: data
                    .form(TeamId(r.team), None)
                    .iter()
                    .map(|o| o.letter())
                    .collect(),
            })
            .collect(),
        fixtures: data
            .fixtures
            .iter()
            .map(|f| FixtureJson {
                id: f.id.0,
                round: f.round,
                starts_at: f.starts_at.map(|t| datetime(zone, t)),
                home: team(&league, f.home_team_id, &f.home_name),
                away: team(&league, f.away_team_id, &f.away_name),
                venue: f.venue_name.clone(),
                status: f.status.as_str(),
                conceded_by: f.conceded_by.map(Side::as_str),
                playoff: f.playoff,
                result: fixture_score(f, &data.scores, &data.format).map(|s| ResultJson {
                    home_boards: s.boards[0],
                    away_boards: s.boards[1],
                    status: match (f.status, s.status) {
                        (FixtureStatus::Walkover, _) | (_, None) => "walkover",
                        (_, Some(status)) => status.as_str(),
                    },
                    provisional: s.provisional(),
                }),
                path: match_href(&league, f.id),
            })
            .collect(),
    };
    // Anyone's website may read it from a browser: it is public and sent
    // without cookies.
    Ok(([(header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")], Json(doc)).into_response())
}

#[derive(Template)]
#[template(path = "public/data.html")]
struct DataPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    division: String,
    season: String,
    json_href: String,
    table_href: String,
}

/// The page that documents the JSON, with this division's address.
pub async fn data_page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<DivisionPath>,
) -> Result<Response> {
    let (league, season, division) = resolve(&state, league, &p).await?;
    let division_at = links::division_at(&league, &season.name, &division.name);
    let href = division_at.to_string();
    Ok(html(&DataPage {
        ctx: user.ctx(),
        crumbs: vec![
            Link::new(league.name.clone(), league_href(&league)),
            Link::new(season.name.clone(), season_href(&league, &season.name)),
            Link::new(division.name.clone(), href.clone()),
        ],
        json_href: division_at.data_json(),
        table_href: href,
        division: division.name,
        season: season.name,
        league,
    }))
}
