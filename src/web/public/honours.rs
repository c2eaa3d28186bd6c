//! A season's honours, for its presentation night: each division's
//! champions and runners-up, each cup's winner and runner-up once its
//! final is decided, the top players by win rate, and the feats of the
//! season's hands, as a page that prints on one or two A4 sheets and as
//! plain text for the local paper (`/leagues/{league}/{season}/honours`,
//! `.../honours.txt`). A season still being played has its honours so far,
//! said to be not final.
//!
//! Nothing is worked out here that another page works out already: the
//! tables are the division page's (`app::division_table`), a cup's winner
//! the bracket's (`app::cups`), the players' ranking the player table's
//! (its sums, penalties and order), and the feats the round-up's
//! (`app::feats`, `league::feats`) over every match of the season.
//!
//! Queries, whatever the size of the season: the league, its seasons, the
//! season's divisions, fixtures, boards, entries and deductions, its cups
//! (four), the player table's two sums, and the current results of its
//! matches (ten, all at once).

use crate::web::auth::InLeague;
use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::app::cups::{final_result, rounds, tie_matches};
use crate::app::division_table::division_rows;
use crate::app::feats::{counted_fixtures, feat_matches};
use crate::app::formats::{match_formats, scores_by_season};
use crate::db::generation::Follows;
use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::stats::Counted;
use crate::db::{CupData, CupEntrantId, League, PlayerId, Season, TeamId};
use crate::league::cup::EntrantKind;
use crate::league::feats::{GameFeat, PlayerCount, SeasonFeats, TeamCount, season_feats};
use crate::league::players::{PlayerTable, Tally, apply_penalties, table};
use crate::league::rollover::ties_in;
use crate::league::standings::Row;

use super::super::AppState;
use super::super::auth::MaybeUser;
use super::super::error::{AppError, Result};
use super::super::links::honours_href;
use super::super::page::{Ctx, html};
use super::super::players_table::{penalty, tally};
use super::super::views::bracket::entrant_name;
use super::super::views::words::and_list;
use super::{
    Link, cup_href, division_href, find_season, league_href, player_href, season_href, team_href,
};

/// Places of the player table the honours name (more players when some
/// share a place).
const TOP_PLACES: usize = 3;

/// Most games (or players, or teams) named for one feat; the others are
/// counted.
const LISTED: usize = 4;

#[derive(Deserialize)]
pub struct HonoursPath {
    season: String,
}

/// A division's top two.
struct DivisionHonours {
    division: Link,
    /// The champions and the runners-up (the leaders and the second so
    /// far); none before any result.
    places: Vec<Place>,
    /// Said beside them: no results yet, or teams level for the title.
    note: String,
}

struct Place {
    /// "Champions", "Runners-up"; "Leading", "Second" while the season is
    /// played.
    title: &'static str,
    team: Link,
    /// "40 points from 14 matches".
    record: String,
}

/// A cup's final.
struct CupHonours {
    cup: Link,
    /// "team cup", "singles knockout".
    kind: &'static str,
    /// Once the final is decided.
    winner: Option<String>,
    runner_up: Option<String>,
    /// Where it stands when not decided.
    note: String,
}

/// A player named in a list of the honours: the top players by win rate
/// (and by rating, see [`Honours::ratings`]).
pub(crate) struct PlayerLine {
    /// The place, shared by players level ("1", "2", "2").
    pub position: String,
    pub player: Link,
    pub team: String,
    /// What the figure is made of: "won 20 of 24 games".
    pub detail: String,
    /// The figure they are ranked by: "83%".
    pub figure: String,
}

/// A kind of feat and its lines.
struct FeatGroup {
    title: String,
    lines: Vec<String>,
}

