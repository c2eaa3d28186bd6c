//! A captain's matches on the home page, phone first: what needs them now
//! (a result to enter, one to confirm or dispute), what waits on others,
//! and what is coming up, each with the link that does it.
//!
//! Queries: per league captained, its pending results and its roles; per
//! team captained, its fixtures. A captain has one or two teams, so this
//! is a handful of queries, never one per fixture.

use crate::web::links;
use std::collections::{BTreeSet, HashMap};

use chrono::Utc;

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{
    Db, FixtureId, FixtureStatus, LeagueId, ResultStatus, RoleKind, SeasonId, TeamId, UserId,
};
use crate::league::time::Zone;

use super::auth::CurrentUser;
use super::dates;
use super::error::Result;
use super::links::player_href;
use super::views::next_match::{NextMatch, next_match_of};

/// One fixture and what to do about it.
pub struct MatchItem {
    pub when: String,
    pub title: String,
    /// Where the action is done.
    pub href: String,
    /// What the link says: "Enter the result", "Confirm or dispute", ...
    pub action: &'static str,
    /// Where the result stands, in words.
    pub state: String,
}

/// A team the user captains, with its matches by what they need.
pub struct TeamMatches {
    pub team: String,
    pub league: String,
    pub needs_you: Vec<MatchItem>,
    pub waiting: Vec<MatchItem>,
    pub coming_up: Vec<MatchItem>,
}

/// A player's own record, for a user with a player role.
pub struct OwnRecord {
    pub league: String,
    pub player: String,
    pub href: String,
    /// Their current team's next match.
    pub next: Option<NextMatch>,
}

/// The player pages of the players the user is, and each one's next match:
/// four queries each (a user is one player, in one league or a few).
pub async fn own_records(db: &Db, user: &CurrentUser) -> Result<Vec<OwnRecord>> {
    let mut out = Vec::new();
    for r in user.roles.iter().filter(|r| r.kind == RoleKind::Player) {
        let (Some(league), Some(player)) = (r.league_id, r.player_id) else {
            continue;
        };
        let league = db.league(league).await?;
        let player = db.player(league.id, player).await?;
        let next = next_match_of(db, &league, player.id).await?;
        out.push(OwnRecord {
            next,
            href: player_href(&league, player.id, &player.name),
            league: league.name,
            player: player.name,
        });
    }
    Ok(out)
}

/// How many coming fixtures are listed.
const COMING_UP: usize = 3;

pub async fn for_user(db: &Db, user: &CurrentUser) -> Result<Vec<TeamMatches>> {
    let captaincies: Vec<(LeagueId, SeasonId, TeamId)> = user
        .roles
        .iter()
        .filter(|r| r.kind == RoleKind::Captain)
        .filter_map(|r| Some((r.league_id?, r.season_id?, r.team_id?)))
        .collect();
    let leagues: BTreeSet<LeagueId> = captaincies.iter().map(|c| c.0).collect();
    let mut out = Vec::new();
    for league_id in leagues {
        let league = db.league(league_id).await?;
        let pending: HashMap<FixtureId, Option<UserId>> = db
            .pending_versions(league_id)
            .await?
            .into_iter()
            .map(|p| (p.fixture_id, p.created_by))
            .collect();
        let roles = db.league_roles(league_id).await?;
        for &(_, season, team) in captaincies.iter().filter(|c| c.0 == league_id) {
            // The team's captains: a result one of them entered is the
            // other team's to confirm.
            let ours: BTreeSet<UserId> = roles
                .iter()
                .filter(|r| r.kind == RoleKind::Captain)
                .filter(|r| r.season_id == Some(season) && r.team_id == Some(team))
                .map(|r| r.user_id)
                .chain([user.id])
                .collect();
            let mut lines = db
                .fixture_lines(league_id, &FixtureScope::Team { season, team })
                .await?;
            let lock_days = db
                .season(league_id, season)
                .await?
                .rules()?
                .settings
                .lock_days;
            // By date, not round: a postponed fixture goes where it now is.
            lines.sort_by_key(|f| (f.starts_at.is_none(), f.starts_at, f.id));
            let Some(first) = lines.first() else {
                continue;
            };
            let name = if first.home_team_id == team {
                first.home_name.clone()
            } else {
                first.away_name.clone()
            };
            let mut t = TeamMatches {
                team: name,
                league: league.name.clone(),
                needs_you: Vec::new(),
                waiting: Vec::new(),
                coming_up: Vec::new(),
            };
            for line in &lines {
                sort(
                    &mut t,
                    line,
                    &league.short_name,
                    league.time_zone,
                    &pending,
                    &ours,
                    lock_days,
                );
            }
            t.coming_up.truncate(COMING_UP);
            out.push(t);
        }
    }
    Ok(out)
}

