//! A season's cups: making one, its entrants, and the draw of each round
//! ("Draw round N": at random from a seed that is kept, seeded, as the
//! bracket runs, or typed in as drawn on the night). Results are entered on
//! each tie's match card like any other, and the winners go through by
//! themselves once approved (see `db::cups`).

use crate::web::routes::Routes;
use std::collections::HashMap;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use serde::Deserialize;

use crate::app::cup_commands::{add_cup_entrant, delete_cup, draw_cup_round, remove_cup_entrant};
use crate::db::{
    Cup, CupData, CupEntrantId, CupId, DrawRequest, How, League, NewCup, NewEntrant, PlayerId,
    Season, SeasonId, TeamId, VenueId,
};
use crate::league::cup::{self, EntrantKind, FormatError, Method, Slot};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::dates;
use crate::web::error::Result;
use crate::web::links::{self, address_clash, cup_href};
use crate::web::page::Ctx;
use crate::web::views::bracket::{Bracket, bracket, describe as describe_cup, entrant_name};

use super::form::{self, Choice, Errors, FORM};
use super::{PREFIX, missing};

pub fn router() -> Routes {
    Routes::new()
        .league(
            &format!("{PREFIX}/seasons/{{season}}/cups"),
            get(list).post(create),
        )
        .league(&format!("{PREFIX}/cups/{{cup}}"), get(show))
        .league(&format!("{PREFIX}/cups/{{cup}}/entrants"), post(enter))
        .league(
            &format!("{PREFIX}/cups/{{cup}}/entrants/{{entrant}}/withdraw"),
            post(withdraw),
        )
        .league(
            &format!("{PREFIX}/cups/{{cup}}/edit"),
            get(edit_form).post(rename),
        )
        .league(&format!("{PREFIX}/cups/{{cup}}/delete"), post(delete))
        .league(&format!("{PREFIX}/cups/{{cup}}/draw"), post(draw))
        .league(
            &format!("{PREFIX}/cups/{{cup}}/draw-by-hand"),
            get(hand_form).post(hand_draw),
        )
}

const DUPLICATE: &str = "A cup with this name already exists in this season.";

/// The kick-off a round's date gets when none is typed.
const DEFAULT_TIME: &str = "19:30";

// ---------------------------------------------------------------------------
// A season's cups

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CupForm {
    pub name: String,
    pub entrants: String,
    /// `season` or `own` (team cups).
    pub format: String,
    pub singles: String,
    pub pairs: String,
    pub best_of: String,
}

impl CupForm {
    fn blank() -> CupForm {
        CupForm {
            entrants: "teams".into(),
            format: "season".into(),
            singles: "0".into(),
            pairs: "0".into(),
            best_of: "3".into(),
            ..CupForm::default()
        }
    }

    fn kinds(&self) -> Vec<Choice> {
        form::choices(
            [
                ("teams", "Teams: a team cup"),
                ("singles", "Players: a singles knockout"),
                ("pairs", "Pairs of players: a pairs knockout"),
            ],
            self.entrants.trim(),
        )
    }

    fn formats(&self) -> Vec<Choice> {
        form::choices(
            [
                ("season", "The season's match format"),
                ("own", "Its own boards (below)"),
            ],
            self.format.trim(),
        )
    }

    /// The cup as asked, or the errors beside the fields.
    fn check(&self, season: &Season, errors: &mut Errors) -> Option<NewCup> {
        let name = checked_name(errors, &self.name);
        let entrants: Option<EntrantKind> = match self.entrants.trim().parse() {
            Ok(kind) => Some(kind),
            Err(_) => {
                errors.add("entrants", "Pick teams, players or pairs.");
                None
            }
        };
        if let Some(kind) = entrants
            && let Err(why) = cup::check_kind(kind, season.format)
        {
            errors.add("entrants", why);
        }
        let kind = entrants?;
        let count = |errors: &mut Errors, field, value: &str| {
            let n = form::whole(errors, field, value, 0, 99);
            usize::try_from(n).unwrap_or(0)
        };
        let boards = match (kind, self.format.trim()) {
            (EntrantKind::Teams, "season") | (EntrantKind::Singles | EntrantKind::Pairs, _) => None,
            (EntrantKind::Teams, "own") => Some((
                count(errors, "singles", &self.singles),
                count(errors, "pairs", &self.pairs),
            )),
            (EntrantKind::Teams, _) => {
                errors.add("format", "Pick the season's match format or the cup's own.");
                None
            }
        };
        let needs_games = kind != EntrantKind::Teams || boards.is_some();
        let best_of = if needs_games {
            let n = form::whole(errors, "best_of", &self.best_of, 1, 99);
            u32::try_from(n).unwrap_or(1)
        } else {
            1
        };
        let match_format = match cup::tie_format(kind, season.format, boards, best_of) {
            Ok(format) => format,
            Err(FormatError::Boards(why)) => {
                errors.add("singles", why);
                None
            }
            Err(FormatError::BestOf(why)) => {
                errors.add("best_of", why);
                None
            }
        };
        errors.is_empty().then_some(NewCup {
            season_id: season.id,
            name,
            entrants: kind,
            match_format,
        })
    }
}

