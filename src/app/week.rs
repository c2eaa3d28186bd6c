//! The secretary's week (issue 39): what the console opens on (the
//! counts, this week's fixtures with where each stands, what waits for
//! the secretary, and older missing results by week), and its bulk
//! actions, each one transaction that acts on every fixture chosen or on
//! none: remind the captains, record walkovers, postpone.
//!
//! Which fixtures an action may act on is `league::week`'s to say; the
//! preview asks it of the fixtures as they are read for the page, and each
//! command asks it again of the fixtures locked inside its transaction, so
//! a fixture changed meanwhile (a result come in) refuses the whole batch
//! rather than being acted on unseen.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, NaiveDate, Utc};

use crate::app::mail::{MailConfig, reminder_audience, secretary_reminder};
use crate::db::approvals::PendingVersion;
use crate::db::audit::{NewAudit, insert_audit};
use crate::db::fixtures::lock_fixture;
use crate::db::mail::{FixtureFacts, Person, fixture_facts, league_captains, queue};
use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::results::current_version;
use crate::db::sql::Tx;
use crate::db::week::{PadsLeft, REMINDER, reminded};
use crate::db::{
    Db, DbError, Fixture, FixtureId, League, LeagueId, Result, ResultStatus, SeasonId, Side,
    TeamId, UserId,
};
use crate::league::overdue::days_overdue;
use crate::league::refusal::Refusal;
use crate::league::week::{self, Bulk, Candidate, Unfit, WeekState};
use crate::league::workflow::Actor;

/// The console's counts, each the length of the list it heads (the late
/// results are the approvals page's, the invitations the users page's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Results entered or confirmed, not disputed, awaiting approval.
    pub to_approve: usize,
    pub disputed: usize,
    /// Fixtures whose night is over with no result entered.
    pub missing: usize,
    /// Late by the league's rule with its penalty not yet applied; `None`
    /// when the league has no such rule.
    pub late: Option<usize>,
    /// Fixtures whose night is over with boards kept on the score pads and
    /// no result submitted.
    pub pads_left: usize,
    /// Invitations not yet taken up.
    pub invitations: usize,
}

/// A fixture of the week, with where it stands.
#[derive(Debug, Clone)]
pub struct Line {
    pub fixture: FixtureLine,
    pub state: WeekState,
    /// When a secretary last reminded its captains.
    pub reminded_at: Option<DateTime<Utc>>,
}

/// A result awaiting the secretary, with its fixture.
#[derive(Debug, Clone)]
pub struct Pending {
    pub fixture: FixtureLine,
    pub version: PendingVersion,
}

/// A week's missing results (its Monday), older than this week.
#[derive(Debug, Clone)]
pub struct MissingWeek {
    pub monday: NaiveDate,
    pub lines: Vec<Line>,
}

/// The pads of a fixture left unsubmitted after its night.
#[derive(Debug, Clone)]
pub struct LeftPads {
    pub fixture: FixtureLine,
    pub pads: PadsLeft,
}

/// What the console's home shows of the league's week.
#[derive(Debug, Clone)]
pub struct Week {
    pub counts: Counts,
    /// The instants "this week" runs between ([`week::this_week`]).
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// This week's fixtures (void ones left out), in order of play.
    pub this_week: Vec<Line>,
    /// Missing results from before this week, newest week first.
    pub older_missing: Vec<MissingWeek>,
    pub approvals: Vec<Pending>,
    pub disputes: Vec<Pending>,
    pub pads: Vec<LeftPads>,
}

