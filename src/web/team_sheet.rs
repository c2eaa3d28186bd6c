//! The captain's team sheet for a fixture (issue 42): the squad with their
//! answers (ask them by email, remind the ones who have not answered, once),
//! then the line-up (singles in order, the pairs, substitutes), suggested
//! from the answers so that one tap saves it; the other side's line-up when
//! the season shows it; drawn pairings with their seed; and the sheet on
//! paper. Also where players answer: signed in, or by a signed link.

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use chrono::{NaiveDateTime, Utc};
use serde::Deserialize;
use tower_sessions::Session;

use crate::app::answer_links::{self, BadLink};
use crate::app::team_sheet::{self as sheet, SheetData};
use crate::db::{DbError, FixtureId, RoleKind, Side};
use crate::league::match_format::{BoardKind, Pairings};
use crate::league::team_sheet::{Answer, LineUp, LineUpShown, board_players};
use crate::web::links::{self, Address, TeamSheet};
use crate::web::routes::Routes;

use super::AppState;
use super::auth::{CurrentUser, league_named};
use super::csrf::{CsrfForm, guest_ctx};
use super::dates;
use super::error::{AppError, Result};
use super::page::{Ctx, html};
use super::results::{FixtureAccess, Standing};

pub fn router() -> Routes {
    Routes::new()
        .league("/matches/{fixture}/team-sheet/{side}", get(show))
        .league("/matches/{fixture}/team-sheet/{side}/print", get(print))
        .league(
            "/matches/{fixture}/team-sheet/{side}/line-up",
            post(save_line_up),
        )
        .league("/matches/{fixture}/team-sheet/{side}/remind", post(remind))
        .league(
            "/matches/{fixture}/team-sheet/{side}/remind-at",
            post(remind_at),
        )
        .league("/matches/{fixture}/team-sheet/{side}/ask", post(ask))
        .league("/matches/{fixture}/draw", post(draw))
        .league("/matches/{fixture}/availability", post(answer_signed_in))
        .league("/answer/{token}", get(answer_link).post(answer_by_link))
}

#[derive(Deserialize)]
pub struct SidePath {
    side: String,
}

/// The side named in the address, if the user may keep its sheet: a
/// captain their own team's, a secretary either.
fn side_of(access: &FixtureAccess, side: &str) -> Result<Side> {
    let side: Side = side
        .parse()
        .map_err(|_| AppError::NotFound("That team sheet".into()))?;
    let allowed = match access.standing {
        Standing::Secretary => true,
        Standing::HomeCaptain => side == Side::Home,
        Standing::AwayCaptain => side == Side::Away,
    };
    if !allowed {
        return Err(AppError::Forbidden(
            "A team sheet is its own captain's (and the secretaries'): open your own team's."
                .into(),
        ));
    }
    Ok(side)
}

fn sheet_at(access: &FixtureAccess, side: Side) -> Address<TeamSheet> {
    access.at().team_sheet(side)
}

/// One choice of a select.
pub struct Opt {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// One place on a board: its field and the squad to choose from.
pub struct Slot {
    pub field: String,
    pub label: String,
    pub options: Vec<Opt>,
}

pub struct PairSlot {
    pub label: String,
    pub a: Slot,
    pub b: Slot,
}

pub struct SquadLine {
    pub name: String,
    pub answer: String,
    /// `yes`, `no`, `maybe` or `none`: for the page's marks.
    pub key: &'static str,
    pub answered: String,
}

#[derive(Template)]
#[template(path = "schedule/team_sheet.html")]
struct SheetPage {
    ctx: Ctx,
    title: String,
    team: String,
    when: String,
    match_href: String,
    sheet: Address<TeamSheet>,
    pads: String,
    draw_action: String,
    notice: Option<String>,
    error: Option<String>,
    open: bool,
    squad: Vec<SquadLine>,
    counts: String,
    short: Option<String>,
    not_answered: usize,
    reminded: Option<String>,
    remind_at: String,
    rule: String,
    singles: Vec<Slot>,
    pairs: Vec<PairSlot>,
    subs: Vec<Opt>,
    /// The line-up on the form is a suggestion, not saved yet.
    suggested: bool,
    /// Drawn: the line-up stands.
    fixed: bool,
    other_note: String,
    boards: Vec<String>,
    can_draw: bool,
    draw_note: String,
}

/// A line-up as the form sends it: `s1`.., `p1a`, `p1b`.., `sub` (many).
fn line_up_from(fields: &[(String, String)], singles: usize, pairs: usize) -> LineUp {
    let get = |name: String| -> Option<i64> {
        fields
            .iter()
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.trim().parse().ok())
    };
    LineUp {
        singles: (1..=singles).filter_map(|k| get(format!("s{k}"))).collect(),
        pairs: (1..=pairs)
            .filter_map(|k| Some([get(format!("p{k}a"))?, get(format!("p{k}b"))?]))
            .collect(),
        substitutes: fields
            .iter()
            .filter(|(k, _)| k == "sub")
            .filter_map(|(_, v)| v.trim().parse().ok())
            .collect(),
    }
}

