//! A pub's own website shows the league's widgets (issue 41): a page
//! served from another origin (another port, by a listener of the test's
//! own) puts each widget in an `<iframe>` with the copied host script.
//! Each renders, its frame takes the content's height, a link in it opens
//! in the top window; a page of the league that is not a widget refuses to
//! be framed.

use std::time::{Duration, Instant};

use axum::response::Html;
use boneyard::addresses::at_short;
use boneyard::db::Db;
use fantoccini::Locator;
use serde_json::Value;

use super::{Browser, DESKTOP, PHONE, Server, TempDir, run};
use crate::harness::LeagueBuilder;

/// The host's page: each widget as the console's snippet frames it (a
/// height it will not keep), then a league page that is not a widget.
fn host_page(app: &Server, widgets: &[String], page: &str) -> String {
    let frames: String = widgets
        .iter()
        .enumerate()
        .map(|(i, path)| {
            format!(
                "<h2>Widget {i}</h2>\n<iframe id=\"w{i}\" src=\"{}\" title=\"Widget {i}\" data-boneyard-embed width=\"100%\" height=\"120\" style=\"border:0;width:100%\"></iframe>\n",
                app.url(path)
            )
        })
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>The Crown's website</title></head>\n<body><h1 id=\"host\">The Crown: our league</h1>\n{frames}<h2>Not a widget</h2>\n<iframe id=\"page\" src=\"{}\" width=\"100%\" height=\"200\"></iframe>\n<script src=\"{}\" async></script>\n</body></html>",
        app.url(page),
        app.url("/static/embed-host.js"),
    )
}

/// Serves `html` at `/` on a port of its own until the test ends.
async fn host(html: String) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = axum::Router::new().route("/", axum::routing::get(move || async move { Html(html) }));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    port
}

/// The frame's height in the host page, and its content's inside it.
const HEIGHTS: &str = r#"
const f = document.getElementById(arguments[0]);
return {frame: Math.round(f.getBoundingClientRect().height), told: f.getAttribute('data-boneyard-height')};
"#;
const CONTENT: &str = r#"
return {height: Math.ceil(document.documentElement.getBoundingClientRect().height),
        scrolls: document.documentElement.scrollHeight > document.documentElement.clientHeight + 1,
        header: !!document.querySelector('header.site'), text: document.body.innerText,
        url: location.href};
"#;

async fn js(b: &Browser, script: &str, args: Vec<Value>) -> Result<Value, String> {
    b.client
        .execute(script, args)
        .await
        .map_err(|e| format!("script: {e}"))
}

/// Inside the frame `id`: what its document says.
async fn inside(b: &Browser, id: &str) -> Result<Value, String> {
    let frame = b
        .client
        .find(Locator::Id(id))
        .await
        .map_err(|e| format!("no frame {id}: {e}"))?;
    frame
        .enter_frame()
        .await
        .map_err(|e| format!("into {id}: {e}"))?;
    let content = js(b, CONTENT, vec![]).await;
    b.client
        .enter_parent_frame()
        .await
        .map_err(|e| format!("out of {id}: {e}"))?;
    content
}

