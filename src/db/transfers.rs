//! Transfers between teams during a season, the squad limit, and which
//! players a fixture's teams had on its date.

use super::sql::{self, Exec, On, Tx};
use crate::league::refusal::Refusal;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::audit::{NewAudit, insert_audit};
use super::{
    Db, DbError, Fixture, LeagueId, Player, PlayerId, Result, SeasonId, TeamId, UserId, now,
};
use crate::league::settings::SeasonSettings;
use crate::league::transfers::{self, Move, Proposed};

/// A transfer asked for by a secretary.
#[derive(Debug, Clone)]
pub struct NewTransfer {
    pub player: PlayerId,
    pub to_team: TeamId,
    /// The day the player plays for the new team from, in the league's
    /// time zone, and its start in UTC.
    pub on_day: NaiveDate,
    pub from_at: DateTime<Utc>,
    /// Charged to the new team in the fines ledger.
    pub fee_pence: Option<i64>,
}

/// A transfer made, as the page reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transferred {
    pub player: String,
    pub from_team: String,
    pub to_team: String,
}

/// A line of a season's transfers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct TransferLine {
    pub id: i64,
    pub player_id: PlayerId,
    pub player: String,
    pub from_team: String,
    pub to_team: String,
    pub on_day: NaiveDate,
    pub fee_pence: Option<i64>,
}

/// A stored move, as read for [`roster_on_date`] and the checks.
#[derive(sqlx::FromRow)]
pub(crate) struct MoveRow {
    player_id: PlayerId,
    from_team_id: TeamId,
    to_team_id: TeamId,
    from_at: DateTime<Utc>,
}

impl From<&MoveRow> for Move {
    fn from(m: &MoveRow) -> Move {
        Move {
            from_team: m.from_team_id.0,
            to_team: m.to_team_id.0,
            from_at: m.from_at,
        }
    }
}

/// The players registered to the season's teams `$3` and `$4` now, or who
/// moved from or to one of them: those a fixture between them may name.
pub(crate) const ROSTER_CANDIDATES: &str = "SELECT p.id, p.league_id, p.name, p.created_at, \
     r.team_id FROM registrations r \
     JOIN players p ON p.id = r.player_id AND p.league_id = r.league_id \
     WHERE r.league_id = $1 AND r.season_id = $2 AND (r.team_id IN ($3, $4) \
       OR r.player_id IN (SELECT t.player_id FROM transfers t \
         WHERE t.league_id = $1 AND t.season_id = $2 \
           AND (t.from_team_id IN ($3, $4) OR t.to_team_id IN ($3, $4)))) \
     ORDER BY p.name, p.id";

/// Every move of those players this season.
pub(crate) const CANDIDATE_MOVES: &str = "SELECT player_id, from_team_id, to_team_id, from_at FROM transfers \
     WHERE league_id = $1 AND season_id = $2 AND player_id IN (SELECT t.player_id FROM transfers t \
       WHERE t.league_id = $1 AND t.season_id = $2 \
         AND (t.from_team_id IN ($3, $4) OR t.to_team_id IN ($3, $4)))";

/// The players of a fixture's two teams on its date, each with the team
/// they played for then: the rows of [`ROSTER_CANDIDATES`] and
/// [`CANDIDATE_MOVES`] on `on` (the database or a transaction), sorted by
/// name. Two queries whatever the size of the squads.
pub(crate) async fn roster_on_date(
    on: &mut On<'_>,
    league: LeagueId,
    season: SeasonId,
    home: TeamId,
    away: TeamId,
    at: Option<DateTime<Utc>>,
) -> Result<Vec<(Player, TeamId)>> {
    let candidates: Vec<Candidate> = sql::query_as(ROSTER_CANDIDATES)
        .bind(league)
        .bind(season)
        .bind(home)
        .bind(away)
        .fetch_all(&mut *on)
        .await?;
    let moves: Vec<MoveRow> = sql::query_as(CANDIDATE_MOVES)
        .bind(league)
        .bind(season)
        .bind(home)
        .bind(away)
        .fetch_all(&mut *on)
        .await?;
    Ok(on_date(candidates, &moves, home, away, at))
}

/// A player registered to one of a fixture's teams now, or who moved
/// from or to one of them this season.
#[derive(sqlx::FromRow)]
pub(crate) struct Candidate {
    #[sqlx(flatten)]
    player: Player,
    team_id: TeamId,
}

/// Keeps the candidates who were with `home` or `away` at `at`, each with
/// that team.
pub(crate) fn on_date(
    candidates: Vec<Candidate>,
    moves: &[MoveRow],
    home: TeamId,
    away: TeamId,
    at: Option<DateTime<Utc>>,
) -> Vec<(Player, TeamId)> {
    candidates
        .into_iter()
        .filter_map(|c| {
            let own: Vec<Move> = moves
                .iter()
                .filter(|m| m.player_id == c.player.id)
                .map(Move::from)
                .collect();
            let team = TeamId(transfers::team_at(c.team_id.0, &own, at));
            (team == home || team == away).then_some((c.player, team))
        })
        .collect()
}