struct CupLine {
    href: String,
    public: String,
    name: String,
    about: String,
}

#[derive(Template)]
#[template(path = "console/cups.html")]
struct CupsPage {
    ctx: Ctx,
    league: League,
    season: Season,
    cups: Vec<CupLine>,
    form: CupForm,
    errors: Errors,
}

async fn list_page(
    state: &AppState,
    sec: Secretary,
    season: Season,
    form: CupForm,
    errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let counts = db.cup_entrant_counts(sec.league.id, season.id).await?;
    let cups = db
        .cups(sec.league.id, season.id)
        .await?
        .into_iter()
        .map(|cup| CupLine {
            href: links::at(&sec.league).console().cup(cup.id).to_string(),
            public: cup_href(&sec.league, cup.id, &cup.name),
            about: describe_cup(&cup, &season, counts.get(&cup.id).copied().unwrap_or(0)),
            name: cup.name,
        })
        .collect();
    let page = CupsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season,
        cups,
        form,
        errors,
    };
    Ok(form::page(&page, &page.errors))
}

async fn list(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let season = state.db().season(sec.league.id, season).await?;
    list_page(&state, sec, season, CupForm::blank(), Errors::default()).await
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, season)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<CupForm>,
) -> Result<Response> {
    let db = state.db();
    let season = db.season(sec.league.id, season).await?;
    let mut errors = Errors::default();
    if let Some(new) = input.check(&season, &mut errors) {
        match db.create_cup(sec.league.id, &new, Some(sec.user.id)).await {
            Ok(cup) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().cup(cup.id).to_string(),
                    format!("Cup {} made: now enter its entrants.", cup.name),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    list_page(&state, sec, season, input, errors).await
}

// ---------------------------------------------------------------------------
// A cup's name, and deleting one made by mistake

/// A cup's name as typed, or its error beside the field: it must also make
/// a bracket address of its own.
fn checked_name(errors: &mut Errors, typed: &str) -> String {
    let name = form::text(errors, "name", typed, true, 60);
    if errors.get("name").is_none()
        && let Some(why) = address_clash(&name, &[], &[])
    {
        errors.add("name", why);
    }
    name
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NameForm {
    pub name: String,
}

#[derive(Template)]
#[template(path = "console/cup_edit.html")]
struct EditPage {
    ctx: Ctx,
    league: League,
    cup: Cup,
    form: NameForm,
    errors: Errors,
    /// No round drawn yet: the cup may still be deleted.
    deletable: bool,
    delete_errors: Errors,
}

/// The page, its name field holding `typed` (the cup's name when `None`).
async fn edit_page(
    state: &AppState,
    sec: Secretary,
    cup: CupId,
    typed: Option<NameForm>,
    errors: Errors,
    delete_errors: Errors,
) -> Result<Response> {
    let (data, _) = load(state, &sec.league, cup).await?;
    let form = typed.unwrap_or_else(|| NameForm {
        name: data.cup.name.clone(),
    });
    let page = EditPage {
        ctx: sec.user.ctx(),
        league: sec.league.clone(),
        deletable: data.rounds.is_empty(),
        cup: data.cup,
        form,
        errors,
        delete_errors,
    };
    let shown = if page.errors.is_empty() {
        &page.delete_errors
    } else {
        &page.errors
    };
    Ok(form::page(&page, shown))
}

async fn edit_form(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
) -> Result<Response> {
    edit_page(&state, sec, cup, None, Errors::default(), Errors::default()).await
}

async fn rename(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
    CsrfForm(input): CsrfForm<NameForm>,
) -> Result<Response> {
    let db = state.db();
    let mut errors = Errors::default();
    let name = checked_name(&mut errors, &input.name);
    if errors.is_empty() {
        match db
            .rename_cup(sec.league.id, cup, &name, Some(sec.user.id))
            .await
        {
            Ok((before, after)) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().cup(cup).to_string(),
                    format!("Cup {} renamed {}.", before.name, after.name),
                ));
            }
            Err(e) => form::refused(e, &mut errors, "name", DUPLICATE)?,
        }
    }
    edit_page(&state, sec, cup, Some(input), errors, Errors::default()).await
}