fn rank(a: Option<Answer>) -> u8 {
    match a {
        Some(Answer::Yes) => 0,
        Some(Answer::Maybe) => 1,
        None => 2,
        Some(Answer::No) => 3,
    }
}

/// A line-up made from the answers: those who can play first, then the
/// maybes, then those who have not answered (never a "can't"), singles in
/// that order, the pairs from the same players two by two, the rest as
/// substitutes. The captain checks it and saves it in one tap.
fn suggest(data: &SheetData) -> LineUp {
    let mut squad: Vec<_> = data
        .squad
        .iter()
        .filter(|m| m.answer != Some(Answer::No))
        .collect();
    squad.sort_by_key(|m| rank(m.answer));
    let ids: Vec<i64> = squad.iter().map(|m| m.player_id.0).collect();
    let count = |kind| {
        data.rules
            .format
            .boards
            .iter()
            .filter(|b| b.kind == kind)
            .count()
    };
    let (s, p) = (count(BoardKind::Singles), count(BoardKind::Pairs));
    let singles: Vec<i64> = ids.iter().take(s).copied().collect();
    let pairs: Vec<[i64; 2]> = (0..p)
        .map_while(|j| Some([*ids.get(2 * j)?, *ids.get(2 * j + 1)?]))
        .collect();
    let used = s.max(2 * p);
    LineUp {
        singles,
        pairs,
        substitutes: squad
            .iter()
            .skip(used)
            .filter(|m| m.answer.is_some())
            .map(|m| m.player_id.0)
            .collect(),
    }
}