/// Puts one fixture where it belongs: needs you, waiting on others, or
/// coming up; settled fixtures go nowhere.
fn sort(
    t: &mut TeamMatches,
    f: &FixtureLine,
    short: &str,
    zone: Zone,
    pending: &HashMap<FixtureId, Option<UserId>>,
    ours: &BTreeSet<UserId>,
    lock_days: Option<u32>,
) {
    // Past the season's result lock, entering or correcting is the
    // secretary's: the captain is told so instead of sent to a refusal.
    let locked = crate::league::workflow::FixtureState {
        status: f.status,
        starts_at: f.starts_at,
        lock_days,
        season_closed: false,
    }
    .locks_at()
    .is_some_and(|since| Utc::now() > since);
    let base = links::at_short(short).match_page(f.id);
    let item = |href: String, action, state: String| MatchItem {
        when: f
            .starts_at
            .map(|t| dates::when(zone, t))
            .unwrap_or_default(),
        title: format!("{} v {}", f.home_label(), f.away_label()),
        href,
        action,
        state,
    };
    if matches!(f.status, FixtureStatus::Void | FixtureStatus::Walkover) {
        return;
    }
    match f.result_status {
        Some(ResultStatus::Approved) => {}
        Some(status) => {
            let by_us = pending
                .get(&f.id)
                .copied()
                .flatten()
                .is_some_and(|by| ours.contains(&by));
            match status {
                ResultStatus::Entered if !by_us => t.needs_you.push(item(
                    base.history(),
                    "Confirm or dispute",
                    "entered by the other team".into(),
                )),
                ResultStatus::Disputed if locked => t.waiting.push(item(
                    base.card(),
                    "Locked",
                    "disputed, and locked: the secretary corrects it".into(),
                )),
                ResultStatus::Disputed => {
                    t.needs_you
                        .push(item(base.card(), "Correct the result", "disputed".into()))
                }
                ResultStatus::Entered => t.waiting.push(item(
                    base.to_string(),
                    "See it",
                    "entered: the other captain confirms".into(),
                )),
                _ => t.waiting.push(item(
                    base.to_string(),
                    "See it",
                    "confirmed: the secretary approves".into(),
                )),
            }
        }
        None => {
            let due = f.starts_at.is_some_and(|at| at <= Utc::now());
            if due && locked && f.status == FixtureStatus::Scheduled {
                t.waiting.push(item(
                    base.card(),
                    "Locked",
                    "no result, and locked: the secretary enters it".into(),
                ));
            } else if due && f.status == FixtureStatus::Scheduled {
                t.needs_you.push(item(
                    base.card(),
                    "Enter the result",
                    "played, no result yet".into(),
                ));
            } else if f.status == FixtureStatus::Scheduled {
                t.coming_up.push(item(
                    links::at_short(short).print_fixture(f.id),
                    "Score sheet",
                    f.venue_name
                        .clone()
                        .map_or_else(String::new, |v| format!("at {v}")),
                ));
            }
        }
    }
}