async fn delete(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
    CsrfForm(_): CsrfForm<serde::de::IgnoredAny>,
) -> Result<Response> {
    match delete_cup(state.db(), sec.league.id, cup, Some(sec.user.id)).await {
        Ok(gone) => Ok(form::done(
            &links::at(&sec.league)
                .console()
                .season(gone.season_id)
                .cups(),
            format!("Cup {} deleted, with its entrants.", gone.name),
        )),
        Err(e) => {
            let mut errors = Errors::default();
            form::refused(e, &mut errors, FORM, "")?;
            edit_page(&state, sec, cup, None, Errors::default(), errors).await
        }
    }
}

// ---------------------------------------------------------------------------
// One cup: entrants and draws

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EntrantForm {
    pub team: String,
    pub player: String,
    pub partner: String,
    pub seed: String,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct DrawForm {
    /// The round the form offered.
    pub round: String,
    pub method: String,
    pub date: String,
    pub time: String,
    /// `yes`: the date is the last night the round may be played.
    pub play_by: String,
    pub venue: String,
}

impl DrawForm {
    fn blank(round: u32, zone: crate::league::time::Zone) -> DrawForm {
        DrawForm {
            round: round.to_string(),
            method: "random".into(),
            date: dates::iso_day(zone, Utc::now()),
            time: DEFAULT_TIME.into(),
            ..DrawForm::default()
        }
    }

    /// The round's night, whether it is a play-by date, and its neutral
    /// venue, or the errors beside the fields.
    fn place(
        &self,
        league: &League,
        venues: &[(VenueId, String)],
        errors: &mut Errors,
    ) -> Option<(DateTime<Utc>, bool, Option<VenueId>)> {
        let date = NaiveDate::parse_from_str(self.date.trim(), "%Y-%m-%d").ok();
        if date.is_none() {
            errors.add("date", "Give the date as YYYY-MM-DD.");
        }
        let time_text = if self.time.trim().is_empty() {
            DEFAULT_TIME
        } else {
            self.time.trim()
        };
        let time = NaiveTime::parse_from_str(time_text, "%H:%M").ok();
        if time.is_none() {
            errors.add("time", "Give the time as HH:MM, for example 19:30.");
        }
        let starts_at = match date.zip(time) {
            Some((d, t)) => match league.time_zone.instant(d, t) {
                Ok(at) => Some(at),
                Err(e) => {
                    errors.add("time", e.to_string());
                    None
                }
            },
            None => None,
        };
        let venue = if self.venue.trim().is_empty() {
            None
        } else {
            form::pick(
                errors,
                "venue",
                &self.venue,
                venues.iter().map(|v| v.0.0),
                "Pick one of the league's venues, or none for the home side's.",
            )
            .map(VenueId)
        };
        Some((starts_at?, self.play_by == "yes", venue))
    }
}

struct EntrantLine {
    id: CupEntrantId,
    name: String,
    team: String,
    seed: String,
}

/// The next round to draw, and the ways it may be drawn.
struct NextRound {
    number: u32,
    name: String,
    methods: Vec<Choice>,
    /// Ties and byes it will have.
    ties: usize,
    byes: usize,
}

#[derive(Template)]
#[template(path = "console/cup.html")]
struct CupPage {
    ctx: Ctx,
    league: League,
    season: Season,
    cup: Cup,
    about: String,
    public: String,
    entrants: Vec<EntrantLine>,
    /// No round drawn yet: entrants may come and go.
    open: bool,
    teams_cup: bool,
    pairs: bool,
    entrant_form: EntrantForm,
    entrant_errors: Errors,
    team_choices: Vec<Choice>,
    player_choices: Vec<Choice>,
    partner_choices: Vec<Choice>,
    next: Option<NextRound>,
    draw_form: DrawForm,
    draw_errors: Errors,
    venue_choices: Vec<Choice>,
    time_hint: String,
    bracket: Bracket,
}

/// The league's venues and the season's registered players with their
/// teams, for the forms' choices.
struct Choices {
    venues: Vec<(VenueId, String)>,
    teams: Vec<(TeamId, String)>,
    /// Registered this season: id, name, team id, team name.
    players: Vec<(PlayerId, String, TeamId, String)>,
}

async fn choices(state: &AppState, league: &League, season: SeasonId) -> Result<Choices> {
    let db = state.db();
    let venues = db
        .venues(league.id)
        .await?
        .into_iter()
        .map(|v| (v.id, v.name))
        .collect();
    let names: HashMap<TeamId, String> = db
        .teams(league.id)
        .await?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let mut teams: Vec<(TeamId, String)> = db
        .team_entries(league.id, season)
        .await?
        .into_iter()
        .filter_map(|e| Some((e.team_id, names.get(&e.team_id)?.clone())))
        .collect();
    teams.sort_by(|a, b| a.1.cmp(&b.1));
    let people: HashMap<PlayerId, String> = db
        .players(league.id)
        .await?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let mut players: Vec<(PlayerId, String, TeamId, String)> = db
        .registrations(league.id, season)
        .await?
        .into_iter()
        .filter_map(|r| {
            Some((
                r.player_id,
                people.get(&r.player_id)?.clone(),
                r.team_id,
                names.get(&r.team_id)?.clone(),
            ))
        })
        .collect();
    players.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(Choices {
        venues,
        teams,
        players,
    })
}

/// The neutral venue's select: none (each tie at its home side's), or one
/// of the league's.
fn venue_choices(venues: &[(VenueId, String)], selected: &str) -> Vec<Choice> {
    form::choices(
        std::iter::once((
            "".to_owned(),
            "None: each tie at the home side's venue".to_owned(),
        ))
        .chain(venues.iter().map(|v| (v.0.to_string(), v.1.clone()))),
        selected.trim(),
    )
}

/// The cup named by the address, in this league.
async fn load(state: &AppState, league: &League, cup: CupId) -> Result<(CupData, Season)> {
    let db = state.db();
    let data = db
        .cup_data(league.id, cup)
        .await
        .map_err(|_| missing(format!("Cup {cup}")))?;
    let season = db.season(league.id, data.cup.season_id).await?;
    Ok((data, season))
}

/// The round that would be drawn next, if any.
fn next_round(data: &CupData) -> Option<(u32, usize)> {
    let drawn = u32::try_from(data.rounds.len()).unwrap_or(u32::MAX);
    let qualifiers = if drawn == 0 {
        data.entrants.len()
    } else {
        data.ties
            .iter()
            .filter(|t| t.round == i64::from(drawn))
            .count()
    };
    let next = drawn + 1;
    cup::can_draw(next, qualifiers, Method::Hand)
        .ok()
        .map(|()| (next, qualifiers))
}

#[allow(clippy::too_many_arguments)]
async fn cup_page(
    state: &AppState,
    sec: Secretary,
    data: CupData,
    season: Season,
    entrant_form: EntrantForm,
    entrant_errors: Errors,
    draw_form: Option<DrawForm>,
    draw_errors: Errors,
) -> Result<Response> {
    let db = state.db();
    let league = &sec.league;
    let c = choices(state, league, season.id).await?;
    let bracket = bracket(db, league, &season, &data).await?;
    let next = next_round(&data).map(|(number, qualifiers)| {
        let rounds = if number == 1 {
            cup::rounds(qualifiers)
        } else {
            u32::try_from(data.rounds.len()).unwrap_or(0) + cup::rounds(qualifiers)
        };
        let methods: &[(&str, &str)] = if number == 1 {
            &[
                ("random", "At random: out of the hat"),
                (
                    "seeded",
                    "Seeded: the seeds on their lines, the rest at random",
                ),
            ]
        } else {
            &[
                ("random", "At random: out of the hat"),
                (
                    "bracket",
                    "As the bracket runs: winners of ties 1 and 2 meet, ...",
                ),
            ]
        };
        let chosen = draw_form.as_ref().map_or("random", |f| f.method.trim());
        NextRound {
            number,
            name: cup::round_name(number, rounds),
            methods: form::choices(methods.iter().copied(), chosen),
            ties: cup::bracket_size(qualifiers) / 2,
            byes: cup::byes(qualifiers),
        }
    });
    let draw_form = draw_form.unwrap_or_else(|| {
        DrawForm::blank(next.as_ref().map_or(0, |n| n.number), league.time_zone)
    });
    let kind = data.cup.entrants;
    let player_choices = |selected: &str| {
        form::choices(
            std::iter::once(("".to_owned(), "Choose a player".to_owned())).chain(
                c.players
                    .iter()
                    .map(|p| (p.0.to_string(), format!("{} ({})", p.1, p.3))),
            ),
            selected,
        )
    };
    let team_first = if kind == EntrantKind::Teams {
        "Choose a team"
    } else {
        "The first player's team"
    };
    let page = CupPage {
        ctx: sec.user.ctx(),
        about: describe_cup(&data.cup, &season, data.entrants.len()),
        public: cup_href(league, data.cup.id, &data.cup.name),
        entrants: data
            .entrants
            .iter()
            .map(|e| EntrantLine {
                id: e.id,
                name: entrant_name(kind, e),
                team: e.team_name.clone(),
                seed: e.seed.map_or_else(String::new, |s| s.to_string()),
            })
            .collect(),
        open: data.rounds.is_empty(),
        teams_cup: kind == EntrantKind::Teams,
        pairs: kind == EntrantKind::Pairs,
        team_choices: form::choices(
            std::iter::once(("".to_owned(), team_first.to_owned()))
                .chain(c.teams.iter().map(|t| (t.0.to_string(), t.1.clone()))),
            entrant_form.team.trim(),
        ),
        player_choices: player_choices(entrant_form.player.trim()),
        partner_choices: player_choices(entrant_form.partner.trim()),
        entrant_form,
        entrant_errors,
        next,
        venue_choices: venue_choices(&c.venues, &draw_form.venue),
        draw_form,
        draw_errors,
        time_hint: format!("{} time, as HH:MM.", league.time_zone),
        bracket,
        season,
        cup: data.cup,
        league: sec.league.clone(),
    };
    let errors = if page.entrant_errors.is_empty() {
        &page.draw_errors
    } else {
        &page.entrant_errors
    };
    Ok(form::page(&page, errors))
}

async fn show(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
) -> Result<Response> {
    let (data, season) = load(&state, &sec.league, cup).await?;
    cup_page(
        &state,
        sec,
        data,
        season,
        EntrantForm::default(),
        Errors::default(),
        None,
        Errors::default(),
    )
    .await
}

async fn enter(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
    CsrfForm(input): CsrfForm<EntrantForm>,
) -> Result<Response> {
    let (data, season) = load(&state, &sec.league, cup).await?;
    let c = choices(&state, &sec.league, season.id).await?;
    let mut errors = Errors::default();
    if !data.rounds.is_empty() {
        errors.add(
            FORM,
            "The first round is drawn: the entrants can no longer change. Nothing was saved.",
        );
    }
    let kind = data.cup.entrants;
    let mut players = Vec::new();
    let mut own_team = None;
    for (field, value) in [("player", &input.player), ("partner", &input.partner)]
        .into_iter()
        .take(kind.players())
    {
        let id = form::pick(
            &mut errors,
            field,
            value,
            c.players.iter().map(|p| p.0.0),
            "Choose one of the players registered this season.",
        );
        if let Some(id) = id {
            let team = c.players.iter().find(|p| p.0.0 == id).map(|p| p.2);
            own_team = own_team.or(team);
            players.push(PlayerId(id));
        }
    }
    let team = if input.team.trim().is_empty() && kind != EntrantKind::Teams {
        own_team
    } else {
        form::pick(
            &mut errors,
            "team",
            &input.team,
            c.teams.iter().map(|t| t.0.0),
            "Choose one of the teams entered this season.",
        )
        .map(TeamId)
    };
    let seed = form::optional_whole(
        &mut errors,
        "seed",
        &input.seed,
        1,
        i64::try_from(cup::MAX_ENTRANTS).unwrap_or(128),
    );
    if errors.is_empty()
        && let Some(team) = team
    {
        let new = NewEntrant {
            team_id: team,
            players,
            seed,
        };
        match add_cup_entrant(state.db(), sec.league.id, cup, &new, Some(sec.user.id)).await {
            Ok(e) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().cup(cup).to_string(),
                    format!("{} entered in {}.", entrant_name(kind, &e), data.cup.name),
                ));
            }
            Err(e) => form::refused(
                e,
                &mut errors,
                if kind == EntrantKind::Teams {
                    "team"
                } else {
                    "player"
                },
                "That entrant is in the cup already.",
            )?,
        }
    }
    cup_page(
        &state,
        sec,
        data,
        season,
        input,
        errors,
        None,
        Errors::default(),
    )
    .await
}