/// Refuses a squad over the season's limit after registrations were
/// added in this transaction, naming the team.
pub(crate) async fn check_squads(tx: &mut Tx, league: LeagueId, season: SeasonId) -> Result<()> {
    let settings: String =
        sql::query_scalar("SELECT settings FROM seasons WHERE league_id = $1 AND id = $2")
            .bind(league)
            .bind(season)
            .fetch_one(&mut *tx)
            .await?;
    let settings = settings_of(&settings)?;
    if let Some(limit) = settings.squad_limit {
        let over: Option<(String, i64)> = sql::query_as(
            "SELECT t.name, COUNT(*) FROM registrations r \
             JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
             WHERE r.league_id = $1 AND r.season_id = $2 \
             GROUP BY t.id, t.name HAVING COUNT(*) > $3 ORDER BY t.name LIMIT 1",
        )
        .bind(league)
        .bind(season)
        .bind(i64::from(limit))
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((team, n)) = over {
            return Err(Refusal::SquadFull {
                team,
                players: n,
                limit,
            }
            .into());
        }
    }
    Ok(())
}

pub(crate) fn settings_of(text: &str) -> Result<SeasonSettings> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| DbError::Corrupt(format!("season settings: {e}")))?;
    SeasonSettings::parse(&value).map_err(|e| DbError::Corrupt(format!("season settings: {e}")))
}

impl Db {
    /// The players of `fixture`'s home and away teams on its date
    /// (transfers applied), by name: whom its card and pads may name. A
    /// singles or pairs cup tie names its two entrants only.
    pub async fn fixture_sides(
        &self,
        league: LeagueId,
        fixture: &Fixture,
    ) -> Result<(Vec<Player>, Vec<Player>)> {
        if fixture.cup_id.is_some()
            && let Some(sides) = self.cup_tie_players(league, fixture.id).await?
        {
            return Ok(sides);
        }
        let (home, away) = (fixture.home_team_id, fixture.away_team_id);
        let players = roster_on_date(
            &mut self.on(),
            league,
            fixture.season_id,
            home,
            away,
            fixture.starts_at,
        )
        .await?;
        let (mut home_players, mut away_players) = (Vec::new(), Vec::new());
        for (p, team) in players {
            if team == home {
                home_players.push(p);
            } else {
                away_players.push(p);
            }
        }
        Ok((home_players, away_players))
    }

