//! Results in and out: a match's games as game records (RULES.md JSON), and
//! a season's fixtures, results and penalties as CSV.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::db::pages::{FixtureScope, PenaltyScope};
use crate::db::{FixtureId, SeasonId};
use crate::league::card::game_text;
use crate::rules::GameRecord;

use super::super::AppState;
use super::super::csrf::CsrfForm;
use super::super::dates::{iso_day, stamp};
use super::super::error::{AppError, Result};
use super::FixtureAccess;
use super::card::{Fields, game_field, render_fields, slot_field, status_field};

/// A match's result as a file: its boards' players by name and its games as
/// RULES.md game records, which `boneyard score` reads one by one, or, for
/// a game kept without its hands, its final score. Its published JSON
/// Schema is `schema/match-result.json` (served at `/schema/`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    pub home: String,
    pub away: String,
    pub boards: Vec<BoardFile>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    pub kind: String,
    pub home: Vec<String>,
    pub away: Vec<String>,
    pub games: Vec<GameFile>,
    /// A board not played: `home` or `away`, the side that conceded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conceded_by: Option<String>,
}

/// A game of a match file: its record, or its final score alone (home's,
/// then away's) when it was kept without its hands. Read by hand so that a
/// bad record keeps the game record's own message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged, try_from = "serde_json::Value")]
pub enum GameFile {
    Record(GameRecord),
    Final { final_score: FinalScore },
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalScore {
    pub home: u32,
    pub away: u32,
}

impl TryFrom<serde_json::Value> for GameFile {
    type Error = String;

