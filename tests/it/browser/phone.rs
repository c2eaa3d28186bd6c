//! Every kind of public page of the demo (a league of each format, a past
//! season and a half-played one, both with their honours) on a phone, 390
//! and 360 px wide, and at a desk: no page is wider than the screen, no
//! table is cut off inside its wrapper unless all its columns were asked
//! for, and the division table's points are in view. A signed-in player's
//! home starts with their next match. With `BONEYARD_BROWSER_SHOTS=1`, each
//! page's phone screenshot is left in `target/browser-shots/`.

use std::path::Path;

use serde_json::Value;

use super::journeys::demo_of;
use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};

/// What a page measures: whether it is wider than the window, and the
/// tables that do not fit their wrappers (`caption or class: widths`).
const MEASURE: &str = r#"
const out = {wide: document.documentElement.scrollWidth > window.innerWidth,
  scrollWidth: document.documentElement.scrollWidth, cut: []};
for (const w of document.querySelectorAll('main .scroll')) {
  if (w.scrollWidth > w.clientWidth + 1) {
    const t = w.querySelector('caption');
    // The widest cell names the culprit.
    let widest = null;
    for (const c of w.querySelectorAll('td, th'))
      if (!widest || c.offsetWidth > widest.offsetWidth) widest = c;
    const culprit = widest ? ' (widest cell ' + widest.offsetWidth + ' px: "'
      + widest.textContent.trim().replace(/\s+/g, ' ').slice(0, 60) + '")' : '';
    out.cut.push((t ? t.textContent.trim() : w.className) + ': ' + w.scrollWidth + ' > ' + w.clientWidth + culprit);
  }
}
return out;
"#;

/// Whether the table's Points column is in view: its heading inside both
/// its scrolling wrapper and the window.
const POINTS_IN_VIEW: &str = r#"
const th = [...document.querySelectorAll('table.standings thead th')]
  .find(t => t.textContent.trim() === 'Pts');
if (!th) return 'no Pts heading';
const r = th.getBoundingClientRect();
const w = th.closest('.scroll').getBoundingClientRect();
if (r.width === 0) return 'the Pts column is hidden';
if (r.left < w.left - 0.5 || r.right > Math.min(w.right, window.innerWidth) + 0.5)
  return 'the Pts column is out of view: ' + r.left + '..' + r.right + ' in ' + w.left + '..' + w.right;
return '';
"#;

/// The first link of the page matching `css`, as its `href` attribute.
async fn href(b: &Browser, css: &str) -> Result<String, String> {
    let v = b
        .client
        .execute(
            "const a = document.querySelector(arguments[0]); return a ? a.getAttribute('href') : null;",
            vec![Value::String(css.to_owned())],
        )
        .await
        .map_err(|e| e.to_string())?;
    match v.as_str() {
        Some(h) => Ok(h.to_owned()),
        None => {
            let here = b.client.current_url().await.map_err(|e| e.to_string())?;
            Err(format!("no link `{css}` on {here}"))
        }
    }
}

/// The public pages of a league, found by following its links as a visitor
/// would.
async fn pages_of(b: &Browser, server: &Server, short: &str) -> Result<Vec<String>, String> {
    let base = format!("/leagues/{short}");
    b.goto(&server.url(&base)).await?;
    let division = href(b, "main ul.cards a[href*='/2026-27/']").await?;
    let season = format!("{base}/2026-27");
    let past = href(b, "main a[href$='/2025-26']").await?;
    let honours = href(b, "main a[href$='/2026-27/honours']").await?;
    b.goto(&server.url(&division)).await?;
    let players_table = href(b, "main a[href*='/players-table/']").await?;
    let data = href(b, "main a[href$='/data']").await?;
    let team = href(b, "table.standings th a").await?;
    b.goto(&server.url(&team)).await?;
    let card = href(b, "main a[href*='/print/team/']").await?;
    let player = href(b, "main ul a[href*='/players/']").await?;
    let played = href(b, "table.fixtures a.score").await?;
    b.goto(&server.url(&played)).await?;
    let sheet = href(b, "main a[href*='/print/fixture/']").await?;
    Ok(vec![
        "/".into(),
        "/leagues".into(),
        base.clone(),
        season,
        past.clone(),
        division.clone(),
        format!("{division}?after=1"),
        format!("{division}?cols=all"),
        format!("{division}/fixtures"),
        data,
        team,
        card,
        player,
        played.clone(),
        format!("{played}?cols=all"),
        sheet,
        format!("{base}/live"),
        players_table,
        format!("{base}/round-up"),
        honours,
        format!("{past}/honours"),
    ])
}