async fn withdraw(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup, entrant)): Path<(String, CupId, CupEntrantId)>,
    CsrfForm(_): CsrfForm<serde::de::IgnoredAny>,
) -> Result<Response> {
    let (data, season) = load(&state, &sec.league, cup).await?;
    match remove_cup_entrant(state.db(), sec.league.id, cup, entrant, Some(sec.user.id)).await {
        Ok(e) => Ok(form::done(
            &links::at(&sec.league).console().cup(cup).to_string(),
            format!(
                "{} withdrawn from {}.",
                entrant_name(data.cup.entrants, &e),
                data.cup.name
            ),
        )),
        Err(e) => {
            let mut errors = Errors::default();
            form::refused(e, &mut errors, FORM, "")?;
            cup_page(
                &state,
                sec,
                data,
                season,
                EntrantForm::default(),
                errors,
                None,
                Errors::default(),
            )
            .await
        }
    }
}

/// A seed for a draw, from the operating system's randomness: recorded
/// with the draw, so the draw can be made again from it.
fn new_seed() -> u64 {
    OsRng.next_u64()
}

/// What a draw saved, for the page to say.
fn drawn_message(name: &str, how: &How, ties: usize, byes: usize) -> String {
    let how = match how {
        How::Random { seed } => format!("at random (seed {})", cup::seed_text(*seed)),
        How::Seeded { seed } => format!(
            "seeded, the rest at random (seed {})",
            cup::seed_text(*seed)
        ),
        How::Bracket => "as the bracket runs".into(),
        How::Hand(_) => "as entered".into(),
    };
    let byes = match byes {
        0 => String::new(),
        1 => ", 1 bye".into(),
        n => format!(", {n} byes"),
    };
    format!(
        "{name} drawn {how}: {ties} tie{}{byes}.",
        if ties == 1 { "" } else { "s" }
    )
}

