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
                let page = ErrorPage {
                    ctx: Ctx::default(),
                    title: "A season cannot be read",
                    message: format!("{why}."),
                };
                return (StatusCode::INTERNAL_SERVER_ERROR, html(&page)).into_response();
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
        let page = ErrorPage {
            ctx: Ctx::default(),
            title,
            message,
        };
        (status, html(&page)).into_response()
    }
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
