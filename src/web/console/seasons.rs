//! Seasons: a name, a ruleset (a format of RULES.md and its options, each
//! a typed field with the format's default filled in) and a match format
//! (boards, points, pairings). Both are checked by the core
//! (`Ruleset::parse`, `MatchFormat::check`); the database refuses to change
//! them once the season has results, and the form says so. The season's
//! settings (tie-breakers in order, minimum games to rank, approval on
//! confirmation) can change at any time: the tables follow.
//!
//! Changing the format in the select and saving shows that format's
//! options with their defaults, to check before saving again: the page
//! needs no script.

use crate::web::links;
use crate::web::routes::Routes;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::app;
use crate::db::{DbError, League, NewSeason, Season, SeasonId, SeasonUpdate};
use crate::league::match_format::{BoardKind, MAX_BOARDS, MatchFormat, Pairings, Walkover};
use crate::league::refusal::Refusal;
use crate::league::settings::{MAX_LOCK_DAYS, MAX_MIN_GAMES, MAX_SQUAD, SeasonSettings};
use crate::league::standings::TieBreaker;
use crate::league::team_sheet::{DrawAt, LineUpShown};
use crate::rules::ruleset::{BlockedScores, Derby, PenaltyTo, PoseRule};
use crate::rules::{Format, Ruleset};
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::csrf::CsrfForm;
use crate::web::error::Result;
use crate::web::links::address_clash;
use crate::web::page::{Ctx, html};

use super::PREFIX;
use super::form::{self, Choice, Errors, FORM};

pub fn router() -> Routes {
    Routes::new()
        .league(&format!("{PREFIX}/seasons"), get(list))
        .league(&format!("{PREFIX}/seasons/new"), get(new_form).post(create))
        .league(
            &format!("{PREFIX}/seasons/{{season}}"),
            get(edit).post(update),
        )
}

const DUPLICATE: &str = "A season with this name already exists.";

/// The fields of the ruleset options, named as the options are.
const OPTION_FIELDS: [&str; 11] = [
    "pose",
    "target",
    "exact_finish",
    "tiles_per_hand",
    "blocked_scores",
    "penalty_points",
    "penalty_to",
    "set_to",
    "derby",
    "late_games",
    "late_forfeit_minutes",
];

/// A season as typed: every field text, so that what was typed comes
/// back as it was when the form is refused.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct SeasonForm {
    pub name: String,
    pub format: String,
    /// The format whose options the form showed.
    pub shown: String,
    pub pose: String,
    pub target: String,
    pub exact_finish: String,
    pub tiles_per_hand: String,
    pub blocked_scores: String,
    pub penalty_points: String,
    pub penalty_to: String,
    pub set_to: String,
    pub derby: String,
    pub late_games: String,
    pub late_forfeit_minutes: String,
    pub singles: String,
    pub pairs: String,
    pub best_of: String,
    pub points_board: String,
    pub points_win: String,
    pub points_draw: String,
    pub points_loss: String,
    pub losing_bonus: String,
    pub pairings: String,
    /// The walkover's board score, `5-4`; empty: every board.
    pub walkover_score: String,
    /// The line-up rule: most singles and pairs boards a player plays in a
    /// match (left empty: one of each).
    pub lineup_singles: String,
    pub lineup_pairs: String,
    pub tie_breaker_1: String,
    pub tie_breaker_2: String,
    pub tie_breaker_3: String,
    pub tie_breaker_4: String,
    pub tie_breaker_5: String,
    pub tie_breaker_6: String,
    pub min_games: String,
    pub promotion_places: String,
    /// `secretary` or `confirmation`: who approves a result.
    pub approval: String,
    /// `hands` (every game hand by hand) or `scores` (a final score alone
    /// is allowed too).
    #[serde(default)]
    pub detail: String,
    /// Days captains have to enter or correct a result; empty: no lock.
    #[serde(default)]
    pub lock_days: String,
    /// Most players a team may have registered; empty: no limit.
    #[serde(default)]
    pub squad_limit: String,
    /// The hour of the morning after a fixture at which a missing result
    /// is reminded.
    #[serde(default)]
    pub reminder_hour: String,
    /// When the other side sees a line-up: `at_once` or `at_start`.
    #[serde(default)]
    pub line_up_shown: String,
    /// When drawn pairings are drawn: `line_ups` or `start`.
    #[serde(default)]
    pub draw_at: String,
}