async fn draw(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
    CsrfForm(input): CsrfForm<DrawForm>,
) -> Result<Response> {
    let (data, season) = load(&state, &sec.league, cup).await?;
    let c = choices(&state, &sec.league, season.id).await?;
    let mut errors = Errors::default();
    let round: Option<u32> = input.round.trim().parse().ok();
    if round.is_none() {
        errors.add(
            FORM,
            "This form did not say which round to draw: reload the page.",
        );
    }
    let how = match input.method.trim() {
        "random" => Some(How::Random { seed: new_seed() }),
        "seeded" => Some(How::Seeded { seed: new_seed() }),
        "bracket" => Some(How::Bracket),
        _ => {
            errors.add("method", "Pick how the round is drawn.");
            None
        }
    };
    if let (Some(how), Some((next, qualifiers))) = (&how, next_round(&data))
        && let Err(why) = cup::can_draw(next, qualifiers, how.method())
    {
        errors.add("method", why);
    }
    let place = input.place(&sec.league, &c.venues, &mut errors);
    if let (true, Some(round), Some(how), Some((starts_at, play_by, venue_id))) =
        (errors.is_empty(), round, how, place)
    {
        let request = DrawRequest {
            round,
            starts_at,
            play_by,
            venue_id,
            how,
        };
        match draw_cup_round(state.db(), sec.league.id, cup, &request, Some(sec.user.id)).await {
            Ok(r) => {
                let (ties, byes) = next_round(&data)
                    .map_or((0, 0), |(_, q)| (cup::bracket_size(q) / 2, cup::byes(q)));
                let name = format!("Round {}", r.round);
                return Ok(form::done(
                    &links::at(&sec.league).console().cup(cup).to_string(),
                    drawn_message(&name, &request.how, ties, byes),
                ));
            }
            Err(e) => form::refused(e, &mut errors, FORM, "")?,
        }
    }
    cup_page(
        &state,
        sec,
        data,
        season,
        EntrantForm::default(),
        Errors::default(),
        Some(input),
        errors,
    )
    .await
}