/// The league's week at `now`: a dozen queries whatever the number of
/// fixtures.
pub async fn secretary_week(db: &Db, league: &League, now: DateTime<Utc>) -> Result<Week> {
    let (id, zone) = (league.id, league.time_zone);
    let (from, to) = week::this_week(zone, now);
    let mut missing = db
        .fixture_lines(id, &FixtureScope::Missing { before: now })
        .await?;
    missing.retain(|l| {
        l.starts_at
            .and_then(|s| days_overdue(zone, s, now))
            .is_some()
    });
    let mut this_week = db
        .fixture_lines(id, &FixtureScope::Between { from, to })
        .await?;
    this_week.sort_by_key(|l| (l.starts_at, l.id));
    let pending = db.pending_versions(id).await?;
    let left: Vec<PadsLeft> = db.pads_left(id, now).await?;
    let wanted: Vec<FixtureId> = pending
        .iter()
        .map(|p| p.fixture_id)
        .chain(left.iter().map(|p| p.fixture_id))
        .collect();
    let others: HashMap<FixtureId, FixtureLine> = db
        .fixture_lines(id, &FixtureScope::Ids(wanted))
        .await?
        .into_iter()
        .map(|l| (l.id, l))
        .collect();
    // A board's night is over once its match is overdue.
    let pads: Vec<LeftPads> = left
        .into_iter()
        .filter_map(|p| {
            let line = others.get(&p.fixture_id)?;
            days_overdue(zone, line.starts_at?, now)?;
            Some(LeftPads {
                fixture: line.clone(),
                pads: p,
            })
        })
        .collect();
    let late = match db.late_result_rule(id).await? {
        Some(_) => Some(db.late_results(Some(id), now).await?.len()),
        None => None,
    };
    let invitations = db.waiting_invitations(id).await?.len();
    let reminded: HashMap<FixtureId, DateTime<Utc>> = db.reminded(id).await?.into_iter().collect();

    let missing_ids: HashSet<FixtureId> = missing.iter().map(|l| l.id).collect();
    let pad_ids: HashSet<FixtureId> = pads.iter().map(|p| p.fixture.id).collect();
    let line = |l: &FixtureLine| Line {
        state: WeekState::of(
            l.status,
            l.conceded_by,
            l.result_status,
            missing_ids.contains(&l.id),
            pad_ids.contains(&l.id),
        ),
        reminded_at: reminded.get(&l.id).copied(),
        fixture: l.clone(),
    };
    let mut weeks: BTreeMap<NaiveDate, Vec<Line>> = BTreeMap::new();
    for l in &missing {
        match l.starts_at {
            Some(at) if at < from => weeks
                .entry(week::week_of(zone, at))
                .or_default()
                .push(line(l)),
            _ => {}
        }
    }
    let older_missing = weeks
        .into_iter()
        .rev()
        .map(|(monday, mut lines)| {
            lines.sort_by_key(|l| (l.fixture.starts_at, l.fixture.id));
            MissingWeek { monday, lines }
        })
        .collect();
    let (mut approvals, mut disputes) = (Vec::new(), Vec::new());
    for p in pending {
        let Some(fixture) = others.get(&p.fixture_id).cloned() else {
            continue;
        };
        let list = if p.status == ResultStatus::Disputed {
            &mut disputes
        } else {
            &mut approvals
        };
        list.push(Pending {
            fixture,
            version: p,
        });
    }
    Ok(Week {
        counts: Counts {
            to_approve: approvals.len(),
            disputed: disputes.len(),
            missing: missing.len(),
            late,
            pads_left: pads.len(),
            invitations,
        },
        from,
        to,
        this_week: this_week.iter().map(line).collect(),
        older_missing,
        approvals,
        disputes,
        pads,
    })
}

/// A fixture chosen for a bulk action, and whether the action may act on
/// it.
#[derive(Debug, Clone)]
pub struct Planned {
    pub fixture: FixtureLine,
    pub fit: std::result::Result<(), Unfit>,
    /// Who a reminder of it would go to (usernames).
    pub told: Vec<String>,
}

/// The captains of a fixture's two teams in its season, of `captains`.
fn fixture_people(
    captains: &[(SeasonId, Person)],
    season: SeasonId,
    teams: [TeamId; 2],
) -> Vec<Person> {
    captains
        .iter()
        .filter(|(s, p)| *s == season && p.captain_of.is_some_and(|t| teams.contains(&t)))
        .map(|(_, p)| p.clone())
        .collect()
}