/// The tie-breaker fields, first rule first: one select for each rule.
const TIE_BREAKER_FIELDS: [&str; 6] = [
    "tie_breaker_1",
    "tie_breaker_2",
    "tie_breaker_3",
    "tie_breaker_4",
    "tie_breaker_5",
    "tie_breaker_6",
];

/// One tie-breaker select of the form.
pub struct TieBreakerField {
    pub id: &'static str,
    pub label: String,
    pub options: Vec<Choice>,
}

/// What a valid form gives.
struct Rules {
    name: String,
    ruleset: Ruleset,
    match_format: MatchFormat,
    settings: SeasonSettings,
}

impl SeasonForm {
    /// The form for a ruleset, match format and settings, as they are.
    fn of(name: &str, r: &Ruleset, mf: &MatchFormat, settings: &SeasonSettings) -> SeasonForm {
        let rule = |i: usize| {
            settings
                .tie_breakers
                .get(i)
                .map_or("", |r| r.key())
                .to_owned()
        };
        let singles = mf
            .boards
            .iter()
            .filter(|b| b.kind == BoardKind::Singles)
            .count();
        SeasonForm {
            name: name.to_owned(),
            format: r.format.as_str().into(),
            shown: r.format.as_str().into(),
            pose: match r.pose {
                PoseRule::Rotate => "rotate",
                PoseRule::Winner => "winner",
            }
            .into(),
            target: r.target.to_string(),
            exact_finish: r.exact_finish.to_string(),
            tiles_per_hand: r.tiles_per_hand.map(|n| n.to_string()).unwrap_or_default(),
            blocked_scores: match r.blocked_scores {
                BlockedScores::Total => "total",
                BlockedScores::Difference => "difference",
            }
            .into(),
            penalty_points: r.penalty_points.to_string(),
            penalty_to: match r.penalty_to {
                PenaltyTo::Opponents => "opponents",
                PenaltyTo::Offender => "offender",
            }
            .into(),
            set_to: r.set_to.to_string(),
            derby: match r.derby {
                Derby::Capped => "capped",
                Derby::Growing => "growing",
            }
            .into(),
            late_games: r
                .late_games
                .iter()
                .map(|(m, g)| format!("{m}:{g}"))
                .collect::<Vec<_>>()
                .join(", "),
            late_forfeit_minutes: r
                .late_forfeit_minutes
                .map(|n| n.to_string())
                .unwrap_or_default(),
            singles: singles.to_string(),
            pairs: (mf.boards.len() - singles).to_string(),
            best_of: mf
                .boards
                .iter()
                .map(|b| b.best_of)
                .max()
                .unwrap_or(1)
                .to_string(),
            points_board: mf.points.board.to_string(),
            points_win: mf.points.win.to_string(),
            points_draw: mf.points.draw.to_string(),
            points_loss: mf.points.loss.to_string(),
            losing_bonus: mf.points.losing_bonus.to_string(),
            pairings: match mf.pairings {
                Pairings::Captains => "captains",
                Pairings::Secretary => "secretary",
                Pairings::Drawn => "drawn",
            }
            .into(),
            walkover_score: match mf.walkover {
                Walkover::AllBoards => String::new(),
                Walkover::Score { won, lost } => format!("{won}-{lost}"),
            },
            lineup_singles: mf.line_up.singles.to_string(),
            lineup_pairs: mf.line_up.pairs.to_string(),
            tie_breaker_1: rule(0),
            tie_breaker_2: rule(1),
            tie_breaker_3: rule(2),
            tie_breaker_4: rule(3),
            tie_breaker_5: rule(4),
            tie_breaker_6: rule(5),
            min_games: settings.min_games.to_string(),
            promotion_places: settings.promotion_places.to_string(),
            approval: if settings.approve_on_confirmation {
                "confirmation"
            } else {
                "secretary"
            }
            .into(),
            detail: if settings.final_scores {
                "scores"
            } else {
                "hands"
            }
            .into(),
            lock_days: settings
                .lock_days
                .map(|d| d.to_string())
                .unwrap_or_default(),
            squad_limit: settings
                .squad_limit
                .map(|n| n.to_string())
                .unwrap_or_default(),
            reminder_hour: settings.reminder_hour.to_string(),
            line_up_shown: settings.line_up_shown.key().into(),
            draw_at: settings.draw_at.key().into(),
        }
    }

