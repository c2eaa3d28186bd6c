//! The end of a season as stored: the roll-over into the next one, and
//! play-offs between teams level on every rule at a place that matters
//! (the use cases are `app::rollover`'s).

use super::sql::{self, Tx};
use chrono::{DateTime, Utc};

use super::seasons::{COLUMNS as SEASON_COLUMNS, SeasonRow};
use super::{Db, DivisionId, LeagueId, Result, Season, SeasonId, TeamId, json_text, now};
use crate::league::settings::SeasonSettings;

impl Db {
    /// Closes a season without rolling it over (the demo's past seasons):
    /// kept as it is from now on, as after a roll-over
    /// ([`roll_over`](crate::app::rollover::roll_over)). Closing a
    /// closed season changes nothing.
    pub async fn close_season(&self, league: LeagueId, id: SeasonId) -> Result<()> {
        let mut tx = self.write(league).await?;
        sql::query(
            "UPDATE seasons SET closed_at = $3 WHERE league_id = $1 AND id = $2 \
                 AND closed_at IS NULL",
        )
        .bind(league)
        .bind(id)
        .bind(now())
        .execute(&mut tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every captain of a season's teams: the team and the player's name,
    /// by team and name.
    pub async fn season_captains(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<(TeamId, String)>> {
        sql::query_as(
            "SELECT c.team_id, p.name FROM team_captains c \
             JOIN players p ON p.id = c.player_id AND p.league_id = c.league_id \
             WHERE c.league_id = $1 AND c.season_id = $2 ORDER BY c.team_id, p.name",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await
    }
}

/// Closes `season`, keeping it with `settings`, if it is still open:
/// whether it was.
pub async fn close_open_season(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    at: DateTime<Utc>,
    settings: &SeasonSettings,
) -> Result<bool> {
    let closed = sql::query(
        "UPDATE seasons SET closed_at = $3, settings = $4 \
         WHERE league_id = $1 AND id = $2 AND closed_at IS NULL",
    )
    .bind(league)
    .bind(season)
    .bind(at)
    .bind(json_text(&settings.to_value()))
    .execute(tx)
    .await?
    .rows_affected();
    Ok(closed > 0)
}

/// A season after `from`, with its ruleset, options and match format, and
/// `name` and `settings` of its own.
pub async fn insert_next_season(
    tx: &mut Tx,
    league: LeagueId,
    from: SeasonId,
    name: &str,
    settings: &SeasonSettings,
    at: DateTime<Utc>,
) -> Result<Season> {
    let insert = format!(
        "INSERT INTO seasons (league_id, name, format, options, match_format, settings, \
         created_at) SELECT league_id, $3, format, options, match_format, $4, $5 \
         FROM seasons WHERE league_id = $1 AND id = $2 RETURNING {SEASON_COLUMNS}"
    );
    sql::query_as::<SeasonRow>(&insert)
        .bind(league)
        .bind(from)
        .bind(name)
        .bind(json_text(&settings.to_value()))
        .bind(at)
        .fetch_one(tx)
        .await?
        .try_into()
}

/// `from`'s divisions made again in `to`, with the same names and places:
/// each of `from`'s with its counterpart, in order.
pub async fn copy_divisions(
    tx: &mut Tx,
    league: LeagueId,
    from: SeasonId,
    to: SeasonId,
) -> Result<Vec<(DivisionId, DivisionId)>> {
    let old: Vec<(DivisionId, String, i64)> = sql::query_as(
        "SELECT id, name, position FROM divisions \
         WHERE league_id = $1 AND season_id = $2 ORDER BY position, name, id",
    )
    .bind(league)
    .bind(from)
    .fetch_all(&mut *tx)
    .await?;
    let mut pairs = Vec::with_capacity(old.len());
    for (id, name, position) in old {
        let new: DivisionId = sql::query_scalar(
            "INSERT INTO divisions (league_id, season_id, name, position) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(league)
        .bind(to)
        .bind(&name)
        .bind(position)
        .fetch_one(&mut *tx)
        .await?;
        pairs.push((id, new));
    }
    Ok(pairs)
}

/// The teams entered in `season`.
pub async fn entered_teams(tx: &mut Tx, league: LeagueId, season: SeasonId) -> Result<Vec<TeamId>> {
    sql::query_scalar("SELECT team_id FROM team_entries WHERE league_id = $1 AND season_id = $2")
        .bind(league)
        .bind(season)
        .fetch_all(tx)
        .await
}

/// Enters `team`, entered in `from`, in `to`'s `division`.
pub async fn enter_again(
    tx: &mut Tx,
    league: LeagueId,
    from: SeasonId,
    to: SeasonId,
    division: DivisionId,
    team: TeamId,
) -> Result<()> {
    sql::query(
        "INSERT INTO team_entries (league_id, season_id, division_id, team_id) \
         SELECT league_id, $3, $4, team_id FROM team_entries \
         WHERE league_id = $1 AND season_id = $2 AND team_id = $5",
    )
    .bind(league)
    .bind(from)
    .bind(to)
    .bind(division)
    .bind(team)
    .execute(tx)
    .await?;
    Ok(())
}

/// `team`'s registrations and captains (with their accounts' captain
/// roles) in `from` made again in `to`: how many registrations and
/// captains.
pub async fn carry_roster(
    tx: &mut Tx,
    league: LeagueId,
    from: SeasonId,
    to: SeasonId,
    team: TeamId,
    at: DateTime<Utc>,
) -> Result<(u64, u64)> {
    let registrations = sql::query(
        "INSERT INTO registrations (league_id, season_id, team_id, player_id, \
         registered_at) SELECT league_id, $3, team_id, player_id, $5 \
         FROM registrations WHERE league_id = $1 AND season_id = $2 AND team_id = $4",
    )
    .bind(league)
    .bind(from)
    .bind(to)
    .bind(team)
    .bind(at)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let captains = sql::query(
        "INSERT INTO team_captains (league_id, season_id, team_id, player_id, user_id) \
         SELECT league_id, $3, team_id, player_id, user_id FROM team_captains \
         WHERE league_id = $1 AND season_id = $2 AND team_id = $4",
    )
    .bind(league)
    .bind(from)
    .bind(to)
    .bind(team)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sql::query(
        "INSERT INTO roles (user_id, kind, league_id, season_id, team_id, granted_at) \
         SELECT DISTINCT user_id, 'captain', league_id, $3, team_id, $5 FROM roles \
         WHERE kind = 'captain' AND league_id = $1 AND season_id = $2 AND team_id = $4",
    )
    .bind(league)
    .bind(from)
    .bind(to)
    .bind(team)
    .bind(at)
    .execute(tx)
    .await?;
    Ok((registrations, captains))
}

/// The season of `division` and whether it is closed, if the division is
/// `league`'s.
pub async fn division_season(
    tx: &mut Tx,
    league: LeagueId,
    division: DivisionId,
) -> Result<Option<(SeasonId, bool)>> {
    let season: Option<(SeasonId, Option<DateTime<Utc>>)> = sql::query_as(
        "SELECT s.id, s.closed_at FROM divisions d \
         JOIN seasons s ON s.id = d.season_id AND s.league_id = d.league_id \
         WHERE d.league_id = $1 AND d.id = $2",
    )
    .bind(league)
    .bind(division)
    .fetch_optional(tx)
    .await?;
    Ok(season.map(|(id, closed)| (id, closed.is_some())))
}

/// How many of `teams` are entered in `division`.
pub async fn entered_in_division(
    tx: &mut Tx,
    league: LeagueId,
    division: DivisionId,
    teams: [TeamId; 2],
) -> Result<i64> {
    sql::query_scalar(
        "SELECT COUNT(*) FROM team_entries WHERE league_id = $1 AND division_id = $2 \
         AND team_id IN ($3, $4)",
    )
    .bind(league)
    .bind(division)
    .bind(teams[0])
    .bind(teams[1])
    .fetch_one(tx)
    .await
}

/// The last round of `division`'s fixtures, if it has any.
pub async fn last_round(
    tx: &mut Tx,
    league: LeagueId,
    division: DivisionId,
) -> Result<Option<i64>> {
    sql::query_scalar("SELECT MAX(round) FROM fixtures WHERE league_id = $1 AND division_id = $2")
        .bind(league)
        .bind(division)
        .fetch_one(tx)
        .await
}
