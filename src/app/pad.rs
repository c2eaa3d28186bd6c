//! A score pad's tap saved: one transaction, then the league's followers
//! told (issue 40, see `crate::push`).

use std::sync::Arc;

use crate::db::audit::NewAudit;
use crate::db::pad::PadSaved;
use crate::db::{Db, FixtureId, LeagueId, Result, UserId};
use crate::league::pad::{Summary, Tap};
use crate::push::{BoardEvent, Hub, notification_rest};

/// Postgres takes notifications of up to 8,000 bytes; the league and the
/// id go before this.
const MOST_NOTIFIED: usize = 7_900;

/// One board's saved taps as the pad sends them.
pub struct PadWrite<'a> {
    pub league: LeagueId,
    pub fixture: FixtureId,
    /// 1-based.
    pub board: i64,
    /// The revision the taps were based on (0: none saved yet).
    pub seen: i64,
    pub taps: &'a [Tap],
    pub summary: &'a Summary,
    pub by: Option<UserId>,
    /// Who plays the board before this write and after it (home, away):
    /// a change on the night from the captains' line-ups is audited.
    pub players: Players<'a>,
}

/// A board's players before a write and after it, each (home, away).
pub struct Players<'a> {
    pub before: (&'a [i64], &'a [i64]),
    pub after: (&'a [i64], &'a [i64]),
}

/// Saves the board's taps and, once they are committed, hands
/// `event` (the data its followers receive, rendered once by the caller)
/// to every follower of the league: on Postgres the transaction itself
/// sends it to every app server; on SQLite it is published here, in the
/// order of the commits.
pub async fn save_tap(db: &Db, hub: &Hub, w: PadWrite<'_>, event: &str) -> Result<PadSaved> {
    let audit = line_up_change(db, &w).await?;
    let mut note = notification_rest(w.fixture, w.board, event);
    if note.len() > MOST_NOTIFIED {
        // Too long for a notification (names of great length): the
        // followers are told which board changed, and read their pages.
        let short = serde_json::json!({
            "key": format!("{}-{}", w.fixture.0, w.board),
            "fixture": w.fixture.0,
            "board": w.board,
            "revision": w.seen + 1,
        });
        note = notification_rest(w.fixture, w.board, &short.to_string());
    }
    if hub.by_database() {
        let (saved, _) = db
            .save_pad_noting(
                w.league,
                w.fixture,
                w.board,
                w.seen,
                w.taps,
                w.summary,
                w.by,
                Some(&note),
                audit,
            )
            .await?;
        return Ok(saved);
    }
    let _order = hub.in_order().await;
    let (saved, id) = db
        .save_pad_noting(
            w.league, w.fixture, w.board, w.seen, w.taps, w.summary, w.by, None, audit,
        )
        .await?;
    if let Some(id) = id {
        hub.publish(
            w.league,
            BoardEvent {
                id,
                fixture: w.fixture,
                board: w.board,
                data: Arc::from(event),
            },
        );
    }
    Ok(saved)
}

/// The audit entry for a write that changes who plays the board to other
/// players than the captains' line-ups put there (the team sheet): the
/// pad keeps every tap, and the audit says the line-up was changed on the
/// night. Nothing when the players stay, or no line-ups were set.
async fn line_up_change(db: &Db, w: &PadWrite<'_>) -> Result<Option<NewAudit>> {
    let p = &w.players;
    if p.before == p.after || p.after.0.is_empty() {
        return Ok(None);
    }
    let fixture = db.fixture(w.league, w.fixture).await?;
    let season = db.season(w.league, fixture.season_id).await?;
    let league = db.league(w.league).await?;
    let rules = crate::app::formats::fixture_season_rules(db, &league, &season, &fixture).await?;
    let planned =
        crate::app::team_sheet::board_from_line_ups(db, w.league, &fixture, &rules.format, w.board)
            .await?;
    let Some((home, away)) = planned else {
        return Ok(None);
    };
    if (home.as_slice(), away.as_slice()) == p.after {
        return Ok(None);
    }
    let side = |h: &[i64], a: &[i64]| serde_json::json!({"board": w.board, "home": h, "away": a});
    Ok(Some(
        NewAudit::new(Some(w.league), w.by, "line_up", w.fixture.0, "pad change")
            .before(Some(&side(&home, &away)))
            .after(Some(&side(p.after.0, p.after.1))),
    ))
}
