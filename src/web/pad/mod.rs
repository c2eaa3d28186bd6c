//! The score pad: a board's score kept on a phone at the table, the
//! review and one-tap submission of the whole match, the links that let
//! someone without an account keep one board, and the live page.

use crate::web::links;
use crate::web::routes::Routes;
use std::collections::HashMap;

use axum::extract::{FromRef, FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::routing::{get, post};
use serde::Deserialize;
use tower_sessions::Session;

use crate::db::{Fixture, League, Season};
use crate::league::match_format::{BoardSpec, MatchFormat};
use crate::league::pad::{Board, PadRules, Refusal, Tap, replay};
use crate::rules::Ruleset;

use super::AppState;
use super::auth::{CurrentUser, MaybeUser, league_from_path};
use super::csrf;
use super::error::{AppError, Result};
use super::page::Ctx;
use super::results::{Standing, path_fixture, standing};

mod board;
pub mod events;
pub(super) mod live;
mod qr;
pub(super) mod review;
mod screen;

pub fn router() -> Routes {
    Routes::new()
        .league(
            "/matches/{fixture}/pad",
            get(review::show).post(review::submit),
        )
        .league("/matches/{fixture}/pad/links", post(review::links))
        .league(
            "/matches/{fixture}/pad/{board}",
            get(board::show).post(board::tap),
        )
        .league("/matches/{fixture}/pad/{board}/sync", post(board::sync))
        .league("/screen", get(screen::league_screen))
        .league("/matches/{fixture}/screen", get(screen::match_screen))
        .league("/live/events", get(events::league_events))
        .league("/matches/{fixture}/events", get(events::match_events))
        .route("/pad-sw.js", get(board::service_worker))
}

/// Where a captain starts keeping a match's score: its pads' page, where
/// each board's pad is opened and its players chosen (the line-up, until a
/// team sheet exists). Every "score this match" button asks here, so a
/// line-up step put first later changes one place.
pub fn way_in(at: &links::Address<links::MatchAt>) -> String {
    at.pad()
}

/// Who keeps a board: a captain of either team or a secretary (signed
/// in), or whoever holds a working link to that very board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeper {
    Secretary,
    Captain,
    Link,
}

/// A request allowed to keep one board of one fixture, with what it needs
/// loaded. The check is here, so no handler can forget it.
pub struct PadAccess {
    pub user: Option<CurrentUser>,
    pub csrf: String,
    pub keeper: Keeper,
    pub key: Option<String>,
    pub league: League,
    pub fixture: Fixture,
    pub season: Season,
    /// The sides as the pages call them (`results::side_names`).
    pub names: [String; 2],
    /// 1-based.
    pub board: i64,
}

#[derive(Deserialize)]
struct KeyQuery {
    key: Option<String>,
}

/// Whether `user` may keep and submit this fixture's boards.
pub fn manages(user: &CurrentUser, league: &League, fixture: &Fixture) -> Option<Keeper> {
    standing(user, league, fixture).map(|s| match s {
        Standing::Secretary => Keeper::Secretary,
        Standing::HomeCaptain | Standing::AwayCaptain => Keeper::Captain,
    })
}

impl<S> FromRequestParts<S> for PadAccess
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let app = AppState::from_ref(state);
        let MaybeUser(user) = MaybeUser::from_request_parts(parts, state).await?;
        let league = league_from_path(parts, &app).await?;
        let fixture = path_fixture(parts, &app, &league).await?;
        let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::NotFound("That board".into()))?;
        let board: i64 = params
            .get("board")
            .and_then(|b| b.parse().ok())
            .filter(|b| *b >= 1)
            .ok_or_else(|| AppError::NotFound("That board".into()))?;
        let Query(KeyQuery { key }) = Query::<KeyQuery>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::BadRequest("the link's key could not be read".into()))?;
        let db = app.db();
        let mut keeper = user.as_ref().and_then(|u| manages(u, &league, &fixture));
        if keeper.is_none() {
            match key.as_deref() {
                Some(key) => {
                    check_link(&app, &league, &fixture, board, key).await?;
                    keeper = Some(Keeper::Link);
                }
                None if user.is_some() => {
                    return Err(AppError::Forbidden(
                        "Only the two captains of this match, the league's secretaries and whoever holds a board's link may keep its score.".into(),
                    ));
                }
                None => return Err(AppError::SignInRequired(parts.uri.path().to_owned())),
            }
        }
        let session = Session::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::Internal("no session layer".into()))?;
        let csrf = csrf::token(&session).await?;
        let season = db.season(league.id, fixture.season_id).await?;
        crate::league::season::results_open(
            &season.name,
            season.is_closed(),
            matches!(keeper, Some(Keeper::Secretary)),
        )
        .map_err(|why| AppError::Forbidden(why.to_string()))?;
        let names = crate::web::results::side_names(&app, &league, &fixture).await?;
        Ok(PadAccess {
            names,
            user,
            csrf,
            keeper: keeper.expect("set above"),
            key,
            league,
            fixture,
            season,
            board,
        })
    }
}