/// What `action` would do to each of `chosen`, read as the fixtures are
/// now (the confirmation page): five queries whatever their number.
/// Fixtures not of this league are not found, and left out.
pub async fn plan(
    db: &Db,
    league: &League,
    action: Bulk,
    chosen: &[FixtureId],
    now: DateTime<Utc>,
) -> Result<Vec<Planned>> {
    let mut lines = db
        .fixture_lines(league.id, &FixtureScope::Ids(chosen.to_vec()))
        .await?;
    lines.sort_by_key(|l| (l.starts_at, l.id));
    let versions: HashMap<FixtureId, i64> = db
        .pending_versions(league.id)
        .await?
        .into_iter()
        .map(|p| (p.fixture_id, p.version))
        .collect();
    let reminded: HashMap<FixtureId, DateTime<Utc>> =
        db.reminded(league.id).await?.into_iter().collect();
    let captains = league_captains(db, league.id).await?;
    Ok(lines
        .into_iter()
        .map(|l| {
            let people = fixture_people(&captains, l.season_id, [l.home_team_id, l.away_team_id]);
            let c = Candidate {
                status: l.status,
                starts_at: l.starts_at,
                result: l
                    .result_status
                    .map(|s| (versions.get(&l.id).copied().unwrap_or(0), s)),
                reminded_at: reminded.get(&l.id).copied(),
                reachable: !reminder_audience(&people).is_empty(),
            };
            Planned {
                fit: week::fit(action, &c, league.time_zone, now),
                told: reminder_audience(&people)
                    .iter()
                    .map(|p| p.username.clone())
                    .collect(),
                fixture: l,
            }
        })
        .collect())
}

/// A fixture locked in a command's transaction, as the rules of the week
/// see it.
struct Locked {
    fixture: Fixture,
    facts: FixtureFacts,
    people: Vec<Person>,
    candidate: Candidate,
}

/// Locks each of `ids` (in order, so two batches never deadlock) and reads
/// it as [`Candidate`]; a fixture not of this league is not found.
async fn lock_all(
    tx: &mut Tx,
    league: LeagueId,
    ids: &[FixtureId],
    with_people: bool,
) -> Result<Vec<Locked>> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let captains = if with_people {
        league_captains(&mut *tx, league).await?
    } else {
        Vec::new()
    };
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let fixture = lock_fixture(tx, league, id).await?;
        let current = current_version(tx, league, id).await?;
        let facts = fixture_facts(tx, league, id)
            .await?
            .ok_or_else(|| DbError::not_found(format!("fixture {id}")))?;
        let reminded_at = reminded(&mut *tx, league, Some(id))
            .await?
            .first()
            .map(|(_, at)| *at);
        let people = fixture_people(
            &captains,
            fixture.season_id,
            [fixture.home_team_id, fixture.away_team_id],
        );
        let candidate = Candidate {
            status: fixture.status,
            starts_at: fixture.starts_at,
            result: current.map(|v| (v.version, v.status)),
            reminded_at,
            reachable: !reminder_audience(&people).is_empty(),
        };
        out.push(Locked {
            fixture,
            facts,
            people,
            candidate,
        });
    }
    Ok(out)
}

/// Refuses the whole batch, naming each fixture the rule refuses.
fn all_fit<T>(
    locked: &[Locked],
    rule: impl Fn(&Candidate) -> std::result::Result<T, Unfit>,
) -> Result<Vec<T>> {
    let mut fit = Vec::new();
    let mut unfit = Vec::new();
    for l in locked {
        match rule(&l.candidate) {
            Ok(t) => fit.push(t),
            Err(why) => unfit.push((format!("{} v {}", l.facts.home, l.facts.away), why)),
        }
    }
    if !unfit.is_empty() {
        return Err(Refusal::NotForAll { fixtures: unfit }.into());
    }
    Ok(fit)
}