    fn tie_breakers_typed(&self) -> [&str; 6] {
        [
            &self.tie_breaker_1,
            &self.tie_breaker_2,
            &self.tie_breaker_3,
            &self.tie_breaker_4,
            &self.tie_breaker_5,
            &self.tie_breaker_6,
        ]
        .map(String::as_str)
    }

    /// The six selects of the tie-breakers, each with every rule and
    /// "nothing more" (ends the list).
    pub fn tie_breaker_fields(&self) -> Vec<TieBreakerField> {
        let ordinals = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth"];
        TIE_BREAKER_FIELDS
            .into_iter()
            .zip(self.tie_breakers_typed())
            .zip(ordinals)
            .enumerate()
            .map(|(i, ((id, typed), ordinal))| TieBreakerField {
                id,
                label: if i == 0 {
                    "Order teams by".into()
                } else {
                    format!("{ordinal} rule, for teams still level")
                },
                options: form::choices(
                    std::iter::once(("", "Nothing more: level teams are listed by name"))
                        .filter(|_| i > 0)
                        .chain(TieBreaker::ALL.map(|r| (r.key(), r.label()))),
                    typed,
                ),
            })
            .collect()
    }

    pub fn approvals(&self) -> Vec<Choice> {
        form::choices(
            [
                ("secretary", "A secretary approves each result"),
                (
                    "confirmation",
                    "The other captain's confirmation approves it",
                ),
            ],
            &self.approval,
        )
    }

    pub fn details(&self) -> Vec<Choice> {
        form::choices(
            [
                ("hands", "Every game hand by hand"),
                (
                    "scores",
                    "Hand by hand, or a game's final score alone on a night without detail",
                ),
            ],
            &self.detail,
        )
    }

    /// The settings typed: the rules in order up to the first left empty
    /// (one after an empty one, or a repeat, is refused beside its field).
    fn settings(&self, errors: &mut Errors) -> Option<SeasonSettings> {
        let mut rules = Vec::new();
        let mut ended = false;
        for (field, typed) in TIE_BREAKER_FIELDS
            .into_iter()
            .zip(self.tie_breakers_typed())
        {
            let typed = typed.trim();
            if typed.is_empty() {
                ended = true;
                continue;
            }
            match TieBreaker::from_key(typed) {
                None => errors.add(field, "Choose one of the rules."),
                Some(_) if ended => errors.add(
                    field,
                    "A rule after \"nothing more\" would never be used: move it up or clear it.",
                ),
                Some(rule) if rules.contains(&rule) => {
                    errors.add(field, format!("{} is already in the list.", rule.label()))
                }
                Some(rule) => rules.push(rule),
            }
        }
        if rules.is_empty() && errors.get(TIE_BREAKER_FIELDS[0]).is_none() {
            errors.add(
                TIE_BREAKER_FIELDS[0],
                "Choose the rule teams are ordered by.",
            );
        }
        let max = i64::from(MAX_MIN_GAMES);
        let min_games = form::whole(errors, "min_games", &self.min_games, 0, max) as u32;
        // A form from before the setting existed keeps the default.
        let promotion_places = if self.promotion_places.trim().is_empty() {
            SeasonSettings::default().promotion_places
        } else {
            let max = i64::from(crate::league::rollover::MAX_PLACES);
            form::whole(errors, "promotion_places", &self.promotion_places, 0, max) as u32
        };
        let approve_on_confirmation = match self.approval.as_str() {
            "secretary" => false,
            "confirmation" => true,
            _ => {
                errors.add("approval", "Choose one of the options.");
                false
            }
        };
        let final_scores = match self.detail.as_str() {
            // A form from before the setting existed keeps hand detail.
            "hands" | "" => false,
            "scores" => true,
            _ => {
                errors.add("detail", "Choose one of the options.");
                false
            }
        };
        let lock_days = form::optional_whole(
            errors,
            "lock_days",
            &self.lock_days,
            1,
            i64::from(MAX_LOCK_DAYS),
        )
        .map(|d| d as u32);
        let squad_limit = form::optional_whole(
            errors,
            "squad_limit",
            &self.squad_limit,
            1,
            i64::from(MAX_SQUAD),
        )
        .map(|n| n as u32);
        // A form from before the setting existed keeps the default.
        let reminder_hour = if self.reminder_hour.trim().is_empty() {
            SeasonSettings::default().reminder_hour
        } else {
            form::whole(errors, "reminder_hour", &self.reminder_hour, 0, 23) as u32
        };
        // Forms from before these settings keep their defaults.
        let line_up_shown = match self.line_up_shown.as_str() {
            "" => LineUpShown::default(),
            key => LineUpShown::parse(key).unwrap_or_else(|| {
                errors.add("line_up_shown", "Choose one of the options.");
                LineUpShown::default()
            }),
        };
        let draw_at = match self.draw_at.as_str() {
            "" => DrawAt::default(),
            key => DrawAt::parse(key).unwrap_or_else(|| {
                errors.add("draw_at", "Choose one of the options.");
                DrawAt::default()
            }),
        };
        let settings = SeasonSettings {
            reminder_hour,
            line_up_shown,
            draw_at,
            tie_breakers: rules,
            min_games,
            approve_on_confirmation,
            final_scores,
            lock_days,
            squad_limit,
            promotion_places,
        };
        (errors.is_empty() && settings.check().is_ok()).then_some(settings)
    }

