//! Widgets for other websites (issue 41): only their addresses may be
//! framed, by any site; their look comes from the address and nothing
//! else reaches their CSS; the kept pages keep each look apart; the
//! secretary's console lists each with its snippet.

use axum::http::{StatusCode, header};
use base64::Engine;
use boneyard::addresses::at_short;
use boneyard::db::*;
use boneyard::web::cache::CACHE_HEADER;
use sha2::{Digest, Sha256};

use crate::harness::client::Page;
use crate::harness::pages::ok;
use crate::harness::{Built, LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(
    only_the_widgets_may_be_framed,
    the_look_comes_from_the_address_and_nothing_else_reaches_the_css,
    each_look_is_kept_apart,
    a_widget_shows_the_leagues_own_figures_with_links_to_the_top_window,
    a_widget_of_another_league_or_nothing_is_not_found,
    the_secretary_has_a_page_of_widgets_to_copy,
);

/// Every widget of the built league.
fn widgets(l: &Built) -> Vec<String> {
    let at = at_short(&l.short).embed();
    vec![
        at.table(l.division),
        at.fixtures(l.division),
        at.team(l.teams[0].id),
        at.live(),
    ]
}

fn header_of(page: &Page, name: header::HeaderName) -> String {
    page.headers
        .get(&name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// The response may be framed by any site, and says so once.
fn frameable(page: &Page, what: &str) {
    assert!(
        page.headers.get(header::X_FRAME_OPTIONS).is_none(),
        "{what}: X-Frame-Options {:?}",
        page.headers.get(header::X_FRAME_OPTIONS)
    );
    let csp = header_of(page, header::CONTENT_SECURITY_POLICY);
    assert!(csp.contains("frame-ancestors *"), "{what}: {csp}");
    assert!(!csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
}

/// The response refuses every frame.
fn unframeable(page: &Page, what: &str) {
    assert_eq!(header_of(page, header::X_FRAME_OPTIONS), "DENY", "{what}");
    let csp = header_of(page, header::CONTENT_SECURITY_POLICY);
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
}

async fn only_the_widgets_may_be_framed(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("emb").played(2)).await;
    let l = &app.league;
    let mut c = app.anonymous().await;
    for path in widgets(l) {
        let first = ok(&mut c, &path).await;
        frameable(&first, &path);
        // Kept, and answered from memory: still frameable.
        let again = ok(&mut c, &path).await;
        assert_eq!(header_of(&again, CACHE_HEADER.parse().unwrap()), "hit");
        frameable(&again, &path);
        // A browser's copy confirmed by `304`: its headers replace the
        // copy's, so they must allow the frame too.
        let etag = header_of(&again, header::ETAG);
        let unchanged = c.get_with(&path, &[("if-none-match", &etag)]).await;
        assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED, "{path}");
        frameable(&unchanged, &path);
    }
    // A widget that is not there says so inside the frame.
    let missing = c
        .get(&at_short(&l.short).embed().table(DivisionId(999_999)))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    frameable(&missing, "a missing division");
    // Every other page keeps refusing frames: the league's own pages, the
    // same pages the widgets show, the console, a sign-in form.
    let at = at_short(&l.short);
    for path in [
        at.to_string(),
        at.live(),
        format!("/leagues/{}/2026-27/one", l.short),
        format!("{}/embed", at),
        "/sign-in".to_owned(),
        "/".to_owned(),
    ] {
        let page = c.get(&path).await;
        unframeable(&page, &path);
    }
    let mut secretary = app.with_secretary().await;
    let console = secretary.get(&at.console().website()).await;
    unframeable(&console, "the console");
}

async fn the_look_comes_from_the_address_and_nothing_else_reaches_the_css(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("look").played(1)).await;
    let table = at_short(&app.league.short)
        .embed()
        .table(app.league.division);
    let mut c = app.anonymous().await;
    let plain = ok(&mut c, &table).await;
    assert!(plain.has("<html lang=\"en-GB\" class=\"embed\">"));
    assert!(!plain.has("<style>"));

    let dark = ok(&mut c, &format!("{table}?theme=dark&accent=%23C0392B")).await;
    assert!(dark.has("class=\"embed dark accent\""), "{}", dark.body);
    let style = "html.embed.accent{--accent:#c0392b;--accent-ink:#fff}";
    assert!(
        dark.has(&format!("<style>{style}</style>")),
        "{}",
        dark.body
    );
    // The one style element is allowed by its hash, as a browser computes it.
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style));
    let csp = header_of(&dark, header::CONTENT_SECURITY_POLICY);
    assert!(
        csp.contains(&format!("style-src 'self' 'sha256-{hash}'")),
        "{csp}"
    );

    // Anything else is ignored: the default look, no style element, and
    // nothing of the address in the page's CSS.
    for bad in [
        "theme=%3Cscript%3E&accent=red",
        "accent=%7D%3C%2Fstyle%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "accent=c0392b;}body{display:none",
        "accent=c0392bff",
        "theme=dark&theme=light",
    ] {
        let page = ok(&mut c, &format!("{table}?{bad}")).await;
        assert!(!page.has("<style>"), "{bad}: {}", page.body);
        assert!(!page.has("<script>alert"), "{bad}");
        assert!(!page.has("display:none"), "{bad}");
        let csp = header_of(&page, header::CONTENT_SECURITY_POLICY);
        assert!(csp.contains("style-src 'self';"), "{bad}: {csp}");
    }
}

