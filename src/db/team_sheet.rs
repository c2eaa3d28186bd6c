//! The team sheet's records (issue 42): players' answers for a fixture,
//! captains' line-ups, the reminder each captain set, drawn pairings, and
//! the key that signs one-tap answer links.

use chrono::{DateTime, Utc};

use super::audit::{NewAudit, insert_audit};
use super::sql::{self, Tx};
use super::{
    Db, FixtureId, LeagueId, PlayerId, Result, SeasonId, TeamId, UserId, json_text, parse_json,
};
use crate::league::draw::Drawn;
use crate::league::team_sheet::{Answer, LineUp};

/// A registered player of a team, with their answer for a fixture and the
/// verified address their account has, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadMember {
    pub player_id: PlayerId,
    pub name: String,
    pub answer: Option<Answer>,
    pub answered_at: Option<DateTime<Utc>>,
    /// The verified address of the player's account: where asks and
    /// reminders go.
    pub email: Option<String>,
}

#[derive(sqlx::FromRow)]
struct SquadRow {
    player_id: PlayerId,
    name: String,
    answer: Option<String>,
    answered_at: Option<DateTime<Utc>>,
    email: Option<String>,
}

/// A team's line-up as stored, with when it was last set.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLineUp {
    pub team_id: TeamId,
    pub line_up: LineUp,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct LineUpRow {
    team_id: TeamId,
    singles: String,
    pairs: String,
    substitutes: String,
    updated_at: DateTime<Utc>,
}

impl TryFrom<LineUpRow> for StoredLineUp {
    type Error = super::DbError;
    fn try_from(r: LineUpRow) -> Result<StoredLineUp> {
        Ok(StoredLineUp {
            team_id: r.team_id,
            line_up: LineUp {
                singles: parse_json("line-up singles", &r.singles)?,
                pairs: parse_json("line-up pairs", &r.pairs)?,
                substitutes: parse_json("line-up substitutes", &r.substitutes)?,
            },
            updated_at: r.updated_at,
        })
    }
}

/// A team's reminder to non-answerers: when, and whether it went.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Reminder {
    pub team_id: TeamId,
    pub remind_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// A reminder whose time has come, in any league.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DueReminder {
    pub league_id: LeagueId,
    pub fixture_id: FixtureId,
    pub team_id: TeamId,
}

#[derive(sqlx::FromRow)]
struct DrawRow {
    drawn: String,
}

/// The squad of `team` in `season` with their answers for `fixture`, by
/// name: one query.
pub(crate) async fn squad_in<'a>(
    on: impl sql::Exec<'a>,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    fixture: FixtureId,
) -> Result<Vec<SquadMember>> {
    let rows = sql::query_as::<SquadRow>(
        "SELECT p.id AS player_id, p.name, a.answer, a.answered_at, \
           (SELECT MIN(u.email) FROM roles ro JOIN users u ON u.id = ro.user_id \
            WHERE ro.kind = 'player' AND ro.league_id = p.league_id AND ro.player_id = p.id \
              AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL \
              AND NOT EXISTS (SELECT 1 FROM email_opt_outs o \
                              WHERE o.user_id = u.id AND o.topic = 'availability')) AS email \
         FROM registrations r \
         JOIN players p ON p.id = r.player_id AND p.league_id = r.league_id \
         LEFT JOIN availability a ON a.fixture_id = $4 AND a.player_id = p.id \
         WHERE r.league_id = $1 AND r.season_id = $2 AND r.team_id = $3 \
         ORDER BY p.name, p.id",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .bind(fixture)
    .fetch_all(on)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| SquadMember {
            player_id: r.player_id,
            name: r.name,
            answer: r.answer.as_deref().and_then(Answer::parse),
            answered_at: r.answered_at,
            email: r.email,
        })
        .collect())
}

pub(crate) async fn line_ups_in<'a>(
    on: impl sql::Exec<'a>,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Vec<StoredLineUp>> {
    sql::query_as::<LineUpRow>(
        "SELECT team_id, singles, pairs, substitutes, updated_at FROM line_ups \
         WHERE league_id = $1 AND fixture_id = $2 ORDER BY team_id",
    )
    .bind(league)
    .bind(fixture)
    .fetch_all(on)
    .await?
    .into_iter()
    .map(StoredLineUp::try_from)
    .collect()
}

pub(crate) async fn draw_in<'a>(
    on: impl sql::Exec<'a>,
    league: LeagueId,
    fixture: FixtureId,
) -> Result<Option<Drawn>> {
    sql::query_as::<DrawRow>(
        "SELECT drawn FROM pairing_draws WHERE league_id = $1 AND fixture_id = $2",
    )
    .bind(league)
    .bind(fixture)
    .fetch_optional(on)
    .await?
    .map(|r| parse_json("pairing draw", &r.drawn))
    .transpose()
}

impl Db {
    pub async fn squad(
        &self,
        league: LeagueId,
        season: SeasonId,
        team: TeamId,
        fixture: FixtureId,
    ) -> Result<Vec<SquadMember>> {
        squad_in(self, league, season, team, fixture).await
    }

    /// A player's answer for a fixture, if they gave one.
    pub async fn answer(
        &self,
        league: LeagueId,
        fixture: FixtureId,
        player: PlayerId,
    ) -> Result<Option<Answer>> {
        Ok(sql::query_scalar::<String>(
            "SELECT answer FROM availability \
             WHERE league_id = $1 AND fixture_id = $2 AND player_id = $3",
        )
        .bind(league)
        .bind(fixture)
        .bind(player)
        .fetch_optional(self)
        .await?
        .as_deref()
        .and_then(Answer::parse))
    }

