//! Transfers between teams during a season, the squad limit, and which
//! players a fixture's teams had on its date.

use super::sql::{self, Exec, On, Tx};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use super::{Db, Fixture, LeagueId, Player, PlayerId, Result, SeasonId, TeamId, UserId, now};
use crate::league::transfers::{self, Move};

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

/// Each team's name and players registered now, by name: the squads the
/// season's limit is held against.
pub(crate) async fn squad_sizes(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
) -> Result<Vec<(String, i64)>> {
    sql::query_as(
        "SELECT t.name, COUNT(*) FROM registrations r \
         JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
         WHERE r.league_id = $1 AND r.season_id = $2 \
         GROUP BY t.id, t.name ORDER BY t.name",
    )
    .bind(league)
    .bind(season)
    .fetch_all(&mut *tx)
    .await
}

/// Players registered to `team` this season now.
pub(crate) async fn squad_size(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<i64> {
    sql::query_scalar(
        "SELECT COUNT(*) FROM registrations \
         WHERE league_id = $1 AND season_id = $2 AND team_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .fetch_one(&mut *tx)
    .await
}

/// A player's registration this season, with the names a transfer's page
/// and refusals give.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(crate) struct Registered {
    pub player: String,
    pub team_id: TeamId,
    pub team: String,
}

/// The team `player` is registered to this season, if any.
pub(crate) async fn registered_team(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    player: PlayerId,
) -> Result<Option<Registered>> {
    sql::query_as(
        "SELECT p.name AS player, r.team_id, t.name AS team FROM registrations r \
         JOIN players p ON p.id = r.player_id AND p.league_id = r.league_id \
         JOIN teams t ON t.id = r.team_id AND t.league_id = r.league_id \
         WHERE r.league_id = $1 AND r.season_id = $2 AND r.player_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(player)
    .fetch_optional(&mut *tx)
    .await
}

/// The name of `team` if it is entered in the season.
pub(crate) async fn entered_team_name(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
) -> Result<Option<String>> {
    sql::query_scalar(
        "SELECT t.name FROM team_entries e \
         JOIN teams t ON t.id = e.team_id AND t.league_id = e.league_id \
         WHERE e.league_id = $1 AND e.season_id = $2 AND e.team_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(team)
    .fetch_optional(&mut *tx)
    .await
}

/// `player`'s moves this season.
pub(crate) async fn player_moves(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    player: PlayerId,
) -> Result<Vec<Move>> {
    let moves: Vec<MoveRow> = sql::query_as(
        "SELECT player_id, from_team_id, to_team_id, from_at FROM transfers \
         WHERE league_id = $1 AND season_id = $2 AND player_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(player)
    .fetch_all(&mut *tx)
    .await?;
    Ok(moves.iter().map(Move::from).collect())
}

/// The first match of `team` from `from_at` on in whose current result
/// `player` played: its home and away teams' names and its start.
pub(crate) async fn first_played_after(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    player: PlayerId,
    team: TeamId,
    from_at: DateTime<Utc>,
) -> Result<Option<(String, String, Option<DateTime<Utc>>)>> {
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
    sql::query_as(&played_after)
        .bind(league)
        .bind(season)
        .bind(player)
        .bind(from_at)
        .bind(team)
        .fetch_optional(&mut *tx)
        .await
}

/// Moves `player`'s registration this season to `team`.
pub(crate) async fn move_registration(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    player: PlayerId,
    team: TeamId,
) -> Result<()> {
    sql::query(
        "UPDATE registrations SET team_id = $4 \
         WHERE league_id = $1 AND season_id = $2 AND player_id = $3",
    )
    .bind(league)
    .bind(season)
    .bind(player)
    .bind(team)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Keeps the move `new` from `from_team`, so earlier games stay with the
/// old team. Returns its id.
pub(crate) async fn insert_transfer(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
    new: &NewTransfer,
    from_team: TeamId,
    by: Option<UserId>,
) -> Result<i64> {
    sql::query_scalar(
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
    .fetch_one(&mut *tx)
    .await
}

/// Charges a transfer's fee to `team` in the fines ledger, saying why.
pub(crate) async fn charge_fee(
    tx: &mut Tx,
    league: LeagueId,
    team: TeamId,
    fee_pence: i64,
    reason: &str,
) -> Result<()> {
    sql::query(
        "INSERT INTO fines (league_id, team_id, player_id, penalty_id, amount_pence, \
         reason, created_at) VALUES ($1, $2, NULL, NULL, $3, $4, $5)",
    )
    .bind(league)
    .bind(team)
    .bind(fee_pence)
    .bind(reason)
    .bind(now())
    .execute(&mut *tx)
    .await?;
    Ok(())
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
}
