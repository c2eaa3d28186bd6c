//! The end of a season, each command one transaction: the roll-over into
//! the next season, and a play-off between teams level on every rule at a
//! place that matters. The records are read as they are now,
//! `league::rollover` decides, and the writes and their audit entry are
//! made before the commit.

use chrono::{DateTime, Utc};

use crate::app::transfers::check_squads;
use crate::db::audit::{NewAudit, insert_audit};
use crate::db::fixtures::insert_fixture;
use crate::db::rollover::{
    carry_roster, close_open_season, copy_divisions, division_season, enter_again,
    entered_in_division, entered_teams, insert_next_season, last_round,
};
use crate::db::seasons::season_in;
use crate::db::{
    Db, DbError, DivisionId, Fixture, LeagueId, NewFixture, Result, Season, SeasonId, TeamId,
    UserId, VenueId, now,
};
use crate::league::rollover::{
    destinations, may_add_playoff, next_season, playoff_pair, rolled_over_once,
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

/// Starts the season after `from` in one transaction: a new season with
/// the same ruleset and match format (and `next.settings`), the same
/// divisions, each carried team entered where `next` says, with its
/// registrations and captains when asked; then `from` is closed (kept as
/// it is from now on). Refused when `from` was rolled over already, and
/// when the rosters carried break the new season's squad limit; a name
/// the league uses is [`DbError::Unique`].
pub async fn roll_over(
    db: &Db,
    league: LeagueId,
    from: SeasonId,
    next: &RollOver,
    by: Option<UserId>,
) -> Result<RolledOver> {
    let carried: Vec<TeamId> = next.teams.iter().map(|t| t.team).collect();
    let name = next_season(&next.name, &next.settings, &carried)?;
    let at = now();
    let mut tx = db.write(league).await?;
    let old = season_in(&mut tx, league, from).await?;
    // The places used are kept with the closed season too, so that its
    // tables go on showing the moves the roll-over applied.
    let kept = SeasonSettings {
        promotion_places: next.settings.promotion_places,
        ..old.settings().map_err(DbError::Corrupt)?
    };
    // Closing first: of two secretaries rolling the same season over at
    // once, the second finds it closed.
    let closed = close_open_season(&mut tx, league, from, at, &kept).await?;
    rolled_over_once(closed, &old.name)?;
    let season = insert_next_season(&mut tx, league, from, name, &next.settings, at).await?;
    let divisions = copy_divisions(&mut tx, league, from, season.id).await?;
    let places: Vec<(TeamId, DivisionId)> =
        next.teams.iter().map(|t| (t.team, t.division)).collect();
    let entered = entered_teams(&mut tx, league, from).await?;
    let to = destinations(&places, &divisions, &entered, &old.name)?;
    let (mut registrations, mut captains) = (0, 0);
    for (t, division) in next.teams.iter().zip(to) {
        enter_again(&mut tx, league, from, season.id, division, t.team).await?;
        if t.players {
            let (r, c) = carry_roster(&mut tx, league, from, season.id, t.team, at).await?;
            registrations += r;
            captains += c;
        }
    }
    // The squad limit carried with the settings holds for the rosters
    // carried with the teams.
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
    tx.commit().await?;
    Ok(RolledOver {
        season,
        divisions: divisions.len(),
        teams: next.teams.len(),
        registrations,
        captains,
    })
}

/// A play-off fixture between two teams of a division, as the division's
/// last round: its result settles only the order of teams level on every
/// rule, and never counts in the table. Refused in a closed season and
/// between teams not entered in the division.
pub async fn add_playoff(
    db: &Db,
    league: LeagueId,
    new: &NewPlayoff,
    by: Option<UserId>,
) -> Result<Fixture> {
    playoff_pair(new.home, new.away)?;
    let mut tx = db.write(league).await?;
    let (season, closed) = division_season(&mut tx, league, new.division)
        .await?
        .ok_or_else(|| DbError::not_found(format!("division {}", new.division)))?;
    let entered = entered_in_division(&mut tx, league, new.division, [new.home, new.away]).await?;
    may_add_playoff(closed, entered)?;
    let round = last_round(&mut tx, league, new.division)
        .await?
        .unwrap_or(0)
        + 1;
    let fixture = insert_fixture(
        &mut tx,
        league,
        &NewFixture {
            season_id: season,
            division_id: new.division,
            round,
            starts_at: new.starts_at,
            home_team_id: new.home,
            away_team_id: new.away,
            venue_id: new.venue,
        },
        true,
    )
    .await?;
    insert_audit(
        &mut tx,
        NewAudit::new(Some(league), by, "fixture", fixture.id.0, "playoff").after(Some(&fixture)),
    )
    .await?;
    tx.commit().await?;
    Ok(fixture)
}