// ---------------------------------------------------------------------------
// A draw typed in by hand

/// One tie of the hand draw's form.
struct HandRow {
    number: usize,
    home_field: String,
    away_field: String,
    home: Vec<Choice>,
    away: Vec<Choice>,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "console/cup_hand.html")]
struct HandPage {
    ctx: Ctx,
    league: League,
    cup: Cup,
    round: u32,
    round_name: String,
    byes: usize,
    rows: Vec<HandRow>,
    form: DrawForm,
    errors: Errors,
    venue_choices: Vec<Choice>,
    time_hint: String,
}

/// A qualifier as a select's value: `e12` (entrant 12), `w7` (the winner
/// of tie 7).
fn slot_value(slot: Slot) -> String {
    match slot {
        Slot::Entrant(e) => format!("e{e}"),
        Slot::WinnerOf(t) => format!("w{t}"),
    }
}

fn parse_slot(value: &str) -> Option<Slot> {
    let value = value.trim();
    let id: i64 = value.get(1..)?.parse().ok()?;
    match value.as_bytes().first()? {
        b'e' => Some(Slot::Entrant(CupEntrantId(id))),
        b'w' => Some(Slot::WinnerOf(crate::db::CupTieId(id))),
        _ => None,
    }
}

/// The next round's qualifiers, in the order the draw takes them, each
/// with its name as the form shows it.
fn named_qualifiers(data: &CupData, bracket: &Bracket) -> Vec<(Slot, String)> {
    if data.rounds.is_empty() {
        let ids: Vec<CupEntrantId> = data.entrants.iter().map(|e| e.id).collect();
        return cup::qualifiers(1, &ids, &[])
            .into_iter()
            .zip(&data.entrants)
            .map(|(s, e)| (s, entrant_name(data.cup.entrants, e)))
            .collect();
    }
    let last = i64::try_from(data.rounds.len()).unwrap_or(0);
    let mut previous: Vec<&crate::db::CupTie> =
        data.ties.iter().filter(|t| t.round == last).collect();
    previous.sort_by_key(|t| t.number);
    let shown = bracket
        .rounds
        .last()
        .map(|r| r.ties.as_slice())
        .unwrap_or(&[]);
    previous
        .iter()
        .map(|t| {
            let view = shown.iter().find(|v| v.number == t.number);
            let name = match view {
                Some(v) if v.home.won => format!("{} (won tie {})", v.home.name, t.number),
                Some(v) if v.away.as_ref().is_some_and(|a| a.won) => format!(
                    "{} (won tie {})",
                    v.away.as_ref().map_or("", |a| a.name.as_str()),
                    t.number
                ),
                Some(v) => format!(
                    "Winner of tie {}: {} v {}",
                    t.number,
                    v.home.name,
                    v.away.as_ref().map_or("bye", |a| a.name.as_str())
                ),
                None => format!("Winner of tie {}", t.number),
            };
            (Slot::WinnerOf(t.id), name)
        })
        .collect()
}