    /// A format's defaults (RULES.md, LEAGUE.md), with `settings`.
    fn defaults(name: &str, format: Format, settings: &SeasonSettings) -> SeasonForm {
        SeasonForm::of(
            name,
            &Ruleset::new(format),
            &MatchFormat::default_for(format),
            settings,
        )
    }

    /// The format picked in the select, when it differs from the one whose
    /// options the form showed: the form is to be shown again for it.
    fn switched(&self) -> Option<Format> {
        let picked = self.format.parse::<Format>().ok()?;
        let shown = self.shown.parse::<Format>().ok()?;
        (shown != picked).then_some(picked)
    }

    fn shown_format(&self) -> Format {
        self.shown.parse().unwrap_or(Format::FivesAndThrees)
    }

    pub fn fives_and_threes(&self) -> bool {
        self.shown_format() == Format::FivesAndThrees
    }

    pub fn all_fives(&self) -> bool {
        self.shown_format() == Format::AllFives
    }

    pub fn hands_won(&self) -> bool {
        self.shown_format() == Format::HandsWon
    }

    pub fn formats(&self) -> Vec<Choice> {
        form::choices(Format::ALL.map(|f| (f.as_str(), f.title())), &self.format)
    }

    pub fn poses(&self) -> Vec<Choice> {
        form::choices(
            [
                ("rotate", "Rotate: the next player in order of play"),
                ("winner", "Winner: whoever won the last hand"),
            ],
            &self.pose,
        )
    }

    pub fn exact_finishes(&self) -> Vec<Choice> {
        form::choices(
            [
                ("true", "Yes: the target must be reached exactly"),
                ("false", "No: reaching or passing the target wins"),
            ],
            &self.exact_finish,
        )
    }

    pub fn blocked(&self) -> Vec<Choice> {
        form::choices(
            [
                ("total", "The other side's count"),
                ("difference", "The difference of the counts"),
            ],
            &self.blocked_scores,
        )
    }

    pub fn penalties_to(&self) -> Vec<Choice> {
        form::choices(
            [
                ("opponents", "To the opponents"),
                ("offender", "Deducted from the offender's side"),
            ],
            &self.penalty_to,
        )
    }

    pub fn derbies(&self) -> Vec<Choice> {
        form::choices(
            [
                ("capped", "Capped: the hand after a tie is worth 2"),
                ("growing", "Growing: 2 after one tie, 3 after two, ..."),
            ],
            &self.derby,
        )
    }

    pub fn line_up_shown_choices(&self) -> Vec<Choice> {
        form::choices(
            LineUpShown::ALL.map(|s| (s.key(), s.label())),
            &self.line_up_shown,
        )
    }

    pub fn draw_at_choices(&self) -> Vec<Choice> {
        form::choices(DrawAt::ALL.map(|s| (s.key(), s.label())), &self.draw_at)
    }

    pub fn pairings_choices(&self) -> Vec<Choice> {
        form::choices(
            [
                ("captains", "The captains draw them"),
                ("secretary", "The secretary sets the order"),
                (
                    "drawn",
                    "Drawn by the app from the two line-ups, with a seed both captains see",
                ),
            ],
            &self.pairings,
        )
    }

