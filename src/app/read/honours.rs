//! A season's honours, for its presentation night: each division's
//! champions and runners-up, each cup's winner and runner-up once its
//! final is decided, the top players by win rate and by rating, and the
//! feats of the season's hands; what the honours page, its text for the
//! paper and `/api/v1/.../seasons/{id}/honours` show. A season still being
//! played has its honours so far, said to be not final.
//!
//! Nothing is worked out here that another page works out already: the
//! tables are the division page's (`app::division_table`), a cup's winner
//! the bracket's (`app::cups`), the players' ranking the player table's
//! (its sums, penalties and order), and the feats the round-up's
//! (`app::feats`, `league::feats`) over every match of the season.
//!
//! Queries, whatever the size of the season: the season's divisions,
//! fixtures, boards, entries and deductions, its cups (four), the player
//! table's two sums, and the current results of its matches (ten, all at
//! once).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use crate::app::by_generation::ByGeneration;
use crate::app::cups::{final_result, rounds, tie_matches};
use crate::app::division_table::division_rows;
use crate::app::feats::{counted_fixtures, feat_matches};
use crate::app::formats::{match_formats, scores_by_season};
use crate::app::ratings::{LeagueRatings, RatingCache};
use crate::app::read::cup::entrant_name;
use crate::app::tallies::{penalty, tally};
use crate::app::words::and_list;
use crate::db::generation::Follows;
use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::results::KeptResults;
use crate::db::stats::{Counted, PlayerStatLine};
use crate::db::{
    CupData, CupEntrantId, Db, FixtureId, League, LeagueId, PlayerId, Result, Season, SeasonId,
    TeamId,
};
use crate::league::cup::{EntrantKind, TieMatch};
use crate::league::feats::{GameFeat, PlayerCount, SeasonFeats, TeamCount, season_feats};
use crate::league::players::{PlayerTable, Tally, apply_penalties, table};
use crate::league::ratings::Rating;
use crate::league::rollover::ties_in;
use crate::league::standings::Row;

/// Places of the player table the honours name (more players when some
/// share a place).
const TOP_PLACES: usize = 3;

/// Most games (or players, or teams) named for one feat; the others are
/// counted.
const LISTED: usize = 4;

/// Each season's honours, kept while its league's records stand.
pub type KeptHonours = ByGeneration<(LeagueId, SeasonId), HonoursView>;

/// A season's honours as data: the same lines the page and the text show.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HonoursView {
    /// The season's record they were worked out from.
    #[serde(skip)]
    pub season: Season,
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

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DivisionHonoursView {
    pub division: String,
    pub places: Vec<PlaceView>,
    pub note: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlaceView {
    /// `Champions`, `Runners-up`; `Leading`, `Second` while played.
    pub title: String,
    #[serde(skip)]
    pub team_id: i64,
    pub team: String,
    pub record: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CupHonoursView {
    #[serde(skip)]
    pub cup_id: i64,
    pub cup: String,
    pub kind: String,
    pub winner: Option<String>,
    pub runner_up: Option<String>,
    pub note: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerLineView {
    /// The place, shared by players level.
    pub position: String,
    #[serde(skip)]
    pub player_id: i64,
    pub player: String,
    pub team: String,
    pub detail: String,
    pub figure: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FeatGroupView {
    pub title: String,
    pub lines: Vec<String>,
}

/// The honours of `season`: kept in `kept` while the league's records
/// stand (they read every hand of the season, tens of milliseconds on a
/// big league), worked out again after any write to them.
pub async fn honours(
    db: &Db,
    ratings: &RatingCache,
    kept: &KeptHonours,
    results: &KeptResults,
    league: &League,
    season: &Season,
) -> Result<Arc<HonoursView>> {
    // Read before the records: a write in between leaves what is worked
    // out here under the older number.
    let generation = db
        .page_generation(Some(&league.short_name), Follows::Records)
        .await?;
    // `season` was read before the generation: worked out from an older
    // record of it (closed since?), they are worked out again once it is
    // read as it is now.
    kept.get_or_work_if(
        (league.id, season.id),
        generation,
        |h| h.season == *season,
        || work_out(db, ratings, results, league, season),
    )
    .await
}

/// The honours of `season`, from one load of its records.
async fn work_out(
    db: &Db,
    ratings: &RatingCache,
    kept: &KeptResults,
    league: &League,
    season: &Season,
) -> Result<HonoursView> {
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
            division_honours(d.name.clone(), &rows, &team_names, settled)
        })
        .collect();

    let matches = tie_matches(&lines, &scores);
    let cups = db
        .season_cups(league.id, season.id)
        .await?
        .iter()
        .map(|data| cup_honours(data, &matches))
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
            PlayerLineView {
                position: r.position.map(|p| p.to_string()).unwrap_or_default(),
                player_id: r.player.0,
                player: name,
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

    let rated = ratings.of(db, league).await?;
    let ratings = top_by_rating(&rated, season, &stat_lines, settled, &lines);

    let approved = counted_fixtures(&lines);
    let (results, names) = db.current_results_kept(kept, league.id, &approved).await?;
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
    Ok(HonoursView {
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
fn top_by_rating(
    rated: &LeagueRatings,
    season: &Season,
    players: &[PlayerStatLine],
    settled: bool,
    lines: &[FixtureLine],
) -> Vec<PlayerLineView> {
    let end = if settled {
        lines
            .iter()
            .filter_map(|l| l.starts_at)
            .max()
            .map_or(i64::MAX, |t| t.timestamp())
    } else {
        i64::MAX
    };
    let mut at_end: Vec<(&PlayerStatLine, Rating)> = players
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
    at_end
        .iter()
        .take(TOP_PLACES)
        .enumerate()
        .map(|(i, (p, r))| PlayerLineView {
            position: (i + 1).to_string(),
            player_id: p.player_id.0,
            player: p.name.clone(),
            team: p.team_name.clone().unwrap_or_default(),
            detail: format!(
                "{} rated {} (± {:.1})",
                r.games,
                if r.games == 1 { "game" } else { "games" },
                r.uncertainty
            ),
            figure: format!("{:.1}", r.rating),
        })
        .collect()
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
    division: String,
    rows: &[Row],
    names: &HashMap<TeamId, &str>,
    settled: bool,
) -> DivisionHonoursView {
    let name = |team: i64| names.get(&TeamId(team)).copied().unwrap_or("?");
    if rows.iter().all(|r| r.played == 0) {
        return DivisionHonoursView {
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
        .map(|(r, title)| PlaceView {
            title: title.to_owned(),
            team_id: r.team,
            team: name(r.team).to_owned(),
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
    DivisionHonoursView {
        division,
        places,
        note,
    }
}

/// A cup's winner and runner-up, once its final is decided.
fn cup_honours(data: &CupData, matches: &HashMap<FixtureId, TieMatch>) -> Result<CupHonoursView> {
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
    Ok(CupHonoursView {
        cup_id: data.cup.id.0,
        cup: data.cup.name.clone(),
        kind: kind.title().to_owned(),
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
fn feat_groups(found: &SeasonFeats<Option<TeamId>>, lines: &[FixtureLine]) -> Vec<FeatGroupView> {
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
        out.push(FeatGroupView {
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
        out.push(FeatGroupView {
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
        out.push(FeatGroupView {
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
        out.push(FeatGroupView {
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
        out.push(FeatGroupView {
            title: "Sets won to nil".into(),
            lines,
        });
    }
    out
}