/// A season's honours, built once for the page and its text.
pub(crate) struct Honours {
    /// The season's record they were worked out from.
    season: Season,
    /// "Honours, season 2025/26", or "Honours so far, season 2026/27".
    title: String,
    /// Whether they are final, in a sentence.
    status: String,
    /// The season is over: its honours are final.
    settled: bool,
    divisions: Vec<DivisionHonours>,
    cups: Vec<CupHonours>,
    /// The ranked players of the player table's top places.
    win_rate: Vec<PlayerLine>,
    /// Who is ranked, in a sentence.
    win_rate_note: String,
    /// The season's players with an established rating, highest first,
    /// as rated after their last game of the season (the figure the
    /// rating, its detail the games rated).
    ratings: Vec<PlayerLine>,
    feats: Vec<FeatGroup>,
}

#[derive(Template)]
#[template(path = "public/honours.html")]
struct HonoursPage {
    ctx: Ctx,
    crumbs: Vec<Link>,
    league: League,
    season_href: String,
    text_href: String,
    honours: Arc<Honours>,
}

#[derive(Template)]
#[template(path = "public/honours.txt")]
struct HonoursText<'a> {
    league: &'a League,
    honours: &'a Honours,
}

/// `/{season}/honours`: the page.
pub async fn page(
    State(state): State<AppState>,
    user: MaybeUser,
    InLeague(league): InLeague,
    Path(p): Path<HonoursPath>,
) -> Result<Response> {
    let (league, season) = resolve(&state, league, &p).await?;
    let honours = build(&state, &league, &season).await?;
    let page = HonoursPage {
        ctx: user.ctx(),
        crumbs: vec![
            Link::new(league.name.clone(), league_href(&league)),
            Link::new(season.name.clone(), season_href(&league, &season.name)),
        ],
        season_href: season_href(&league, &season.name),
        text_href: format!("{}.txt", honours_href(&league, &season.name)),
        honours,
        league,
    };
    Ok(html(&page))
}

