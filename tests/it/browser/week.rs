//! The secretary's week on the demo (issue 39), at a desk and on a phone:
//! the console opens on its counts and this week, not on a long list of
//! stale cards; five walkovers are recorded with one confirmation, the
//! clicks counted; a paper card is typed by its final scores, chosen on
//! the card. With `BONEYARD_BROWSER_SHOTS=1` each page's screenshot is
//! left in `target/browser-shots/`.

use std::path::Path;

use fantoccini::Locator;

use super::journeys::demo_of;
use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};

/// Where the console's parts start, in pixels from the top of the page.
const MEASURE: &str = r#"
const top = s => { const e = document.querySelector(s); return e ? Math.round(e.getBoundingClientRect().top + scrollY) : null; };
return {counts: top('ul.counts'), week: top('#week'), approvals: top('#approvals'), missing: top('#missing'),
        height: document.documentElement.scrollHeight, wide: document.documentElement.scrollWidth > innerWidth};
"#;

/// Leaves the page's screenshot (the whole page, when `whole`) in
/// `target/browser-shots/`, when asked for.
async fn shot(b: &Browser, name: &str, (width, height): (u32, u32), whole: bool) {
    if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_none() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
    let _ = std::fs::create_dir_all(&dir);
    if whole {
        let full = b
            .client
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await
            .ok()
            .and_then(|v| v.as_u64())
            .unwrap_or(u64::from(height));
        let _ = b
            .client
            .set_window_size(width, u32::try_from(full.min(12_000)).unwrap_or(height))
            .await;
    }
    if let Ok(png) = b.client.screenshot().await {
        let _ = std::fs::write(dir.join(format!("week-{width}-{name}.png")), png);
    }
    if whole {
        let _ = b.client.set_window_size(width, height).await;
    }
}

/// Clicks `css`, counting it.
async fn click(b: &Browser, css: &str, clicks: &mut u32) -> Result<(), String> {
    b.click(css).await?;
    *clicks += 1;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_secretarys_week_at_a_desk_and_on_a_phone() {
    if !super::available("the_secretarys_week_at_a_desk_and_on_a_phone") {
        return;
    }
    let dir = TempDir::new("week");
    let address = format!("sqlite://{}", dir.0.join("demo.db").display());
    let accounts = demo_of(&address, 1, 1);
    let sec = accounts
        .iter()
        .find(|a| a.role == "secretary")
        .expect("the demo's secretary")
        .clone();
    let server = Server::start(&address);
    let (server, sec) = (&server, &sec);
    let short = sec.username.trim_start_matches("sec-").to_owned();
    let console = server.url(&format!("/leagues/{short}/console"));
    let console = &console;

    // On a phone first: the counts and this week in the first screen.
    run("week_phone", PHONE, |b| async move {
        let outcome = async {
            b.sign_in(server, &sec.username, &sec.password).await?;
            b.goto(console).await?;
            let m = b
                .client
                .execute(MEASURE, vec![])
                .await
                .map_err(|e| e.to_string())?;
            eprintln!("the console at {} px: {m}", PHONE.0);
            if m["wide"].as_bool() != Some(false) {
                return Err("the console scrolls sideways on a phone".into());
            }
            let at = |k: &str| m[k].as_u64().unwrap_or(u64::MAX);
            if at("counts") > 400 || at("week") > u64::from(PHONE.1) {
                return Err(format!(
                    "the counts and this week are not in the first screen: {m}"
                ));
            }
            shot(&b, "console", PHONE, false).await;
            shot(&b, "console-whole", PHONE, true).await;
            // A paper card, typed by its final scores: one press.
            b.goto(console).await?;
            let card = b
                .client
                .find(Locator::Css(
                    "#missing-list a[href$='/card'], #week-list a[href$='/card']",
                ))
                .await
                .map_err(|e| format!("no card to enter: {e}"))?
                .attr("href")
                .await
                .map_err(|e| e.to_string())?
                .ok_or("a link without an address")?;
            b.goto(&server.url(&card)).await?;
            b.click_named("#card", "final scores").await?;
            b.wait_text("main", "by its final score").await?;
            if b.count("input[id$='.g0.home']").await? == 0 {
                return Err("the card offers no final score to type".into());
            }
            if b.scrolls_sideways().await? {
                return Err("the card scrolls sideways on a phone".into());
            }
            shot(&b, "card-final-scores", PHONE, false).await;
            b.client
                .execute(
                    "document.querySelector(\"[id='b0.g0.home']\").scrollIntoView();",
                    vec![],
                )
                .await
                .map_err(|e| e.to_string())?;
            shot(&b, "card-final-scores-game", PHONE, false).await;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;

    // At a desk: five walkovers, every click counted.
    run("week_desk", DESKTOP, |b| async move {
        let outcome = async {
            b.sign_in(server, &sec.username, &sec.password).await?;
            b.goto(console).await?;
            let m = b
                .client
                .execute(MEASURE, vec![])
                .await
                .map_err(|e| e.to_string())?;
            eprintln!("the console at {} px: {m}", DESKTOP.0);
            let at = |k: &str| m[k].as_u64().unwrap_or(u64::MAX);
            if at("counts") > 300 || at("week") > u64::from(DESKTOP.1) {
                return Err(format!(
                    "the counts and this week are not in the first screen: {m}"
                ));
            }
            shot(&b, "console", DESKTOP, false).await;
            shot(&b, "console-whole", DESKTOP, true).await;
            let mut clicks = 0;
            let mut ticked = 0;
            // This week's boxes first, then older weeks opened one by one.
            let weeks = b.count("details.missing-week").await?;
            let mut opened = 0;
            while ticked < 5 {
                let boxes = b
                    .client
                    .find_all(Locator::Css("input[name=fixture]:not(:checked)"))
                    .await
                    .map_err(|e| e.to_string())?;
                let mut any = false;
                for el in boxes {
                    if ticked == 5 {
                        break;
                    }
                    if el.is_displayed().await.unwrap_or(false) {
                        el.click().await.map_err(|e| format!("ticking: {e}"))?;
                        clicks += 1;
                        ticked += 1;
                        any = true;
                    }
                }
                if ticked < 5 && !any {
                    if opened == weeks {
                        return Err(format!("only {ticked} fixtures to tick"));
                    }
                    opened += 1;
                    let summary = format!("details.missing-week:nth-of-type({opened}) summary");
                    click(&b, &summary, &mut clicks).await?;
                }
            }
            b.click_named("main", "Record walkovers").await?;
            clicks += 1;
            b.wait_text("h1", "Record 5 walkovers?").await?;
            shot(&b, "walkovers-confirm", DESKTOP, false).await;
            let radios = b
                .client
                .find_all(Locator::Css("input[type=radio][value=away]"))
                .await
                .map_err(|e| e.to_string())?;
            if radios.len() != 5 {
                return Err(format!("{} walkovers to confirm, not 5", radios.len()));
            }
            for r in radios {
                r.click().await.map_err(|e| e.to_string())?;
                clicks += 1;
            }
            b.click_named("#confirm", "Record 5 walkovers").await?;
            clicks += 1;
            b.wait_text("#saved", "Walkovers recorded").await?;
            eprintln!("5 walkovers from the console: {clicks} clicks, 2 form submissions");
            if clicks > 5 + 5 + 2 + 3 {
                return Err(format!("{clicks} clicks for 5 walkovers"));
            }
            shot(&b, "walkovers-done", DESKTOP, false).await;
            Ok::<(), String>(())
        }
        .await;
        (b, outcome)
    })
    .await;
}
