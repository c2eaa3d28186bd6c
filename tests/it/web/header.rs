//! The site's header links each place once: the crumbs say where a page is,
//! the account's links follow, less the console or the administration when
//! the page is inside it (its crumbs link it already).

use boneyard::db::*;

use crate::harness::client::Page;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(the_header_links_the_console_and_the_administration_once);

/// How many times the page's header links `href`.
fn in_header(page: &Page, href: &str) -> usize {
    let body = page.body.as_str();
    let start = body.find("<header").expect("a header");
    let end = body.find("</header>").expect("a header's end");
    body[start..end]
        .matches(&format!("href=\"{href}\""))
        .count()
}

async fn the_header_links_the_console_and_the_administration_once(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::home_and_away("hdr")).await;
    // The administrator is this league's secretary too.
    let mut admin = app.with_admin().await;
    let id = db.user_by_username("admin").await.unwrap().id;
    db.grant_role(&NewRole::secretary(id, app.league.id), None)
        .await
        .unwrap();
    let console = "/leagues/hdr/console";
    for (path, console_links, admin_links) in [
        ("/leagues/hdr", 1, 1),
        (console, 1, 1),
        ("/leagues/hdr/console/approvals", 1, 1),
        ("/admin", 1, 1),
    ] {
        let page = admin.get(path).await;
        assert_eq!(
            page.status,
            axum::http::StatusCode::OK,
            "{path}: {}",
            page.body
        );
        assert_eq!(
            in_header(&page, console),
            console_links,
            "{path}: {}",
            page.body
        );
        assert_eq!(
            in_header(&page, "/admin"),
            admin_links,
            "{path}: {}",
            page.body
        );
    }
}