    fn try_from(value: serde_json::Value) -> std::result::Result<GameFile, String> {
        if value.get("final_score").is_some() {
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct Final {
                final_score: FinalScore,
            }
            let Final { final_score } = serde_json::from_value(value)
                .map_err(|e| format!("a game by its final score: {e}"))?;
            return Ok(GameFile::Final { final_score });
        }
        serde_json::from_value(value)
            .map(GameFile::Record)
            .map_err(|e| format!("a game record: {e}"))
    }
}

impl MatchFile {
    /// A stored result as a file, each player named as `name` says.
    pub fn new(
        home: String,
        away: String,
        result: &crate::db::MatchResult,
        name: impl Fn(&crate::db::PlayerId) -> String,
    ) -> MatchFile {
        MatchFile {
            home,
            away,
            boards: result
                .boards
                .iter()
                .map(|b| BoardFile {
                    kind: b.kind.to_string(),
                    home: b.home.iter().map(&name).collect(),
                    away: b.away.iter().map(&name).collect(),
                    games: b.games.iter().map(GameFile::of).collect(),
                    conceded_by: b.conceded_by.map(|s| s.as_str().to_owned()),
                })
                .collect(),
        }
    }
}

impl GameFile {
    fn of(game: &crate::db::GameResult) -> GameFile {
        match (&game.outcome, game.score_only) {
            // The outcome's totals are the record's sides': home, away.
            (Some(o), true) => GameFile::Final {
                final_score: FinalScore {
                    home: u32::try_from(o.totals[0]).unwrap_or(0),
                    away: u32::try_from(o.totals[1]).unwrap_or(0),
                },
            },
            _ => GameFile::Record(game.record.clone()),
        }
    }
}

pub async fn export_games(
    State(state): State<AppState>,
    Path((league, fixture)): Path<(String, i64)>,
) -> Result<Response> {
    let db = state.db();
    let league = crate::web::auth::league_named(db, &league).await?;
    let fixture = db.fixture(league.id, FixtureId(fixture)).await?;
    let stored = db
        .result(league.id, fixture.id)
        .await?
        .ok_or_else(|| AppError::NotFound("A result for this match".into()))?;
    let home = db.team(league.id, fixture.home_team_id).await?;
    let away = db.team(league.id, fixture.away_team_id).await?;
    let roster = db
        .fixture_roster(
            league.id,
            fixture.season_id,
            fixture.home_team_id,
            fixture.away_team_id,
        )
        .await?;
    let name = |id: &crate::db::PlayerId| {
        roster
            .iter()
            .find(|r| r.player_id == *id)
            .map_or_else(|| id.to_string(), |r| r.name.clone())
    };
    let file = MatchFile::new(home.name, away.name, &stored.result, name);
    let body = serde_json::to_string_pretty(&file)
        .map_err(|e| AppError::Internal(format!("writing the games: {e}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"match-{}.json\"", fixture.id),
            ),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct ImportForm {
    /// Pasted.
    #[serde(default)]
    json: String,
    /// Or chosen as a file (a multipart form).
    #[serde(default)]
    file: String,
}

/// Reads a match file into the card, to be checked and submitted like a
/// typed one: nothing is stored by the import itself.
pub async fn import_games(
    State(state): State<AppState>,
    access: FixtureAccess,
    CsrfForm(form): CsrfForm<ImportForm>,
) -> Result<Response> {
    let text = if form.file.trim().is_empty() {
        &form.json
    } else {
        &form.file
    };
    let file: MatchFile = serde_json::from_str(text).map_err(|e| {
        AppError::BadRequest(format!("The file is not a match file of game records: {e}"))
    })?;
    let db = state.db();
    let (home, away) = db.fixture_sides(access.league.id, &access.fixture).await?;
    let mut fields = Fields::new();
    let mut unknown = Vec::new();
    for (i, board) in file.boards.iter().enumerate() {
        if let Some(side) = &board.conceded_by {
            fields.insert(status_field(i), side.clone());
        }
        for (side, names, roster) in [("home", &board.home, &home), ("away", &board.away, &away)] {
            for (j, n) in names.iter().enumerate() {
                match roster.iter().find(|p| p.name == *n) {
                    Some(p) => {
                        fields.insert(slot_field(i, side, j), p.id.0.to_string());
                    }
                    None => unknown.push(format!("{n} ({side}, board {})", i + 1)),
                }
            }
        }
        for (g, game) in board.games.iter().enumerate() {
            let text = match game {
                // A game after one kept by its final score names its poser.
                GameFile::Record(record) => game_text(
                    record,
                    g == 0 || matches!(board.games[g - 1], GameFile::Final { .. }),
                ),
                // The card reads a final score as `final H-A`.
                GameFile::Final { final_score: f } => format!("final {}-{}", f.home, f.away),
            };
            fields.insert(game_field(i, g), text);
        }
    }
    let notice = if unknown.is_empty() {
        "Imported. Check the card, then submit it to store the result.".to_owned()
    } else {
        format!(
            "Imported, but these players are not registered to the team this season: {}. Choose the right players, then submit.",
            unknown.join(", ")
        )
    };
    render_fields(&state, &access, &fields, notice).await
}

/// A cell a spreadsheet would take for a formula gets a leading quote:
/// one starting `= + - @ |`, a tab or a carriage return (or their
/// full-width forms), looked for after whatever a spreadsheet skips
/// unseen (a byte-order mark, zero-width characters, spaces), so
/// `\u{feff}=1+1` is caught as `=1+1` is (OWASP's CSV injection advice).
fn cell(s: &str) -> String {
    let seen = s.trim_start_matches(|c: char| {
        (c.is_whitespace() && c != '\t' && c != '\r')
            || matches!(
                c,
                '\u{feff}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{00ad}'
            )
    });
    if seen.starts_with([
        '=', '+', '-', '@', '|', '\t', '\r', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}',
    ]) {
        format!("'{s}")
    } else {
        s.to_owned()
    }
}

/// The season's fixtures with their results, then its penalties.
/// A fixture's own cells of the export, after the record's kind: id,
/// division, round, date, home, away, status, result.
fn fixture_cells(
    f: &crate::db::pages::FixtureLine,
    zone: crate::league::time::Zone,
) -> [String; 8] {
    [
        f.id.to_string(),
        f.competition.clone(),
        f.round.to_string(),
        f.starts_at.map_or_else(String::new, |d| stamp(zone, d)),
        f.home_name.clone(),
        f.away_name.clone(),
        f.status.to_string(),
        f.result_status.map_or_else(String::new, |s| s.to_string()),
    ]
}

pub async fn season_csv(
    State(state): State<AppState>,
    Path((league, season)): Path<(String, i64)>,
) -> Result<Response> {
    let db = state.db();
    let league = crate::web::auth::league_named(db, &league).await?;
    let season = db.season(league.id, SeasonId(season)).await?;
    let formats = crate::app::formats::match_formats(std::slice::from_ref(&season))?;
    let scope = FixtureScope::Season(season.id);
    let fixtures = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = crate::app::formats::scores_by_season(&fixtures, &boards, &formats);
    let penalties = db
        .penalty_lines(league.id, PenaltyScope::Season(season.id))
        .await?;
    let mut out = csv::Writer::from_writer(Vec::new());
    let write = |out: &mut csv::Writer<Vec<u8>>, row: &[String]| {
        out.write_record(row.iter().map(|c| cell(c)))
            .map_err(|e| AppError::Internal(format!("csv: {e}")))
    };
    let header: Vec<String> = [
        "record",
        "id",
        "division",
        "round",
        "date",
        "home",
        "away",
        "status",
        "result",
        "home boards",
        "away boards",
        "home pegs",
        "away pegs",
        "team",
        "player",
        "kind",
        "amount",
        "note",
        "voided",
        "board",
        "game",
        "format",
        "side a",
        "side b",
        "side a ids",
        "side b ids",
        "winner",
        "counts",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    write(&mut out, &header)?;
    for f in &fixtures {
        let score = crate::app::formats::line_format(f, &formats)
            .and_then(|format| crate::league::match_score::fixture_score(f, &scores, format));
        let num = |v: Option<u32>| v.map_or_else(String::new, |v| v.to_string());
        write(
            &mut out,
            &std::iter::once("fixture".to_owned())
                .chain(fixture_cells(f, league.time_zone))
                .chain([
                    num(score.map(|s| s.boards[0])),
                    num(score.map(|s| s.boards[1])),
                    num(score.map(|s| s.pegs[0])),
                    num(score.map(|s| s.pegs[1])),
                ])
                // The penalty's and the game's columns.
                .chain(std::iter::repeat_n(String::new(), 6 + 9))
                .collect::<Vec<_>>(),
        )?;
    }
    for p in &penalties {
        write(
            &mut out,
            &[
                "penalty".into(),
                p.id.to_string(),
                String::new(),
                p.fixture_round.map_or_else(String::new, |r| r.to_string()),
                iso_day(league.time_zone, p.recorded_at),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                p.team_name.clone().unwrap_or_default(),
                p.player_name.clone().unwrap_or_default(),
                p.kind_name.clone(),
                p.amount.to_string(),
                p.note.clone(),
                if p.voided_at.is_some() {
                    "yes".into()
                } else {
                    String::new()
                },
            ]
            .into_iter()
            .chain(std::iter::repeat_n(String::new(), 9))
            .collect::<Vec<_>>(),
        )?;
    }
    // Each game of the current results: its two sides (as the game's record
    // has them, not home and away), who won, and whether it counts; enough
    // to recompute every rating (see the ratings page's method).
    let seats = db.season_game_seats(league.id, season.id).await?;
    let by_id: HashMap<FixtureId, &crate::db::pages::FixtureLine> =
        fixtures.iter().map(|f| (f.id, f)).collect();
    for game in seats
        .chunk_by(|a, b| (a.fixture_id, a.board, a.number) == (b.fixture_id, b.board, b.number))
    {
        let g = &game[0];
        let Some(f) = by_id.get(&g.fixture_id) else {
            continue;
        };
        let side = |s: i64, f: fn(&crate::db::ratings::GameSeatLine) -> String| {
            game.iter()
                .filter(|p| p.side == s)
                .map(f)
                .collect::<Vec<_>>()
                .join("; ")
        };
        let mut row: Vec<String> = std::iter::once("game".to_owned())
            .chain(fixture_cells(f, league.time_zone))
            .collect();
        row.extend(std::iter::repeat_n(String::new(), 10));
        row.extend([
            g.board.to_string(),
            g.number.to_string(),
            g.format.clone(),
            side(0, |p| p.name.clone()),
            side(1, |p| p.name.clone()),
            side(0, |p| p.player_id.to_string()),
            side(1, |p| p.player_id.to_string()),
            match g.winner_side {
                Some(0) => "a".into(),
                Some(1) => "b".into(),
                _ => String::new(),
            },
            if g.counts { "yes".into() } else { "no".into() },
        ]);
        write(&mut out, &row)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| AppError::Internal(format!("csv: {e}")))?;
    let slug: String = season
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}-{slug}.csv\"", league.short_name),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// A season's results as JSON: every fixture, and the current result of
/// each that has one as a match file (the published match-result schema).
#[derive(Serialize)]
struct SeasonFile {
    league: String,
    season: String,
    /// Over: its results are final.
    closed: bool,
    /// The JSON Schema each `result` conforms to.
    result_schema: String,
    matches: Vec<MatchLine>,
}

#[derive(Serialize)]
struct MatchLine {
    id: i64,
    /// The division or the cup.
    competition: String,
    round: i64,
    /// In the league's time zone; `null` when no date is set.
    starts_at: Option<String>,
    home: String,
    away: String,
    /// `scheduled`, `postponed`, `played`, `walkover` or `void`.
    status: &'static str,
    /// `entered`, `confirmed`, `disputed` or `approved`; `null` without one.
    result_status: Option<&'static str>,
    /// The match's page on this site.
    path: String,
    result: Option<MatchFile>,
}

pub async fn season_json(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Path((league, season)): Path<(String, i64)>,
) -> Result<Response> {
    let league = crate::web::auth::league_named(state.db(), &league).await?;
    let data = crate::app::season_results::load(state.db(), &league, SeasonId(season)).await?;
    let name = |id: &crate::db::PlayerId| {
        data.names
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    };
    let zone = league.time_zone;
    let file = SeasonFile {
        league: league.name.clone(),
        season: data.season.name.clone(),
        closed: data.season.is_closed(),
        result_schema: crate::web::pad::absolute(&headers, crate::addresses::MATCH_RESULT_SCHEMA),
        matches: data
            .fixtures
            .iter()
            .map(|f| MatchLine {
                id: f.id.0,
                competition: f.competition.clone(),
                round: f.round,
                starts_at: f.starts_at.map(|t| super::super::dates::datetime(zone, t)),
                home: f.home_label(),
                away: f.away_label(),
                status: f.status.as_str(),
                result_status: f.result_status.map(|s| s.as_str()),
                path: crate::web::links::at(&league).match_page(f.id).to_string(),
                result: data
                    .results
                    .get(&f.id)
                    .map(|r| MatchFile::new(f.home_label(), f.away_label(), &r.result, name)),
            })
            .collect(),
    };
    let body = serde_json::to_string_pretty(&file)
        .map_err(|e| AppError::Internal(format!("writing the season: {e}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            // Public, sent without cookies: any website may read it.
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*".to_owned()),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod cell_tests {
    use super::cell;

    #[test]
    fn formulas_are_neutralised_behind_invisible_characters_and_pipes() {
        for formula in [
            "=1+1",
            "+1",
            "-1",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "|calc",
            "\u{feff}=1+1",
            "\u{200b}=1",
            " =1+1",
            "\u{a0}@x",
            "\u{feff} \u{200d}|x",
        ] {
            assert_eq!(cell(formula), format!("'{formula}"), "{formula:?}");
        }
        for plain in ["Crown", "The =Crown", "", "1-0", "O'Neill"] {
            assert_eq!(cell(plain), plain);
        }
    }
}