fn build_page(
    access: &FixtureAccess,
    data: &SheetData,
    shown: &LineUp,
    suggested: bool,
    notice: Option<String>,
    error: Option<String>,
) -> SheetPage {
    let zone = access.league.time_zone;
    let side = data.side;
    let now = Utc::now();
    let started = data.fixture.starts_at.is_some_and(|s| s <= now);
    let names: HashMap<i64, String> = data
        .squad
        .iter()
        .map(|m| (m.player_id.0, m.name.clone()))
        .collect();
    let mut ordered: Vec<_> = data.squad.iter().collect();
    ordered.sort_by_key(|m| rank(m.answer));
    let options = |selected: Option<i64>| -> Vec<Opt> {
        let mut out = vec![Opt {
            value: String::new(),
            label: "Choose a player".into(),
            selected: selected.is_none(),
        }];
        out.extend(ordered.iter().map(|m| Opt {
            value: m.player_id.0.to_string(),
            label: format!(
                "{} ({})",
                m.name,
                m.answer.map_or("not answered", Answer::label).to_lowercase()
            ),
            selected: selected == Some(m.player_id.0),
        }));
        out
    };
    let format = &data.rules.format;
    let count = |kind| format.boards.iter().filter(|b| b.kind == kind).count();
    let singles = (0..count(BoardKind::Singles))
        .map(|k| Slot {
            field: format!("s{}", k + 1),
            label: format!("Singles {}", k + 1),
            options: options(shown.singles.get(k).copied()),
        })
        .collect();
    let pairs = (0..count(BoardKind::Pairs))
        .map(|k| PairSlot {
            label: format!("Pairs {}", k + 1),
            a: Slot {
                field: format!("p{}a", k + 1),
                label: format!("Pairs {}, first player", k + 1),
                options: options(shown.pairs.get(k).map(|p| p[0])),
            },
            b: Slot {
                field: format!("p{}b", k + 1),
                label: format!("Pairs {}, second player", k + 1),
                options: options(shown.pairs.get(k).map(|p| p[1])),
            },
        })
        .collect();
    let subs = ordered
        .iter()
        .map(|m| Opt {
            value: m.player_id.0.to_string(),
            label: m.name.clone(),
            selected: shown.substitutes.contains(&m.player_id.0),
        })
        .collect();
    let tally = |a: Option<Answer>| data.squad.iter().filter(|m| m.answer == a).count();
    let (yes, maybe, no, none) = (
        tally(Some(Answer::Yes)),
        tally(Some(Answer::Maybe)),
        tally(Some(Answer::No)),
        tally(None),
    );
    let needed = crate::league::team_sheet::players_needed(format);
    let short = crate::league::team_sheet::short(format, data.squad.len(), no).then(|| {
        format!(
            "Short: {no} of {} registered players can't play, and the match needs {needed}. Find a reserve (register them in the console) or tell the other captain.",
            data.squad.len()
        )
    });
    let visible =
        access.is_secretary() || started || access.settings().line_up_shown == LineUpShown::AtOnce;
    let other_note: String = match (data.other(), visible) {
        (None, _) => "The other captain has not set their line-up yet.".into(),
        (Some(_), false) => "The other captain has set their line-up: it is shown when the night starts (a season setting).".into(),
        (Some(o), true) => format!(
            "The other captain set their line-up {}.",
            dates::when(zone, o.updated_at)
        ),
    };
    let drawn = data.drawn.as_ref();
    let (home, away) = match side {
        Side::Home => (data.own(), data.other().map(|o| &o.line_up)),
        Side::Away => (data.other().map(|o| &o.line_up), data.own()),
    };
    let boards: Vec<String> = if visible {
        (1..=format.boards.len())
            .filter_map(|b| {
                let (h, a) = board_players(format, home, away, drawn, b)?;
                let names_of = |ids: &[i64]| {
                    ids.iter()
                        .map(|id| names.get(id).cloned().unwrap_or_else(|| format!("#{id}")))
                        .collect::<Vec<_>>()
                        .join(" & ")
                };
                Some(format!("Board {b}: {} v {}", names_of(&h), names_of(&a)))
            })
            .collect()
    } else {
        Vec::new()
    };
    let is_drawn_format = format.pairings == Pairings::Drawn;
    let can_draw = is_drawn_format && drawn.is_none() && data.line_ups.len() == 2;
    let draw_note = if !is_drawn_format {
        String::new()
    } else if let Some(d) = drawn {
        format!(
            "Drawn with seed {}. Anyone can check it: the SHA-256 of the seed starts a SplitMix64 generator that shuffles (Fisher-Yates) the home singles, the away singles, the home pairs and the away pairs, in that order; a draw is never made twice.",
            d.seed
        )
    } else {
        format!(
            "The pairings are drawn by the app from both line-ups ({}).",
            access.settings().draw_at.label().to_lowercase()
        )
    };
    let reminded = data.reminder.as_ref().and_then(|r| {
        r.sent_at.map(|t| {
            format!(
                "Reminder sent {}: one reminder a match.",
                dates::when(zone, t)
            )
        })
    });
    let remind_at = data
        .reminder
        .as_ref()
        .filter(|r| r.sent_at.is_none())
        .map(|r| zone.local(r.remind_at).format("%Y-%m-%dT%H:%M").to_string())
        .unwrap_or_default();
    SheetPage {
        ctx: access.user.ctx(),
        title: access.title(),
        team: access.names[usize::from(side == Side::Away)].clone(),
        when: data
            .fixture
            .starts_at
            .map(|t| dates::when(zone, t))
            .unwrap_or_else(|| "date to be fixed".into()),
        match_href: access.at().to_string(),
        sheet: sheet_at(access, side),
        pads: access.at().pad(),
        draw_action: access.at().draw_pairings(),
        notice,
        error,
        open: !started
            && matches!(
                data.fixture.status,
                crate::db::FixtureStatus::Scheduled | crate::db::FixtureStatus::Postponed
            ),
        squad: ordered
            .iter()
            .map(|m| SquadLine {
                name: m.name.clone(),
                answer: m.answer.map_or("Not answered", Answer::label).into(),
                key: m.answer.map_or("none", Answer::key),
                answered: m
                    .answered_at
                    .map(|t| dates::when(zone, t))
                    .unwrap_or_default(),
            })
            .collect(),
        counts: format!(
            "{yes} can play, {maybe} maybe, {no} can't, {none} not answered; the match needs {needed}."
        ),
        short,
        not_answered: data
            .squad
            .iter()
            .filter(|m| m.answer.is_none() && m.email.is_some())
            .count(),
        reminded,
        remind_at,
        rule: format!(
            "Each player plays at most {} singles and {} pairs board{} a match; only registered players.",
            format.line_up.singles,
            format.line_up.pairs,
            if format.line_up.pairs == 1 { "" } else { "s" }
        ),
        singles,
        pairs,
        subs,
        suggested,
        fixed: drawn.is_some(),
        other_note,
        boards,
        can_draw,
        draw_note,
    }
}

