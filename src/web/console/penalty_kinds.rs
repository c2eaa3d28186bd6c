//! The league's list of penalty kinds, each with its default effect and
//! amount; a button adds LEAGUE.md's defaults.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::db::{DbError, League, NewPenaltyKind, PenaltyEffect, PenaltyKind, PenaltyKindId};
use crate::league::penalties::DEFAULT_KINDS;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;

use super::PREFIX;
use super::form::{self, Choice, Errors};
use super::late_results::LateForm;

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/penalty-kinds"), get(list).post(create))
        .league(
            &format!("{PREFIX}/penalty-kinds/defaults"),
            post(add_defaults),
        )
        .league(
            &format!("{PREFIX}/penalty-kinds/{{kind}}"),
            get(edit).post(update),
        )
}

const DUPLICATE: &str = "A penalty kind with this code already exists.";

#[derive(Debug, Deserialize)]
#[serde(default)]
pub struct KindForm {
    pub code: String,
    pub name: String,
    pub effect: String,
    pub amount: String,
}

impl Default for KindForm {
    fn default() -> KindForm {
        KindForm {
            code: String::new(),
            name: String::new(),
            effect: PenaltyEffect::LeaguePoints.as_str().into(),
            amount: "1".into(),
        }
    }
}

impl KindForm {
    fn of(kind: &PenaltyKind) -> KindForm {
        KindForm {
            code: kind.code.clone(),
            name: kind.name.clone(),
            effect: kind.effect.as_str().into(),
            amount: kind.amount.to_string(),
        }
    }

    fn check(&self, errors: &mut Errors) -> Option<NewPenaltyKind> {
        let code = form::slug(errors, "code", &self.code, 30);
        let name = form::text(errors, "name", &self.name, true, 100);
        let effect = self.effect.parse::<PenaltyEffect>().ok();
        if effect.is_none() {
            errors.add("effect", "Choose one of the effects.");
        }
        // The effect's own limit, as a penalty of the kind is held to.
        let most = effect.map_or(PenaltyEffect::Fine.most(), PenaltyEffect::most);
        let amount = form::whole(errors, "amount", &self.amount, 0, most);
        Some(NewPenaltyKind {
            code,
            name,
            effect: effect?,
            amount,
        })
        .filter(|_| errors.is_empty())
    }

    fn effects(&self) -> Vec<Choice> {
        form::choices(
            PenaltyEffect::ALL.map(|e| (e.as_str(), e.label())),
            &self.effect,
        )
    }
}

#[derive(Template)]
#[template(path = "console/penalty_kinds.html")]
struct KindsPage {
    ctx: Ctx,
    league: League,
    kinds: Vec<PenaltyKind>,
    /// The defaults not in the list yet.
    missing: Vec<&'static str>,
    form: KindForm,
    /// The late-result rule's form.
    late: LateForm,
    errors: Errors,
}

#[derive(Template)]
#[template(path = "console/penalty_kind.html")]
struct KindPage {
    ctx: Ctx,
    league: League,
    kind: PenaltyKind,
    form: KindForm,
    errors: Errors,
}

/// The page, with `form` and `late` as typed (or as stored when `None`).
pub(super) async fn list_page(
    state: &AppState,
    sec: Secretary,
    form: KindForm,
    late: Option<LateForm>,
    errors: Errors,
) -> Result<Response> {
    let kinds = state.db().penalty_kinds(sec.league.id).await?;
    let late = match late {
        Some(l) => l,
        None => LateForm::of(state.db().late_result_rule(sec.league.id).await?),
    };
    let missing = DEFAULT_KINDS
        .iter()
        .filter(|d| !kinds.iter().any(|k| k.code == d.code))
        .map(|d| d.name)
        .collect();
    let page = KindsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        kinds,
        missing,
        form,
        late,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    list_page(&state, sec, KindForm::default(), None, Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<KindForm>,
) -> Result<Response> {
    let mut errors = Errors::default();
    if let Some(new) = input.check(&mut errors) {
        match state.db().add_penalty_kind(sec.league.id, &new).await {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().penalty_kinds(),
                    format!("Penalty kind {} added.", new.code),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "code", DUPLICATE)?,
        }
    }
    list_page(&state, sec, input, None, errors).await
}

/// Adds each of LEAGUE.md's kinds whose code the league does not use yet.
async fn add_defaults(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let db = state.db();
    let kinds = db.penalty_kinds(sec.league.id).await?;
    let mut added = 0;
    for d in DEFAULT_KINDS {
        if kinds.iter().any(|k| k.code == d.code) {
            continue;
        }
        let new = NewPenaltyKind {
            code: d.code.into(),
            name: d.name.into(),
            effect: d.effect,
            amount: d.amount,
        };
        match db.add_penalty_kind(sec.league.id, &new).await {
            Ok(_) => added += 1,
            // Added meanwhile by another secretary: what was wanted.
            Err(DbError::Unique(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(form::done(
        &links::at(&sec.league).console().penalty_kinds(),
        format!("{added} of the default penalty kinds added."),
    ))
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PenaltyKindId)>,
) -> Result<Response> {
    let kind = state.db().penalty_kind(sec.league.id, id).await?;
    let page = KindPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        form: KindForm::of(&kind),
        kind,
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn update(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PenaltyKindId)>,
    CsrfForm(input): CsrfForm<KindForm>,
) -> Result<Response> {
    let db = state.db();
    let kind = db.penalty_kind(sec.league.id, id).await?;
    let mut errors = Errors::default();
    if let Some(new) = input.check(&mut errors) {
        match db
            .update_penalty_kind(sec.league.id, id, &new, Some(sec.user.id))
            .await
        {
            Ok(_) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().penalty_kinds(),
                    format!("Penalty kind {} saved.", new.code),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "code", DUPLICATE)?,
        }
    }
    let page = KindPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        kind,
        form: input,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}
