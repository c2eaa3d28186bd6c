//! The one error type of the web layer. Users see a page that says what went
//! wrong in their terms; internals are logged once, never shown.

use askama::Template;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};

use crate::db::{Constraint, DbError};
use crate::league::refusal::Refusal;

use super::page::{Ctx, html};

pub type Result<T, E = AppError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0} was not found")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    /// Sign in first, then come back to this path.
    #[error("sign in to see this page")]
    SignInRequired(String),
    #[error("{0}")]
    BadRequest(String),
    /// The request is refused in the record's present state, said so.
    #[error("{0}")]
    Conflict(String),
    /// A request body over the limit for its kind (a form, a file).
    #[error("{0}")]
    TooLarge(String),
    #[error(
        "this form has expired or did not come from this site; go back, reload the page and send it again"
    )]
    Csrf,
    #[error("{}", db_words(.0))]
    Db(#[from] DbError),
    /// A season record that cannot be read: every page that needs it says
    /// so, naming the season and the part.
    #[error(transparent)]
    BadSeason(#[from] crate::league::season::BadSeason),
    #[error("{0}")]
    Internal(String),
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    ctx: Ctx,
    title: &'static str,
    message: String,
    /// The way back: where, and its words.
    back: (String, String),
}

/// What an error page says, kept on its response so that [`framed`] can
/// show it in the frame of whoever asked (their name in the header, their
/// way back), which the error itself does not know.
#[derive(Debug, Clone)]
struct Shown {
    title: &'static str,
    message: String,
}

impl Shown {
    fn page(self, ctx: Ctx, back: (String, String)) -> ErrorPage {
        ErrorPage {
            ctx,
            title: self.title,
            message: self.message,
            back,
        }
    }

    /// The page as anyone may see it: no one signed in, back to the
    /// leagues; [`framed`] shows it again in the asker's frame.
    fn response(self, status: StatusCode) -> Response {
        let page = self.clone().page(Ctx::default(), to_the_leagues());
        let mut response = (status, html(&page)).into_response();
        response.extensions_mut().insert(self);
        response
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, title) = match &self {
            AppError::SignInRequired(next) => {
                let to = format!("/sign-in?next={}", urlencode(next));
                return Redirect::to(&to).into_response();
            }
            AppError::NotFound(_) | AppError::Db(DbError::NotFound(_)) => {
                (StatusCode::NOT_FOUND, "Not found")
            }
            AppError::Forbidden(_) => (StatusCode::FORBIDDEN, "Not allowed"),
            AppError::BadRequest(_)
            | AppError::Db(DbError::Unique(_) | DbError::ForeignKey(_) | DbError::Check(_)) => {
                (StatusCode::BAD_REQUEST, "That did not work")
            }
            AppError::Conflict(_) => (StatusCode::CONFLICT, "That did not work"),
            AppError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "Too large"),
            AppError::Db(DbError::Refused(r)) => refusal_status(r),
            AppError::Csrf => (StatusCode::FORBIDDEN, "Form expired"),
            AppError::BadSeason(why) | AppError::Db(DbError::BadSeason(why)) => {
                tracing::error!(error = %why, "a season record cannot be read");
                return Shown {
                    title: "A season cannot be read",
                    message: format!("{why}."),
                }
                .response(StatusCode::INTERNAL_SERVER_ERROR);
            }
            AppError::Db(_) | AppError::Internal(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong")
            }
        };
        if let AppError::Db(e @ (DbError::Unique(_) | DbError::ForeignKey(_) | DbError::Check(_))) =
            &self
        {
            // The database's own words, for whoever reads the log.
            tracing::info!(refused = ?e, "a constraint refused a write");
        }
        let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = ?self, "request failed");
            "Something went wrong on our side; it has been logged. Try again in a moment.".into()
        } else {
            self.to_string()
        };
        Shown { title, message }.response(status)
    }
}

/// Where an error page leads back to, from the address that failed: the
/// match it was about, else its league, else the leagues.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Back {
    Match { league: String, fixture: i64 },
    League(String),
    Leagues,
}

impl Back {
    /// Read from the path alone; [`framed`] checks the records exist.
    fn of_path(path: &str) -> Back {
        let mut parts = path.trim_start_matches('/').split('/');
        let (Some("leagues"), Some(league)) = (parts.next(), parts.next()) else {
            return Back::Leagues;
        };
        if league.is_empty() {
            return Back::Leagues;
        }
        match (parts.next(), parts.next().map(str::parse::<i64>)) {
            (Some("matches"), Some(Ok(fixture))) => Back::Match {
                league: league.to_owned(),
                fixture,
            },
            _ => Back::League(league.to_owned()),
        }
    }
}

/// The way back to the leagues' list, where every other way ends.
fn to_the_leagues() -> (String, String) {
    ("/".into(), "Back to the leagues".into())
}

/// The nearest way back from `path` that exists and is not `path` itself:
/// the match, the league, or the leagues. Two lookups at most, on an error
/// page only.
async fn way_back(state: &super::AppState, path: &str) -> (String, String) {
    let (short, fixture) = match Back::of_path(path) {
        Back::Match { league, fixture } => (league, Some(fixture)),
        Back::League(league) => (league, None),
        Back::Leagues => return to_the_leagues(),
    };
    let Ok(league) = super::auth::league_named(state.db(), &short).await else {
        return to_the_leagues();
    };
    let at = crate::web::links::at(&league);
    let not_here = |href: &str| href.trim_end_matches('/') != path.trim_end_matches('/');
    if let Some(id) = fixture.map(crate::db::FixtureId) {
        let href = at.match_page(id).to_string();
        if not_here(&href) && state.db().fixture(league.id, id).await.is_ok() {
            return (href, "Back to the match".into());
        }
    }
    let href = at.to_string();
    if not_here(&href) {
        return (href, format!("Back to {}", league.name));
    }
    to_the_leagues()
}