async fn load(state: &AppState, access: &FixtureAccess, side: Side) -> Result<SheetData> {
    Ok(sheet::sheet(
        state.db(),
        access.league.id,
        &access.fixture,
        access.rules.clone(),
        side,
    )
    .await?)
}

#[derive(Deserialize, Default)]
pub struct SavedQuery {
    saved: Option<String>,
    n: Option<usize>,
}

fn saved_words(data: &SheetData, q: &SavedQuery) -> Option<String> {
    let names: HashMap<i64, &str> = data
        .squad
        .iter()
        .map(|m| (m.player_id.0, m.name.as_str()))
        .collect();
    let name = |id: &i64| names.get(id).copied().unwrap_or("?").to_owned();
    Some(match q.saved.as_deref()? {
        "line_up" => {
            let l = data.own()?;
            let singles: Vec<String> = l.singles.iter().map(name).collect();
            let pairs: Vec<String> = l
                .pairs
                .iter()
                .map(|p| format!("{} & {}", name(&p[0]), name(&p[1])))
                .collect();
            let subs: Vec<String> = l.substitutes.iter().map(name).collect();
            let mut s = format!(
                "Line-up saved. Singles: {}. Pairs: {}.",
                singles.join(", "),
                pairs.join("; ")
            );
            if !subs.is_empty() {
                s.push_str(&format!(" Substitutes: {}.", subs.join(", ")));
            }
            if data.drawn.is_some() {
                s.push_str(" Both line-ups are in: the pairings were drawn.");
            }
            s
        }
        "reminded" => format!(
            "Reminder sent to {} player{} who had not answered.",
            q.n.unwrap_or(0),
            if q.n == Some(1) { "" } else { "s" }
        ),
        "asked" => format!(
            "Asked {} player{} by email, each with their own link.",
            q.n.unwrap_or(0),
            if q.n == Some(1) { "" } else { "s" }
        ),
        "remind_at" => "Reminder time saved.".into(),
        "drawn" => "The pairings were drawn.".into(),
        _ => return None,
    })
}

pub async fn show(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
    Query(q): Query<SavedQuery>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    let data = load(&state, &access, side).await?;
    let (shown, suggested) = match data.own() {
        Some(l) => (l.clone(), false),
        None => (suggest(&data), true),
    };
    let notice = saved_words(&data, &q);
    Ok(html(&build_page(
        &access, &data, &shown, suggested, notice, None,
    )))
}

#[derive(Template)]
#[template(path = "schedule/team_sheet_print.html")]
struct PrintPage {
    ctx: Ctx,
    title: String,
    team: String,
    when: String,
    boards: Vec<(String, String)>,
    subs: String,
    squad: Vec<SquadLine>,
}

pub async fn print(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    let data = load(&state, &access, side).await?;
    let page = build_page(
        &access,
        &data,
        &data.own().cloned().unwrap_or_default(),
        false,
        None,
        None,
    );
    let names: HashMap<i64, String> = data
        .squad
        .iter()
        .map(|m| (m.player_id.0, m.name.clone()))
        .collect();
    let name = |id: &i64| names.get(id).cloned().unwrap_or_default();
    let own = data.own().cloned().unwrap_or_default();
    let boards = own
        .boards(&data.rules.format)
        .into_iter()
        .map(|b| {
            (
                format!("{} {}", b.kind, b.board),
                b.players.iter().map(name).collect::<Vec<_>>().join(" & "),
            )
        })
        .collect();
    Ok(html(&PrintPage {
        ctx: page.ctx,
        title: page.title,
        team: page.team,
        when: page.when,
        boards,
        subs: own
            .substitutes
            .iter()
            .map(name)
            .collect::<Vec<_>>()
            .join(", "),
        squad: page.squad,
    }))
}