/// Refuses a link that is unknown, for another board, revoked or expired,
/// saying which.
async fn check_link(
    app: &AppState,
    league: &League,
    fixture: &Fixture,
    board: i64,
    key: &str,
) -> Result<()> {
    let link = if key.len() <= 128 {
        app.db().pad_link(league.id, key).await?
    } else {
        None
    };
    let terms = link.map(|l| crate::league::pad::LinkTerms {
        fixture: l.fixture_id,
        board: l.board,
        revoked: l.revoked_at.is_some(),
        expires_at: l.expires_at,
    });
    crate::league::pad::check_link(terms.as_ref(), fixture.id, board, crate::db::now())
        .map_err(|fault| AppError::Forbidden(fault.to_string()))
}

impl PadAccess {
    pub fn ctx(&self) -> Ctx {
        match &self.user {
            Some(u) => u.ctx(),
            None => Ctx {
                csrf: self.csrf.clone(),
                ..Ctx::default()
            },
        }
    }

    /// This board's pad address, with `query` (`saved=3`, or empty) and
    /// the link's key when it came by one.
    pub fn path(&self, query: &str) -> String {
        let pad = links::at(&self.league).match_page(self.fixture.id);
        self.with_key(pad.pad_board(self.board), query)
    }

    /// Where this board's pad sends the taps it kept offline, with the key.
    pub fn sync_path(&self) -> String {
        let pad = links::at(&self.league).match_page(self.fixture.id);
        self.with_key(pad.pad_sync(self.board), "")
    }

    fn with_key(&self, mut path: String, query: &str) -> String {
        let mut params: Vec<String> = Vec::new();
        if !query.is_empty() {
            params.push(query.to_owned());
        }
        if let Some(key) = &self.key {
            params.push(format!("key={}", super::error::urlencode(key)));
        }
        if !params.is_empty() {
            path.push('?');
            path.push_str(&params.join("&"));
        }
        path
    }

    /// Whether the board may still be scored: not once the match's result
    /// is in (corrections go through the card).
    pub fn open(&self) -> bool {
        self.fixture.status.is_open()
    }
}

/// The address a phone's camera should open: this site's origin, as the
/// request reached it (the scheme a proxy says, else http), and `path`.
pub fn absolute(headers: &axum::http::HeaderMap, path: &str) -> String {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let host = header("host").unwrap_or("127.0.0.1:3000");
    let scheme = match header("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}{path}")
}

/// QR codes of a fixture's working pad links, by board number, for the
/// fixture's captains and secretaries only: a link is a key.
pub async fn link_codes(
    app: &AppState,
    headers: &axum::http::HeaderMap,
    user: Option<&CurrentUser>,
    league: &League,
    fixture: &Fixture,
) -> Result<Vec<(i64, String, String)>> {
    if user.and_then(|u| manages(u, league, fixture)).is_none() {
        return Ok(Vec::new());
    }
    let links = app.db().pad_links(league.id, fixture.id).await?;
    let mut codes: Vec<(i64, String, String)> = Vec::new();
    for l in links.iter().rev() {
        if codes.iter().any(|c| c.0 == l.board) {
            continue;
        }
        let url = absolute(
            headers,
            &format!(
                "{}?key={}",
                links::at(league).match_page(fixture.id).pad_board(l.board),
                l.token
            ),
        );
        codes.push((l.board, qr::svg(&url), url));
    }
    codes.sort_by_key(|c| c.0);
    Ok(codes)
}

/// What a fixture's boards are played under, with the teams' registered
/// players: everything a replay needs.
pub struct MatchRules {
    pub ruleset: Ruleset,
    pub format: MatchFormat,
    pub home: Vec<(i64, String)>,
    pub away: Vec<(i64, String)>,
}

impl MatchRules {
    pub async fn load(
        app: &AppState,
        league: &League,
        season: &Season,
        fixture: &Fixture,
    ) -> Result<MatchRules> {
        let (ruleset, format) =
            crate::app::formats::fixture_rules(app.db(), league, season, fixture).await?;
        let db = app.db();
        let roster = |players: Vec<crate::db::Player>| {
            players
                .into_iter()
                .map(|p| (p.id.0, p.name))
                .collect::<Vec<_>>()
        };
        // Who played for each team on the fixture's date (transfers).
        let (home, away) = db.fixture_sides(league.id, fixture).await?;
        let (home, away) = (roster(home), roster(away));
        Ok(MatchRules {
            ruleset,
            format,
            home,
            away,
        })
    }

    /// Board `board` (1-based) of the match format, or 404.
    pub fn spec(&self, board: i64) -> Result<BoardSpec> {
        usize::try_from(board - 1)
            .ok()
            .and_then(|i| self.format.boards.get(i).copied())
            .ok_or_else(|| {
                AppError::NotFound(format!(
                    "Board {board} (this match has {} boards)",
                    self.format.boards.len()
                ))
            })
    }

    pub fn pad_rules(&self, spec: BoardSpec) -> PadRules<'_> {
        PadRules {
            ruleset: &self.ruleset,
            kind: spec.kind,
            best_of: spec.best_of,
            home: &self.home,
            away: &self.away,
        }
    }

    pub fn replay(&self, spec: BoardSpec, taps: &[Tap]) -> (Board, Option<Refusal>) {
        replay(&self.pad_rules(spec), taps)
    }
}
