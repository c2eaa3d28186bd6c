//! The score pad's boards in progress and the links that open them.
//!
//! A board's taps are kept whole, as JSON, with a revision: a write names
//! the revision it was based on and is refused if another came first, so
//! two phones keeping one board never mix their taps silently.

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};

use super::{Db, FixtureId, LeagueId, Result, UserId, json_text, now, parse_json};
use crate::league::pad::{Summary, Tap};

/// A board of a fixture as the pad last saved it.
#[derive(Debug, Clone, PartialEq)]
pub struct PadBoard {
    pub fixture_id: FixtureId,
    /// 1-based.
    pub board: i64,
    pub taps: Vec<Tap>,
    pub revision: i64,
    pub summary: Summary,
    pub updated_at: DateTime<Utc>,
}

/// What became of a pad's write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadSaved {
    /// Saved, with the board's new revision.
    Saved(i64),
    /// Another write came first: nothing was saved.
    Stale,
    /// The match's result is in (or it was never to be played): nothing
    /// was saved.
    Closed,
}

/// A board being played in the league, with its fixture's teams.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveBoard {
    pub fixture_id: FixtureId,
    pub board: i64,
    pub home_team: String,
    pub away_team: String,
    pub summary: Summary,
    pub updated_at: DateTime<Utc>,
    /// The pad's revision: a follower's page keeps the newest of a
    /// board's events and pages.
    pub revision: i64,
}

/// A link to one board's pad.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PadLink {
    pub token: String,
    pub league_id: LeagueId,
    pub fixture_id: FixtureId,
    pub board: i64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct PadRow {
    fixture_id: FixtureId,
    board: i64,
    taps: String,
    revision: i64,
    summary: String,
    updated_at: DateTime<Utc>,
}

impl TryFrom<PadRow> for PadBoard {
    type Error = super::DbError;

    fn try_from(r: PadRow) -> Result<PadBoard> {
        Ok(PadBoard {
            fixture_id: r.fixture_id,
            board: r.board,
            taps: parse_json("a pad board's taps", &r.taps)?,
            revision: r.revision,
            summary: parse_json("a pad board's summary", &r.summary)?,
            updated_at: r.updated_at,
        })
    }
}

#[derive(sqlx::FromRow)]
struct LiveRow {
    fixture_id: FixtureId,
    board: i64,
    home_team: String,
    away_team: String,
    summary: String,
    updated_at: DateTime<Utc>,
    revision: i64,
}

const PAD_COLUMNS: &str = "fixture_id, board, taps, revision, summary, updated_at";
const LINK_COLUMNS: &str =
    "token, league_id, fixture_id, board, created_at, expires_at, revoked_at";

impl Db {
    /// One board's pad, if anything was tapped on it.
    pub async fn pad_board(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
    ) -> Result<Option<PadBoard>> {
        let sql = format!(
            "SELECT {PAD_COLUMNS} FROM pad_boards \
             WHERE league_id = $1 AND fixture_id = $2 AND board = $3"
        );
        let row = sql::query_as::<PadRow>(&sql)
            .bind(league)
            .bind(fixture)
            .bind(board)
            .fetch_optional(self)
            .await?;
        row.map(PadBoard::try_from).transpose()
    }

    /// Every board of a fixture that has a pad, by board number.
    pub async fn pad_boards(&self, league: LeagueId, fixture: FixtureId) -> Result<Vec<PadBoard>> {
        let sql = format!(
            "SELECT {PAD_COLUMNS} FROM pad_boards WHERE league_id = $1 AND fixture_id = $2 \
             ORDER BY board"
        );
        let rows = sql::query_as::<PadRow>(&sql)
            .bind(league)
            .bind(fixture)
            .fetch_all(self)
            .await?;
        rows.into_iter().map(PadBoard::try_from).collect()
    }