async fn hand_page(
    state: &AppState,
    sec: Secretary,
    data: CupData,
    season: Season,
    fields: HashMap<String, String>,
    row_errors: HashMap<usize, String>,
    errors: Errors,
) -> Result<Response> {
    let Some((round, qualifiers)) = next_round(&data) else {
        return Err(missing(format!("A round of {} to draw", data.cup.name)));
    };
    let c = choices(state, &sec.league, season.id).await?;
    let bracket = bracket(state.db(), &sec.league, &season, &data).await?;
    let named = named_qualifiers(&data, &bracket);
    let ties = cup::bracket_size(qualifiers) / 2;
    let byes = cup::byes(qualifiers);
    let rounds = u32::try_from(data.rounds.len()).unwrap_or(0) + cup::rounds(qualifiers);
    let options = |empty: &str, selected: &str| {
        form::choices(
            std::iter::once(("".to_owned(), empty.to_owned()))
                .chain(named.iter().map(|(s, n)| (slot_value(*s), n.clone()))),
            selected,
        )
    };
    let get = |k: &str| fields.get(k).map_or("", |v| v.trim());
    let rows = (1..=ties)
        .map(|n| {
            let (home_field, away_field) = (format!("t{n}.home"), format!("t{n}.away"));
            HandRow {
                number: n,
                home: options("Choose", get(&home_field)),
                away: options(
                    if byes > 0 { "None: a bye" } else { "Choose" },
                    get(&away_field),
                ),
                home_field,
                away_field,
                error: row_errors.get(&n).cloned(),
            }
        })
        .collect();
    let form = DrawForm {
        round: round.to_string(),
        method: "hand".into(),
        date: fields
            .get("date")
            .cloned()
            .unwrap_or_else(|| dates::iso_day(sec.league.time_zone, Utc::now())),
        time: fields
            .get("time")
            .cloned()
            .unwrap_or_else(|| DEFAULT_TIME.into()),
        play_by: get("play_by").to_owned(),
        venue: get("venue").to_owned(),
    };
    let page = HandPage {
        ctx: sec.user.ctx(),
        round,
        round_name: cup::round_name(round, rounds),
        byes,
        rows,
        venue_choices: venue_choices(&c.venues, &form.venue),
        form,
        errors,
        time_hint: format!("{} time, as HH:MM.", sec.league.time_zone),
        cup: data.cup,
        league: sec.league,
    };
    let errors = if row_errors.is_empty() {
        page.errors.clone()
    } else {
        let mut e = page.errors.clone();
        e.add(
            FORM,
            "Some ties are not right: see below. Nothing was drawn.",
        );
        e
    };
    Ok(form::page(&page, &errors))
}