pub async fn save_line_up(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
    CsrfForm(fields): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    let format = &access.rules.format;
    let count = |kind| format.boards.iter().filter(|b| b.kind == kind).count();
    let line_up = line_up_from(&fields, count(BoardKind::Singles), count(BoardKind::Pairs));
    let saved = sheet::save_line_up(
        state.db(),
        access.league.id,
        access.fixture.id,
        side,
        &line_up,
        Some(access.user.id),
    )
    .await;
    match saved {
        Ok(_) => {
            let to = format!("{}?saved=line_up", sheet_at(&access, side));
            Ok(Redirect::to(&to).into_response())
        }
        Err(DbError::Refused(why)) => {
            let data = load(&state, &access, side).await?;
            let page = build_page(
                &access,
                &data,
                &line_up,
                false,
                None,
                Some(format!("Not saved: {why}")),
            );
            Ok((StatusCode::UNPROCESSABLE_ENTITY, html(&page)).into_response())
        }
        Err(e) => Err(e.into()),
    }
}

/// A refusal as the sheet again, saying why.
async fn again(
    state: &AppState,
    access: &FixtureAccess,
    side: Side,
    why: String,
) -> Result<Response> {
    let data = load(state, access, side).await?;
    let (shown, suggested) = match data.own() {
        Some(l) => (l.clone(), false),
        None => (suggest(&data), true),
    };
    let page = build_page(access, &data, &shown, suggested, None, Some(why));
    Ok((StatusCode::UNPROCESSABLE_ENTITY, html(&page)).into_response())
}

pub async fn remind(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
    CsrfForm(_): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    match sheet::remind(
        state.db(),
        &access.league,
        access.fixture.id,
        side,
        state.mail(),
    )
    .await
    {
        Ok(n) => Ok(
            Redirect::to(&format!("{}?saved=reminded&n={n}", sheet_at(&access, side)))
                .into_response(),
        ),
        Err(DbError::Refused(why)) => again(&state, &access, side, why.to_string()).await,
        Err(e) => Err(e.into()),
    }
}

