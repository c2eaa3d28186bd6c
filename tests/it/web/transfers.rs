//! The league's rules for who may enter a result and for whom a player
//! plays: the result lock (after N days only a secretary enters or
//! corrects) and transfers between teams during a season, with the squad
//! limit and the fee in the fines ledger.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::league::settings::SeasonSettings;

use super::results::{Match, client, setup, simulated_card, submit_card};
use crate::harness::client::{Client, Page};
use crate::support::on_both;

on_both!(
    after_the_lock_only_a_secretary_enters_the_result,
    a_transfer_moves_a_player_from_a_day_and_keeps_earlier_games,
    the_squad_limit_refuses_one_player_too_many,
);

async fn settings(db: &Db, m: &Match, settings: SeasonSettings) {
    let fixture = db.fixture(LeagueId(1), m.fixture).await.unwrap();
    boneyard::app::seasons::set_season_settings(
        db,
        LeagueId(1),
        fixture.season_id,
        &settings,
        None,
    )
    .await
    .unwrap();
}

async fn versions(db: &Db, m: &Match) -> usize {
    db.result_versions(LeagueId(1), m.fixture)
        .await
        .unwrap()
        .len()
}

async fn after_the_lock_only_a_secretary_enters_the_result(db: Db) {
    let m = setup(&db).await;
    // The fixture was on 10 September 2026; a lock of a year leaves it open.
    settings(
        &db,
        &m,
        SeasonSettings {
            lock_days: Some(366),
            ..SeasonSettings::default()
        },
    )
    .await;
    let mut home = client(&db, "home").await;
    let page = home.get(&m.path("/card")).await;
    assert!(!page.has("id=\"locked\""));
    // A card opened before the lock, sent after it.
    let token = page.csrf();
    // Five days: long past. The card says so instead of offering a form.
    settings(
        &db,
        &m,
        SeasonSettings {
            lock_days: Some(5),
            ..SeasonSettings::default()
        },
    )
    .await;
    let page = home.get(&m.path("/card")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("id=\"locked\""), "{}", page.body);
    assert!(page.has("locked on Tue 15 Sep 2026"), "{}", page.body);
    assert!(!page.has("id=\"card\""));
    // A form sent anyway (an old tab) is refused and nothing is stored.
    let (fields, _) = simulated_card(&m, 4);
    let mut all: Vec<(&str, &str)> = vec![("csrf", &token), ("action", "submit")];
    all.extend(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let refused = home.post(&m.path("/card"), &all).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(refused.has("only a secretary can enter or correct it now"));
    assert_eq!(versions(&db, &m).await, 0);
    // The secretary still can.
    let mut sec = client(&db, "sec").await;
    let saved = submit_card(&mut sec, &m, &fields, "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    assert_eq!(versions(&db, &m).await, 1);
}

/// The id of the player named `name`.
async fn player(db: &Db, name: &str) -> PlayerId {
    db.players(LeagueId(1))
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no player {name}"))
        .id
}

async fn team(db: &Db, name: &str) -> TeamId {
    db.teams(LeagueId(1))
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap()
        .id
}

async fn transfer(
    sec: &mut Client,
    m: &Match,
    season: SeasonId,
    player: PlayerId,
    to: TeamId,
    day: &str,
    fee: &str,
) -> Page {
    let path = format!("/leagues/{}/console/seasons/{season}/transfers", m.short);
    let page = sec.get(&path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let token = page.csrf();
    sec.post(
        &path,
        &[
            ("csrf", &token),
            ("player", &player.0.to_string()),
            ("team", &to.0.to_string()),
            ("on_day", day),
            ("fee", fee),
        ],
    )
    .await
}

async fn a_transfer_moves_a_player_from_a_day_and_keeps_earlier_games(db: Db) {
    let m = setup(&db).await;
    let season = db.fixture(LeagueId(1), m.fixture).await.unwrap().season_id;
    let mut sec = client(&db, "sec").await;
    let anchor = team(&db, "Anchor").await;
    let bell = team(&db, "Bell").await;
    let (bell0, bell1) = (
        player(&db, "Bell Player 0").await,
        player(&db, "Bell Player 1").await,
    );
    // Bell Player 0 plays for Anchor from before the fixture, with a fee;
    // Bell Player 1 only from the day after it.
    let moved = transfer(&mut sec, &m, season, bell0, anchor, "2026-09-01", "12.50").await;
    assert_eq!(moved.status, StatusCode::SEE_OTHER, "{}", moved.body);
    let page = sec.get(moved.location.as_deref().unwrap()).await;
    assert!(
        page.has("Transferred Bell Player 0 from Bell to Anchor from 1 September 2026; a fee of £12.50 is charged to Anchor."),
        "{}",
        page.body
    );
    assert!(
        page.has(
            "<td>Bell Player 0</td><td>Bell</td><td>Anchor</td><td>1 Sep 2026</td><td>£12.50</td>"
        ),
        "{}",
        page.body
    );
    let fee = db.fines(LeagueId(1)).await.unwrap();
    assert_eq!(fee.len(), 1);
    assert_eq!((fee[0].team_id, fee[0].amount_pence), (Some(anchor), 1250));
    assert!(fee[0].reason.contains("Transfer fee: Bell Player 0"));
    let later = transfer(&mut sec, &m, season, bell1, anchor, "2026-09-11", "").await;
    assert_eq!(later.status, StatusCode::SEE_OTHER, "{}", later.body);
    sec.get(later.location.as_deref().unwrap()).await;

    // On the card, Bell Player 0 may play for Anchor; Bell Player 1 may not
    // yet: on 10 September they were Bell's.
    let (fields, _) = simulated_card(&m, 9);
    let away3 = m.away[3].0.0.to_string();
    let with = |id: PlayerId| -> Vec<(String, String)> {
        fields
            .iter()
            .map(|(k, v)| {
                let v = if *v == away3 {
                    id.0.to_string()
                } else {
                    v.clone()
                };
                (k.clone(), v)
            })
            .collect()
    };
    let card = sec.get(&m.path("/card")).await;
    assert!(card.has("Bell Player 0"));
    assert!(!card.has("Bell Player 1"), "{}", card.body);
    let refused = submit_card(&mut sec, &m, &with(bell1), "submit").await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert_eq!(versions(&db, &m).await, 0);
    let saved = submit_card(&mut sec, &m, &with(bell0), "submit").await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    // The game stays Anchor's, whatever Bell Player 0 does next.
    let match_page = sec.get(&m.path("")).await;
    assert!(match_page.has("Bell Player 0"));

    // Crown Player 2 played for Crown on 10 September: a move dated before
    // that would rewrite the match, and is refused.
    let crown2 = m.home[2].0;
    let refused = transfer(&mut sec, &m, season, crown2, bell, "2026-09-01", "").await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert!(
        refused.has("played for Crown in Crown v Anchor on 10 Sep 2026"),
        "{}",
        refused.body
    );
    let ok = transfer(&mut sec, &m, season, crown2, bell, "2026-09-11", "").await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    // The stored match still names them, and a correction of it still may.
    let again = submit_card(&mut sec, &m, &with(bell0), "submit").await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.body);
    assert_eq!(versions(&db, &m).await, 2);

    // A captain cannot move players.
    let mut captain = client(&db, "home").await;
    let path = format!("/leagues/{}/console/seasons/{season}/transfers", m.short);
    assert_eq!(captain.get(&path).await.status, StatusCode::FORBIDDEN);
}

async fn the_squad_limit_refuses_one_player_too_many(db: Db) {
    let m = setup(&db).await;
    let season = db.fixture(LeagueId(1), m.fixture).await.unwrap().season_id;
    settings(
        &db,
        &m,
        SeasonSettings {
            squad_limit: Some(4),
            ..SeasonSettings::default()
        },
    )
    .await;
    let mut sec = client(&db, "sec").await;
    let anchor = team(&db, "Anchor").await;
    let bell0 = player(&db, "Bell Player 0").await;
    let refused = transfer(&mut sec, &m, season, bell0, anchor, "2026-09-01", "").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.has("Anchor has 4 players registered, the season&#39;s squad limit of 4.")
            || refused.has("Anchor has 4 players registered, the season&#x27;s squad limit of 4."),
        "{}",
        refused.body
    );
    // A name pasted into a full roster is refused too, and nothing saved.
    let roster = format!(
        "/leagues/{}/console/teams/{}/seasons/{season}/roster",
        m.short, anchor
    );
    let page = sec.get(roster.trim_end_matches("/roster")).await;
    let token = page.csrf();
    let pasted = sec
        .post(
            &roster,
            &[("csrf", &token), ("names", "New Face"), ("action", "save")],
        )
        .await;
    assert_eq!(pasted.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        pasted.has("Anchor would have 5 players registered, more than the season"),
        "{}",
        pasted.body
    );
    assert!(pasted.has("id=\"names-error\""), "{}", pasted.body);
    assert!(
        db.players(LeagueId(1))
            .await
            .unwrap()
            .iter()
            .all(|p| p.name != "New Face")
    );
}