    /// Saves a board's taps if its revision is still `seen` (0: no taps
    /// were saved yet) and its fixture still takes taps (scheduled or
    /// postponed: no result in). See [`Db::save_pad_noting`].
    #[allow(clippy::too_many_arguments)]
    pub async fn save_pad(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
        seen: i64,
        taps: &[Tap],
        summary: &Summary,
        by: Option<UserId>,
    ) -> Result<PadSaved> {
        let saved = self
            .save_pad_noting(league, fixture, board, seen, taps, summary, by, None, None)
            .await?;
        Ok(saved.0)
    }

    /// [`Db::save_pad`], which also says the tap to the league's live
    /// followers: it returns the league's live generation the tap raised
    /// (the event's id, see `crate::push`), and on Postgres, given `note`
    /// (the event's `fixture:board:data`), sends it with `NOTIFY` from
    /// within the transaction, so every app server hears of it as it
    /// commits, and only if it commits.
    ///
    /// The fixture's row is read first, under a share lock on Postgres, so
    /// a tap and a submission of the match take turns: a tap that comes
    /// second finds the match closed.
    ///
    /// A tap changes what the live pages show (the live page, the match
    /// page, the pub screen), not the league's tables: it raises the
    /// league's live generation and the match's only, so the league's other
    /// kept pages stay kept all night. A tap not saved raises nothing.
    #[allow(clippy::too_many_arguments)]
    pub async fn save_pad_noting(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
        seen: i64,
        taps: &[Tap],
        summary: &Summary,
        by: Option<UserId>,
        note: Option<&str>,
        audit: Option<super::audit::NewAudit>,
    ) -> Result<(PadSaved, Option<i64>)> {
        let (taps_json, summary_json) = (json_text(&taps), json_text(summary));
        let at = now();
        let status_sql = match self {
            Db::Sqlite(_) => "SELECT status FROM fixtures WHERE league_id = $1 AND id = $2",
            Db::Postgres(_) => {
                "SELECT status FROM fixtures WHERE league_id = $1 AND id = $2 FOR SHARE"
            }
        };
        let mut tx = self.begin_write(None).await?;
        let out = {
            let status: Option<String> = sql::query_scalar(status_sql)
                .bind(league)
                .bind(fixture)
                .fetch_optional(&mut tx)
                .await?;
            let open = status
                .as_deref()
                .and_then(|s| s.parse::<super::FixtureStatus>().ok())
                .is_some_and(|s| s.is_open());
            if !open {
                (PadSaved::Closed, None)
            } else {
                let done = if seen == 0 {
                    sql::query(
                            "INSERT INTO pad_boards (league_id, fixture_id, board, taps, revision, summary, \
                             updated_at, updated_by) \
                             VALUES ($1, $2, $3, $4, 1, $5, $6, $7) ON CONFLICT DO NOTHING",
                        )
                        .bind(league)
                        .bind(fixture)
                        .bind(board)
                        .bind(&taps_json)
                        .bind(&summary_json)
                        .bind(at)
                        .bind(by)
                        .execute(&mut tx)
                        .await?
                        .rows_affected()
                } else {
                    sql::query(
                            "UPDATE pad_boards SET taps = $4, revision = revision + 1, summary = $5, \
                             updated_at = $6, updated_by = $7 \
                             WHERE league_id = $1 AND fixture_id = $2 AND board = $3 AND revision = $8",
                        )
                        .bind(league)
                        .bind(fixture)
                        .bind(board)
                        .bind(&taps_json)
                        .bind(&summary_json)
                        .bind(at)
                        .bind(by)
                        .bind(seen)
                        .execute(&mut tx)
                        .await?
                        .rows_affected()
                };
                if done == 1 {
                    if let Some(entry) = audit {
                        super::audit::insert_audit(&mut tx, entry).await?;
                    }
                    let id = raise_live(&mut tx, self, league, fixture, note).await?;
                    (PadSaved::Saved(seen + 1), Some(id))
                } else {
                    (PadSaved::Stale, None)
                }
            }
        };
        tx.commit().await?;
        Ok(out)
    }