    /// A season's transfers, latest first.
    pub async fn season_transfers(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<TransferLine>> {
        sql::query_as::<TransferLine>(
            "SELECT tr.id, tr.player_id, p.name AS player, ft.name AS from_team, \
             tt.name AS to_team, tr.on_day, tr.fee_pence FROM transfers tr \
             JOIN players p ON p.id = tr.player_id AND p.league_id = tr.league_id \
             JOIN teams ft ON ft.id = tr.from_team_id AND ft.league_id = tr.league_id \
             JOIN teams tt ON tt.id = tr.to_team_id AND tt.league_id = tr.league_id \
             WHERE tr.league_id = $1 AND tr.season_id = $2 \
             ORDER BY tr.from_at DESC, tr.id DESC",
        )
        .bind(league)
        .bind(season)
        .fetch_all(self)
        .await
    }

    /// Moves a player to another team of the season from a day: the
    /// registration changed, the move kept (so earlier games stay with the
    /// old team), the fee charged to the new team, and an audit entry, in
    /// one transaction. Refused, saying why ([`DbError::Invalid`]), when
    /// [`transfers::check`] refuses it.
    pub async fn transfer_player(
        &self,
        league: LeagueId,
        season: SeasonId,
        new: &NewTransfer,
        by: Option<UserId>,
    ) -> Result<Transferred> {
        let played_after = format!(
            "SELECT ht.name, at.name, f.starts_at FROM fixtures f \
             JOIN result_versions v ON v.fixture_id = f.id AND v.league_id = f.league_id \
               AND {current} \
             JOIN boards b ON b.version_id = v.id \
             JOIN board_players bp ON bp.board_id = b.id \
             JOIN teams ht ON ht.id = f.home_team_id AND ht.league_id = f.league_id \
             JOIN teams at ON at.id = f.away_team_id AND at.league_id = f.league_id \
             WHERE f.league_id = $1 AND f.season_id = $2 AND bp.player_id = $3 \
               AND f.starts_at >= $4 AND (f.home_team_id = $5 OR f.away_team_id = $5) \
             ORDER BY f.starts_at LIMIT 1",
            current = super::results::CURRENT
        );
        let mut tx = self.write(league).await?;
        let out = {
            let settings: String =
                sql::query_scalar("SELECT settings FROM seasons WHERE league_id = $1 AND id = $2")
                    .bind(league)
                    .bind(season)
                    .fetch_optional(&mut tx)
                    .await?
                    .ok_or_else(|| DbError::not_found(format!("season {season}")))?;
            let settings = settings_of(&settings)?;
            let current: Option<(String, TeamId, String)> = sql::query_as(
                "SELECT p.name, r.team_id, t.name FROM registrations r \
                 JOIN players p ON p.id = r.player_id AND p.league_id = r.league_id \
                 JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
                 WHERE r.league_id = $1 AND r.season_id = $2 AND r.player_id = $3",
            )
            .bind(league)
            .bind(season)
            .bind(new.player)
            .fetch_optional(&mut tx)
            .await?;
            let Some((player, from_team, from_name)) = current else {
                return Err(Refusal::TransferUnregistered.into());
            };
            let to_name: Option<String> = sql::query_scalar(
                "SELECT t.name FROM team_entries e \
                 JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
                 WHERE e.league_id = $1 AND e.season_id = $2 AND e.team_id = $3",
            )
            .bind(league)
            .bind(season)
            .bind(new.to_team)
            .fetch_optional(&mut tx)
            .await?;
            let Some(to_name) = to_name else {
                return Err(Refusal::TeamNotEntered.into());
            };
            let moves: Vec<MoveRow> = sql::query_as(
                "SELECT player_id, from_team_id, to_team_id, from_at FROM transfers \
                 WHERE league_id = $1 AND season_id = $2 AND player_id = $3",
            )
            .bind(league)
            .bind(season)
            .bind(new.player)
            .fetch_all(&mut tx)
            .await?;
            let moves: Vec<Move> = moves.iter().map(Move::from).collect();
            let squad: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM registrations \
                 WHERE league_id = $1 AND season_id = $2 AND team_id = $3",
            )
            .bind(league)
            .bind(season)
            .bind(new.to_team)
            .fetch_one(&mut tx)
            .await?;
            let captain: i64 = sql::query_scalar(
                "SELECT COUNT(*) FROM team_captains \
                 WHERE league_id = $1 AND season_id = $2 AND team_id = $3 AND player_id = $4",
            )
            .bind(league)
            .bind(season)
            .bind(from_team)
            .bind(new.player)
            .fetch_one(&mut tx)
            .await?;
            let played: Option<(String, String, Option<DateTime<Utc>>)> =
                sql::query_as(&played_after)
                    .bind(league)
                    .bind(season)
                    .bind(new.player)
                    .bind(new.from_at)
                    .bind(from_team)
                    .fetch_optional(&mut tx)
                    .await?;
            let played: Vec<String> = played
                .into_iter()
                .map(|(h, a, at)| match at {
                    Some(at) => format!("{h} v {a} on {}", at.format("%-d %b %Y")),
                    None => format!("{h} v {a}"),
                })
                .collect();
            transfers::check(&Proposed {
                player: &player,
                current_team: (from_team.0, &from_name),
                to_team: (new.to_team.0, &to_name),
                from_at: new.from_at,
                moves: &moves,
                squad: u32::try_from(squad).unwrap_or(u32::MAX),
                squad_limit: settings.squad_limit,
                captain: captain > 0,
                played_after: &played,
            })
            .map_err(Refusal::Rule)?;

            sql::query(
                "UPDATE registrations SET team_id = $4 \
                 WHERE league_id = $1 AND season_id = $2 AND player_id = $3",
            )
            .bind(league)
            .bind(season)
            .bind(new.player)
            .bind(new.to_team)
            .execute(&mut tx)
            .await?;
            let id: i64 = sql::query_scalar(
                "INSERT INTO transfers (league_id, season_id, player_id, from_team_id, \
                 to_team_id, on_day, from_at, fee_pence, created_by, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            )
            .bind(league)
            .bind(season)
            .bind(new.player)
            .bind(from_team)
            .bind(new.to_team)
            .bind(new.on_day)
            .bind(new.from_at)
            .bind(new.fee_pence)
            .bind(by)
            .bind(now())
            .fetch_one(&mut tx)
            .await?;
            if let Some(fee) = new.fee_pence.filter(|f| *f > 0) {
                sql::query(
                    "INSERT INTO fines (league_id, team_id, player_id, penalty_id, amount_pence, \
                     reason, created_at) VALUES ($1, $2, NULL, NULL, $3, $4, $5)",
                )
                .bind(league)
                .bind(new.to_team)
                .bind(fee)
                .bind(format!("Transfer fee: {player} from {from_name}"))
                .bind(now())
                .execute(&mut tx)
                .await?;
            }
            insert_audit(
                &mut tx,
                NewAudit::new(Some(league), by, "transfer", id, "create").after(Some(
                    &serde_json::json!({
                        "player": new.player,
                        "from_team": from_team,
                        "to_team": new.to_team,
                        "on_day": new.on_day,
                        "fee_pence": new.fee_pence,
                    }),
                )),
            )
            .await?;
            Ok(Transferred {
                player,
                from_team: from_name,
                to_team: to_name,
            })
        };
        tx.commit().await?;
        out
    }
}
