//! Every link and form a page shows names a route of the app's table, and
//! every link opens: found by walking the pages as the secretary and the
//! administrator would, following each link, not from a list kept here.

use std::collections::{BTreeSet, VecDeque};

use axum::http::StatusCode;
use boneyard::db::*;
use boneyard::web::routes::route_of;

use crate::harness::builder::drawn_team_cup;
use crate::harness::client::Client;
use crate::harness::{LeagueBuilder, TestApp};
use crate::support::on_both;

on_both!(every_link_of_every_page_names_a_route_and_opens);

/// The addresses in `body`'s `href`, `action` and `formaction` attributes
/// that stay on the site, without their query or fragment; `&amp;` and
/// the like are left, as no address of ours has one before its query.
fn addresses(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for attr in ["href=\"", "action=\"", "formaction=\""] {
        for (i, _) in body.match_indices(attr) {
            // `data-href="` and the like are scripts' business.
            let before = body[..i].chars().next_back();
            if before.is_some_and(|c| c != ' ' && c != '\n' && c != '\t') {
                continue;
            }
            let rest = &body[i + attr.len()..];
            let value = &rest[..rest.find('"').unwrap()];
            if !value.starts_with('/') || value.starts_with("//") {
                continue;
            }
            let path = value.split(['?', '#']).next().unwrap();
            out.push((attr.trim_end_matches("=\"").to_owned(), path.to_owned()));
        }
    }
    out
}

/// Walks every page under `area` reachable from `start` by links, as
/// `client`: each link and form action names a route of the table, and
/// each link followed opens. Returns how many pages were read.
async fn walk(client: &mut Client, start: &[String], area: &str) -> usize {
    let mut seen: BTreeSet<String> = start.iter().cloned().collect();
    let mut queue: VecDeque<(String, String)> = start
        .iter()
        .map(|p| (p.clone(), "the start".to_owned()))
        .collect();
    let mut read = 0;
    while let Some((path, from)) = queue.pop_front() {
        let page = client.get(&path).await;
        read += 1;
        assert!(
            page.status == StatusCode::OK
                || page.status == StatusCode::SEE_OTHER
                || page.status == StatusCode::FOUND,
            "{path} (linked from {from}): {} {}",
            page.status,
            page.body
        );
        let is_html = page
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"));
        if !is_html {
            continue;
        }
        for (attr, address) in addresses(&page.body) {
            if address.starts_with("/static/") {
                continue;
            }
            assert!(
                route_of(&address).is_some(),
                "{path}: the {attr} {address} names no route"
            );
            // Follow the links of the area only: not a form's action.
            let follow =
                attr == "href" && address.starts_with(area) && seen.insert(address.clone());
            if follow {
                queue.push_back((address, path.clone()));
            }
        }
        assert!(read < 2000, "the walk does not end: {} seen", seen.len());
    }
    read
}

async fn every_link_of_every_page_names_a_route_and_opens(db: Db) {
    let app = TestApp::new(
        &db,
        LeagueBuilder::home_and_away("home")
            .secretary("sec")
            .teams(&["home Home", "home Away", "home Third", "home Fourth"])
            .fixtures(4)
            .played(2),
    )
    .await;
    let l = &app.league;
    l.late_card(&db).await;
    let teams: Vec<TeamId> = l.teams.iter().map(|t| t.id).collect();
    drawn_team_cup(&db, l.id, l.season, &teams, 14).await;

    let mut sec = app.with_secretary().await;
    let start = ["/".to_owned(), "/leagues/home".to_owned(), l.console("")];
    let read = walk(&mut sec, &start, "/leagues/home").await;
    // The console and the league's public pages together: far more than
    // the starting points, or the walk followed nothing.
    assert!(read > 60, "only {read} pages read");

    let mut admin = app.with_admin().await;
    let read = walk(&mut admin, &["/admin".to_owned()], "/admin").await;
    assert!(read >= 3, "only {read} administrator pages read");
}