    /// The name, ruleset and match format typed, each field checked; the
    /// first reason for each field goes beside it.
    fn check(&self, errors: &mut Errors) -> Option<Rules> {
        let name = form::text(errors, "name", &self.name, true, 40);
        let Ok(format) = self.format.parse::<Format>() else {
            errors.add("format", "Choose one of the formats.");
            return None;
        };
        let options = self.options(format, errors);
        let ruleset = match Ruleset::parse(format, Some(&options)) {
            Ok(r) => Some(r),
            Err(why) => {
                // "option `target`: must be ...": beside the field named.
                let field = OPTION_FIELDS
                    .into_iter()
                    .find(|f| why.starts_with(&format!("option `{f}`")))
                    .unwrap_or(FORM);
                errors.add(field, why);
                None
            }
        };
        let match_format = self.match_format(errors);
        let settings = self.settings(errors);
        if !errors.is_empty() {
            return None;
        }
        Some(Rules {
            name,
            ruleset: ruleset?,
            match_format: match_format?,
            settings: settings?,
        })
    }

    /// The options map of the fields shown for `format`, read in the
    /// form's order so that the first field in error gets the cursor.
    fn options(&self, format: Format, errors: &mut Errors) -> Map<String, Value> {
        let mut m = Map::new();
        choice(&mut m, errors, "pose", &self.pose, &["rotate", "winner"]);
        match format {
            Format::FivesAndThrees => {
                number(&mut m, errors, "target", &self.target, 1, 10_000);
                match self.exact_finish.as_str() {
                    "true" => _ = m.insert("exact_finish".into(), true.into()),
                    "false" => _ = m.insert("exact_finish".into(), false.into()),
                    _ => errors.add("exact_finish", "Choose one of the options."),
                }
                if !self.tiles_per_hand.trim().is_empty() {
                    number(&mut m, errors, "tiles_per_hand", &self.tiles_per_hand, 5, 9);
                }
            }
            Format::AllFives => {
                number(&mut m, errors, "target", &self.target, 1, 10_000);
                let blocked = &self.blocked_scores;
                choice(
                    &mut m,
                    errors,
                    "blocked_scores",
                    blocked,
                    &["total", "difference"],
                );
                number(
                    &mut m,
                    errors,
                    "penalty_points",
                    &self.penalty_points,
                    0,
                    1_000,
                );
                let to = &self.penalty_to;
                choice(&mut m, errors, "penalty_to", to, &["opponents", "offender"]);
            }
            Format::HandsWon => {
                number(&mut m, errors, "set_to", &self.set_to, 2, 99);
                choice(&mut m, errors, "derby", &self.derby, &["capped", "growing"]);
                match late_games(&self.late_games) {
                    Some(pairs) => {
                        let list = pairs
                            .into_iter()
                            .map(|(mins, games)| Value::from(vec![mins, games]));
                        m.insert("late_games".into(), Value::Array(list.collect()));
                    }
                    None => errors.add(
                        "late_games",
                        "Write each step as minutes:games, separated by commas, e.g. 1:1, 5:2.",
                    ),
                }
                let forfeit = &self.late_forfeit_minutes;
                let forfeit = form::optional_whole(errors, "late_forfeit_minutes", forfeit, 0, 600);
                m.insert("late_forfeit_minutes".into(), forfeit.into());
            }
        }
        m
    }