/// Visits each page at the window's width; the problems found.
async fn check(b: &Browser, server: &Server, pages: &[String], width: u32) -> Vec<String> {
    let mut problems = Vec::new();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
    let _ = std::fs::create_dir_all(&shots);
    for (i, page) in pages.iter().enumerate() {
        if let Err(e) = b.goto(&server.url(page)).await {
            problems.push(e);
            continue;
        }
        let m = match b.client.execute(MEASURE, vec![]).await {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{page}: {e}"));
                continue;
            }
        };
        if m["wide"].as_bool() != Some(false) {
            problems.push(format!(
                "{page} at {width} px is {} px wide",
                m["scrollWidth"]
            ));
        }
        // Asked for every column, a table may scroll inside its wrapper.
        if !page.contains("cols=all") && width < DESKTOP.0 {
            for cut in m["cut"].as_array().into_iter().flatten() {
                problems.push(format!("{page} at {width} px: a table is cut off: {cut}"));
            }
        }
        // The table's points, in view without scrolling (with every column
        // asked for, the table scrolls to them, its team column staying).
        let division = page.matches('/').count() == 4
            && page.contains("/2026-27/")
            && !page.ends_with("/honours");
        if division && !page.contains("cols=all") {
            match b.client.execute(POINTS_IN_VIEW, vec![]).await {
                Ok(Value::String(s)) if s.is_empty() => {}
                Ok(other) => problems.push(format!("{page} at {width} px: {other}")),
                Err(e) => problems.push(format!("{page}: {e}")),
            }
        }
        // Screenshots to look at, when asked for: they cost CI a third of
        // the test's time.
        if width != DESKTOP.0 && std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
            if let Ok(png) = b.client.screenshot().await {
                let name = page.trim_matches('/').replace(['/', '?', '='], "_");
                let _ = std::fs::write(shots.join(format!("{width}-{i:02}-{name}.png")), png);
            }
        }
    }
    problems
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_public_page_fits_a_phone() {
    if !super::available("every_public_page_fits_a_phone") {
        return;
    }
    let dir = TempDir::new("phone");
    let address = format!("sqlite://{}", dir.0.join("demo.db").display());
    let accounts = demo_of(&address, 3, 2);
    let server = Server::start(&address);
    let server = &server;
    let mut leagues: Vec<String> = accounts
        .iter()
        .filter(|a| a.role == "secretary")
        .map(|a| a.username.trim_start_matches("sec-").to_owned())
        .collect();
    leagues.dedup();
    let player = accounts
        .iter()
        .find(|a| a.role == "player")
        .expect("the demo printed a player");
    let (leagues, player) = (&leagues, player);
    run("every_public_page_fits_a_phone", PHONE, |b| async move {
        let outcome = async {
            assert_eq!(leagues.len(), 3, "a league of each format");
            let mut pages = Vec::new();
            for short in leagues {
                pages.extend(pages_of(&b, server, short).await?);
            }
            pages.dedup();
            let mut problems = check(&b, server, &pages, PHONE.0).await;
            b.client
                .set_window_size(360, 800)
                .await
                .map_err(|e| e.to_string())?;
            problems.extend(check(&b, server, &pages, 360).await);
            b.client
                .set_window_size(DESKTOP.0, DESKTOP.1)
                .await
                .map_err(|e| e.to_string())?;
            problems.extend(check(&b, server, &pages, DESKTOP.0).await);
            // A signed-in player's home starts with their next match (the
            // demo's season is 2026/27: later, none is left to play).
            b.client
                .set_window_size(PHONE.0, PHONE.1)
                .await
                .map_err(|e| e.to_string())?;
            b.sign_in(server, &player.username, &player.password)
                .await?;
            b.goto(&server.url("/")).await?;
            let season_running = chrono::Utc::now().date_naive()
                < chrono::NaiveDate::from_ymd_opt(2027, 5, 1).unwrap();
            if season_running {
                let first = b.text("main h1").await?;
                if first != "Your matches" {
                    problems.push(format!("the player's home opens with `{first}`"));
                }
                let next = b.text("main .next-match").await?;
                if !next.contains("Next match")
                    || !(next.contains("To play") || next.contains("Postponed"))
                {
                    problems.push(format!("the player's next match says `{next}`"));
                }
            }
            problems.extend(check(&b, server, &["/".to_owned()], PHONE.0).await);
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("\n"))
            }
        }
        .await;
        (b, outcome)
    })
    .await;
}