/// Waits until each widget's frame has its content's height.
async fn sized(b: &Browser, count: usize) -> Result<Vec<u64>, String> {
    let mut heights = Vec::new();
    for i in 0..count {
        let id = format!("w{i}");
        let start = Instant::now();
        loop {
            let outer = js(b, HEIGHTS, vec![Value::from(id.clone())]).await?;
            let content = inside(b, &id).await?;
            let frame = outer["frame"].as_u64().unwrap_or(0);
            let height = content["height"].as_u64().unwrap_or(0);
            if !outer["told"].is_null() && frame.abs_diff(height) <= 1 && height > 0 {
                if content["scrolls"].as_bool() != Some(false) {
                    return Err(format!("{id} scrolls inside its frame: {content}"));
                }
                heights.push(height);
                break;
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(format!(
                    "{id}: the frame is {frame} px, its content {height} px ({outer}, {content})"
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    Ok(heights)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pubs_website_frames_each_widget_at_its_height() {
    if !super::available("a_pubs_website_frames_each_widget_at_its_height") {
        return;
    }
    let dir = TempDir::new("embed");
    let address = format!("sqlite://{}", dir.0.join("league.db").display());
    let db = Db::connect(&address).await.unwrap();
    let l = LeagueBuilder::new("emb")
        .teams(&["Crown", "Anchor", "Plough", "Swan", "Bell", "Star"])
        .played(3)
        .fixtures(6)
        .build(&db)
        .await;
    db.close().await;
    let server = Server::start(&address);
    let at = at_short(&l.short);
    let widgets = vec![
        format!("{}?theme=dark&accent=c0392b", at.embed().table(l.division)),
        at.embed().fixtures(l.division),
        at.embed().team(l.teams[0].id),
        at.embed().live(),
    ];
    let page = format!("/leagues/{}/2026-27/one", l.short);
    let port = host(host_page(&server, &widgets, &page)).await;
    let host_url = format!("http://127.0.0.1:{port}/");
    let (host_url, server, team) = (&host_url, &server, &l.teams[0]);
    let count = widgets.len();

    for (name, size) in [("embed_phone", PHONE), ("embed_desktop", DESKTOP)] {
        run(name, size, |b| async move {
            let outcome = async {
                b.goto(host_url).await?;
                b.wait_text("#host", "The Crown").await?;
                let heights = sized(&b, count).await?;
                eprintln!("{name}: widget heights {heights:?}");
                if std::env::var_os("BONEYARD_BROWSER_SHOTS").is_some() {
                    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("target/browser-shots");
                    let _ = std::fs::create_dir_all(&dir);
                    let _ = b.client.set_window_size(size.0, 3000).await;
                    if let Ok(png) = b.client.screenshot().await {
                        let _ = std::fs::write(dir.join(format!("{name}.png")), png);
                    }
                    let _ = b.client.set_window_size(size.0, size.1).await;
                }
                if heights.iter().all(|h| *h == heights[0]) {
                    return Err(format!("every frame has one height: {heights:?}"));
                }
                // Each renders, without the site's header, the table in its
                // look.
                let table = inside(&b, "w0").await?;
                let text = table["text"].as_str().unwrap_or_default();
                if table["header"] != Value::Bool(false) || !text.contains(&team.name) {
                    return Err(format!("the table widget: {table}"));
                }
                for (id, words) in [
                    ("w1", "Latest results"),
                    ("w2", "Form"),
                    ("w3", "Matches in progress"),
                ] {
                    let content = inside(&b, id).await?;
                    if !content["text"].as_str().unwrap_or_default().contains(words) {
                        return Err(format!("{id} does not say {words}: {content}"));
                    }
                }
                // The page that is not a widget is refused: its frame holds
                // the browser's own error page, never the league's page.
                let refused = inside(&b, "page").await?;
                let url = refused["url"].as_str().unwrap_or_default();
                if url.contains("/leagues/") || refused["header"] == Value::Bool(true) {
                    return Err(format!("a league page was framed: {refused}"));
                }
                // A link in a widget opens in the top window.
                let frame = b
                    .client
                    .find(Locator::Id("w0"))
                    .await
                    .map_err(|e| e.to_string())?;
                frame.enter_frame().await.map_err(|e| e.to_string())?;
                b.click("table.standings th[scope=row] a").await?;
                b.client
                    .enter_parent_frame()
                    .await
                    .map_err(|e| e.to_string())?;
                let start = Instant::now();
                loop {
                    let top = b.client.current_url().await.map_err(|e| e.to_string())?;
                    if top.as_str().starts_with(&server.url("/leagues/emb/teams/")) {
                        break;
                    }
                    if start.elapsed() > Duration::from_secs(20) {
                        return Err(format!("the top window stayed at {top}"));
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                b.wait_text("header.site", "Sign in").await?;
                Ok(())
            }
            .await;
            (b, outcome)
        })
        .await;
    }
}