    fn match_format(&self, errors: &mut Errors) -> Option<MatchFormat> {
        let max = MAX_BOARDS as i64;
        let singles = form::whole(errors, "singles", &self.singles, 0, max);
        let pairs = form::whole(errors, "pairs", &self.pairs, 0, max);
        if errors.get("singles").is_none()
            && errors.get("pairs").is_none()
            && !(1..=max).contains(&(singles + pairs))
        {
            errors.add(
                "singles",
                format!("A match has 1 to {MAX_BOARDS} boards in all."),
            );
        }
        let best_of = form::whole(errors, "best_of", &self.best_of, 1, 9);
        if best_of % 2 == 0 {
            errors.add("best_of", "A board is 1 game or the best of 3, 5, 7 or 9.");
        }
        let mut point =
            |field: &'static str, value: &str| form::whole(errors, field, value, 0, 100) as u32;
        let board = point("points_board", &self.points_board);
        let win = point("points_win", &self.points_win);
        let draw = point("points_draw", &self.points_draw);
        let loss = point("points_loss", &self.points_loss);
        let losing_bonus = point("losing_bonus", &self.losing_bonus);
        let max_boards = MAX_BOARDS as i64;
        let lineup_singles = form::optional_whole(
            errors,
            "lineup_singles",
            &self.lineup_singles,
            1,
            max_boards,
        )
        .unwrap_or(1) as u32;
        let lineup_pairs =
            form::optional_whole(errors, "lineup_pairs", &self.lineup_pairs, 1, max_boards)
                .unwrap_or(1) as u32;
        let pairings = match self.pairings.as_str() {
            "captains" => Pairings::Captains,
            "secretary" => Pairings::Secretary,
            "drawn" => Pairings::Drawn,
            _ => {
                errors.add("pairings", "Choose one of the options.");
                return None;
            }
        };
        let walkover = match walkover_score(&self.walkover_score) {
            Some(w) => w,
            None => {
                errors.add(
                    "walkover_score",
                    "Write the walkover's board score as won-lost, e.g. 5-4, or leave it empty for every board.",
                );
                Walkover::AllBoards
            }
        };
        if !errors.is_empty() {
            return None;
        }
        let mut mf = MatchFormat::with_boards(singles as usize, pairs as usize, best_of as u32);
        mf.points.board = board;
        mf.points.win = win;
        mf.points.draw = draw;
        mf.points.loss = loss;
        mf.points.losing_bonus = losing_bonus;
        mf.pairings = pairings;
        mf.walkover = walkover;
        mf.line_up.singles = lineup_singles;
        mf.line_up.pairs = lineup_pairs;
        match mf.check() {
            Ok(()) => Some(mf),
            Err(why) if why.starts_with("a walkover") => {
                errors.add("walkover_score", format!("Not possible: {why}."));
                None
            }
            Err(why) => {
                errors.add(FORM, format!("The match format: {why}."));
                None
            }
        }
    }
}

/// A walkover's board score as typed: `5-4` (or `5–4`), empty for every
/// board; `None` for anything else. Whether the format can hold it is the
/// format's check.
fn walkover_score(text: &str) -> Option<Walkover> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Walkover::AllBoards);
    }
    let (won, lost) = text.split_once(['-', '–', ':'])?;
    let won = won.trim().parse::<u32>().ok().filter(|n| *n <= 99)?;
    let lost = lost.trim().parse::<u32>().ok().filter(|n| *n <= 99)?;
    Some(Walkover::Score { won, lost })
}

/// An option picked from a select, which must be one of `allowed`.
fn choice(
    m: &mut Map<String, Value>,
    errors: &mut Errors,
    field: &'static str,
    value: &str,
    allowed: &[&str],
) {
    if allowed.contains(&value) {
        m.insert(field.into(), value.into());
    } else {
        errors.add(field, "Choose one of the options.");
    }
}

/// An option typed as a whole number from `min` to `max`.
fn number(
    m: &mut Map<String, Value>,
    errors: &mut Errors,
    field: &'static str,
    value: &str,
    min: i64,
    max: i64,
) {
    let n = form::whole(errors, field, value, min, max);
    m.insert(field.into(), n.into());
}

/// `1:1, 5:2` as pairs of whole numbers; empty is no steps.
fn late_games(text: &str) -> Option<Vec<(u32, u32)>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|step| {
            let (m, g) = step.split_once(':')?;
            let m = m.trim().parse::<u32>().ok().filter(|m| *m <= 600)?;
            let g = g.trim().parse::<u32>().ok().filter(|g| *g <= 99)?;
            Some((m, g))
        })
        .collect()
}

/// A season's rules and settings as its form shows them: a stored match
/// format or settings that cannot be read show the defaults, and say so.
struct Stored {
    ruleset: Ruleset,
    match_format: MatchFormat,
    settings: SeasonSettings,
    note: Option<String>,
}

