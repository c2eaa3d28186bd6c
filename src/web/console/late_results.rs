//! Late results (issue 26): the league's rule, set beside its penalty
//! kinds, and the one-click penalty a secretary applies from the approvals
//! page, where each late fixture is proposed.

use crate::web::links;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::post;
use chrono::Utc;
use serde::Deserialize;

use crate::db::{DbError, FixtureId, PenaltyKind, PenaltyKindId};
use crate::league::late_results::{LateResultRule, MAX_DAYS};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::routes::Routes;

use super::PREFIX;
use super::form::{self, Choice, Errors};
use super::penalty_kinds::{KindForm, list_page};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/penalty-kinds/late-results"),
            post(set_rule),
        )
        .league(
            &format!("{PREFIX}/late-results/{{fixture}}/apply"),
            post(apply),
        )
}

/// The rule's form: empty days for no rule.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct LateForm {
    pub late_days: String,
    pub late_kind: String,
}

impl LateForm {
    pub fn of(rule: Option<LateResultRule>) -> LateForm {
        rule.map_or_else(LateForm::default, |r| LateForm {
            late_days: r.days.to_string(),
            late_kind: r.kind.to_string(),
        })
    }

    /// The kinds to choose from, the rule's selected.
    pub fn kinds(&self, kinds: &[PenaltyKind]) -> Vec<Choice> {
        form::choices(
            std::iter::once((String::new(), "Choose a kind".to_owned()))
                .chain(kinds.iter().map(|k| (k.id.to_string(), k.name.clone()))),
            &self.late_kind,
        )
    }

    /// The rule typed, `None` for none, or the errors.
    fn check(&self, kinds: &[PenaltyKind], errors: &mut Errors) -> Option<LateResultRule> {
        let days = form::optional_whole(errors, "late_days", &self.late_days, 1, MAX_DAYS.into())?;
        let kind = form::pick(
            errors,
            "late_kind",
            &self.late_kind,
            kinds.iter().map(|k| k.id.0),
            "Choose the kind of penalty to propose.",
        )?;
        Some(LateResultRule {
            days: u32::try_from(days).ok()?,
            kind: PenaltyKindId(kind),
        })
    }
}

async fn set_rule(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<LateForm>,
) -> Result<Response> {
    let db = state.db();
    let kinds = db.penalty_kinds(sec.league.id).await?;
    let mut errors = Errors::default();
    let rule = input.check(&kinds, &mut errors);
    if !errors.is_empty() {
        return list_page(&state, sec, KindForm::default(), Some(input), errors).await;
    }
    match db
        .set_late_result_rule(sec.league.id, rule, Some(sec.user.id))
        .await
    {
        Ok(()) => {}
        // The kind was deleted meanwhile: say so beside the field.
        Err(DbError::ForeignKey(_)) => {
            errors.add("late_kind", "Choose the kind of penalty to propose.");
            return list_page(&state, sec, KindForm::default(), Some(input), errors).await;
        }
        Err(e) => return Err(e.into()),
    }
    let saved = match rule {
        Some(r) => {
            let name = kinds
                .iter()
                .find(|k| k.id == r.kind)
                .map_or("the chosen kind", |k| k.name.as_str());
            format!(
                "Late results saved: \u{201c}{name}\u{201d} against the home team is proposed when a fixture has no result {} days after its date.",
                r.days
            )
        }
        None => "Late results saved: no penalty is proposed for a late result.".to_owned(),
    };
    Ok(form::done(
        &format!(
            "{}#late-rule",
            links::at(&sec.league).console().penalty_kinds()
        ),
        saved,
    ))
}

#[derive(Deserialize)]
struct ApplyForm {
    /// The kind the secretary saw proposed: a rule changed since is not
    /// applied unseen.
    kind: i64,
}

async fn apply(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, fixture)): Path<(String, FixtureId)>,
    CsrfForm(input): CsrfForm<ApplyForm>,
) -> Result<Response> {
    let back = format!("{}#late", links::at(&sec.league).console().approvals());
    let outcome = crate::app::penalties::apply_late_result(
        state.db(),
        sec.league.id,
        fixture,
        PenaltyKindId(input.kind),
        Some(sec.user.id),
        Utc::now(),
    )
    .await;
    let said = match outcome {
        Ok((_, fine, late)) => format!(
            "Penalty recorded: \u{201c}{}\u{201d} against {} for {} v {}, {} days without a result{}.",
            late.kind_name,
            late.fixture.home,
            late.fixture.home,
            late.fixture.away,
            late.days_late,
            if fine.is_some() {
                "; the fine is in the fines ledger"
            } else {
                ""
            }
        ),
        Err(DbError::Refused(why)) => format!("Nothing recorded. {why}"),
        Err(DbError::NotFound(_)) => {
            "Nothing recorded: that fixture or penalty kind is gone.".into()
        }
        Err(e) => return Err(e.into()),
    };
    Ok(form::done(&back, said))
}
