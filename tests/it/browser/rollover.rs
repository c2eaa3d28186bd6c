//! The end of the season in a real browser at desktop size: a season of
//! two divisions played to the end, its final tables with the moves up and
//! down, one move overridden by the secretary, the next season started in
//! one step, and the old season found in the league's archive. At phone
//! width the end page does not scroll sideways.

use std::time::{Duration, Instant};

use boneyard::db::Db;
use fantoccini::Locator;

use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};
use crate::harness::PASSWORD;
use crate::web::rollover::{Season2, season};

/// Waits until the page's URL contains `want`.
async fn at(b: &Browser, want: &str) -> Result<(), String> {
    let start = Instant::now();
    loop {
        let url = b
            .client
            .current_url()
            .await
            .map_err(|e| e.to_string())?
            .to_string();
        if url.contains(want) {
            return Ok(());
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err(format!("at {url}, waited for {want}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The value selected in the select `css`.
async fn selected(b: &Browser, css: &str) -> Result<String, String> {
    let v = b
        .client
        .execute(
            &format!("return document.querySelector({css:?}).value;"),
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// On a season's end page: keeps the first team the final tables relegate
/// in its division (one move overridden), starts the next season, and
/// checks the saved message. Returns the team kept up. For any league, so
/// a longer journey (`year.rs`) can end with it.
pub async fn roll_over_keeping_one_team_up(b: &Browser) -> Result<String, String> {
    let found = b
        .client
        .execute(
            "const rows = [...document.querySelectorAll('table.rollover')]\
               .flatMap(t => [...t.tBodies[0].rows].map(r => [t, r]));\
             const hit = rows.find(([t, r]) => r.cells[4] && r.cells[4].textContent.trim() === 'relegated');\
             if (!hit) return null;\
             const [t, r] = hit;\
             const division = t.caption.textContent.split(':')[0].trim();\
             const sel = r.querySelector('select');\
             const opt = [...sel.options].find(o => o.text === division);\
             return [r.cells[1].textContent.trim(), sel.id, opt.value];",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let Some([team, select, value]) = found
        .as_array()
        .map(|a| [0, 1, 2].map(|i| a[i].as_str().unwrap_or_default().to_owned()))
    else {
        return Err("the final tables relegate nobody".into());
    };
    b.select(&format!("#{select}"), &value).await?;
    b.click("form[aria-labelledby=next-heading] button[type=submit]:not([name])")
        .await?;
    b.wait_text("#saved", "started from").await?;
    let saved = b.text("#saved").await?;
    if !saved.contains("1 move was changed by hand") {
        return Err(format!("the saved message `{saved}` counts no override"));
    }
    Ok(team)
}

async fn steps(b: &Browser, server: &Server, s: &Season2) -> Result<(), String> {
    let l = &s.app.league;
    b.sign_in(server, &l.secretary, PASSWORD).await?;
    // From the season's console page to its end.
    b.goto(&server.url(&format!(
        "/leagues/{}/console/seasons/{}",
        l.short, l.season
    )))
    .await?;
    b.click_named(
        "main",
        "End of season: promotion, relegation and the roll-over",
    )
    .await?;
    b.wait_text("h1", "End of season 2026/27").await?;
    // Two places by default: one up and one down asked for instead.
    let places = b
        .client
        .find(Locator::Css("#places"))
        .await
        .map_err(|e| e.to_string())?;
    places.clear().await.map_err(|e| e.to_string())?;
    places.send_keys("1").await.map_err(|e| e.to_string())?;
    b.click_named("main", "Show the moves again").await?;
    b.wait_text("main", "Teams up and down between divisions")
        .await?;
    let (premier, one) = (s.premier.to_string(), s.one.to_string());
    let (dolphin, eagle, crown) = (s.team("Dolphin"), s.team("Eagle"), s.team("Crown"));
    // The final tables: Dolphin down, Eagle up, Crown stays.
    for (team, want) in [(dolphin, &one), (eagle, &premier), (crown, &premier)] {
        let got = selected(b, &format!("#to_{team}")).await?;
        if got != *want {
            return Err(format!("team {team} goes to {got}, expected {want}"));
        }
    }
    b.screenshot("rollover-desktop-open").await;
    // The secretary keeps Dolphin up (a team folding below, say).
    let kept = roll_over_keeping_one_team_up(b).await?;
    if kept != "Dolphin" {
        return Err(format!("{kept} was kept up, not Dolphin"));
    }
    let saved = b.text("#saved").await?;
    for want in [
        "Season 2027/28 started from 2026/27",
        "2 divisions, 8 teams (1 up, 0 down)",
        "16 registrations",
    ] {
        if !saved.contains(want) {
            return Err(format!("the saved message `{saved}` lacks `{want}`"));
        }
    }
    let premier_next = b.text("main table").await?;
    for team in ["Anchor", "Bell", "Crown", "Dolphin", "Eagle"] {
        if !premier_next.contains(team) {
            return Err(format!("{team} is not in the new Premier: {premier_next}"));
        }
    }
    // The old season is one click from the league's page, kept as it was.
    b.goto(&server.url(&format!("/leagues/{}", l.short)))
        .await?;
    b.wait_text("#archive", "Past seasons").await?;
    b.click_named("main", "2026/27").await?;
    b.wait_text("main", "This season is over").await?;
    b.click_named("main", "Premier").await?;
    at(b, "/2026-27/premier").await?;
    b.wait_text("table.standings", "Anchor").await?;
    // Its end page offers nothing more to change.
    b.goto(&server.url(&s.end())).await?;
    b.wait_text("#closed", "rolled over into the next one")
        .await?;
    if b.count("select").await? != 0 {
        return Err("a rolled-over season's end page still has selects".into());
    }
    b.screenshot("rollover-desktop-closed").await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secretary_rolls_a_season_over_with_promotion_and_relegation() {
    if !super::available("a_secretary_rolls_a_season_over_with_promotion_and_relegation") {
        return;
    }
    let dir = TempDir::new("rollover");
    let address = format!("sqlite://{}", dir.0.join("rollover.db").display());
    let db = Db::connect(&address).await.unwrap();
    let s = season(&db, "rollb", false).await;
    let server = Server::start(&address);
    let (server, s) = (&server, &s);
    run("rollover_desktop", DESKTOP, |b| async move {
        let outcome = steps(&b, server, s).await;
        (b, outcome)
    })
    .await;
}

/// The end page at 390 px: readable, no sideways scroll, every control
/// named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_season_end_page_fits_a_phone() {
    if !super::available("the_season_end_page_fits_a_phone") {
        return;
    }
    let dir = TempDir::new("rollover-phone");
    let address = format!("sqlite://{}", dir.0.join("rollover.db").display());
    let db = Db::connect(&address).await.unwrap();
    let s = season(&db, "rollp", true).await;
    // One place up and down: Crown and Dolphin, level, straddle the line.
    let l = &s.app.league;
    boneyard::app::seasons::set_season_settings(
        &db,
        l.id,
        l.season,
        &boneyard::league::settings::SeasonSettings {
            promotion_places: 1,
            ..Default::default()
        },
        None,
    )
    .await
    .unwrap();
    let server = Server::start(&address);
    let (server, s) = (&server, &s);
    run("rollover_phone", PHONE, |b| async move {
        let outcome = async {
            b.sign_in(server, &s.app.league.secretary, PASSWORD).await?;
            b.goto(&server.url(&s.end())).await?;
            b.wait_text("#ties-heading", "Ties on every rule").await?;
            b.screenshot("rollover-phone").await;
            if b.scrolls_sideways().await? {
                let wide = b
                    .client
                    .execute(
                        "return [...document.querySelectorAll('main *')]\
                         .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth && !e.closest('.scroll'))\
                         .slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ':' + Math.round(e.getBoundingClientRect().right)).join(' ');",
                        vec![],
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                return Err(format!("the end page scrolls sideways at 390 px: {wide}"));
            }
            let unnamed = b
                .client
                .execute(
                    "return [...document.querySelectorAll('main select, main input:not([type=hidden]), main button')]\
                     .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).length;",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            if unnamed.as_u64() != Some(0) {
                return Err(format!("{unnamed} controls without a name"));
            }
            Ok(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