/// `/{season}/honours.txt`: the same as plain text, for the paper.
pub async fn text(
    State(state): State<AppState>,
    InLeague(league): InLeague,
    Path(p): Path<HonoursPath>,
) -> Result<Response> {
    let (league, season) = resolve(&state, league, &p).await?;
    let honours = build(&state, &league, &season).await?;
    let text = HonoursText {
        league: &league,
        honours: &honours,
    }
    .render()
    .map_err(|e| AppError::Internal(format!("the honours' text: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn resolve(state: &AppState, league: League, p: &HonoursPath) -> Result<(League, Season)> {
    let db = state.db();
    let seasons = db.seasons(league.id).await?;
    let season = find_season(&seasons, &p.season)?.clone();
    Ok((league, season))
}

/// The honours of `season`: kept while the league's records stand (they
/// read every hand of the season, tens of milliseconds on a big league),
/// worked out again after any write to them.
pub(crate) async fn build(
    state: &AppState,
    league: &League,
    season: &Season,
) -> Result<Arc<Honours>> {
    let db = state.db();
    // Read before the records: a write in between leaves what is worked
    // out here under the older number.
    let generation = db
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    // `season` was read before the generation: worked out from an older
    // record of it (closed since?), they are worked out again once it is
    // read as it is now.
    state
        .honours()
        .get_or_work_if(
            (league.id, season.id),
            generation,
            |kept| kept.season == *season,
            || work_out(state, league, season),
        )
        .await
}

/// The honours of `season`, from one load of its records.
async fn work_out(state: &AppState, league: &League, season: &Season) -> Result<Honours> {
    let db = state.db();
    let rules = season.rules()?;
    let settled = season.is_closed();
    let scope = FixtureScope::Season(season.id);
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let formats = match_formats(std::slice::from_ref(season))?;
    let scores = scores_by_season(&lines, &boards, &formats);

    let divisions = db.divisions(league.id, season.id).await?;
    let entries = db.entry_lines(league.id, season.id).await?;
    let deductions = db.deduction_lines(league.id, season.id).await?;
    let team_names: HashMap<TeamId, &str> = entries
        .iter()
        .map(|e| (e.team_id, e.team_name.as_str()))
        .collect();
    let divisions = divisions
        .iter()
        .map(|d| {
            let rows = division_rows(
                d.id,
                &lines,
                &scores,
                &entries,
                &deductions,
                &rules.format,
                &rules.settings.tie_breakers,
                None,
            );
            division_honours(
                league,
                Link::new(d.name.clone(), division_href(league, &season.name, &d.name)),
                &rows,
                &team_names,
                settled,
            )
        })
        .collect();

    let matches = tie_matches(&lines, &scores);
    let cups = db
        .season_cups(league.id, season.id)
        .await?
        .iter()
        .map(|data| cup_honours(league, data, &matches))
        .collect::<Result<Vec<_>>>()?;

    let min = rules.settings.min_games;
    let stat_lines = db
        .player_stat_lines(league.id, season.id, Counted::League)
        .await?;
    let penalties = db
        .game_penalty_lines(league.id, season.id, Counted::League)
        .await?;
    let mut tallies: std::collections::BTreeMap<PlayerId, Tally> =
        stat_lines.iter().map(|l| (l.player_id, tally(l))).collect();
    apply_penalties(
        &mut tallies,
        &rules.ruleset,
        penalties.iter().filter_map(penalty),
    );
    let players: PlayerTable<PlayerId> = table(season.format, min, tallies);
    let win_rate = players
        .ranked
        .iter()
        .filter(|r| r.position.is_some_and(|p| p <= TOP_PLACES))
        .map(|r| {
            let line = stat_lines.iter().find(|l| l.player_id == r.player);
            let name = line.map_or_else(|| format!("Player {}", r.player), |l| l.name.clone());
            let t = &r.tally;
            PlayerLine {
                position: r.position.map(|p| p.to_string()).unwrap_or_default(),
                player: Link::new(name.clone(), player_href(league, r.player, &name)),
                team: line.and_then(|l| l.team_name.clone()).unwrap_or_default(),
                detail: format!("won {} of {} {}", t.won, t.played, games(t.played)),
                figure: format!("{}%", t.win_percent().unwrap_or(0)),
            }
        })
        .collect();
    let win_rate_note = format!(
        "Players with at least {min} league {} (cup games are counted apart), by win rate, then \
         games won; players level on both share a place.",
        games(min)
    );

    let ratings = top_by_rating(state, league, season, &stat_lines, settled, &lines).await?;

    let approved = counted_fixtures(&lines);
    let (results, names) = db.current_results(league.id, &approved).await?;
    let found = season_feats(
        &feat_matches(&lines, &results, &names, &scores, &formats),
        |fixture, side| team_of(&lines, fixture, side),
    );

    let title = if settled {
        format!("Honours, season {}", season.name)
    } else {
        format!("Honours so far, season {}", season.name)
    };
    let status = if settled {
        "The season is over: these are its final honours.".to_owned()
    } else {
        "The season is still being played: these are the standings so far, not the final \
         honours."
            .to_owned()
    };
    Ok(Honours {
        season: season.clone(),
        title,
        status,
        settled,
        divisions,
        cups,
        win_rate,
        win_rate_note,
        ratings,
        feats: feat_groups(&found, &lines),
    })
}

/// The season's players by their rating in its rule family after their
/// last game up to the season's end (its last fixture once it is over; now
/// while it runs), established ratings only, the top places.
async fn top_by_rating(
    state: &AppState,
    league: &League,
    season: &Season,
    players: &[crate::db::stats::PlayerStatLine],
    settled: bool,
    lines: &[FixtureLine],
) -> Result<Vec<PlayerLine>> {
    let rated = state.ratings(league).await?;
    let end = if settled {
        lines
            .iter()
            .filter_map(|l| l.starts_at)
            .max()
            .map_or(i64::MAX, |t| t.timestamp())
    } else {
        i64::MAX
    };
    let mut at_end: Vec<(
        &crate::db::stats::PlayerStatLine,
        crate::league::ratings::Rating,
    )> = players
        .iter()
        .filter_map(|p| {
            let r = rated
                .ratings
                .course(p.player_id, season.format)
                .iter()
                .rev()
                .find(|s| s.key.played_at <= end)?
                .after;
            (!r.provisional(rated.provisional_games)).then_some((p, r))
        })
        .collect();
    at_end.sort_by(|a, b| {
        b.1.rating
            .total_cmp(&a.1.rating)
            .then(a.0.player_id.cmp(&b.0.player_id))
    });
    Ok(at_end
        .iter()
        .take(TOP_PLACES)
        .enumerate()
        .map(|(i, (p, r))| PlayerLine {
            position: (i + 1).to_string(),
            player: Link::new(p.name.clone(), player_href(league, p.player_id, &p.name)),
            team: p.team_name.clone().unwrap_or_default(),
            detail: format!(
                "{} rated {} (± {:.1})",
                r.games,
                if r.games == 1 { "game" } else { "games" },
                r.uncertainty
            ),
            figure: format!("{:.1}", r.rating),
        })
        .collect())
}

fn games(n: u32) -> &'static str {
    if n == 1 { "game" } else { "games" }
}

fn plural(n: impl Into<i64>, one: &'static str, many: &'static str) -> &'static str {
    if n.into() == 1 { one } else { many }
}

/// A division's champions and runners-up from its table (`rows`, as the
/// division page orders it).
fn division_honours(
    league: &League,
    division: Link,
    rows: &[Row],
    names: &HashMap<TeamId, &str>,
    settled: bool,
) -> DivisionHonours {
    let name = |team: i64| names.get(&TeamId(team)).copied().unwrap_or("?");
    if rows.iter().all(|r| r.played == 0) {
        return DivisionHonours {
            division,
            places: Vec::new(),
            note: "No results yet.".into(),
        };
    }
    let titles = if settled {
        ["Champions", "Runners-up"]
    } else {
        ["Leading", "Second"]
    };
    // The table's first two, but a team yet to play is named for nothing.
    let places = rows
        .iter()
        .zip(titles)
        .filter(|(r, _)| r.played > 0)
        .map(|(r, title)| Place {
            title,
            team: Link::new(
                name(r.team),
                team_href(league, TeamId(r.team), name(r.team)),
            ),
            record: format!(
                "{} {} from {} {}",
                r.points,
                plural(r.points, "point", "points"),
                r.played,
                plural(r.played, "match", "matches")
            ),
        })
        .collect();
    let note = ties_in(0, rows, 0, 0)
        .first()
        .map(|tie| {
            let teams: Vec<&str> = tie.teams.iter().map(|t| name(*t)).collect();
            if settled {
                format!(
                    "{} are level on every rule for the title: listed by name.",
                    and_list(&teams)
                )
            } else {
                format!(
                    "{} are level on every rule for the title: a play-off settles it; until then \
                     they are listed by name.",
                    and_list(&teams)
                )
            }
        })
        .unwrap_or_default();
    DivisionHonours {
        division,
        places,
        note,
    }
}

/// A cup's winner and runner-up, once its final is decided.
fn cup_honours(
    league: &League,
    data: &CupData,
    matches: &HashMap<crate::db::FixtureId, crate::league::cup::TieMatch>,
) -> Result<CupHonours> {
    let kind = data.cup.entrants;
    let name = |id: CupEntrantId| {
        data.entrants
            .iter()
            .find(|e| e.id == id)
            .map_or_else(String::new, |e| match kind {
                EntrantKind::Teams => entrant_name(kind, e),
                _ => format!("{} ({})", entrant_name(kind, e), e.team_name),
            })
    };
    let decided = final_result(data, matches)?;
    let note = match &decided {
        Some(_) => String::new(),
        None if data.ties.is_empty() => "Not decided: its first round is not drawn yet.".into(),
        None if data.ties.iter().any(|t| t.round == i64::from(rounds(data))) => {
            "Not decided: the final is still to be played.".into()
        }
        None => "Not decided: the final is not drawn yet.".into(),
    };
    Ok(CupHonours {
        cup: Link::new(
            data.cup.name.clone(),
            cup_href(league, data.cup.id, &data.cup.name),
        ),
        kind: kind.title(),
        winner: decided.map(|(w, _)| name(w)),
        runner_up: decided.and_then(|(_, r)| r).map(name),
        note,
    })
}

/// The team that played on `side` (0: home) of fixture `fixture`.
fn team_of(lines: &[FixtureLine], fixture: i64, side: usize) -> Option<TeamId> {
    let f = lines.iter().find(|f| f.id.0 == fixture)?;
    Some(if side == 0 {
        f.home_team_id
    } else {
        f.away_team_id
    })
}

/// At most [`LISTED`] of `lines`, and how many more `of` there are, so a
/// feat many share keeps the printed honours to their sheets.
fn listed(mut lines: Vec<String>, of: &str) -> Vec<String> {
    if lines.len() > LISTED {
        let more = lines.len() - LISTED;
        lines.truncate(LISTED);
        lines.push(format!("and {more} more {of}"));
    }
    lines
}

/// The season's feats in words, a group a kind, leaving out the kinds not
/// seen.
fn feat_groups(found: &SeasonFeats<Option<TeamId>>, lines: &[FixtureLine]) -> Vec<FeatGroup> {
    let by_id: HashMap<i64, &FixtureLine> = lines.iter().map(|f| (f.id.0, f)).collect();
    let names: HashMap<TeamId, &str> = lines
        .iter()
        .flat_map(|f| {
            [
                (f.home_team_id, f.home_name.as_str()),
                (f.away_team_id, f.away_name.as_str()),
            ]
        })
        .collect();
    let team = |t: &Option<TeamId>| {
        t.and_then(|t| names.get(&t).copied())
            .unwrap_or("?")
            .to_owned()
    };
    let side = |fixture: i64, side: usize| team(&team_of(lines, fixture, side));
    let people = |names: &[String], fixture: i64, s: usize| {
        format!("{} ({})", names.join(" & "), side(fixture, s))
    };
    let game = |g: &GameFeat| {
        let place = by_id.get(&g.fixture).map_or(String::new(), |f| {
            format!("{}, {}, ", f.competition, f.round_words())
        });
        format!(
            "{} won {}–{} in {} hands against {} ({place}board {}{})",
            people(&g.winners, g.fixture, g.team),
            g.score[0],
            g.score[1],
            g.hands,
            people(&g.losers, g.fixture, 1 - g.team),
            g.board,
            if g.game > 1 {
                format!(", game {}", g.game)
            } else {
                String::new()
            }
        )
    };
    let player = |p: &PlayerCount<Option<TeamId>>| {
        format!(
            "Most by a player: {} ({}), {}",
            p.player,
            team(&p.team),
            p.count
        )
    };
    let team_count =
        |t: &TeamCount<Option<TeamId>>| format!("Most by a team: {}, {}", team(&t.team), t.count);
    let all = &found.all;
    let mut out = Vec::new();
    if let Some(first) = all.quickest.first() {
        // The first played first (the fixtures' order: round, date).
        let order: HashMap<i64, usize> =
            lines.iter().enumerate().map(|(i, f)| (f.id.0, i)).collect();
        let mut quickest: Vec<&GameFeat> = all.quickest.iter().collect();
        quickest.sort_by_key(|g| (order.get(&g.fixture).copied(), g.board, g.game));
        let n = quickest.len();
        let mut lines = vec![format!(
            "{n} {} won in {} hands",
            plural(i64::try_from(n).unwrap_or(i64::MAX), "game", "games"),
            first.hands
        )];
        lines.extend(listed(quickest.into_iter().map(game).collect(), "games"));
        out.push(FeatGroup {
            title: format!("Quickest to {}: {} hands", first.target, first.hands),
            lines,
        });
    }
    if all.eights_total > 0 {
        let mut lines = vec![format!("{} in all", all.eights_total)];
        lines.extend(listed(
            found.most_eights.iter().map(player).collect(),
            "players with as many",
        ));
        out.push(FeatGroup {
            title: "8-point plays (the ends totalling 15)".into(),
            lines,
        });
    }
    if !all.whitewashes.is_empty() {
        let mut lines = vec![format!("{} in all", all.whitewashes.len())];
        lines.extend(listed(
            found.most_whitewashes.iter().map(team_count).collect(),
            "teams with as many",
        ));
        out.push(FeatGroup {
            title: "Whitewashes: every board won".into(),
            lines,
        });
    }
    if !all.without_reply.is_empty() {
        let mut lines = vec![format!("{} in all", all.without_reply.len())];
        lines.extend(listed(
            found.most_without_reply.iter().map(player).collect(),
            "players with as many",
        ));
        out.push(FeatGroup {
            title: "Games won without reply".into(),
            lines,
        });
    }
    if !all.nil_sets.is_empty() {
        let mut lines = vec![format!("{} in all", all.nil_sets.len())];
        lines.extend(listed(
            found.most_nil_sets.iter().map(player).collect(),
            "players with as many",
        ));
        out.push(FeatGroup {
            title: "Sets won to nil".into(),
            lines,
        });
    }
    out
}

// ---------------------------------------------------------------------------
// The honours as the API gives them

/// A season's honours as data: the same lines the page and the text show.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct HonoursView {
    pub title: String,
    /// Whether they are final, in a sentence.
    pub status: String,
    /// The season is over: its honours are final.
    pub settled: bool,
    pub divisions: Vec<DivisionHonoursView>,
    pub cups: Vec<CupHonoursView>,
    /// The player table's top places by win rate.
    pub win_rate: Vec<PlayerLineView>,
    pub win_rate_note: String,
    /// The season's players with an established rating, highest first.
    pub ratings: Vec<PlayerLineView>,
    pub feats: Vec<FeatGroupView>,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct DivisionHonoursView {
    pub division: String,
    pub places: Vec<PlaceView>,
    pub note: String,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlaceView {
    /// `Champions`, `Runners-up`; `Leading`, `Second` while played.
    pub title: String,
    pub team: String,
    pub record: String,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct CupHonoursView {
    pub cup: String,
    pub kind: String,
    pub winner: Option<String>,
    pub runner_up: Option<String>,
    pub note: String,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlayerLineView {
    /// The place, shared by players level.
    pub position: String,
    pub player: String,
    pub team: String,
    pub detail: String,
    pub figure: String,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct FeatGroupView {
    pub title: String,
    pub lines: Vec<String>,
}

/// The honours of `season` as data.
pub(crate) async fn honours_view(
    state: &AppState,
    league: &League,
    season: &Season,
) -> Result<HonoursView> {
    let h = build(state, league, season).await?;
    let player = |p: &PlayerLine| PlayerLineView {
        position: p.position.clone(),
        player: p.player.text.clone(),
        team: p.team.clone(),
        detail: p.detail.clone(),
        figure: p.figure.clone(),
    };
    Ok(HonoursView {
        title: h.title.clone(),
        status: h.status.clone(),
        settled: h.settled,
        divisions: h
            .divisions
            .iter()
            .map(|d| DivisionHonoursView {
                division: d.division.text.clone(),
                places: d
                    .places
                    .iter()
                    .map(|p| PlaceView {
                        title: p.title.to_owned(),
                        team: p.team.text.clone(),
                        record: p.record.clone(),
                    })
                    .collect(),
                note: d.note.clone(),
            })
            .collect(),
        cups: h
            .cups
            .iter()
            .map(|c| CupHonoursView {
                cup: c.cup.text.clone(),
                kind: c.kind.to_owned(),
                winner: c.winner.clone(),
                runner_up: c.runner_up.clone(),
                note: c.note.clone(),
            })
            .collect(),
        win_rate: h.win_rate.iter().map(player).collect(),
        win_rate_note: h.win_rate_note.clone(),
        ratings: h.ratings.iter().map(player).collect(),
        feats: h
            .feats
            .iter()
            .map(|f| FeatGroupView {
                title: f.title.clone(),
                lines: f.lines.clone(),
            })
            .collect(),
    })
}