/// A fixture whose captains a secretary reminded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminded {
    pub fixture: FixtureId,
    /// "Crown v Anchor".
    pub name: String,
    /// The usernames the reminder went to.
    pub told: Vec<String>,
}

/// A secretary reminds the captains of each of `chosen` at `now`, in one
/// transaction: each message queued with the reminder's audit entry, or
/// nothing at all when one of them may not be reminded (not played yet,
/// its result waiting for the secretary, reminded in the last 12 hours,
/// nobody to tell).
pub async fn remind(
    db: &Db,
    league: &League,
    chosen: &[FixtureId],
    by: UserId,
    now: DateTime<Utc>,
    config: &MailConfig,
) -> Result<Vec<Reminded>> {
    // Nothing a page shows changes: the console is read afresh.
    let mut tx = db.write_unseen().await?;
    let locked = lock_all(&mut tx, league.id, chosen, true).await?;
    let asks = all_fit(&locked, |c| week::remind(c, league.time_zone, now))?;
    let mut out = Vec::with_capacity(locked.len());
    for (l, ask) in locked.iter().zip(asks) {
        let mail = secretary_reminder(league, &l.facts, ask, &l.people, now, config);
        for m in &mail {
            queue(&mut tx, m).await?;
        }
        let told: Vec<String> = mail.iter().map(|m| m.to_name.clone()).collect();
        let version = match ask {
            week::Reminder::Confirm { version } => Some(version),
            week::Reminder::EnterResult => None,
        };
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league.id), Some(by), REMINDER, l.fixture.id.0, "send").after(Some(
                &serde_json::json!({
                    "asks": if version.is_some() { "confirm" } else { "enter" },
                    "version": version,
                    "to": told,
                }),
            )),
        )
        .await?;
        out.push(Reminded {
            fixture: l.fixture.id,
            name: format!("{} v {}", l.facts.home, l.facts.away),
            told,
        });
    }
    tx.commit().await?;
    Ok(out)
}

/// A secretary records a walkover for each of `chosen` (the fixture and
/// the side that conceded), in one transaction: each as a single walkover
/// is written, audited and told to both captains; or none when one of
/// them has a result or is settled already.
pub async fn walkovers(
    db: &Db,
    league: LeagueId,
    chosen: &[(FixtureId, Side)],
    actor: Actor,
) -> Result<Vec<Fixture>> {
    let ids: Vec<FixtureId> = chosen.iter().map(|(f, _)| *f).collect();
    let mut tx = db.write(league).await?;
    let locked = lock_all(&mut tx, league, &ids, false).await?;
    all_fit(&locked, week::walkover)?;
    let mut out = Vec::with_capacity(locked.len());
    for l in &locked {
        let side = chosen
            .iter()
            .find(|(f, _)| *f == l.fixture.id)
            .map(|(_, s)| *s)
            .ok_or_else(|| DbError::not_found(format!("fixture {}", l.fixture.id)))?;
        out.push(
            crate::app::results::walkover_in(&mut tx, league, l.fixture.id, side, actor).await?,
        );
    }
    tx.commit().await?;
    Ok(out)
}

/// A secretary postpones each of `chosen`, its date kept until a new one
/// is set, in one transaction: each as a single postponement is written,
/// audited and told to both captains; or none when one of them has a
/// result, is postponed already or settled.
pub async fn postpone(
    db: &Db,
    league: LeagueId,
    chosen: &[FixtureId],
    by: UserId,
) -> Result<Vec<Fixture>> {
    let mut tx = db.write(league).await?;
    let locked = lock_all(&mut tx, league, chosen, false).await?;
    all_fit(&locked, week::postpone)?;
    let mut out = Vec::with_capacity(locked.len());
    for l in &locked {
        out.push(
            crate::app::fixtures::reschedule_in(
                &mut tx,
                league,
                l.fixture.id,
                l.fixture.starts_at,
                crate::db::FixtureStatus::Postponed,
                Some(by),
            )
            .await?,
        );
    }
    tx.commit().await?;
    Ok(out)
}
