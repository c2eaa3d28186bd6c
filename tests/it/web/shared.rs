//! A signed-in user's page of a shared route is the page a visitor gets,
//! rendered once and kept, with the user's own parts filled in
//! (`src/web/personal.rs`): for a secretary, a captain, a player and the
//! administrator of the demo, on every kind of public page, the page is
//! exactly what the whole app renders for them, and outside their own
//! parts exactly the visitor's. So the shared part can never show one
//! user's data to another.

use axum::http::{StatusCode, header};
use boneyard::db::{Db, FixtureStatus, RoleKind};
use boneyard::demo::{DemoOptions, fill_with_accounts};
use boneyard::web::cache::CACHE_HEADER;

use crate::harness::client::{Client, Page};
use crate::harness::pages::slug;
use crate::support::on_both;

on_both!(
    a_signed_in_page_is_the_visitors_with_their_own_parts,
    a_role_granted_shows_at_once_on_a_shared_page,
    a_session_changed_on_one_server_shows_on_the_other,
);

/// `page` without what is inside its own parts' markers.
fn outside_own_parts(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    while let Some(at) = rest.find("<!--me:") {
        let head_end = at + rest[at..].find("-->").expect("a marker's end");
        let name = rest[at + 7..head_end].split(' ').next().unwrap().to_owned();
        let close = format!("<!--/me:{name}-->");
        let end = head_end + rest[head_end..].find(&close).expect("a closing marker");
        out.push_str(&rest[..head_end + 3]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// What is inside the first own part named `name` of `page`.
fn own_part<'a>(page: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<!--me:{name}");
    let at = page.find(&open)?;
    let start = at + page[at..].find("-->")? + 3;
    let end = start + page[start..].find(&format!("<!--/me:{name}-->"))?;
    Some(&page[start..end])
}

fn small() -> DemoOptions {
    DemoOptions {
        leagues: 1,
        teams: 4,
        seasons: 1,
        divisions: None,
        seed: 11,
    }
}

/// Every kind of page of the demo league's current season a follower
/// opens.
async fn pages(db: &Db) -> Vec<String> {
    let league = db.leagues().await.unwrap().remove(0);
    let l = league.id;
    let base = format!("/leagues/{}", league.short_name);
    let season = db
        .seasons(l)
        .await
        .unwrap()
        .into_iter()
        .max_by_key(|s| s.id)
        .unwrap();
    let division = db.divisions(l, season.id).await.unwrap().remove(0);
    let table = format!("{base}/{}/{}", slug(&season.name), slug(&division.name));
    let mut pages = vec![
        base.clone(),
        format!("{base}/{}", slug(&season.name)),
        table.clone(),
        format!("{table}?cols=all"),
        format!("{table}/fixtures"),
        format!("{base}/players-table/{}", season.id),
        format!("{base}/live"),
        format!("{base}/ratings"),
        format!("{base}/{}/honours", slug(&season.name)),
        format!("/api/v1/leagues/{}", league.short_name),
    ];
    for team in db.teams(l).await.unwrap() {
        pages.push(format!("{base}/teams/{}-{}", team.id, slug(&team.name)));
    }
    for player in db.players(l).await.unwrap().into_iter().take(3) {
        pages.push(format!(
            "{base}/players/{}-{}",
            player.id,
            slug(&player.name)
        ));
    }
    let fixtures = db.fixtures(l, season.id).await.unwrap();
    // A played match, tonight's, and one to come.
    let now = boneyard::db::now();
    let played = fixtures.iter().find(|f| f.status == FixtureStatus::Played);
    let tonight = fixtures
        .iter()
        .filter(|f| {
            f.starts_at
                .is_some_and(|t| (t - now).num_hours().abs() < 12)
        })
        .collect::<Vec<_>>();
    let to_come = fixtures.iter().find(|f| {
        f.starts_at
            .is_some_and(|t| t > now + chrono::Duration::days(2))
    });
    for f in played.into_iter().chain(tonight).chain(to_come) {
        pages.push(format!("{base}/matches/{}", f.id));
    }
    pages
}

async fn a_signed_in_page_is_the_visitors_with_their_own_parts(db: Db) {
    let demo = fill_with_accounts(&db, &small()).await.expect("the demo");
    let pages = pages(&db).await;
    let mut visitor = Client::new(&db).await;
    let pick = |role: RoleKind| {
        demo.accounts
            .iter()
            .find(|a| a.role == role)
            .unwrap_or_else(|| panic!("a demo account with the role {role:?}"))
    };
    let mut seen = Vec::new();
    for account in [
        pick(RoleKind::Secretary),
        pick(RoleKind::Captain),
        pick(RoleKind::Player),
        pick(RoleKind::Administrator),
    ] {
        let mut user = visitor.stranger();
        user.sign_in(&account.username, &account.password).await;
        for path in &pages {
            let kept = visitor.get(path).await;
            assert_eq!(kept.status, StatusCode::OK, "{path}: {}", kept.body);
            let shared = user.get(path).await;
            assert_eq!(shared.status, StatusCode::OK, "{path}: {}", shared.body);
            let whole = user.get_with(path, &[("cache-control", "no-cache")]).await;
            assert_eq!(whole.status, StatusCode::OK, "{path}: {}", whole.body);
            let html = is_html(&shared);
            if html {
                assert_eq!(
                    shared.headers.get(CACHE_HEADER).unwrap(),
                    "shared",
                    "{path} for {}",
                    account.username
                );
                assert!(
                    !shared.headers.contains_key(header::ETAG),
                    "one user's page carries no shared validator: {path}"
                );
                assert_eq!(
                    shared.headers.get(header::CACHE_CONTROL).unwrap(),
                    "private, no-cache"
                );
                // The user's own: their name and sign-out form.
                let who = own_part(&shared.body, "who").expect("the header's own part");
                assert!(who.contains(&account.username), "{path}: {who}");
                assert!(who.contains("Sign out"), "{path}: {who}");
                assert!(!kept.body.contains(&account.username), "{path}");
            }
            // Exactly what the whole app renders for this user ...
            assert_eq!(
                shared.body, whole.body,
                "{path} for {}: the shared page differs from the page rendered whole",
                account.username
            );
            // ... and outside their own parts exactly the visitor's page.
            assert_eq!(
                outside_own_parts(&shared.body),
                outside_own_parts(&kept.body),
                "{path} for {}",
                account.username
            );
            for name in ["actions", "answer", "secretary"] {
                if let Some(part) = own_part(&shared.body, name)
                    && !part.is_empty()
                {
                    assert_eq!(
                        own_part(&kept.body, name),
                        Some(""),
                        "{path}: a visitor's {name} is empty"
                    );
                    seen.push((account.role, name, path.clone()));
                }
            }
        }
    }
    // Each kind of own part was filled in for someone: a secretary's links
    // on the division's table, a captain's or secretary's actions on a
    // match page, a player's answer on their team's page.
    let has = |role: RoleKind, name: &str| seen.iter().any(|(r, n, _)| *r == role && *n == name);
    assert!(has(RoleKind::Secretary, "secretary"), "{seen:?}");
    assert!(has(RoleKind::Secretary, "actions"), "{seen:?}");
    assert!(has(RoleKind::Captain, "actions"), "{seen:?}");
    assert!(has(RoleKind::Player, "answer"), "{seen:?}");
    assert!(!has(RoleKind::Player, "actions"), "{seen:?}");
}

fn is_html(page: &Page) -> bool {
    page.headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.to_str().unwrap().starts_with("text/html"))
}

/// A role granted while the user is signed in shows on their next shared
/// page: the account's roles are kept under the installation's generation,
/// which the grant raises.
async fn a_role_granted_shows_at_once_on_a_shared_page(db: Db) {
    let demo = fill_with_accounts(&db, &small()).await.expect("the demo");
    let player = demo
        .accounts
        .iter()
        .find(|a| a.role == RoleKind::Player)
        .unwrap();
    let pages = pages(&db).await;
    let table = &pages[2];
    let mut visitor = Client::new(&db).await;
    let mut user = visitor.stranger();
    user.sign_in(&player.username, &player.password).await;
    let before = user.get(table).await;
    assert_eq!(before.headers.get(CACHE_HEADER).unwrap(), "shared");
    assert!(
        !before.has("generate or view the division"),
        "{}",
        before.body
    );
    assert!(!before.has("Console"), "{}", before.body);
    // Made a secretary of the league (as the administrator would).
    let league = db.leagues().await.unwrap().remove(0);
    let user_id = db.user_by_username(&player.username).await.unwrap().id;
    db.grant_role(&boneyard::db::NewRole::secretary(user_id, league.id), None)
        .await
        .unwrap();
    let after = user.get(table).await;
    assert_eq!(after.headers.get(CACHE_HEADER).unwrap(), "shared");
    assert!(after.has("generate or view the division"), "{}", after.body);
    assert!(after.has(">Console<"), "{}", after.body);
    // The visitor's page is as it was.
    let seen = visitor.get(table).await;
    assert!(!seen.has("generate or view the division"), "{}", seen.body);
    assert!(!seen.has(&player.username));
}

/// Two app servers on one database, one browser: what one server changes
/// in the session (a saved message, a sign-out) shows on the next page from
/// the other, which keeps the sessions it read under their generation.
async fn a_session_changed_on_one_server_shows_on_the_other(db: Db) {
    // Made as the league will be in two days: the team's next match has
    // not started whatever the hour, so its answers are open.
    let at = boneyard::db::now() + chrono::Duration::days(2);
    let demo = boneyard::demo::fill_with_accounts_at(&db, &small(), at)
        .await
        .expect("the demo");
    let player = demo
        .accounts
        .iter()
        .find(|a| a.role == RoleKind::Player)
        .unwrap();
    let league = db.leagues().await.unwrap().remove(0);
    let team = db
        .teams(league.id)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == player.team)
        .expect("the player's team");
    let page = format!(
        "/leagues/{}/teams/{}-{}",
        league.short_name,
        team.id,
        slug(&team.name)
    );
    let mut first = Client::new(&db).await;
    first.sign_in(&player.username, &player.password).await;
    let mut second = Client::new(&db).await;
    second.cookie = first.cookie.clone();
    let seen = second.get(&page).await;
    assert_eq!(seen.headers.get(CACHE_HEADER).unwrap(), "shared");
    let answer = own_part(&seen.body, "answer").expect("the answer slot");
    assert!(answer.contains("Can you play?"), "{}", seen.body);
    assert!(!seen.has("id=\"saved\""));

    // An answer through the first server: its saved message shows on the
    // second's next page, once.
    let action = answer
        .split("action=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .replace("&#x2f;", "/");
    let saved = first
        .post(
            &action,
            &[("csrf", &seen.csrf()), ("back", &page), ("answer", "yes")],
        )
        .await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.body);
    let shown = second.get(&page).await;
    assert!(shown.has("id=\"saved\""), "{}", shown.body);
    let again = second.get(&page).await;
    assert!(!again.has("id=\"saved\""), "shown once: {}", again.body);
    assert_eq!(again.headers.get(CACHE_HEADER).unwrap(), "shared");

    // Signed out through the first server: the second shows a visitor's page.
    let out = first.post("/sign-out", &[("csrf", &again.csrf())]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    let after = second.get(&page).await;
    assert_eq!(after.status, StatusCode::OK);
    assert!(!after.has(&player.username), "{}", after.body);
    assert!(after.has("Sign in"), "{}", after.body);
}