pub async fn ask(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
    CsrfForm(_): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    match sheet::ask_squad(
        state.db(),
        &access.league,
        access.fixture.id,
        side,
        state.mail(),
    )
    .await
    {
        Ok(n) => Ok(
            Redirect::to(&format!("{}?saved=asked&n={n}", sheet_at(&access, side))).into_response(),
        ),
        Err(DbError::Refused(why)) => again(&state, &access, side, why.to_string()).await,
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct RemindAtForm {
    #[serde(default)]
    at: String,
}

pub async fn remind_at(
    State(state): State<AppState>,
    access: FixtureAccess,
    Path(p): Path<SidePath>,
    CsrfForm(form): CsrfForm<RemindAtForm>,
) -> Result<Response> {
    let side = side_of(&access, &p.side)?;
    let zone = access.league.time_zone;
    let at = NaiveDateTime::parse_from_str(form.at.trim(), "%Y-%m-%dT%H:%M")
        .ok()
        .and_then(|t| zone.instant(t.date(), t.time()).ok());
    let Some(at) = at else {
        return again(
            &state,
            &access,
            side,
            "Choose the day and time of the reminder.".into(),
        )
        .await;
    };
    match sheet::set_reminder(state.db(), access.league.id, access.fixture.id, side, at).await {
        Ok(()) => Ok(
            Redirect::to(&format!("{}?saved=remind_at", sheet_at(&access, side))).into_response(),
        ),
        Err(DbError::Refused(why)) => again(&state, &access, side, why.to_string()).await,
        Err(e) => Err(e.into()),
    }
}

pub async fn draw(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(_): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let side = match access.standing {
        Standing::AwayCaptain => Side::Away,
        _ => Side::Home,
    };
    match sheet::draw(
        state.db(),
        access.league.id,
        access.fixture.id,
        None,
        Some(access.user.id),
    )
    .await
    {
        Ok(_) => {
            Ok(Redirect::to(&format!("{}?saved=drawn", sheet_at(&access, side))).into_response())
        }
        Err(DbError::Refused(why)) => again(&state, &access, side, why.to_string()).await,
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    answer: String,
    /// Where to go back to: the home page or the team page.
    #[serde(default)]
    back: String,
}

/// A signed-in player answers for their own player record.
pub async fn answer_signed_in(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(p): Path<FixturePath>,
    CsrfForm(form): CsrfForm<AnswerForm>,
) -> Result<Response> {
    let league = league_named(state.db(), &p.league).await?;
    let player = user
        .roles
        .iter()
        .find(|r| r.kind == RoleKind::Player && r.league_id == Some(league.id))
        .and_then(|r| r.player_id)
        .ok_or_else(|| {
            AppError::Forbidden("Only a registered player answers for themselves.".into())
        })?;
    let answer = Answer::parse(&form.answer)
        .ok_or_else(|| AppError::BadRequest("Choose can play, can't or maybe.".into()))?;
    sheet::answer(
        state.db(),
        &league,
        FixtureId(p.fixture),
        player,
        answer,
        state.mail(),
    )
    .await?;
    let back = if form.back.starts_with('/') && !form.back.starts_with("//") {
        form.back
    } else {
        "/".into()
    };
    Ok(crate::web::flash::saved(
        &back,
        format!(
            "Saved: {} for this match. You can change it until the night.",
            answer.label()
        ),
    ))
}

#[derive(Deserialize)]
pub struct FixturePath {
    league: String,
    fixture: i64,
}

#[derive(Deserialize)]
pub struct TokenPath {
    league: String,
    token: String,
}

#[derive(Template)]
#[template(path = "schedule/answer.html")]
struct AnswerPage {
    ctx: Ctx,
    player: String,
    title: String,
    when: String,
    current: String,
    action: String,
    notice: Option<String>,
    error: Option<String>,
    open: bool,
    answers: Vec<(&'static str, &'static str, bool)>,
}

async fn answer_page(
    state: &AppState,
    session: &Session,
    p: &TokenPath,
    saved: Option<Answer>,
) -> Result<Response> {
    let league = league_named(state.db(), &p.league).await?;
    let db = state.db();
    let key = db.link_key().await?;
    let link = match answer_links::verify(&key, league.id, &p.token, Utc::now()) {
        Ok(l) => l,
        Err(BadLink::Forged) => {
            return Err(AppError::NotFound("That answer link".into()));
        }
        Err(BadLink::Expired) => {
            return Err(AppError::Forbidden(
                "This link has expired: the match it asked about has been played.".into(),
            ));
        }
    };
    let fixture = db.fixture(league.id, link.fixture).await?;
    let player = db.player(league.id, link.player).await?;
    let current = db.answer(league.id, fixture.id, link.player).await?;
    let names = db
        .team_names(league.id, fixture.home_team_id, fixture.away_team_id)
        .await?;
    let open = matches!(
        fixture.status,
        crate::db::FixtureStatus::Scheduled | crate::db::FixtureStatus::Postponed
    ) && fixture.starts_at.is_none_or(|s| Utc::now() < s);
    let page = AnswerPage {
        ctx: guest_ctx(session).await?,
        player: player.name,
        title: format!("{} v {}", names[0], names[1]),
        when: fixture
            .starts_at
            .map(|t| dates::when(league.time_zone, t))
            .unwrap_or_else(|| "date to be fixed".into()),
        current: current.map_or("not answered yet", Answer::label).to_owned(),
        action: links::at(&league).answer_link(&p.token),
        notice: saved.map(|a| {
            format!(
                "Saved: {}. You can change it here until the night.",
                a.label()
            )
        }),
        error: None,
        open,
        answers: Answer::ALL
            .into_iter()
            .map(|a| (a.key(), a.label(), current == Some(a)))
            .collect(),
    };
    Ok(html(&page))
}

/// The page an emailed link opens: the match, the player's answer, and a
/// button for each answer. No sign-in: the link is signed for this player
/// and this match.
pub async fn answer_link(
    State(state): State<AppState>,
    session: Session,
    Path(p): Path<TokenPath>,
) -> Result<Response> {
    answer_page(&state, &session, &p, None).await
}

pub async fn answer_by_link(
    State(state): State<AppState>,
    session: Session,
    Path(p): Path<TokenPath>,
    CsrfForm(form): CsrfForm<AnswerForm>,
) -> Result<Response> {
    let league = league_named(state.db(), &p.league).await?;
    let key = state.db().link_key().await?;
    let link = match answer_links::verify(&key, league.id, &p.token, Utc::now()) {
        Ok(l) => l,
        Err(BadLink::Forged) => return Err(AppError::NotFound("That answer link".into())),
        Err(BadLink::Expired) => {
            return Err(AppError::Forbidden(
                "This link has expired: the match it asked about has been played.".into(),
            ));
        }
    };
    let answer = Answer::parse(&form.answer)
        .ok_or_else(|| AppError::BadRequest("Choose can play, can't or maybe.".into()))?;
    sheet::answer(
        state.db(),
        &league,
        link.fixture,
        link.player,
        answer,
        state.mail(),
    )
    .await?;
    answer_page(&state, &session, &p, Some(answer)).await
}
