//! The player table of a season (LEAGUE.md, "Tables"):
//! `GET /leagues/{league}/players-table/{season_id}?min=N&games=G`, G being
//! `league` (the default), `cups` or `all`: cup games are counted apart
//! from league games unless both are asked for. Two aggregate
//! queries (the players' sums and their individual penalties), whatever
//! the number of players or matches.

use crate::web::auth::InLeague;
use crate::web::links;
use crate::web::routes::Routes;
use std::collections::BTreeMap;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;

use crate::db::stats::{Counted, PlayerStatLine};
use crate::db::{DbError, League, PlayerId, Season, SeasonId};
use crate::league::players::{PlayerRow, Tally, apply_penalties, table};
use crate::rules::Format;

use crate::app::tallies::{count, penalty, tally};

use super::AppState;
use super::auth::MaybeUser;
use super::error::{AppError, Result};
use super::page::{Ctx, html};

pub fn router() -> Routes {
    Routes::new().league("/players-table/{season}", get(players_table))
}

#[derive(Deserialize)]
pub struct TablePath {
    season: String,
}

#[derive(Deserialize)]
pub struct TableQuery {
    /// The minimum number of games to rank; empty or absent: the season's
    /// setting.
    min: Option<String>,
    /// `all`: every column, on a phone too.
    cols: Option<String>,
    /// Which games: `league` (empty or absent), `cups` or `all`.
    games: Option<String>,
    /// `rating`: each table by rating, highest first; else by the table's
    /// own order (win rate, then games won).
    sort: Option<String>,
}

fn parse_games(q: &TableQuery) -> Result<Counted> {
    match q.games.as_deref().map(str::trim) {
        None | Some("" | "league") => Ok(Counted::League),
        Some("cups") => Ok(Counted::Cups),
        Some("all") => Ok(Counted::All),
        Some(other) => Err(AppError::BadRequest(format!(
            "`{other}` is not a choice of games: league, cups or all"
        ))),
    }
}

struct Crumb {
    text: String,
    href: String,
}

struct Row {
    position: String,
    name: String,
    href: String,
    team: String,
    played: u32,
    won: u32,
    win_rate: String,
    per_game: String,
    pegs: u32,
    eights: u32,
    chip_outs: u32,
    penalty_games: u32,
    net: i64,
    sets_won_6_0: u32,
    sets_lost_6_0: u32,
    forfeits: u32,
    /// Games entered by their final score only.
    score_only: u32,
    /// The player's rating now in the season's rule family (empty: none).
    rating: String,
    rating_value: Option<f64>,
    provisional: bool,
}

#[derive(Template)]
#[template(path = "players_table.html")]
struct Page {
    ctx: Ctx,
    crumbs: Vec<Crumb>,
    league: League,
    season: Season,
    format_title: &'static str,
    fives_and_threes: bool,
    all_fives: bool,
    hands_won: bool,
    min: u32,
    /// Which games are counted, and the choices of the form.
    games: Vec<(&'static str, &'static str, bool)>,
    counted: &'static str,
    /// Some player has games entered by their final score only: the
    /// column that counts them is shown.
    any_score_only: bool,
    /// The season's minimum, shown when the address asks for another.
    setting: u32,
    sections: Vec<Section>,
    /// Sorted by rating, and the addresses of the two orders.
    by_rating: bool,
    rating_href: String,
    table_href: String,
    /// Every column on a phone too, and the address of the other view.
    all_columns: bool,
    cols_href: String,
}

/// A table of the page: the ranked players, or those not ranked yet.
struct Section {
    heading: String,
    caption: String,
    /// Said instead of an empty table.
    empty: String,
    rows: Vec<Row>,
}

fn parse_min(q: &TableQuery, setting: u32) -> Result<u32> {
    match q.min.as_deref().map(str::trim) {
        None | Some("") => Ok(setting),
        Some(text) => text
            .parse()
            .map_err(|_| AppError::BadRequest(format!("`{text}` is not a whole number of games"))),
    }
}

fn per_game(n: f64) -> String {
    format!("{n:.1}")
}