    /// Both teams' line-ups for a fixture, as far as set.
    pub async fn line_ups(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Vec<StoredLineUp>> {
        line_ups_in(self, league, fixture).await
    }

    /// The fixture's drawn pairings, once drawn.
    pub async fn pairing_draw(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Option<Drawn>> {
        draw_in(self, league, fixture).await
    }

    /// Each team's reminder for the fixture.
    pub async fn availability_reminders(
        &self,
        league: LeagueId,
        fixture: FixtureId,
    ) -> Result<Vec<Reminder>> {
        sql::query_as::<Reminder>(
            "SELECT team_id, remind_at, sent_at FROM availability_reminders \
             WHERE league_id = $1 AND fixture_id = $2",
        )
        .bind(league)
        .bind(fixture)
        .fetch_all(self)
        .await
    }

    /// Reminders due by `now` and not sent, in every league.
    pub async fn due_availability_reminders(&self, now: DateTime<Utc>) -> Result<Vec<DueReminder>> {
        sql::query_as::<DueReminder>(
            "SELECT league_id, fixture_id, team_id FROM availability_reminders \
             WHERE sent_at IS NULL AND remind_at <= $1 ORDER BY remind_at LIMIT 100",
        )
        .bind(now)
        .fetch_all(self)
        .await
    }

    /// The key that signs answer links, made on first use.
    pub async fn link_key(&self) -> Result<String> {
        if let Some(k) = sql::query_scalar::<String>("SELECT key FROM link_keys WHERE id = 1")
            .fetch_optional(self)
            .await?
        {
            return Ok(k);
        }
        let mut tx = self.write_unseen().await?;
        sql::query(
            "INSERT INTO link_keys (id, key, created_at) VALUES (1, $1, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(random_key())
        .bind(super::now())
        .execute(&mut tx)
        .await?;
        let key = sql::query_scalar::<String>("SELECT key FROM link_keys WHERE id = 1")
            .fetch_one(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(key)
    }
}

/// Sets a player's answer (the latest stands).
pub(crate) async fn set_answer(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    player: PlayerId,
    answer: Answer,
) -> Result<()> {
    sql::query(
        "INSERT INTO availability (league_id, fixture_id, player_id, answer, answered_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (fixture_id, player_id) \
         DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at",
    )
    .bind(league)
    .bind(fixture)
    .bind(player)
    .bind(answer.key())
    .bind(super::now())
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Saves a team's line-up, audited with the one it replaces.
pub(crate) async fn save_line_up(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    team: TeamId,
    line_up: &LineUp,
    by: Option<UserId>,
) -> Result<()> {
    let before = line_ups_in(&mut *tx, league, fixture)
        .await?
        .into_iter()
        .find(|l| l.team_id == team)
        .map(|l| l.line_up);
    sql::query(
        "INSERT INTO line_ups (league_id, fixture_id, team_id, singles, pairs, substitutes, \
           updated_at, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (fixture_id, team_id) DO UPDATE SET singles = excluded.singles, \
           pairs = excluded.pairs, substitutes = excluded.substitutes, \
           updated_at = excluded.updated_at, updated_by = excluded.updated_by",
    )
    .bind(league)
    .bind(fixture)
    .bind(team)
    .bind(json_text(&line_up.singles))
    .bind(json_text(&line_up.pairs))
    .bind(json_text(&line_up.substitutes))
    .bind(super::now())
    .bind(by)
    .execute(&mut *tx)
    .await?;
    let action = if before.is_some() { "change" } else { "set" };
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "line_up", fixture.0, action)
            .before(before.as_ref())
            .after(Some(&serde_json::json!({"team": team, "line_up": line_up}))),
    )
    .await
}

/// Stores a fixture's draw; `false` when one was made already (nothing
/// changed: a draw is never made twice).
pub(crate) async fn insert_draw(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    drawn: &Drawn,
    by: Option<UserId>,
) -> Result<bool> {
    let done = sql::query(
        "INSERT INTO pairing_draws (league_id, fixture_id, seed, drawn, drawn_at, drawn_by) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (fixture_id) DO NOTHING",
    )
    .bind(league)
    .bind(fixture)
    .bind(drawn.seed.as_str())
    .bind(json_text(drawn))
    .bind(super::now())
    .bind(by)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    insert_audit(
        tx,
        NewAudit::new(Some(league), by, "pairing_draw", fixture.0, "draw").after(Some(drawn)),
    )
    .await?;
    Ok(true)
}

/// Sets when a team's non-answerers are reminded; a reminder already sent
/// stays sent (one reminder).
pub(crate) async fn set_reminder(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    team: TeamId,
    at: DateTime<Utc>,
) -> Result<()> {
    sql::query(
        "INSERT INTO availability_reminders (league_id, fixture_id, team_id, remind_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (fixture_id, team_id) \
         DO UPDATE SET remind_at = excluded.remind_at",
    )
    .bind(league)
    .bind(fixture)
    .bind(team)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Marks a team's reminder sent (made now if the captain set no time);
/// `false` when it had been sent already.
pub(crate) async fn mark_reminded(
    tx: &mut Tx,
    league: LeagueId,
    fixture: FixtureId,
    team: TeamId,
) -> Result<bool> {
    let now = super::now();
    sql::query(
        "INSERT INTO availability_reminders (league_id, fixture_id, team_id, remind_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (fixture_id, team_id) DO NOTHING",
    )
    .bind(league)
    .bind(fixture)
    .bind(team)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let done = sql::query(
        "UPDATE availability_reminders SET sent_at = $4 \
         WHERE league_id = $1 AND fixture_id = $2 AND team_id = $3 AND sent_at IS NULL",
    )
    .bind(league)
    .bind(fixture)
    .bind(team)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// 256 random bits, hex.
fn random_key() -> String {
    use argon2::password_hash::rand_core::{OsRng, RngCore};
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