async fn hand_form(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
) -> Result<Response> {
    let (data, season) = load(&state, &sec.league, cup).await?;
    hand_page(
        &state,
        sec,
        data,
        season,
        HashMap::new(),
        HashMap::new(),
        Errors::default(),
    )
    .await
}

async fn hand_draw(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, cup)): Path<(String, CupId)>,
    CsrfForm(form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response> {
    let fields: HashMap<String, String> = form.into_iter().collect();
    let (data, season) = load(&state, &sec.league, cup).await?;
    let Some((round, qualifiers)) = next_round(&data) else {
        return Err(missing(format!("A round of {} to draw", data.cup.name)));
    };
    let c = choices(&state, &sec.league, season.id).await?;
    let bracket = bracket(state.db(), &sec.league, &season, &data).await?;
    let named = named_qualifiers(&data, &bracket);
    let slots: Vec<Slot> = named.iter().map(|(s, _)| *s).collect();
    let mut errors = Errors::default();
    let mut row_errors: HashMap<usize, String> = HashMap::new();
    let ties = cup::bracket_size(qualifiers) / 2;
    let mut typed = Vec::with_capacity(ties);
    for n in 1..=ties {
        let mut side = |key: String| {
            let value = fields.get(&key).map_or("", |v| v.trim());
            if value.is_empty() {
                return None;
            }
            let slot = parse_slot(value).filter(|s| slots.contains(s));
            if slot.is_none() {
                row_errors
                    .entry(n)
                    .or_insert_with(|| "Pick from this round's qualifiers.".into());
            }
            slot
        };
        typed.push((side(format!("t{n}.home")), side(format!("t{n}.away"))));
    }
    let name = |s: Slot| {
        named
            .iter()
            .find(|(q, _)| *q == s)
            .map_or_else(String::new, |(_, n)| n.clone())
    };
    let drawn = if row_errors.is_empty() {
        match cup::check_hand(&slots, &typed, name) {
            Ok(_) => true,
            Err(problems) => {
                for p in problems {
                    if p.tie == 0 {
                        errors.add(FORM, p.message);
                    } else {
                        row_errors.entry(p.tie).or_insert(p.message);
                    }
                }
                false
            }
        }
    } else {
        false
    };
    let draw_form = DrawForm {
        round: round.to_string(),
        method: "hand".into(),
        date: fields.get("date").cloned().unwrap_or_default(),
        time: fields.get("time").cloned().unwrap_or_default(),
        play_by: fields.get("play_by").cloned().unwrap_or_default(),
        venue: fields.get("venue").cloned().unwrap_or_default(),
    };
    let place = draw_form.place(&sec.league, &c.venues, &mut errors);
    if let (true, true, Some((starts_at, play_by, venue_id))) = (drawn, errors.is_empty(), place) {
        // The round the page showed: a stale page draws nothing.
        let shown = fields
            .get("round")
            .and_then(|r| r.trim().parse().ok())
            .unwrap_or(round);
        let request = DrawRequest {
            round: shown,
            starts_at,
            play_by,
            venue_id,
            how: How::Hand(typed),
        };
        match draw_cup_round(state.db(), sec.league.id, cup, &request, Some(sec.user.id)).await {
            Ok(r) => {
                return Ok(form::done(
                    &links::at(&sec.league).console().cup(cup).to_string(),
                    drawn_message(
                        &format!("Round {}", r.round),
                        &request.how,
                        ties,
                        cup::byes(qualifiers),
                    ),
                ));
            }
            Err(e) => form::refused(e, &mut errors, FORM, "")?,
        }
    }
    hand_page(&state, sec, data, season, fields, row_errors, errors).await
}