async fn players_table(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<TablePath>,
    Query(q): Query<TableQuery>,
) -> Result<Response> {
    let db = state.db();
    let season_missing = || AppError::NotFound(format!("The season `{}`", p.season));
    let season_id: i64 = p.season.parse().map_err(|_| season_missing())?;
    let season = db
        .season(league.id, SeasonId(season_id))
        .await
        .map_err(|e| match e {
            DbError::NotFound(_) => season_missing(),
            other => other.into(),
        })?;
    let setting = season.rules()?.settings.min_games;
    let min = parse_min(&q, setting)?;
    let counted = parse_games(&q)?;
    let lines = db.player_stat_lines(league.id, season.id, counted).await?;
    let penalties = db.game_penalty_lines(league.id, season.id, counted).await?;

    let ruleset = season.rules()?.ruleset;
    let mut tallies: BTreeMap<PlayerId, Tally> =
        lines.iter().map(|l| (l.player_id, tally(l))).collect();
    apply_penalties(&mut tallies, &ruleset, penalties.iter().filter_map(penalty));
    let by_id: BTreeMap<PlayerId, &PlayerStatLine> =
        lines.iter().map(|l| (l.player_id, l)).collect();
    let players = table(season.format, min, tallies);
    let rated = state.ratings(&league).await?;
    let by_rating = match q.sort.as_deref().map(str::trim) {
        None | Some("") => false,
        Some("rating") => true,
        Some(other) => {
            return Err(AppError::BadRequest(format!(
                "`{other}` is not an order of the table: rating, or none"
            )));
        }
    };

    let league_at = links::at(&league);
    let view = |r: &PlayerRow<PlayerId>| {
        let line = by_id.get(&r.player);
        let name = line.map_or_else(|| format!("Player {}", r.player), |l| l.name.clone());
        let t = &r.tally;
        let now = rated.ratings.current(r.player, season.format);
        Row {
            position: r.position.map_or_else(String::new, |p| p.to_string()),
            href: links::player_href(&league, r.player, &name),
            name,
            team: line.and_then(|l| l.team_name.clone()).unwrap_or_default(),
            played: t.played,
            won: t.won,
            win_rate: format!("{}%", t.win_percent().unwrap_or(0)),
            per_game: per_game(t.pegs_per_game()),
            pegs: t.pegs,
            eights: t.eights,
            chip_outs: t.chip_outs,
            penalty_games: t.penalty_games,
            net: t.net(),
            sets_won_6_0: t.sets_6_0_won,
            sets_lost_6_0: t.sets_6_0_lost,
            forfeits: t.forfeits,
            score_only: line.map_or(0, |l| count(l.score_only)),
            rating: now.map(|x| format!("{:.1}", x.rating)).unwrap_or_default(),
            rating_value: now.map(|x| x.rating),
            provisional: now.is_some_and(|x| x.provisional(rated.provisional_games)),
        }
    };
    // By rating: highest first, the unrated last; positions follow.
    let order = |mut rows: Vec<Row>| {
        if by_rating {
            rows.sort_by(|a, b| match (a.rating_value, b.rating_value) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            for (i, r) in rows.iter_mut().enumerate() {
                if r.rating_value.is_some() {
                    r.position = (i + 1).to_string();
                }
            }
        }
        rows
    };
    let all_columns = q.cols.as_deref() == Some("all");
    let here = league_at.players_table(season.id);
    let mut query: Vec<String> = q
        .min
        .as_deref()
        .filter(|m| !m.trim().is_empty())
        .map(|_| format!("min={min}"))
        .into_iter()
        .collect();
    match counted {
        Counted::League => {}
        Counted::Cups => query.push("games=cups".into()),
        Counted::All => query.push("games=all".into()),
    }
    if by_rating {
        query.push("sort=rating".into());
    }
    let with = |extra: &str| {
        let mut q: Vec<String> = query
            .iter()
            .filter(|p| *p != "sort=rating")
            .cloned()
            .collect();
        if all_columns {
            q.push("cols=all".into());
        }
        if !extra.is_empty() {
            q.push(extra.into());
        }
        if q.is_empty() {
            here.clone()
        } else {
            format!("{here}?{}", q.join("&"))
        }
    };
    let (rating_href, table_href) = (with("sort=rating"), with(""));
    if !all_columns {
        query.push("cols=all".into());
    }
    let page = Page {
        all_columns,
        cols_href: if query.is_empty() {
            here
        } else {
            format!("{here}?{}", query.join("&"))
        },
        ctx: user.ctx(),
        crumbs: vec![
            Crumb {
                text: league.name.clone(),
                href: league_at.to_string(),
            },
            Crumb {
                text: season.name.clone(),
                href: links::season_href(&league, &season.name),
            },
        ],
        format_title: season.format.title(),
        fives_and_threes: season.format == Format::FivesAndThrees,
        all_fives: season.format == Format::AllFives,
        hands_won: season.format == Format::HandsWon,
        min,
        games: [
            ("league", "League games", Counted::League),
            ("cups", "Cup games", Counted::Cups),
            ("all", "League and cup games", Counted::All),
        ]
        .into_iter()
        .map(|(value, label, c)| (value, label, c == counted))
        .collect(),
        counted: match counted {
            Counted::League => "league games (cup games are counted apart)",
            Counted::Cups => "cup games only",
            Counted::All => "league and cup games together",
        },
        any_score_only: lines.iter().any(|l| l.score_only > 0),
        setting,
        sections: sections(
            min,
            order(players.ranked.iter().map(view).collect()),
            order(players.unranked.iter().map(view).collect()),
        ),
        by_rating,
        rating_href,
        table_href,
        league,
        season,
    };
    Ok(html(&page))
}

fn sections(min: u32, ranked: Vec<Row>, unranked: Vec<Row>) -> Vec<Section> {
    let games = if min == 1 { "game" } else { "games" };
    let mut out = vec![Section {
        heading: String::new(),
        caption: format!("Ranked players: at least {min} {games}, by win rate, then games won"),
        empty: "Nobody has played enough games to be ranked yet.".into(),
        rows: ranked,
    }];
    if !unranked.is_empty() {
        out.push(Section {
            heading: "Not ranked yet".into(),
            caption: format!("Players with fewer than {min} {games}, by games played"),
            empty: String::new(),
            rows: unranked,
        });
    }
    out
}