fn stored(season: &Season) -> Stored {
    let ruleset = season
        .ruleset()
        .unwrap_or_else(|_| Ruleset::new(season.format));
    let mut unread = Vec::new();
    let match_format =
        MatchFormat::parse(season.format, &season.match_format).unwrap_or_else(|_| {
            unread.push("match format");
            MatchFormat::default_for(season.format)
        });
    let settings = season.settings().unwrap_or_else(|_| {
        unread.push("settings");
        SeasonSettings::default()
    });
    let note = (!unread.is_empty()).then(|| {
        format!(
            "The stored {} could not be read: the defaults are shown.",
            unread.join(" and ")
        )
    });
    Stored {
        ruleset,
        match_format,
        settings,
        note,
    }
}

/// One line of the list of seasons.
struct Line {
    season: Season,
    match_format: String,
}

#[derive(Template)]
#[template(path = "console/seasons.html")]
struct SeasonsPage {
    ctx: Ctx,
    league: League,
    seasons: Vec<Line>,
}

#[derive(Template)]
#[template(path = "console/season.html")]
struct SeasonPage {
    ctx: Ctx,
    league: League,
    /// `None` for a new season.
    season: Option<Season>,
    has_results: bool,
    /// Why the form is shown again without an error (a new format picked),
    /// or what is odd about the stored season.
    note: Option<String>,
    form: SeasonForm,
    errors: Errors,
}

impl SeasonPage {
    fn action(&self) -> String {
        match &self.season {
            Some(s) => links::at(&self.league).console().season(s.id).to_string(),
            None => links::at(&self.league).console().new_season(),
        }
    }
}

async fn list(sec: Secretary, State(state): State<AppState>) -> Result<Response> {
    let seasons = state
        .db()
        .seasons(sec.league.id)
        .await?
        .into_iter()
        .map(|season| Line {
            match_format: MatchFormat::parse(season.format, &season.match_format)
                .map_or_else(|_| "unreadable".into(), |mf| mf.describe()),
            season,
        })
        .collect();
    Ok(html(&SeasonsPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        seasons,
    }))
}

#[derive(Deserialize)]
struct FormatQuery {
    format: Option<String>,
}

async fn new_form(sec: Secretary, Query(q): Query<FormatQuery>) -> Result<Response> {
    let format = q
        .format
        .and_then(|f| f.parse().ok())
        .unwrap_or(Format::FivesAndThrees);
    let page = SeasonPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season: None,
        has_results: false,
        note: None,
        form: SeasonForm::defaults("", format, &SeasonSettings::default()),
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

/// Refuses a name whose page address another season, or another page of
/// the league, has (a name that is the same is [`DUPLICATE`], said by the
/// database); says whether it did.
fn refuse_address(errors: &mut Errors, name: &str, others: &[&str]) -> bool {
    let others: Vec<&str> = others.iter().copied().filter(|o| *o != name).collect();
    let taken: Vec<&str> = crate::web::routes::taken_segments()
        .iter()
        .map(String::as_str)
        .collect();
    match address_clash(name, &others, &taken) {
        Some(why) => {
            errors.add("name", why);
            true
        }
        None => false,
    }
}

/// The form again for the format just picked, its defaults filled in (the
/// settings typed are kept when they can be read).
fn switch(page: &mut SeasonPage, format: Format) {
    let settings = page
        .form
        .settings(&mut Errors::default())
        .unwrap_or_default();
    page.form = SeasonForm::defaults(&page.form.name, format, &settings);
    page.note = Some(format!(
        "Now showing the options and match format of {} with their defaults: check them, then save.",
        format.title()
    ));
}

async fn create(
    sec: Secretary,
    State(state): State<AppState>,
    CsrfForm(input): CsrfForm<SeasonForm>,
) -> Result<Response> {
    let mut page = SeasonPage {
        ctx: sec.user.ctx(),
        league: sec.league,
        season: None,
        has_results: false,
        note: None,
        form: input,
        errors: Errors::default(),
    };
    if let Some(format) = page.form.switched() {
        switch(&mut page, format);
        return Ok(html(&page));
    }
    let check = page.form.check(&mut page.errors);
    if let Some(rules) = &check {
        let seasons = state.db().seasons(page.league.id).await?;
        let names: Vec<&str> = seasons.iter().map(|s| s.name.as_str()).collect();
        refuse_address(&mut page.errors, &rules.name, &names);
    }
    if let Some(rules) = check.filter(|_| page.errors.is_empty()) {
        let new = NewSeason {
            name: rules.name,
            format: rules.ruleset.format,
            options: rules.ruleset.options(),
            match_format: rules.match_format.to_value(),
        };
        let created =
            app::seasons::create_season_with(state.db(), page.league.id, &new, &rules.settings)
                .await;
        match created {
            Ok(season) => {
                let console = links::at(&page.league).console();
                // A new league's first season: on to its set-up in one
                // paste (issue 39); a later one's teams are entered from
                // its divisions.
                if state.db().teams(page.league.id).await?.is_empty() {
                    return Ok(form::done(
                        &console.season(season.id).import(),
                        format!(
                            "Season {} created: now paste its teams, players and captains from a spreadsheet.",
                            season.name
                        ),
                    ));
                }
                return Ok(form::done(
                    &console.season(season.id).divisions(),
                    format!("Season {} created: now add its divisions.", season.name),
                ));
            }
            Err(DbError::Refused(why)) => page.errors.add(FORM, why.to_string()),
            Err(e) => form::refused(e, &mut page.errors, "name", DUPLICATE)?,
        }
    }
    Ok(form::page(&page, &page.errors))
}

async fn edit(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, SeasonId)>,
) -> Result<Response> {
    let db = state.db();
    let season = db.season(sec.league.id, id).await?;
    let s = stored(&season);
    let page = SeasonPage {
        ctx: sec.user.ctx(),
        has_results: db.season_has_results(sec.league.id, id).await?,
        league: sec.league,
        note: s.note,
        form: SeasonForm::of(&season.name, &s.ruleset, &s.match_format, &s.settings),
        season: Some(season),
        errors: Errors::default(),
    };
    Ok(form::page(&page, &page.errors))
}

