//! The end of a season: the roll-over into the next one, and play-offs
//! between teams level on every rule at a place that matters.

use super::sql;
use crate::league::refusal::Refusal;
use chrono::{DateTime, Utc};

use super::audit::{NewAudit, insert_audit};
use super::fixtures::{COLUMNS as FIXTURE_COLUMNS, FixtureRow};
use super::seasons::{COLUMNS as SEASON_COLUMNS, SeasonRow};
use super::transfers::check_squads;
use super::{
    Db, DbError, DivisionId, Fixture, LeagueId, Result, Season, SeasonId, TeamId, UserId, VenueId,
    json_text, now,
};
use crate::league::settings::SeasonSettings;

/// A team carried into the next season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarriedTeam {
    pub team: TeamId,
    /// The division of the season rolled over whose counterpart (same
    /// name and place) the team enters next season.
    pub division: DivisionId,
    /// Its registrations and captains (with their accounts' captain roles)
    /// come along; without them the team starts with an empty roster.
    pub players: bool,
}

/// The next season as the secretary saved it from the roll-over preview.
#[derive(Debug, Clone, PartialEq)]
pub struct RollOver {
    pub name: String,
    /// The new season's settings: the old one's, with the places up and
    /// down as the preview used them (kept with the old season too).
    pub settings: SeasonSettings,
    pub teams: Vec<CarriedTeam>,
}

/// What a roll-over created.
#[derive(Debug, Clone, PartialEq)]
pub struct RolledOver {
    pub season: Season,
    pub divisions: usize,
    pub teams: usize,
    pub registrations: u64,
    pub captains: u64,
}

/// A play-off between two teams of a division.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPlayoff {
    pub division: DivisionId,
    pub home: TeamId,
    pub away: TeamId,
    pub starts_at: Option<DateTime<Utc>>,
    pub venue: Option<VenueId>,
}

#[derive(sqlx::FromRow)]
struct DivisionRow {
    id: DivisionId,
    name: String,
    position: i64,
}