    /// Raises the match's and the league's live generations in a
    /// transaction of its own and, on Postgres, sends `note` with them: a
    /// change to a match that is not a tap (its result in, a walkover, a
    /// void), told to its followers. Returns the event's id.
    pub async fn raise_live_noting(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        note: Option<&str>,
    ) -> Result<i64> {
        let mut tx = self.begin_write(None).await?;
        let id = raise_live(&mut tx, self, league, fixture, note).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The league's live generation now: the id of its last tap's event
    /// (0: never tapped).
    pub async fn live_generation(&self, league: LeagueId) -> Result<i64> {
        let g: Option<i64> =
            sql::query_scalar("SELECT generation FROM page_generations WHERE scope = $1")
                .bind(super::generation::live(league))
                .fetch_optional(self)
                .await?;
        Ok(g.unwrap_or(0))
    }

    /// The boards of the league tapped since `since` whose match's result
    /// is not in (`league::live::result_in`: the fixture still open, no
    /// version entered), by match and board. The live pages pass the start
    /// of the night (`league::live::night_begins`), so a pad left
    /// unsubmitted weeks ago is never read; `league::live::PadState` then
    /// decides from each summary which boards are in play.
    pub async fn live_boards(
        &self,
        league: LeagueId,
        since: DateTime<Utc>,
    ) -> Result<Vec<LiveBoard>> {
        self.live_rows(league, since, None).await
    }

    /// [`Db::live_boards`] of one fixture: its page's and its screen's.
    pub async fn fixture_live_boards(
        &self,
        league: LeagueId,
        since: DateTime<Utc>,
        fixture: FixtureId,
    ) -> Result<Vec<LiveBoard>> {
        self.live_rows(league, since, Some(fixture)).await
    }

    async fn live_rows(
        &self,
        league: LeagueId,
        since: DateTime<Utc>,
        fixture: Option<FixtureId>,
    ) -> Result<Vec<LiveBoard>> {
        let one = if fixture.is_some() {
            "AND p.fixture_id = $3"
        } else {
            ""
        };
        let sql = format!(
            "SELECT p.fixture_id, p.board, h.name AS home_team, a.name AS away_team, \
             p.summary, p.updated_at, p.revision FROM pad_boards p \
             JOIN fixtures f ON f.league_id = p.league_id AND f.id = p.fixture_id \
             JOIN teams h ON h.league_id = f.league_id AND h.id = f.home_team_id \
             JOIN teams a ON a.league_id = f.league_id AND a.id = f.away_team_id \
             WHERE p.league_id = $1 AND p.updated_at >= $2 {one} \
             AND f.status IN ('scheduled', 'postponed') \
             AND NOT EXISTS (SELECT 1 FROM result_versions v \
               WHERE v.league_id = f.league_id AND v.fixture_id = f.id) \
             ORDER BY f.id, p.board"
        );
        let mut query = sql::query_as::<LiveRow>(&sql).bind(league).bind(since);
        if let Some(f) = fixture {
            query = query.bind(f);
        }
        let rows = query.fetch_all(self).await?;
        rows.into_iter()
            .map(|r| {
                Ok(LiveBoard {
                    fixture_id: r.fixture_id,
                    board: r.board,
                    home_team: r.home_team,
                    away_team: r.away_team,
                    summary: parse_json("a pad board's summary", &r.summary)?,
                    updated_at: r.updated_at,
                    revision: r.revision,
                })
            })
            .collect()
    }

    /// A new link to one board's pad.
    pub async fn create_pad_link(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
        token: &str,
        expires_at: DateTime<Utc>,
        by: Option<UserId>,
    ) -> Result<PadLink> {
        let sql = format!(
            "INSERT INTO pad_links (token, league_id, fixture_id, board, created_by, created_at, \
             expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {LINK_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let out = sql::query_as::<PadLink>(&sql)
            .bind(token)
            .bind(league)
            .bind(fixture)
            .bind(board)
            .bind(by)
            .bind(now())
            .bind(expires_at)
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(out)
    }

    /// The link a token names, in this league, whatever its state.
    pub async fn pad_link(&self, league: LeagueId, token: &str) -> Result<Option<PadLink>> {
        let sql =
            format!("SELECT {LINK_COLUMNS} FROM pad_links WHERE token = $1 AND league_id = $2");
        sql::query_as::<PadLink>(&sql)
            .bind(token)
            .bind(league)
            .fetch_optional(self)
            .await
    }

    /// A fixture's links that still work, by board.
    pub async fn pad_links(&self, league: LeagueId, fixture: FixtureId) -> Result<Vec<PadLink>> {
        let sql = format!(
            "SELECT {LINK_COLUMNS} FROM pad_links WHERE league_id = $1 AND fixture_id = $2 \
             AND revoked_at IS NULL AND expires_at > $3 ORDER BY board, created_at"
        );
        sql::query_as::<PadLink>(&sql)
            .bind(league)
            .bind(fixture)
            .bind(now())
            .fetch_all(self)
            .await
    }

    /// Revokes every working link to one board; returns how many.
    pub async fn revoke_pad_links(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        board: i64,
    ) -> Result<u64> {
        let mut tx = self.write(league).await?;
        let out = sql::query(
            "UPDATE pad_links SET revoked_at = $4 WHERE league_id = $1 AND fixture_id = $2 \
             AND board = $3 AND revoked_at IS NULL",
        )
        .bind(league)
        .bind(fixture)
        .bind(board)
        .bind(now())
        .execute(&mut tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(out)
    }
}

/// Each board's pad revision of `fixture` (board, revision), in a write.
pub(crate) async fn pad_revisions(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Vec<(i64, i64)>> {
    sql::query_as("SELECT board, revision FROM pad_boards WHERE league_id = $1 AND fixture_id = $2")
        .bind(league)
        .bind(fixture)
        .fetch_all(&mut *tx)
        .await
}

/// Raises the match's live generation and the league's (in that order,
/// as every tap does, so two taps wait for each other rather than
/// deadlock), returning the league's, in one statement; on Postgres the
/// same statement sends `note` to the other app servers.
async fn raise_live(
    tx: &mut Tx,
    db: &Db,
    league: LeagueId,
    fixture: FixtureId,
    note: Option<&str>,
) -> Result<i64> {
    const RAISE_BOTH: &str = "INSERT INTO page_generations (scope, generation) \
         VALUES ($1, 1), ($2, 1) ON CONFLICT (scope) \
         DO UPDATE SET generation = page_generations.generation + 1";
    let scopes = (
        super::generation::live_fixture(fixture),
        super::generation::live(league),
    );
    match (db, note) {
        (Db::Postgres(_), Some(note)) => {
            let sql = format!(
                "WITH g AS ({RAISE_BOTH} RETURNING scope, generation) \
                 SELECT g.generation, CAST(pg_notify('{}', $3 || CAST(g.generation AS TEXT) || ':' || $4) AS TEXT) \
                 FROM g WHERE g.scope = $2",
                crate::push::CHANNEL
            );
            let (id, _): (i64, Option<String>) = sql::query_as(&sql)
                .bind(scopes.0)
                .bind(scopes.1)
                .bind(format!("{}:", league.0))
                .bind(note)
                .fetch_one(&mut *tx)
                .await?;
            Ok(id)
        }
        _ => {
            let sql = format!("{RAISE_BOTH} RETURNING scope, generation");
            let rows: Vec<(i64, i64)> = sql::query_as(&sql)
                .bind(scopes.0)
                .bind(scopes.1)
                .fetch_all(&mut *tx)
                .await?;
            Ok(rows
                .iter()
                .find(|(scope, _)| *scope == scopes.1)
                .map_or(0, |(_, g)| *g))
        }
    }
}
