//! A player's page: teams by season, games played and won, recent games,
//! penalties.

use crate::app::read;
use crate::web::auth::InLeague;
use crate::web::links;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::db::{League, Player, PlayerId, ResultStatus, Side};
use chrono::Utc;

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::page::{Ctx, html};
use super::super::views::next_match::{NextMatch, next_match};
use super::charts::{RatingChart, ordinal};
use super::{
    CalendarLinks, ColsQuery, Link, PenaltyView, datetime, day, division_href, fixture_view,
    league_href, match_href, not_found, penalty_views, pending_words, player_href, season_href,
    slug, split_id_slug, team_href,
};
use crate::rules::Format;

#[derive(Deserialize)]
pub struct PlayerPath {
    player: String,
}

#[derive(Template)]
#[template(path = "public/player.html")]
struct PlayerPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    player: Player,
    seasons: Vec<SeasonView>,
    /// League games played, won, win rate; then cup games played, won.
    total: (i64, i64, String, i64, i64),
    games: Vec<GameView>,
    /// The singles and pairs cup ties the player is drawn in.
    cup_ties: Vec<super::FixtureView>,
    /// The player's calendar: their team's fixtures and their cup ties.
    calendar: CalendarLinks,
    penalties: Vec<PenaltyView>,
    /// The next match of the player's current team.
    next: Option<NextMatch>,
    /// The player's rating in each rule family they played.
    ratings: Vec<RatingView>,
    /// Games before a rating is established in this league.
    provisional_games: u32,
    /// The same person's records in other leagues.
    elsewhere: Vec<Link>,
    all_columns: bool,
    cols_href: String,
}

/// A player's rating in one rule family, with its course.
struct RatingView {
    format: &'static str,
    rating: String,
    uncertainty: String,
    games: u32,
    provisional: bool,
    /// "3rd of 41" in the league's list.
    rank: String,
    list_href: String,
    chart: Option<RatingChart>,
}

struct SeasonView {
    season: Link,
    team: Link,
    division: Link,
    played: i64,
    won: i64,
    rate: String,
    /// Cup games, counted apart from the league's.
    cup_played: i64,
    cup_won: i64,
}

struct GameView {
    when: String,
    datetime: String,
    href: String,
    /// "The Crown A v The Anchor".
    fixture: String,
    /// Which team the player played for.
    team: String,
    board: i64,
    game: i64,
    partners: Vec<Link>,
    opponents: Vec<Link>,
    /// The player's side first: `61–45`.
    score: String,
    result: &'static str,
    /// Entered by its final score only: marked beside the score.
    score_only: bool,
    provisional: bool,
    badge: String,
}

/// A win rate in whole percent, or a dash before any game.
fn rate(played: i64, won: i64) -> String {
    crate::league::players::win_percent(won, played)
        .map_or_else(|| "–".to_owned(), |p| format!("{p}%"))
}

pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<PlayerPath>,
    Query(cols): Query<ColsQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response> {
    let unknown = || AppError::NotFound(format!("The player `{}`", p.player));
    let (id, given) = split_id_slug(&p.player).ok_or_else(unknown)?;
    let player = read::player::record(state.db(), &league, PlayerId(id))
        .await
        .map_err(|e| not_found(e, format!("The player `{}`", p.player)))?;
    if given != slug(&player.name) {
        let href = player_href(&league, player.id, &player.name);
        return Ok(Redirect::permanent(&href).into_response());
    }
    let data = read::player::page(state.db(), &league, &player).await?;
    let next = data.team_fixtures.as_ref().and_then(|(team, lines)| {
        next_match(&league, lines, *team, league.time_zone.today(Utc::now()).0)
    });
    let counts = &data.counts;
    let seasons: Vec<SeasonView> = data
        .registrations
        .iter()
        .map(|r| {
            let (played, won) = counts.get(&(r.season_id, false)).copied().unwrap_or((0, 0));
            let (cup_played, cup_won) = counts.get(&(r.season_id, true)).copied().unwrap_or((0, 0));
            SeasonView {
                season: Link::new(r.season_name.clone(), season_href(&league, &r.season_name)),
                team: Link::new(
                    r.team_name.clone(),
                    team_href(&league, r.team_id, &r.team_name),
                ),
                division: Link::new(
                    r.division_name.clone(),
                    division_href(&league, &r.season_name, &r.division_name),
                ),
                played,
                won,
                rate: rate(played, won),
                cup_played,
                cup_won,
            }
        })
        .collect();
    let sum = |cup: bool| {
        counts
            .iter()
            .filter(|((_, c), _)| *c == cup)
            .fold((0, 0), |(p, w), (_, &(gp, gw))| (p + gp, w + gw))
    };
    let ((played, won), (cup_played, cup_won)) = (sum(false), sum(true));

    let seats = &data.seats;
    let games = data
        .recent
        .iter()
        .map(|g| {
            let others = seats.get(&g.game_id).map(Vec::as_slice).unwrap_or_default();
            let link = |s: &crate::db::pages::GameSeat| {
                Link::new(s.name.clone(), player_href(&league, s.player_id, &s.name))
            };
            let (mine, theirs) = match g.team_side {
                Side::Home => (&g.home_name, &g.away_name),
                Side::Away => (&g.away_name, &g.home_name),
            };
            let (score, result) = match g.totals {
                Some(t) => {
                    let (me, them) = if g.side == 0 {
                        (t[0], t[1])
                    } else {
                        (t[1], t[0])
                    };
                    let result = match (g.finished, g.winner_side) {
                        (Some(true), Some(w)) if w == g.side => "won",
                        (Some(true), Some(_)) => "lost",
                        _ => "not finished",
                    };
                    (format!("{me}–{them}"), result)
                }
                None => (String::new(), "not scored"),
            };
            let provisional = g.result_status != ResultStatus::Approved;
            GameView {
                when: g
                    .starts_at
                    .map(|t| day(league.time_zone, t))
                    .unwrap_or_default(),
                datetime: g
                    .starts_at
                    .map(|t| datetime(league.time_zone, t))
                    .unwrap_or_default(),
                href: format!("{}#board-{}", match_href(&league, g.fixture_id), g.board),
                fixture: match &g.cup_name {
                    Some(cup) => format!("{cup}: {} v {}", g.home_name, g.away_name),
                    None => format!("{} v {}", g.home_name, g.away_name),
                },
                team: format!("for {mine} against {theirs}"),
                board: g.board,
                game: g.game,
                partners: others
                    .iter()
                    .filter(|s| s.side == g.side && s.player_id != player.id)
                    .map(link)
                    .collect(),
                opponents: others
                    .iter()
                    .filter(|s| s.side != g.side)
                    .map(link)
                    .collect(),
                score,
                result,
                score_only: g.score_only && g.totals.is_some(),
                provisional,
                badge: if provisional {
                    pending_words(g.result_status).to_owned()
                } else {
                    String::new()
                },
            }
        })
        .collect();
    let cup_ties = data
        .cup_ties
        .iter()
        .map(|(season, f)| fixture_view(&league, season, f))
        .collect();
    let rated = state.ratings(&league).await?;
    let ratings = Format::ALL
        .into_iter()
        .filter_map(|format| {
            let now = rated.ratings.current(player.id, format)?;
            let list = rated.ratings.list(format);
            let place = list.iter().position(|(p, _)| *p == player.id)? + 1;
            Some(RatingView {
                format: format.title(),
                rating: format!("{:.1}", now.rating),
                uncertainty: format!("{:.1}", now.uncertainty),
                games: now.games,
                provisional: now.provisional(rated.provisional_games),
                rank: format!("{} of {}", ordinal(place), list.len()),
                list_href: links::at(&league).ratings_of(format.as_str()),
                chart: RatingChart::new(
                    &format!("rating-{}", format.as_str()),
                    &format!("{}: rating by week", format.title()),
                    rated.ratings.course(player.id, format),
                    league.time_zone,
                ),
            })
        })
        .collect();
    let elsewhere = data
        .elsewhere
        .into_iter()
        .map(|o| {
            Link::new(
                format!("{} of {}", o.name, o.league_name),
                crate::web::links::player_href_in(&o.league_short_name, o.id, &o.name),
            )
        })
        .collect();
    let page = PlayerPage {
        elsewhere,
        ratings,
        provisional_games: rated.provisional_games,
        next,
        all_columns: cols.all(),
        cols_href: cols.toggle(&player_href(&league, player.id, &player.name)),
        cup_ties,
        calendar: CalendarLinks::new(&headers, &links::at(&league).player_calendar(player.id)),
        ctx: user.ctx(),
        crumbs: vec![Link::new(league.name.clone(), league_href(&league))],
        seasons,
        total: (played, won, rate(played, won), cup_played, cup_won),
        games,
        penalties: penalty_views(&league, &data.penalties),
        league,
        player,
    };
    Ok(html(&page))
}