impl Db {
    /// Starts the season after `from` in one transaction: a new season
    /// with the same ruleset and match format (and `next.settings`), the
    /// same divisions, each carried team entered where `next` says, with
    /// its registrations and captains when asked; then `from` is closed
    /// (kept as it is from now on). Refused when `from` was rolled over
    /// already; a name the league uses is [`DbError::Unique`].
    pub async fn roll_over(
        &self,
        league: LeagueId,
        from: SeasonId,
        next: &RollOver,
        by: Option<UserId>,
    ) -> Result<RolledOver> {
        next.settings.check().map_err(Refusal::Rule)?;
        let name = next.name.trim();
        if name.is_empty() {
            return Err(Refusal::NoSeasonName.into());
        }
        for (i, t) in next.teams.iter().enumerate() {
            if next.teams[..i].iter().any(|o| o.team == t.team) {
                return Err(Refusal::TeamListedTwice { team: t.team }.into());
            }
        }
        let select =
            format!("SELECT {SEASON_COLUMNS} FROM seasons WHERE league_id = $1 AND id = $2");
        let insert_season = format!(
            "INSERT INTO seasons (league_id, name, format, options, match_format, settings, \
             created_at) SELECT league_id, $3, format, options, match_format, $4, $5 \
             FROM seasons WHERE league_id = $1 AND id = $2 RETURNING {SEASON_COLUMNS}"
        );
        // The places used are kept with the closed season too, so that its
        // tables go on showing the moves the roll-over applied.
        let close = "UPDATE seasons SET closed_at = $3, settings = $4 \
                     WHERE league_id = $1 AND id = $2 AND closed_at IS NULL";
        let at = now();
        let mut tx = self.write(league).await?;
        let done = {
            let old: Season = sql::query_as::<SeasonRow>(&select)
                .bind(league)
                .bind(from)
                .fetch_optional(&mut tx)
                .await?
                .ok_or_else(|| DbError::not_found(format!("season {from}")))?
                .try_into()?;
            // Closing first: of two secretaries rolling the same season
            // over at once, the second finds it closed.
            let kept = SeasonSettings {
                promotion_places: next.settings.promotion_places,
                ..old.settings().map_err(DbError::Corrupt)?
            };
            let closed = sql::query(close)
                .bind(league)
                .bind(from)
                .bind(at)
                .bind(json_text(&kept.to_value()))
                .execute(&mut tx)
                .await?
                .rows_affected();
            if closed == 0 {
                return Err(Refusal::RolledOverAlready { season: old.name }.into());
            }
            let season: Season = sql::query_as::<SeasonRow>(&insert_season)
                .bind(league)
                .bind(from)
                .bind(name)
                .bind(json_text(&next.settings.to_value()))
                .bind(at)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            let old_divisions: Vec<DivisionRow> = sql::query_as(
                "SELECT id, name, position FROM divisions \
                 WHERE league_id = $1 AND season_id = $2 ORDER BY position, name, id",
            )
            .bind(league)
            .bind(from)
            .fetch_all(&mut tx)
            .await?;
            let mut new_division = Vec::with_capacity(old_divisions.len());
            for d in &old_divisions {
                let id: DivisionId = sql::query_scalar(
                    "INSERT INTO divisions (league_id, season_id, name, position) \
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .bind(league)
                .bind(season.id)
                .bind(&d.name)
                .bind(d.position)
                .fetch_one(&mut tx)
                .await?;
                new_division.push((d.id, id));
            }
            let (mut registrations, mut captains) = (0, 0);
            for t in &next.teams {
                let to = new_division
                    .iter()
                    .find(|(old, _)| *old == t.division)
                    .map(|(_, new)| *new)
                    .ok_or_else(|| Refusal::DivisionNotInSeason {
                        division: t.division,
                        season: old.name.clone(),
                    })?;
                let entered = sql::query(
                    "INSERT INTO team_entries (league_id, season_id, division_id, team_id) \
                     SELECT league_id, $3, $4, team_id FROM team_entries \
                     WHERE league_id = $1 AND season_id = $2 AND team_id = $5",
                )
                .bind(league)
                .bind(from)
                .bind(season.id)
                .bind(to)
                .bind(t.team)
                .execute(&mut tx)
                .await?
                .rows_affected();
                if entered == 0 {
                    return Err(Refusal::TeamNotInSeason {
                        team: t.team,
                        season: old.name.clone(),
                    }
                    .into());
                }
                if !t.players {
                    continue;
                }
                registrations += sql::query(
                    "INSERT INTO registrations (league_id, season_id, team_id, player_id, \
                     registered_at) SELECT league_id, $3, team_id, player_id, $5 \
                     FROM registrations WHERE league_id = $1 AND season_id = $2 AND team_id = $4",
                )
                .bind(league)
                .bind(from)
                .bind(season.id)
                .bind(t.team)
                .bind(at)
                .execute(&mut tx)
                .await?
                .rows_affected();
                captains += sql::query(
                    "INSERT INTO team_captains (league_id, season_id, team_id, player_id, user_id) \
                     SELECT league_id, $3, team_id, player_id, user_id FROM team_captains \
                     WHERE league_id = $1 AND season_id = $2 AND team_id = $4",
                )
                .bind(league)
                .bind(from)
                .bind(season.id)
                .bind(t.team)
                .execute(&mut tx)
                .await?
                .rows_affected();
                sql::query(
                    "INSERT INTO roles (user_id, kind, league_id, season_id, team_id, granted_at) \
                     SELECT DISTINCT user_id, 'captain', league_id, $3, team_id, $5 FROM roles \
                     WHERE kind = 'captain' AND league_id = $1 AND season_id = $2 AND team_id = $4",
                )
                .bind(league)
                .bind(from)
                .bind(season.id)
                .bind(t.team)
                .bind(at)
                .execute(&mut tx)
                .await?;
            }
            // The squad limit carried with the settings holds for the
            // rosters carried with the teams.
            check_squads(&mut tx, league, season.id).await?;
            let summary = serde_json::json!({
                "from": from.0,
                "teams": next.teams.iter().map(|t| serde_json::json!({
                    "team": t.team.0, "division": t.division.0, "players": t.players,
                })).collect::<Vec<_>>(),
            });
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "season", season.id.0, "roll_over")
                    .before(Some(&summary))
                    .after(Some(&season)),
            )
            .await?;
            RolledOver {
                season,
                divisions: new_division.len(),
                teams: next.teams.len(),
                registrations,
                captains,
            }
        };
        tx.commit().await?;
        Ok(done)
    }

    /// Closes a season without rolling it over (the demo's past seasons):
    /// kept as it is from now on, as after [`Db::roll_over`]. Closing a
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

    /// A play-off fixture between two teams of a division, as the
    /// division's last round: its result settles only the order of teams
    /// level on every rule, and never counts in the table. Refused in a
    /// closed season and between teams not entered in the division.
    pub async fn add_playoff(
        &self,
        league: LeagueId,
        new: &NewPlayoff,
        by: Option<UserId>,
    ) -> Result<Fixture> {
        if new.home == new.away {
            return Err(Refusal::PlayoffOfTwo.into());
        }
        let insert = format!(
            "INSERT INTO fixtures (league_id, season_id, division_id, round, starts_at, \
             home_team_id, away_team_id, venue_id, status, playoff) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9) RETURNING {FIXTURE_COLUMNS}"
        );
        let mut tx = self.write(league).await?;
        let fixture: Fixture = {
            let season: Option<(SeasonId, Option<DateTime<Utc>>)> = sql::query_as(
                "SELECT s.id, s.closed_at FROM divisions d \
                 JOIN seasons s ON s.id = d.season_id AND s.league_id = d.league_id \
                 WHERE d.league_id = $1 AND d.id = $2",
            )
            .bind(league)
            .bind(new.division)
            .fetch_optional(&mut tx)
            .await?;
            let (season, closed) =
                season.ok_or_else(|| DbError::not_found(format!("division {}", new.division)))?;
            if closed.is_some() {
                return Err(Refusal::SeasonOver.into());
            }
            let entered: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM team_entries WHERE league_id = $1 AND division_id = $2 \
                 AND team_id IN ($3, $4)",
            )
            .bind(league)
            .bind(new.division)
            .bind(new.home)
            .bind(new.away)
            .fetch_one(&mut tx)
            .await?;
            if entered != 2 {
                return Err(Refusal::PlayoffOutsideDivision.into());
            }
            let last: Option<i64> = sql::query_scalar(
                "SELECT MAX(round) FROM fixtures WHERE league_id = $1 AND division_id = $2",
            )
            .bind(league)
            .bind(new.division)
            .fetch_one(&mut tx)
            .await?;
            let fixture: Fixture = sql::query_as::<FixtureRow>(&insert)
                .bind(league)
                .bind(season)
                .bind(new.division)
                .bind(last.unwrap_or(0) + 1)
                .bind(new.starts_at)
                .bind(new.home)
                .bind(new.away)
                .bind(new.venue)
                .bind(true)
                .fetch_one(&mut tx)
                .await?
                .try_into()?;
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "fixture", fixture.id.0, "playoff")
                    .after(Some(&fixture)),
            )
            .await?;
            fixture
        };
        tx.commit().await?;
        Ok(fixture)
    }
}
