//! Penalties off the table: each kind changes exactly what it should.

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::rules::Format;

use crate::harness::LeagueBuilder;
use crate::harness::client::{Client, account};
use crate::support::on_both;

on_both!(
    each_kind_of_penalty_changes_what_it_should,
    bad_penalty_input_is_shown_beside_its_field,
    another_leagues_secretary_is_refused,
);

const PASSWORD: &str = "a long enough password";

struct Setup {
    league: LeagueId,
    season: SeasonId,
    team: TeamId,
    player: PlayerId,
    kinds: Vec<PenaltyKind>,
}

async fn setup(db: &Db, short: &str) -> Setup {
    let built = LeagueBuilder::new(short)
        .name(&format!("{short} league"))
        .rules(Format::HandsWon)
        .match_format_json(serde_json::json!({}))
        .teams(&["Crown"])
        .players(1)
        .player_names(|_, _, _| "Ann Smith".to_owned())
        .fixtures(0)
        .without_accounts()
        .build(db)
        .await;
    let (league, season) = (built.id, built.season);
    let (team, player) = (built.teams[0].id, built.teams[0].players[0].0);
    let mut kinds = Vec::new();
    for (code, name, effect, amount) in [
        (
            "late-card",
            "Result card late",
            PenaltyEffect::LeaguePoints,
            2,
        ),
        ("fine", "Fine", PenaltyEffect::Fine, 500),
        ("phone", "Phone at the table", PenaltyEffect::Warning, 0),
    ] {
        kinds.push(
            db.add_penalty_kind(
                league,
                &NewPenaltyKind {
                    code: code.into(),
                    name: name.into(),
                    effect,
                    amount,
                },
            )
            .await
            .unwrap(),
        );
    }
    Setup {
        league,
        season,
        team,
        player,
        kinds,
    }
}

async fn secretary(db: &Db, league: LeagueId, name: &str) -> Client {
    let id = account(db, name, PASSWORD).await;
    db.grant_role(&NewRole::secretary(id, league), None)
        .await
        .unwrap();
    let mut c = Client::new(db).await;
    c.sign_in(name, PASSWORD).await;
    c
}

async fn record(
    c: &mut Client,
    s: &Setup,
    short: &str,
    kind: usize,
    against: &str,
    amount: &str,
) -> crate::harness::client::Page {
    let path = format!("/leagues/{short}/penalties");
    c.submit(
        &path,
        &path,
        &[
            ("season", &s.season.to_string()),
            ("kind", &s.kinds[kind].id.to_string()),
            ("against", against),
            ("amount", amount),
            ("note", "card posted on Friday"),
        ],
    )
    .await
}

async fn each_kind_of_penalty_changes_what_it_should(db: Db) {
    let s = setup(&db, "pen").await;
    let mut c = secretary(&db, s.league, "sec").await;
    let team = format!("team:{}", s.team);
    let player = format!("player:{}", s.player);
    // League points: deducted in the table, and nothing else.
    assert_eq!(
        record(&mut c, &s, "pen", 0, &team, "").await.status,
        StatusCode::SEE_OTHER
    );
    let deductions = db.deduction_lines(s.league, s.season).await.unwrap();
    assert_eq!(deductions.len(), 1);
    assert_eq!((deductions[0].team_id, deductions[0].amount), (s.team, 2));
    assert!(db.fines(s.league).await.unwrap().is_empty());
    // A fine: in the ledger, in pence, unpaid; no league points.
    assert_eq!(
        record(&mut c, &s, "pen", 1, &player, "7.50").await.status,
        StatusCode::SEE_OTHER
    );
    let fines = db.fines(s.league).await.unwrap();
    assert_eq!(fines.len(), 1);
    assert_eq!(
        (fines[0].player_id, fines[0].amount_pence, fines[0].paid_at),
        (Some(s.player), 750, None)
    );
    assert_eq!(
        db.deduction_lines(s.league, s.season).await.unwrap().len(),
        1
    );
    let ledger = c.get("/leagues/pen/fines").await;
    assert!(ledger.has("£7.50") && ledger.has("Ann Smith"));
    let paid = c
        .post(
            &format!("/leagues/pen/fines/{}/paid", fines[0].id),
            &[("csrf", &ledger.csrf()), ("set", "1")],
        )
        .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER);
    assert!(db.fines(s.league).await.unwrap()[0].paid_at.is_some());
    assert!(
        c.get("/leagues/pen/fines")
            .await
            .has("Owed in all: <strong>£0.00</strong>")
    );
    // Warnings: the second of a kind for a player is flagged as a penalty.
    assert_eq!(
        record(&mut c, &s, "pen", 2, &player, "").await.status,
        StatusCode::SEE_OTHER
    );
    assert!(!c.get("/leagues/pen/penalties").await.has("repeat warning"));
    assert_eq!(
        record(&mut c, &s, "pen", 2, &player, "").await.status,
        StatusCode::SEE_OTHER
    );
    let page = c.get("/leagues/pen/penalties").await;
    assert!(page.has("repeat warning: 1 penalty game"));
    assert!(page.has("card posted on Friday"));
    // Voiding takes the deduction off the table, and the record stays.
    let id = db
        .penalties(s.league, s.season)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.kind_id == s.kinds[0].id)
        .unwrap()
        .id;
    let void = c
        .post(
            &format!("/leagues/pen/penalties/{id}/void"),
            &[
                ("csrf", &page.csrf()),
                ("set", "1"),
                ("season", &s.season.to_string()),
            ],
        )
        .await;
    assert_eq!(void.status, StatusCode::SEE_OTHER);
    assert!(
        db.deduction_lines(s.league, s.season)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(db.penalties(s.league, s.season).await.unwrap().len(), 4);
}

async fn bad_penalty_input_is_shown_beside_its_field(db: Db) {
    let s = setup(&db, "pen").await;
    let mut c = secretary(&db, s.league, "sec").await;
    let page = record(&mut c, &s, "pen", 1, "", "lots").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.has("Choose the team or player"));
    assert!(page.has("Give the fine in pounds"));
    assert!(page.has("value=\"lots\""));
    // A fine is held to the limit a kind's default fine is.
    let page = record(&mut c, &s, "pen", 1, "", "20000").await;
    assert!(page.has("up to £10000.00"), "{}", page.body);
    // A player of another league is a form error, not a 500.
    let other = setup(&db, "other").await;
    let page = record(
        &mut c,
        &s,
        "pen",
        0,
        &format!("player:{}", other.player),
        "",
    )
    .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(db.penalties(s.league, s.season).await.unwrap().is_empty());
}

async fn another_leagues_secretary_is_refused(db: Db) {
    let s = setup(&db, "pen").await;
    let other = setup(&db, "other").await;
    let mut c = secretary(&db, other.league, "sec2").await;
    assert_eq!(
        c.get("/leagues/pen/penalties").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        c.get("/leagues/pen/fines").await.status,
        StatusCode::FORBIDDEN
    );
    let page = c.get("/leagues/other/penalties").await;
    let posted = c
        .post(
            "/leagues/pen/penalties",
            &[
                ("csrf", &page.csrf()),
                ("season", &s.season.to_string()),
                ("kind", &s.kinds[0].id.to_string()),
                ("against", &format!("team:{}", s.team)),
            ],
        )
        .await;
    assert_eq!(posted.status, StatusCode::FORBIDDEN);
    assert!(db.penalties(s.league, s.season).await.unwrap().is_empty());
    let mut anon = c.stranger();
    assert_eq!(
        anon.get("/leagues/pen/penalties").await.status,
        StatusCode::SEE_OTHER
    );
}
