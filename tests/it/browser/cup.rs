//! A cup's bracket as a browser shows it: a singles knockout of 64 drawn
//! through to its final, a few first-round ties played. On a phone the
//! rounds follow one another down the page, with no sideways scroll; on a
//! desktop they stand side by side, each tie level with the two it is drawn
//! from; printed, it is one A4 page; and each tie links to its match.

use boneyard::app::cup_commands::{add_cup_entrant, draw_cup_round};
use boneyard::db::pages::FixtureScope;
use boneyard::db::*;
use boneyard::league::cup::EntrantKind;
use boneyard::league::match_format::MatchFormat;
use boneyard::league::workflow::Actor;
use chrono::Utc;
use fantoccini::wd::{PrintConfigurationBuilder, PrintMargins, PrintSize};

use super::sheet::pages;
use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};
use crate::harness::LeagueBuilder;
use crate::harness::builder::simulated_result;

/// Where each round's column stands: (left, top, bottom) of its box.
async fn rounds(b: &Browser) -> Result<Vec<(f64, f64, f64)>, String> {
    let v = b
        .client
        .execute(
            "return [...document.querySelectorAll('.bracket-round')].map(r => { \
             const box = r.getBoundingClientRect(); return [box.left, box.top, box.bottom]; });",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let rows = v.as_array().ok_or("no rounds")?;
    Ok(rows
        .iter()
        .map(|r| {
            let n = |i: usize| r[i].as_f64().unwrap_or(f64::NAN);
            (n(0), n(1), n(2))
        })
        .collect())
}

/// Keeps a screenshot of the page under `target/browser-shots/`, to look
/// at (the failures' folder is for failures).
async fn keep(b: &Browser, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
    let _ = std::fs::create_dir_all(&dir);
    if let Ok(png) = b.client.screenshot().await {
        let _ = std::fs::write(dir.join(format!("{name}.png")), png);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bracket_reads_on_a_phone_and_a_desktop_and_prints_on_one_page() {
    if !super::available("a_bracket_reads_on_a_phone_and_a_desktop_and_prints_on_one_page") {
        return;
    }
    let dir = TempDir::new("cup");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.unwrap();
    let names: Vec<String> = (1..=16).map(|i| format!("The Old Bell {i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let built = LeagueBuilder::new("bracket")
        .teams(&names)
        .players(4)
        .player_names(|team, _, i| {
            format!("{} Player {}", team.replace("The Old Bell", "Bell"), i + 1)
        })
        .fixtures(0)
        .build(&db)
        .await;
    let l = built.id;
    let cup = db
        .create_cup(
            l,
            &NewCup {
                season_id: built.season,
                name: "Open Singles".into(),
                entrants: EntrantKind::Singles,
                match_format: Some(MatchFormat::with_boards(1, 0, 1)),
            },
            None,
        )
        .await
        .unwrap()
        .id;
    for team in &built.teams {
        for (player, _) in &team.players {
            let entrant = NewEntrant {
                team_id: team.id,
                players: vec![*player],
                seed: None,
            };
            add_cup_entrant(&db, l, cup, &entrant, None).await.unwrap();
        }
    }
    for round in 1..=6 {
        let draw = DrawRequest {
            round,
            starts_at: Utc::now(),
            play_by: round > 1,
            venue_id: None,
            how: if round == 1 {
                How::Random { seed: 64 }
            } else {
                How::Bracket
            },
        };
        draw_cup_round(&db, l, cup, &draw, None).await.unwrap();
    }
    // Three first-round ties played, one walkover.
    let secretary = db.user_by_username(&built.secretary).await.unwrap().id;
    let lines = db.fixture_lines(l, &FixtureScope::Cup(cup)).await.unwrap();
    for (i, line) in lines.iter().take(4).enumerate() {
        if i == 3 {
            boneyard::app::results::walkover(
                &db,
                l,
                line.id,
                Side::Home,
                Actor::secretary(secretary),
            )
            .await
            .unwrap();
            continue;
        }
        let players = db.cup_tie_players(l, line.id).await.unwrap().unwrap();
        let team = |id: TeamId| built.teams.iter().find(|t| t.id == id).unwrap().clone();
        let mut home = team(line.home_team_id);
        let mut away = team(line.away_team_id);
        home.players.retain(|p| p.0 == players.0[0].id);
        away.players.retain(|p| p.0 == players.1[0].id);
        let result = simulated_result(
            built.rules,
            &MatchFormat::with_boards(1, 0, 1),
            &home,
            &away,
            i as u64,
        );
        boneyard::app::results::submit(&db, l, line.id, &result, Actor::secretary(secretary))
            .await
            .unwrap();
    }
    db.close().await;

    let server = Server::start(&address);
    let page = server.url(&format!("/leagues/bracket/cups/{cup}-open-singles"));
    let page = &page;
    run("cup_phone", PHONE, |b| async move {
        let outcome = async {
            b.goto(page).await?;
            b.wait_text("h1", "Open Singles").await?;
            keep(&b, "cup_phone").await;
            if b.scrolls_sideways().await? {
                return Err("the bracket scrolls sideways on a phone".into());
            }
            let r = rounds(&b).await?;
            if r.len() != 6 {
                return Err(format!("{} rounds shown, not 6", r.len()));
            }
            // Round by round: each below the one before, at the same left.
            for pair in r.windows(2) {
                if pair[1].1 < pair[0].2 || (pair[1].0 - pair[0].0).abs() > 1.0 {
                    return Err(format!("rounds not one after another: {r:?}"));
                }
            }
            if b.count(".round-nav a").await? != 6 {
                return Err("no list of the rounds to jump to".into());
            }
            b.wait_text("#round-6", "Final").await?;
            b.wait_text(".bracket", "through").await?;
            Ok(())
        }
        .await;
        (b, outcome)
    })
    .await;
    run("cup_desktop", DESKTOP, |b| async move {
        let outcome = async {
            b.goto(page).await?;
            b.wait_text("h1", "Open Singles").await?;
            keep(&b, "cup_desktop").await;
            if b.scrolls_sideways().await? {
                return Err("the page scrolls sideways on a desktop".into());
            }
            let r = rounds(&b).await?;
            // Side by side: each round to the right of the one before, all
            // starting at one height.
            for pair in r.windows(2) {
                if pair[1].0 <= pair[0].0 || (pair[1].1 - pair[0].1).abs() > 1.0 {
                    return Err(format!("rounds not side by side: {r:?}"));
                }
            }
            // The final sits level with the middle of the first round.
            let middle = |i: usize| (r[i].1 + r[i].2) / 2.0;
            let ties = b
                .client
                .execute(
                    "const t = document.querySelector('#round-6').closest('li').querySelector('.tie').getBoundingClientRect(); return (t.top + t.bottom) / 2;",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?
                .as_f64()
                .unwrap_or(0.0);
            if (ties - middle(0)).abs() > 60.0 {
                return Err(format!("the final at {ties}, the first round's middle at {}", middle(0)));
            }
            let a4 = PrintConfigurationBuilder::default()
                .size(PrintSize::A4)
                .margins(PrintMargins {
                    top: 0.8,
                    bottom: 0.8,
                    left: 0.8,
                    right: 0.8,
                })
                .build()
                .map_err(|e| e.to_string())?;
            let pdf = b.client.print(a4).await.map_err(|e| e.to_string())?;
            let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
            let _ = std::fs::create_dir_all(&shots);
            let _ = std::fs::write(shots.join("cup_print.pdf"), &pdf);
            match pages(&pdf) {
                1 => {}
                n => return Err(format!("the bracket prints on {n} A4 pages, not one")),
            }
            // Each tie links to its match.
            b.click(".tie-result a").await?;
            b.wait_text("main", "Open Singles").await?;
            b.wait_text("dl.facts", "Cup").await?;
            Ok(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