/// Middleware: an error page is shown in the frame of whoever asked (signed
/// in, their name and sign-out in the header, not "Sign in" as if signed
/// out) with the nearest way back, the match or the league, rather than
/// the leagues' list.
pub async fn framed(
    axum::extract::State(state): axum::extract::State<super::AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let session = request
        .extensions()
        .get::<tower_sessions::Session>()
        .cloned();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let Some(shown) = response.extensions().get::<Shown>().cloned() else {
        return response;
    };
    // The flash stays for the next page: an error page is not where a
    // saved message belongs.
    let ctx = match &session {
        Some(session) => {
            match super::auth::MaybeUser::of_session(&state, session, &path, false).await {
                Ok(user) => user.ctx(),
                Err(e) => {
                    tracing::warn!(error = %e, "an error page's frame: who is signed in is unknown");
                    Ctx::default()
                }
            }
        }
        None => Ctx::default(),
    };
    let back = way_back(&state, &path).await;
    let (mut parts, _) = response.into_parts();
    let (_, body) = html(&shown.page(ctx, back)).into_parts();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, body)
}

/// The status a rule's refusal is answered with.
fn refusal_status(r: &Refusal) -> (StatusCode, &'static str) {
    match r {
        Refusal::Stale { .. }
        | Refusal::PadsChanged { .. }
        | Refusal::Changed { .. }
        | Refusal::RolledOverAlready { .. }
        | Refusal::RoundDrawn { .. }
        | Refusal::NoLongerLate
        | Refusal::NotForAll { .. }
        | Refusal::LinkSpent
        | Refusal::CaptainGone => (StatusCode::CONFLICT, "Not saved"),
        Refusal::NotYours(_) | Refusal::Locked { .. } => (StatusCode::FORBIDDEN, "Not allowed"),
        Refusal::SeasonOver
        | Refusal::SeasonArchived { .. }
        | Refusal::RulesFixed { .. }
        | Refusal::EntrantsFixed
        | Refusal::CupHasMatches
        | Refusal::DivisionScheduled { .. }
        | Refusal::FixturesHaveRecords
        | Refusal::LinkedAlready
        | Refusal::LinkedElsewhere
        | Refusal::TwoRecordsOneLeague
        | Refusal::CaptainsFull { .. } => (StatusCode::CONFLICT, "That did not work"),
        _ => (StatusCode::BAD_REQUEST, "That did not work"),
    }
}

/// A value the database would not keep, in words for the person who typed
/// it (the database's own text goes to the log only).
pub const CHECK_WORDS: &str =
    "That value cannot be kept as it is: check it is within the limits the form gives.";

/// What the person acting is told of a refusal of the records: a rule's
/// own words, or what a constraint guards; never the database's text.
pub fn db_words(e: &DbError) -> String {
    match e {
        DbError::Refused(r) => r.to_string(),
        DbError::Unique(c) => taken(c).into(),
        DbError::ForeignKey(_) => "That refers to a record this league does not have.".into(),
        DbError::Check(_) => CHECK_WORDS.into(),
        DbError::NotFound(what) => format!("Not found: {what}."),
        _ => "Something went wrong with the records.".into(),
    }
}

/// What a unique constraint on `c`'s table keeps from being twice.
fn taken(c: &Constraint) -> &'static str {
    match c.table.as_deref() {
        Some("teams") => "This league has a team of that name already.",
        Some("players") => "This league has a player of that name already.",
        Some("venues") => "This league has a venue of that name already.",
        Some("seasons") => "This league has a season of that name already.",
        Some("divisions") => "This season has a division of that name already.",
        Some("cups") => "This season has a cup of that name already.",
        Some("penalty_kinds") => "This league has a penalty kind with that code already.",
        Some("users") => "That username or address is taken already.",
        Some("leagues") => "A league with that short name exists already.",
        Some("roles") => "That role is held already.",
        Some("registrations") => "That player is registered this season already.",
        Some("team_entries") => "That team is entered this season already.",
        _ => "That is taken already.",
    }
}

/// The 404 page for any address we do not know.
pub async fn not_found(uri: Uri) -> AppError {
    AppError::NotFound(format!("The page {}", uri.path()))
}

/// Percent-encodes a path for a query parameter (the addresses do it too).
pub use crate::addresses::urlencode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_way_back_is_the_match_then_the_league_then_the_leagues() {
        assert_eq!(
            Back::of_path("/leagues/wessex/matches/12/confirm"),
            Back::Match {
                league: "wessex".into(),
                fixture: 12
            }
        );
        assert_eq!(
            Back::of_path("/leagues/wessex/matches/12"),
            Back::Match {
                league: "wessex".into(),
                fixture: 12
            }
        );
        assert_eq!(
            Back::of_path("/leagues/wessex/matches/x/pad"),
            Back::League("wessex".into())
        );
        assert_eq!(
            Back::of_path("/leagues/wessex/console"),
            Back::League("wessex".into())
        );
        assert_eq!(Back::of_path("/leagues/"), Back::Leagues);
        assert_eq!(Back::of_path("/admin"), Back::Leagues);
        assert_eq!(Back::of_path("/"), Back::Leagues);
    }
}
