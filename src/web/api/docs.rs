//! The API's OpenAPI 3.1 document, generated from the handlers'
//! `#[utoipa::path]` attributes and the view types they serialise, so it
//! cannot describe answers the code does not give. The responses every
//! operation may give (304, 400, 404, 429) are added to each in one place.

use std::sync::OnceLock;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::OpenApi;
use utoipa::openapi::{ContentBuilder, Ref as SchemaRef, RefOr, ResponseBuilder};

use super::problem::{PROBLEM_JSON, Problem};
use super::{IndexDoc, Links};
use crate::app::read::PageInfo;
use crate::app::read::Ref;
use crate::app::read::cup::CupView;
use crate::app::read::division::TableView;
use crate::app::read::fixtures::FixtureSummary;
use crate::app::read::honours::HonoursView;
use crate::app::read::league::{LeagueSummary, LeagueView, SeasonView};
use crate::app::read::live::LiveView;
use crate::app::read::match_view::MatchView;
use crate::app::read::player::PlayerView;
use crate::app::read::team::TeamView;

/// The documented shape of an answer: `data` and `links` (never built:
/// the handlers serialise the same two fields).
macro_rules! doc {
    ($name:ident, $view:ty, $what:literal) => {
        #[doc = $what]
        #[derive(utoipa::ToSchema)]
        #[allow(dead_code)]
        pub struct $name {
            pub data: $view,
            pub links: Links,
        }
    };
    ($name:ident, list $view:ty, $what:literal) => {
        #[doc = $what]
        #[derive(utoipa::ToSchema)]
        #[allow(dead_code)]
        pub struct $name {
            pub data: Vec<$view>,
            pub page: PageInfo,
            pub links: Links,
        }
    };
}

doc!(LeaguesDoc, list LeagueSummary, "A page of the leagues.");
doc!(LeagueDoc, LeagueView, "A league and its seasons.");
doc!(SeasonDoc, SeasonView, "A season.");
doc!(HonoursDoc, HonoursView, "A season's honours.");
doc!(TableDoc, TableView, "A division's table.");
doc!(FixturesDoc, list FixtureSummary, "A page of a division's fixtures.");
doc!(MatchDoc, MatchView, "A match.");
doc!(RefsDoc, list Ref, "A page of records by name.");
doc!(TeamDoc, TeamView, "A team.");
doc!(PlayerDoc, PlayerView, "A player.");
doc!(CupDoc, CupView, "A cup's bracket.");
doc!(LiveDoc, LiveView, "Tonight's matches.");

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Boneyard",
        version = "1",
        description = "Read-only JSON for dominoes leagues: tables, fixtures, results hand by hand, teams, players, cups and the live boards. Records are named by stable ids; every answer is `{data, links}`. Answers carry an ETag (send it back as If-None-Match for a 304); errors are RFC 9457 problem details; each client may make 300 requests at once and 5 a second after."
    ),
    paths(
        super::leagues::index,
        super::leagues::leagues,
        super::leagues::league,
        super::leagues::season,
        super::leagues::honours,
        super::leagues::division,
        super::leagues::fixtures,
        super::matches::fixture,
        super::matches::cup,
        super::matches::live,
        super::teams::teams,
        super::teams::team,
        super::teams::players,
        super::teams::player,
    ),
    components(schemas(Problem, IndexDoc)),
    tags(
        (name = "leagues", description = "Leagues, seasons and honours"),
        (name = "divisions", description = "Tables and fixtures"),
        (name = "matches", description = "Matches and the live boards"),
        (name = "teams", description = "Teams"),
        (name = "players", description = "Players"),
        (name = "cups", description = "Cups"),
    )
)]
struct ApiDoc;

/// The document, with the refusals every operation may give.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    let problem = |description: &str| {
        ResponseBuilder::new()
            .description(description)
            .content(
                PROBLEM_JSON,
                ContentBuilder::new()
                    .schema(Some(RefOr::Ref(SchemaRef::from_schema_name("Problem"))))
                    .build(),
            )
            .build()
    };
    for item in doc.paths.paths.values_mut() {
        let Some(op) = item.get.as_mut() else {
            continue;
        };
        let responses = &mut op.responses.responses;
        responses.insert(
            "304".into(),
            RefOr::T(
                ResponseBuilder::new()
                    .description("Not modified since the ETag sent in If-None-Match")
                    .build(),
            ),
        );
        let takes_query = op.parameters.as_ref().is_some_and(|ps| {
            ps.iter()
                .any(|p| p.parameter_in == utoipa::openapi::path::ParameterIn::Query)
        });
        if takes_query {
            responses.insert(
                "400".into(),
                RefOr::T(problem("A parameter cannot be read")),
            );
        }
        let takes_path = op.parameters.as_ref().is_some_and(|ps| {
            ps.iter()
                .any(|p| p.parameter_in == utoipa::openapi::path::ParameterIn::Path)
        });
        if takes_path || takes_query {
            responses.insert(
                "404".into(),
                RefOr::T(problem("No such record, or no such page of a list")),
            );
        }
        responses.insert(
            "429".into(),
            RefOr::T(problem(
                "Too many requests from this client: see Retry-After",
            )),
        );
    }
    doc
}

/// `/api/v1/openapi.json`.
pub async fn openapi() -> Response {
    static JSON: OnceLock<String> = OnceLock::new();
    let body = JSON.get_or_init(|| document().to_pretty_json().unwrap_or_default());
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.clone(),
    )
        .into_response()
}