async fn each_look_is_kept_apart(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("kept").played(1)).await;
    let table = at_short(&app.league.short)
        .embed()
        .table(app.league.division);
    let mut c = app.anonymous().await;
    let cache = |p: &Page| header_of(p, CACHE_HEADER.parse().unwrap());
    let light = ok(&mut c, &table).await;
    assert_eq!(cache(&light), "miss");
    let dark = ok(&mut c, &format!("{table}?theme=dark")).await;
    assert_eq!(cache(&dark), "miss", "the dark look is not the light one");
    assert!(dark.has("class=\"embed dark\""));
    let dark_again = ok(&mut c, &format!("{table}?theme=dark")).await;
    assert_eq!(cache(&dark_again), "hit");
    assert!(dark_again.has("class=\"embed dark\""));
    let light_again = ok(&mut c, &table).await;
    assert_eq!(cache(&light_again), "hit");
    assert!(light_again.has("class=\"embed\""));
}

async fn a_widget_shows_the_leagues_own_figures_with_links_to_the_top_window(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("figs").played(2)).await;
    let l = &app.league;
    let mut c = app.anonymous().await;
    // The table: the division's JSON's positions and points, row by row.
    let json = ok(
        &mut c,
        &format!("/leagues/{}/2026-27/one/data.json", l.short),
    )
    .await;
    let json: serde_json::Value = serde_json::from_str(&json.body).unwrap();
    let widget = ok(&mut c, &at_short(&l.short).embed().table(l.division)).await;
    let rows = crate::harness::pages::rows(&widget, "<table class=\"standings\"");
    let table = json["table"].as_array().unwrap();
    assert_eq!(rows.len(), table.len(), "{rows:?}");
    for (row, want) in rows.iter().zip(table) {
        assert_eq!(row[0], want["position"].to_string(), "{row:?}");
        assert_eq!(row[1], want["team"]["name"].as_str().unwrap(), "{row:?}");
        assert_eq!(row[2], want["played"].to_string(), "{row:?}");
        assert_eq!(row[6], want["points"].to_string(), "{row:?}");
    }
    for path in widgets(l) {
        let page = ok(&mut c, &path).await;
        // No site header; every link opens in the top window.
        assert!(!page.has("<header class=\"site\""), "{path}");
        assert!(page.has("<base target=\"_top\">"), "{path}");
        assert!(page.has("/embed."), "{path}: the height script");
    }
    // The fixtures widget: the played matches' scores and what is next.
    let fixtures = ok(&mut c, &at_short(&l.short).embed().fixtures(l.division)).await;
    assert!(fixtures.has("Latest results"));
    assert!(fixtures.has("class=\"score\""), "{}", fixtures.body);
    // The team's widget: its place and its form.
    let team = ok(&mut c, &at_short(&l.short).embed().team(l.teams[0].id)).await;
    assert!(team.has(&l.teams[0].name), "{}", team.body);
    assert!(team.has(" of 2 in One, "), "{}", team.body);
    assert!(team.has("svg class=\"form\""), "{}", team.body);
}

async fn a_widget_of_another_league_or_nothing_is_not_found(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("ours")).await;
    let theirs = LeagueBuilder::new("theirs").build(&db).await;
    let mut c = app.anonymous().await;
    let ours = at_short(&app.league.short).embed();
    for path in [
        ours.table(theirs.division),
        ours.fixtures(theirs.division),
        ours.team(theirs.teams[0].id),
        format!(
            "/leagues/{}/embed/divisions/premier/table",
            app.league.short
        ),
        format!("/leagues/{}/embed/teams/x-12", app.league.short),
        "/leagues/nobody/embed/live".to_owned(),
    ] {
        let page = c.get(&path).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{path}: {}", page.body);
    }
}

async fn the_secretary_has_a_page_of_widgets_to_copy(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("site").played(1)).await;
    let l = &app.league;
    let console = at_short(&l.short).console();
    let mut secretary = app.with_secretary().await;
    let home = ok(&mut secretary, &console.to_string()).await;
    assert!(home.has(&format!("href=\"{}\"", console.website())));
    let page = ok(&mut secretary, &console.website()).await;
    assert!(page.has("Put this on your website"));
    let shown = crate::harness::pages::unescape(&page.body);
    for path in widgets(l) {
        // A preview, and the snippet to copy with the widget's full address.
        assert!(page.has(&format!("<iframe src=\"{path}\"")), "{path}");
        assert!(
            shown.contains(&format!("<iframe src=\"http://127.0.0.1:3000{path}\"")),
            "{path}: {shown}"
        );
    }
    assert!(
        shown
            .contains("<script src=\"http://127.0.0.1:3000/static/embed-host.js\" async></script>")
    );
    // In the look chosen, the snippets carry it.
    let dark = ok(
        &mut secretary,
        &format!("{}?theme=dark&accent=%23c0392b", console.website()),
    )
    .await;
    let table = at_short(&l.short).embed().table(l.division);
    let shown = crate::harness::pages::unescape(&dark.body);
    assert!(
        shown.contains(&format!("<iframe src=\"{table}?theme=dark&accent=c0392b\"")),
        "{shown}"
    );
    // The site's own colour is no choice: no accent in the address.
    let plain = ok(
        &mut secretary,
        &format!("{}?theme=light&accent=%230b5394", console.website()),
    )
    .await;
    assert!(
        plain.has(&format!("<iframe src=\"{table}\"")),
        "{}",
        plain.body
    );
    // Nobody else's console.
    let mut anonymous = app.anonymous().await;
    let page = anonymous.get(&console.website()).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    let mut captain = app.with_captain(0).await;
    let page = captain.get(&console.website()).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
}
