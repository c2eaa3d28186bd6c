//! A season's making and its form (name, ruleset and match format,
//! settings), each one transaction: the form is checked before anything
//! is stored, the season read as it is now, `league::season` decides
//! whether it may still change, and each part that changes is written and
//! audited before the commit.

use serde_json::{Map, Value};

use crate::db::audit::{NewAudit, insert_audit};
use crate::db::seasons::{
    insert_season, season_has_results_in, season_in, update_season_name, update_season_rules,
    update_season_settings,
};
use crate::db::{Db, LeagueId, NewSeason, Result, Season, SeasonId, SeasonUpdate, UserId};
use crate::league::season::{archive_kept, check_form, rules_open};
use crate::league::settings::SeasonSettings;
use crate::rules::Format;

/// A new season with the default settings; its options must make a
/// valid ruleset for its format.
pub async fn create_season(db: &Db, league: LeagueId, new: &NewSeason) -> Result<Season> {
    create_season_with(db, league, new, &SeasonSettings::default()).await
}

/// A new season with its settings; refused when its options make no
/// ruleset for its format or its settings are out of range.
pub async fn create_season_with(
    db: &Db,
    league: LeagueId,
    new: &NewSeason,
    settings: &SeasonSettings,
) -> Result<Season> {
    check_form(Some((new.format, &new.options)), Some(settings))?;
    let mut tx = db.write(league).await?;
    let season = insert_season(&mut tx, league, new, settings).await?;
    tx.commit().await?;
    Ok(season)
}

/// Saves a season's form in one transaction: all of it, or (refused
/// rules, a name taken) none of it. Each part that changes leaves its
/// audit entry. A season rolled over keeps its rules and settings, and
/// one with results its ruleset and match format.
pub async fn update_season(
    db: &Db,
    league: LeagueId,
    id: SeasonId,
    update: &SeasonUpdate,
    by: Option<UserId>,
) -> Result<Season> {
    check_form(
        update
            .rules
            .as_ref()
            .map(|(format, options, _)| (*format, options)),
        update.settings.as_ref(),
    )?;
    let mut tx = db.write(league).await?;
    let before = season_in(&mut tx, league, id).await?;
    archive_kept(
        &before.name,
        before.is_closed(),
        update.rules.is_some(),
        before.settings().ok().as_ref(),
        update.settings.as_ref(),
    )?;
    let mut now_is = before;
    if let Some((format, options, match_format)) = &update.rules {
        rules_open(
            &now_is.name,
            season_has_results_in(&mut tx, league, id).await?,
        )?;
        let after =
            update_season_rules(&mut tx, league, id, *format, options, match_format).await?;
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "season", id.0, "rules")
                .before(Some(&now_is))
                .after(Some(&after)),
        )
        .await?;
        now_is = after;
    }
    if let Some(settings) = &update.settings {
        let after = update_season_settings(&mut tx, league, id, settings).await?;
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "season", id.0, "settings")
                .before(Some(&now_is.settings))
                .after(Some(&after.settings)),
        )
        .await?;
        now_is = after;
    }
    if let Some(name) = update.name.as_ref().filter(|n| **n != now_is.name) {
        let after = update_season_name(&mut tx, league, id, name).await?;
        insert_audit(
            &mut tx,
            NewAudit::new(Some(league), by, "season", id.0, "rename")
                .before(Some(&now_is.name))
                .after(Some(&after.name)),
        )
        .await?;
        now_is = after;
    }
    tx.commit().await?;
    Ok(now_is)
}

/// Changes a season's ruleset and match format, audited. Refused once any
/// of its fixtures has a result: those were scored under the old rules.
pub async fn set_season_rules(
    db: &Db,
    league: LeagueId,
    id: SeasonId,
    format: Format,
    options: &Map<String, Value>,
    match_format: &Value,
    by: Option<UserId>,
) -> Result<Season> {
    let update = SeasonUpdate {
        name: None,
        rules: Some((format, options.clone(), match_format.clone())),
        settings: None,
    };
    update_season(db, league, id, &update, by).await
}

/// Changes a season's settings, audited. Allowed with results in: the
/// tables are computed from the results as they are shown.
pub async fn set_season_settings(
    db: &Db,
    league: LeagueId,
    id: SeasonId,
    settings: &SeasonSettings,
    by: Option<UserId>,
) -> Result<Season> {
    let update = SeasonUpdate {
        name: None,
        rules: None,
        settings: Some(settings.clone()),
    };
    update_season(db, league, id, &update, by).await
}
