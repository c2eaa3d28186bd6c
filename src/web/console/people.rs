//! One person in several leagues (issue 27): from a player's console page a
//! secretary says the player is another league's player; a secretary of
//! that league confirms or declines it on their players page; either side
//! can undo its own link. Linked records share a rating.

use crate::web::links;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::db::people::{LinkRequest, LinkedPlayer};
use crate::db::{DbError, League, LinkRequestId, Player, PlayerId};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::page::Ctx;
use crate::web::routes::Routes;

use super::PREFIX;
use super::form::{self, Choice, Errors};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/players/{{player}}/link"),
            get(link_page).post(propose),
        )
        .league(&format!("{PREFIX}/players/{{player}}/unlink"), post(unlink))
        .league(
            &format!("{PREFIX}/links/{{request}}/confirm"),
            post(confirm),
        )
        .league(
            &format!("{PREFIX}/links/{{request}}/drop"),
            post(drop_request),
        )
}

/// What the player page and the players page show of links.
pub struct Links {
    /// The same person's records in other leagues.
    pub linked: Vec<LinkedPlayer>,
    /// Proposals this league made, waiting for the other league.
    pub asked: Vec<LinkRequest>,
    /// Proposals to this league, for its secretary to answer.
    pub to_answer: Vec<LinkRequest>,
}

impl Links {
    /// The links of `player`, or with `None` the proposals of the league.
    pub async fn of(state: &AppState, league: &League, player: Option<PlayerId>) -> Result<Links> {
        let db = state.db();
        let linked = match player {
            Some(p) => db.linked_players(p).await?,
            None => Vec::new(),
        };
        let concerns =
            |r: &LinkRequest| player.is_none_or(|p| r.player_id == p || r.other_player_id == p);
        let (to_answer, asked) = db
            .link_requests(league.id)
            .await?
            .into_iter()
            .filter(concerns)
            .partition(|r| r.other_league_id == league.id);
        Ok(Links {
            linked,
            asked,
            to_answer,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LinkQuery {
    league: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LinkForm {
    league: String,
    other: String,
}

#[derive(Template)]
#[template(path = "console/person_link.html")]
struct LinkPage {
    ctx: Ctx,
    league: League,
    player: Player,
    leagues: Vec<Choice>,
    /// The league chosen, and its players to pick from.
    other: Option<(League, Vec<Choice>)>,
    errors: Errors,
}

async fn show(
    state: &AppState,
    sec: Secretary,
    player: Player,
    chosen: &str,
    other: &str,
    mut errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let others: Vec<League> = db
        .leagues()
        .await?
        .into_iter()
        .filter(|l| l.id != sec.league.id)
        .collect();
    let leagues = form::choices(
        others
            .iter()
            .map(|l| (l.short_name.clone(), l.name.clone())),
        chosen,
    );
    let other = match others.into_iter().find(|l| l.short_name == chosen) {
        Some(l) => {
            let players = db.players(l.id).await?;
            let choices = form::choices(
                std::iter::once((String::new(), "Choose their player".to_owned()))
                    .chain(players.iter().map(|p| (p.id.to_string(), p.name.clone()))),
                other,
            );
            Some((l, choices))
        }
        None => None,
    };
    // With no other league chosen, the reason is the whole form's.
    if other.is_none()
        && let Some(why) = errors.get("other").map(str::to_owned)
    {
        errors.add(form::FORM, why);
    }
    let page = LinkPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        player,
        leagues,
        other,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn link_page(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PlayerId)>,
    Query(q): Query<LinkQuery>,
) -> Result<Response> {
    let player = state.db().player(sec.league.id, id).await?;
    show(&state, sec, player, &q.league, "", Errors::default()).await
}

async fn propose(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PlayerId)>,
    CsrfForm(input): CsrfForm<LinkForm>,
) -> Result<Response> {
    let db = state.db();
    let player = db.player(sec.league.id, id).await?;
    let mut errors = Errors::default();
    let Ok(other) = input.other.trim().parse::<i64>() else {
        errors.add("other", "Choose the player of the other league.");
        return show(&state, sec, player, &input.league, &input.other, errors).await;
    };
    match crate::app::people::propose_link(db, sec.league.id, id, PlayerId(other), sec.user.id)
        .await
    {
        Ok(_) => {
            let asked = db
                .link_requests(sec.league.id)
                .await?
                .into_iter()
                .find(|r| r.player_id == id && r.other_player_id == PlayerId(other));
            let said = asked.map_or_else(
                || "Asked the other league to confirm the link.".to_owned(),
                |r| {
                    format!(
                        "Asked {}'s secretary to confirm that {} is their {}; the link is made when they do.",
                        r.other_league_name, r.player_name, r.other_player_name
                    )
                },
            );
            Ok(form::done(
                &links::at(&sec.league).console().player(id).to_string(),
                said,
            ))
        }
        Err(DbError::NotFound(_)) => {
            errors.add("other", "Choose the player of the other league.");
            show(&state, sec, player, &input.league, &input.other, errors).await
        }
        Err(e) => {
            form::refused(
                e,
                &mut errors,
                "other",
                "That link has been asked for already: it waits for the other league's secretary.",
            )?;
            show(&state, sec, player, &input.league, &input.other, errors).await
        }
    }
}

async fn confirm(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, request)): Path<(String, LinkRequestId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let said = match crate::app::people::confirm_link(
        state.db(),
        sec.league.id,
        request,
        Some(sec.user.id),
    )
    .await
    {
        Ok(r) => format!(
            "Linked: {} of {} is your {}; their ratings are now worked out over both leagues' games.",
            r.player_name, r.league_name, r.other_player_name
        ),
        Err(DbError::Refused(why)) => format!("Not linked. {why}"),
        Err(DbError::NotFound(_)) => {
            "Not linked: that request was answered or withdrawn meanwhile.".into()
        }
        Err(e) => return Err(e.into()),
    };
    Ok(form::done(
        &format!("{}#links", links::at(&sec.league).console().players()),
        said,
    ))
}

async fn drop_request(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, request)): Path<(String, LinkRequestId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let said = match state.db().drop_link_request(sec.league.id, request).await {
        Ok(r) if r.other_league_id == sec.league.id => format!(
            "Declined: {} of {} is not linked to your {}.",
            r.player_name, r.league_name, r.other_player_name
        ),
        Ok(r) => format!(
            "Withdrawn: the link of {} to {} of {} is no longer asked for.",
            r.player_name, r.other_player_name, r.other_league_name
        ),
        Err(DbError::NotFound(why)) => format!("Nothing changed: {why}."),
        Err(e) => return Err(e.into()),
    };
    Ok(form::done(
        &format!("{}#links", links::at(&sec.league).console().players()),
        said,
    ))
}

async fn unlink(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, PlayerId)>,
    CsrfForm(_): CsrfForm<IgnoredAny>,
) -> Result<Response> {
    let db = state.db();
    let player = db.player(sec.league.id, id).await?;
    let said = match db.unlink_player(sec.league.id, id).await {
        Ok(()) => format!(
            "Unlinked: {} is this league's record alone again, rated on this league's games.",
            player.name
        ),
        Err(DbError::NotFound(why)) => format!("Nothing changed: {why}."),
        Err(e) => return Err(e.into()),
    };
    Ok(form::done(
        &links::at(&sec.league).console().player(id).to_string(),
        said,
    ))
}
