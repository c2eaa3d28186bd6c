//! A captain's matches on the home page, phone first: tonight's match with
//! its one next step (the score pads, then confirming or waiting), what
//! needs them now (a result to enter, one to confirm or dispute), what
//! waits on others, and what is coming up, each with the link that does it.
//!
//! Queries: per league captained, its pending results and its roles; per
//! team captained, its fixtures. A captain has one or two teams, so this
//! is a handful of queries, never one per fixture.

use crate::web::links;
use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};

use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{Db, FixtureId, League, LeagueId, RoleKind, SeasonId, Side, TeamId, UserId};
use crate::league::match_night::{self, Step};
use crate::league::workflow;

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
    /// The captain's to do (a button), not a wait (a link).
    pub act: bool,
    /// Another way to do it, less used (tonight: the match card).
    pub also: Option<(String, &'static str)>,
    /// The team sheet (answers and line-up), for a match still to play.
    pub sheet: Option<String>,
}

/// A team the user captains, with its matches by what they need.
pub struct TeamMatches {
    pub team: String,
    pub league: String,
    /// Tonight's match, first on the page, with its one next step.
    pub tonight: Vec<MatchItem>,
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
        let next = match next_match_of(db, &league, player.id).await? {
            Some(n) => Some(n.with_answer(db, &league, player.id, "/").await?),
            None => None,
        };
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
                tonight: Vec::new(),
                needs_you: Vec::new(),
                waiting: Vec::new(),
                coming_up: Vec::new(),
            };
            let captain = Captain {
                user: user.id,
                team,
                ours: &ours,
                pending: &pending,
                lock_days,
            };
            for line in &lines {
                sort(&mut t, line, &league, &captain, Utc::now());
            }
            t.coming_up.truncate(COMING_UP);
            out.push(t);
        }
    }
    Ok(out)
}

/// The captain whose page it is, as each fixture's step needs them.
struct Captain<'a> {
    user: UserId,
    team: TeamId,
    /// The team's captains this season, the user among them.
    ours: &'a BTreeSet<UserId>,
    /// Who entered each fixture's current result, where it awaits a step.
    pending: &'a HashMap<FixtureId, Option<UserId>>,
    lock_days: Option<u32>,
}

/// Puts one fixture where it belongs: tonight's first, then needs you,
/// waiting on others, or coming up; settled fixtures go nowhere. The step
/// is `league::match_night`'s, and confirming is offered by the workflow's
/// own rule, so the captain who entered a result is never offered it.
fn sort(t: &mut TeamMatches, f: &FixtureLine, league: &League, c: &Captain, now: DateTime<Utc>) {
    let zone = league.time_zone;
    // Past the season's result lock, entering or correcting is the
    // secretary's: the captain is told so instead of sent to a refusal.
    let locked = workflow::FixtureState {
        status: f.status,
        starts_at: f.starts_at,
        lock_days: c.lock_days,
        season_closed: false,
    }
    .locks_at()
    .is_some_and(|since| now > since);
    let side = if f.home_team_id == c.team {
        Side::Home
    } else {
        Side::Away
    };
    let may_confirm = f.result_status.is_some_and(|status| {
        // The version as the workflow sees it: entered by one of this
        // team's captains, or by someone else (the other team, a secretary).
        let entered_by = c.pending.get(&f.id).copied().flatten();
        let ours = entered_by.is_some_and(|by| c.ours.contains(&by));
        let version = workflow::VersionState {
            version: 0,
            status,
            entered_by,
            entered_for: if ours { vec![side] } else { Vec::new() },
        };
        workflow::may_confirm(workflow::Actor::captain(c.user, side), &version).is_ok()
    });
    let tonight = f
        .starts_at
        .is_some_and(|at| match_night::tonight(zone, at, now));
    let step = match_night::next_step(&match_night::Facts {
        status: f.status,
        result: f.result_status,
        may_confirm,
        tonight,
        started: f.starts_at.is_some_and(|at| at <= now),
        locked,
    });
    let at = links::at(league);
    let base = at.match_page(f.id);
    let (other, venue) = (
        if side == Side::Home {
            f.away_label()
        } else {
            f.home_label()
        },
        f.venue_name
            .clone()
            .map_or_else(String::new, |v| format!("at {v}")),
    );
    let (href, action, state, also) = match step {
        Step::ScorePads => (
            super::pad::way_in(&base),
            "Open the score pads",
            String::new(),
            Some((base.card(), "Or enter the result on the match card")),
        ),
        Step::EnterResult => (
            base.card(),
            "Enter the result",
            "played, no result yet".into(),
            None,
        ),
        Step::ConfirmOrDispute => (
            base.history(),
            "Confirm or dispute",
            format!("entered by {other}: check it"),
            None,
        ),
        Step::Correct => (base.card(), "Correct the result", "disputed".into(), None),
        Step::AwaitingOtherCaptain => (
            base.history(),
            "See the result",
            format!("entered: waiting for the other captain ({other}) to confirm"),
            None,
        ),
        Step::AwaitingApproval => (
            base.to_string(),
            "See it",
            "confirmed: the secretary approves".into(),
            None,
        ),
        Step::Locked if f.result_status.is_some() => (
            base.card(),
            "Locked",
            "disputed, and locked: the secretary corrects it".into(),
            None,
        ),
        Step::Locked => (
            base.card(),
            "Locked",
            "no result, and locked: the secretary enters it".into(),
            None,
        ),
        Step::ComingUp => (
            base.team_sheet(side).to_string(),
            "Team sheet",
            venue.clone(),
            Some((at.print_fixture(f.id), "Score sheet")),
        ),
        Step::Done => (
            base.to_string(),
            "See the match",
            "approved: it counts in the tables".into(),
            None,
        ),
        Step::Nothing => return,
    };
    let item = MatchItem {
        when: match f.starts_at {
            Some(at) if tonight => {
                let mut when = format!("Tonight, {}", dates::clock(zone, at));
                if !venue.is_empty() {
                    when.push(' ');
                    when.push_str(&venue);
                }
                when
            }
            Some(at) => dates::when(zone, at),
            None => String::new(),
        },
        title: format!("{} v {}", f.home_label(), f.away_label()),
        href,
        action,
        state,
        act: step.is_action(),
        also,
        sheet: matches!(step, Step::ScorePads).then(|| base.team_sheet(side).to_string()),
    };
    if tonight {
        t.tonight.push(item);
        return;
    }
    match step {
        Step::ComingUp => t.coming_up.push(item),
        Step::Done | Step::Nothing => {}
        s if s.is_action() => t.needs_you.push(item),
        _ => t.waiting.push(item),
    }
}
