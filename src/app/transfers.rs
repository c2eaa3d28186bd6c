//! Transfers between teams during a season (LEAGUE.md, "Transfers") and
//! the squad limit, each held in the write's one transaction: the records
//! are read as they are now, `league::transfers` decides, and the move,
//! its fee and its audit entry are written before the commit.

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::seasons::season_settings_in;
use crate::db::sql::Tx;
use crate::db::teams::is_captain;
use crate::db::transfers::{
    NewTransfer, Transferred, charge_fee, entered_team_name, first_played_after, insert_transfer,
    move_registration, player_moves, registered_team, squad_size, squad_sizes,
};
use crate::db::{Db, DbError, LeagueId, Result, SeasonId, UserId};
use crate::league::refusal::Refusal;
use crate::league::transfers::{self, Proposed};

/// Refuses a squad over the season's limit after registrations were
/// added in the transaction `tx`, naming the team: every write that
/// registers players (a roster, an import, a roll-over) asks before its
/// commit.
pub async fn check_squads(tx: &mut Tx, league: LeagueId, season: SeasonId) -> Result<()> {
    let settings = season_settings_in(tx, league, season)
        .await?
        .ok_or_else(|| DbError::not_found(format!("season {season}")))?;
    // Without a limit there is nothing to count.
    if settings.squad_limit.is_some() {
        let squads = squad_sizes(tx, league, season).await?;
        transfers::squads_within(settings.squad_limit, &squads)?;
    }
    Ok(())
}

/// Moves a player to another team of the season from a day: the
/// registration changed, the move kept (so earlier games stay with the
/// old team), the fee charged to the new team, and an audit entry, in one
/// transaction. Refused, saying why, when the player is on no roster, the
/// team is not entered, or [`transfers::check`] refuses it.
pub async fn transfer_player(
    db: &Db,
    league: LeagueId,
    season: SeasonId,
    new: &NewTransfer,
    by: Option<UserId>,
) -> Result<Transferred> {
    let mut tx = db.write(league).await?;
    let settings = season_settings_in(&mut tx, league, season)
        .await?
        .ok_or_else(|| DbError::not_found(format!("season {season}")))?;
    let registered = registered_team(&mut tx, league, season, new.player).await?;
    let entered = entered_team_name(&mut tx, league, season, new.to_team).await?;
    let (from, to_name) = transfers::ends(registered, entered)?;
    let moves = player_moves(&mut tx, league, season, new.player).await?;
    let squad = squad_size(&mut tx, league, season, new.to_team).await?;
    let captain = is_captain(&mut tx, league, season, from.team_id, new.player).await?;
    let played: Vec<String> = first_played_after(
        &mut tx,
        league,
        season,
        new.player,
        from.team_id,
        new.from_at,
    )
    .await?
    .into_iter()
    .map(|(home, away, at)| transfers::match_words(&home, &away, at))
    .collect();
    transfers::check(&Proposed {
        player: &from.player,
        current_team: (from.team_id.0, &from.team),
        to_team: (new.to_team.0, &to_name),
        from_at: new.from_at,
        moves: &moves,
        squad: u32::try_from(squad).unwrap_or(u32::MAX),
        squad_limit: settings.squad_limit,
        captain,
        played_after: &played,
    })
    .map_err(Refusal::Rule)?;

    move_registration(&mut tx, league, season, new.player, new.to_team).await?;
    let id = insert_transfer(&mut tx, league, season, new, from.team_id, by).await?;
    if let Some(fee) = new.fee_pence.filter(|f| *f > 0) {
        let reason = format!("Transfer fee: {} from {}", from.player, from.team);
        charge_fee(&mut tx, league, new.to_team, fee, &reason).await?;
    }
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "transfer", id, "create").after(Some(&serde_json::json!({
            "player": new.player,
            "from_team": from.team_id,
            "to_team": new.to_team,
            "on_day": new.on_day,
            "fee_pence": new.fee_pence,
        }))),
    )
    .await?;
    tx.commit().await?;
    Ok(Transferred {
        player: from.player,
        from_team: from.team,
        to_team: to_name,
    })
}