async fn update(
    sec: Secretary,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, SeasonId)>,
    CsrfForm(input): CsrfForm<SeasonForm>,
) -> Result<Response> {
    let db = state.db();
    let league = sec.league.id;
    let season = db.season(league, id).await?;
    let mut page = SeasonPage {
        ctx: sec.user.ctx(),
        has_results: db.season_has_results(league, id).await?,
        league: sec.league,
        note: None,
        form: input,
        season: Some(season.clone()),
        errors: Errors::default(),
    };
    if let Some(format) = page.form.switched() {
        switch(&mut page, format);
        return Ok(html(&page));
    }
    let Some(rules) = page.form.check(&mut page.errors) else {
        return Ok(form::page(&page, &page.errors));
    };
    // Nothing written unless all of it can be: the name first, against the
    // league's other seasons...
    let seasons = db.seasons(league).await?;
    if seasons.iter().any(|s| s.id != id && s.name == rules.name) {
        page.errors.add("name", DUPLICATE);
        return Ok(form::page(&page, &page.errors));
    }
    let others: Vec<&str> = seasons
        .iter()
        .filter(|s| s.id != id)
        .map(|s| s.name.as_str())
        .collect();
    if refuse_address(&mut page.errors, &rules.name, &others) {
        return Ok(form::page(&page, &page.errors));
    }
    // ...then the rules (which the database refuses once there are
    // results), the settings and the name, in one transaction: all of the
    // form is saved, or none of it.
    let before = stored(&season);
    let update = SeasonUpdate {
        name: Some(rules.name.clone()),
        rules: (rules.ruleset != before.ruleset || rules.match_format != before.match_format).then(
            || {
                (
                    rules.ruleset.format,
                    rules.ruleset.options(),
                    rules.match_format.to_value(),
                )
            },
        ),
        settings: (rules.settings != before.settings || season.settings().is_err())
            .then(|| rules.settings.clone()),
    };
    match app::seasons::update_season(db, league, id, &update, Some(sec.user.id)).await {
        Ok(_) => {}
        Err(DbError::Refused(
            why @ (Refusal::SeasonArchived { .. } | Refusal::RulesFixed { .. }),
        )) => {
            page.errors.add(FORM, format!("Not saved. {why}"));
            return Ok(form::conflict(&page));
        }
        Err(DbError::Refused(why)) => {
            page.errors.add(FORM, why.to_string());
            return Ok(form::page(&page, &page.errors));
        }
        Err(e) => {
            form::refused(e, &mut page.errors, "name", DUPLICATE)?;
            return Ok(form::page(&page, &page.errors));
        }
    }
    Ok(form::done(
        &links::at(&page.league).console().seasons(),
        format!("Season {} saved.", rules.name),
    ))
}
