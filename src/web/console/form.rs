//! What every form of the console and the administrator's pages shares:
//! errors kept beside their fields, choices for selects, reading typed
//! text and numbers, and turning the database's refusals into field errors.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::db::{Db, DbError, User};
use crate::league::time::Zone;
use crate::web::account::check_username;
use crate::web::error::AppError;

/// The key of an error about the whole form rather than one field.
pub const FORM: &str = "form";

/// A form's errors, each beside its field, in the order they were found
/// (the order of the form, so the first is where the cursor goes).
#[derive(Debug, Default, Clone)]
pub struct Errors(Vec<(&'static str, String)>);

impl Errors {
    /// Records why `field` was refused; the first reason for a field wins.
    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        if self.get(field).is_none() {
            self.0.push((field, message.into()));
        }
    }

    pub fn get(&self, field: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, m)| m.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `field` gets the cursor: the first field in error, or, when
    /// no field is, the form's first field (`first`).
    pub fn focus(&self, field: &str, first: impl Flag) -> bool {
        match self.0.iter().find(|(f, _)| *f != FORM) {
            Some((f, _)) => *f == field,
            None => first.is_set(),
        }
    }

    /// The error about the whole form, if any.
    pub fn form(&self) -> Option<&str> {
        self.get(FORM)
    }
}

/// A yes or no however many references deep: what a template macro's
/// `bool` argument arrives as.
pub trait Flag {
    fn is_set(&self) -> bool;
}

impl Flag for bool {
    fn is_set(&self) -> bool {
        *self
    }
}

impl<T: Flag + ?Sized> Flag for &T {
    fn is_set(&self) -> bool {
        (**self).is_set()
    }
}

/// One option of a select.
#[derive(Debug, Clone)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// The options of a select from `(value, label)` pairs, `selected` marked.
pub fn choices<V: ToString, L: ToString>(
    options: impl IntoIterator<Item = (V, L)>,
    selected: &str,
) -> Vec<Choice> {
    options
        .into_iter()
        .map(|(v, l)| {
            let value = v.to_string();
            Choice {
                selected: value == selected,
                value,
                label: l.to_string(),
            }
        })
        .collect()
}

/// Typed text, trimmed; refused when empty (if `required`), longer than
/// `max` characters, or holding control characters.
pub fn text(
    errors: &mut Errors,
    field: &'static str,
    value: &str,
    required: bool,
    max: usize,
) -> String {
    let value = value.trim();
    if required && value.is_empty() {
        errors.add(field, "Fill this in.");
    } else if value.chars().count() > max {
        errors.add(field, format!("Use at most {max} characters."));
    } else if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        errors.add(field, "Use plain text only.");
    }
    value.to_owned()
}

/// A whole number from `min` to `max`.
pub fn whole(errors: &mut Errors, field: &'static str, value: &str, min: i64, max: i64) -> i64 {
    match value.trim().parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => n,
        Ok(_) => {
            errors.add(field, format!("Give a whole number from {min} to {max}."));
            min
        }
        Err(_) if value.trim().is_empty() => {
            errors.add(field, "Fill this in.");
            min
        }
        Err(_) => {
            errors.add(
                field,
                format!("Give a whole number from {min} to {max}, in digits."),
            );
            min
        }
    }
}

/// A whole number from `min` to `max`, or nothing when left empty.
pub fn optional_whole(
    errors: &mut Errors,
    field: &'static str,
    value: &str,
    min: i64,
    max: i64,
) -> Option<i64> {
    if value.trim().is_empty() {
        None
    } else {
        Some(whole(errors, field, value, min, max))
    }
}

/// The id picked in a select, which must be one of `known`.
pub fn pick(
    errors: &mut Errors,
    field: &'static str,
    value: &str,
    known: impl IntoIterator<Item = i64>,
    missing: &str,
) -> Option<i64> {
    let id = value.trim().parse::<i64>().ok();
    match id {
        Some(id) if known.into_iter().any(|k| k == id) => Some(id),
        _ => {
            errors.add(field, missing);
            None
        }
    }
}

/// Short names and codes: lowercase letters, digits and dashes, starting
/// and ending with a letter or digit.
pub fn slug(errors: &mut Errors, field: &'static str, value: &str, max: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        errors.add(field, "Fill this in.");
    } else if value.chars().count() > max {
        errors.add(field, format!("Use at most {max} characters."));
    } else if !value
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        errors.add(field, "Use lowercase letters, digits and dashes only.");
    } else if value.starts_with('-') || value.ends_with('-') {
        errors.add(field, "Start and end with a letter or digit.");
    }
    value.to_owned()
}

/// A time zone's IANA name (`Europe/London`), as stored; what was typed,
/// trimmed, when it names no zone.
pub fn time_zone(errors: &mut Errors, field: &'static str, value: &str) -> Option<Zone> {
    match Zone::parse(value) {
        Ok(zone) => Some(zone),
        Err(_) if value.trim().is_empty() => {
            errors.add(field, "Fill this in, e.g. Europe/London.");
            None
        }
        Err(why) => {
            errors.add(field, why.to_string());
            None
        }
    }
}

/// The refusal of a write, as an error beside `field`: `duplicate` for a
/// name or code taken already, the rule's own words for a refusal, what a
/// check guards for a value the database would not keep. Anything else is
/// not the user's doing and goes on as an error.
pub fn refused(
    error: DbError,
    errors: &mut Errors,
    field: &'static str,
    duplicate: &str,
) -> Result<(), AppError> {
    match error {
        DbError::Unique(_) => errors.add(field, duplicate),
        DbError::Refused(why) => errors.add(field, why.to_string()),
        DbError::Check(_) => errors.add(field, crate::web::error::CHECK_WORDS),
        DbError::ForeignKey(_) => {
            errors.add(field, "That refers to a record this league does not have.")
        }
        other => return Err(other.into()),
    }
    Ok(())
}

/// POST-redirect-GET: after a change, the browser asks for `to` afresh,
/// and its page says what was saved.
pub fn done(to: &str, saved: impl Into<String>) -> Response {
    crate::web::flash::saved(to, saved)
}

/// A form page, answered 422 when it is shown again with errors.
pub fn page<T: askama::Template>(page: &T, errors: &Errors) -> Response {
    if errors.is_empty() {
        crate::web::page::html(page)
    } else {
        crate::web::page::invalid(page)
    }
}

/// A form page shown again because the record's state refuses the change
/// (a season's rules once it has results): 409.
pub fn conflict<T: askama::Template>(page: &T) -> Response {
    (StatusCode::CONFLICT, crate::web::page::html(page)).into_response()
}

/// The account a typed username names, whatever its case; `None` when
/// there is none. A name no account could have (every account passed
/// [`check_username`]) is not looked up: a stray byte never reaches the
/// database.
pub async fn account(db: &Db, username: &str) -> Result<Option<User>, AppError> {
    if check_username(username).is_some() {
        return Ok(None);
    }
    match db.user_by_username(username).await {
        Ok(user) => Ok(Some(user)),
        Err(DbError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
