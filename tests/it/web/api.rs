//! The read-only JSON API at `/api/v1` (issue 41): every division's table
//! of a demo league reads the same in the API as on its page, column by
//! column; a fixture's state is worded the same in the API, on the
//! fixtures page and on the match page; errors are problem details; an
//! answer is confirmed by its ETag; any site may read it (CORS); a client
//! past its rate limit is told to wait; the OpenAPI document describes
//! every API address the app has.

use axum::http::{StatusCode, header};
use boneyard::addresses::api as at;
use boneyard::db::*;
use boneyard::demo::{DemoOptions, fill};
use serde_json::Value;

use crate::harness::client::{Client, Page};
use crate::harness::pages::{rows, unescape};
use crate::support::on_both;

on_both!(
    every_divisions_table_reads_the_same_in_the_api_as_on_its_page,
    a_fixtures_state_reads_the_same_in_the_api_and_on_every_page,
    the_api_walks_from_the_leagues_to_every_record_by_its_links,
    bad_ids_and_parameters_are_problem_details,
    an_api_answer_is_confirmed_by_its_etag_and_readable_from_any_site,
    a_client_past_its_rate_limit_is_told_to_wait,
    the_openapi_document_describes_every_api_address,
);

async fn demo(db: &Db) -> League {
    let options = DemoOptions {
        leagues: 1,
        teams: 7,
        seasons: 2,
        divisions: Some(2),
        seed: 5,
    };
    fill(db, &options).await.expect("the demo fills");
    db.leagues().await.unwrap().remove(0)
}

/// A JSON answer of the API, checked to be one.
async fn json(c: &mut Client, path: &str) -> Value {
    let page = c.get(path).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
    assert_eq!(
        page.headers[header::CONTENT_TYPE],
        "application/json",
        "{path}"
    );
    serde_json::from_str(&page.body).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every division of every season, by the API's ids: (season id,
/// division id).
async fn divisions(c: &mut Client, league: &League) -> Vec<(i64, i64)> {
    let short = &league.short_name;
    let doc = json(c, &at::league(short)).await;
    let mut out = Vec::new();
    for s in doc["data"]["seasons"].as_array().unwrap() {
        let season = s["id"].as_i64().unwrap();
        let doc = json(c, &at::season(short, season)).await;
        for d in doc["data"]["divisions"].as_array().unwrap() {
            out.push((season, d["division"]["id"].as_i64().unwrap()));
        }
    }
    out
}

/// A form letter as the page shows it, from the API's word.
fn letter(word: &Value) -> &'static str {
    match word.as_str().unwrap() {
        "won" => "W",
        "drawn" => "D",
        "lost" => "L",
        other => panic!("a form word {other}"),
    }
}

async fn every_divisions_table_reads_the_same_in_the_api_as_on_its_page(db: Db) {
    let league = demo(&db).await;
    let mut c = Client::new(&db).await;
    let all = divisions(&mut c, &league).await;
    assert!(all.len() >= 4, "two seasons of two divisions: {all:?}");
    let mut rows_seen = 0;
    for (_, division) in all {
        let api = json(&mut c, &at::division(&league.short_name, division)).await;
        let html_href = api["links"]["html"].as_str().unwrap().to_owned();
        let page = c.get(&html_href).await;
        assert_eq!(page.status, StatusCode::OK, "{html_href}");
        let shown = rows(&page, "<table class=\"standings\"");
        let listed = api["data"]["rows"].as_array().unwrap();
        assert_eq!(listed.len(), shown.len(), "{html_href}: as many rows");
        assert!(!listed.is_empty());
        for (r, line) in listed.iter().zip(&shown) {
            // Position and team, in the same order.
            assert_eq!(r["position"].to_string(), line[0], "{html_href}");
            assert_eq!(r["team"]["name"].as_str().unwrap(), unescape(&line[1]));
            // Every number column, by its meaning.
            let columns = [
                "played",
                "won",
                "drawn",
                "lost",
                "boards_for",
                "boards_against",
                "games_for",
                "games_against",
                "pegs_for",
                "pegs_against",
                "deducted",
                "points",
            ];
            for (i, key) in columns.iter().enumerate() {
                assert_eq!(
                    r[*key].to_string(),
                    line[2 + i],
                    "{html_href}: {key} of {}",
                    line[1]
                );
            }
            let bf = r["boards_for"].as_i64().unwrap();
            let ba = r["boards_against"].as_i64().unwrap();
            assert_eq!(r["board_difference"].as_i64().unwrap(), bf - ba);
            // Form: the page's letters are the API's words.
            let form: String = r["form"].as_array().unwrap().iter().map(letter).collect();
            assert_eq!(form, line[14].replace('–', ""), "form of {}", line[1]);
            rows_seen += 1;
        }
    }
    assert!(rows_seen >= 10, "rows compared: {rows_seen}");
}

async fn a_fixtures_state_reads_the_same_in_the_api_and_on_every_page(db: Db) {
    let league = demo(&db).await;
    let short = league.short_name.clone();
    let mut c = Client::new(&db).await;
    let mut states = std::collections::BTreeSet::new();
    for (_, division) in divisions(&mut c, &league).await {
        let doc = json(
            &mut c,
            &format!("{}?per_page=200", at::division_fixtures(&short, division)),
        )
        .await;
        let fixtures_page = c.get(doc["links"]["html"].as_str().unwrap()).await;
        assert_eq!(fixtures_page.status, StatusCode::OK);
        let fixtures_body = unescape(&fixtures_page.body);
        for f in doc["data"].as_array().unwrap() {
            let words = f["state_words"].as_str().unwrap();
            states.insert(f["state"].as_str().unwrap().to_owned());
            assert!(
                fixtures_body.contains(words),
                "the fixtures page says `{words}`"
            );
            let id = f["id"].as_i64().unwrap();
            // The match page and its resource say the same.
            let api = json(&mut c, &at::fixture(&short, id)).await;
            assert_eq!(api["data"]["fixture"]["state_words"], f["state_words"]);
            let page = c.get(api["links"]["html"].as_str().unwrap()).await;
            assert!(
                unescape(&page.body).contains(words),
                "match {id} says `{words}`"
            );
        }
    }
    // The demo has fixtures in most states, each checked above.
    for state in ["to_play", "played", "walkover", "void"] {
        assert!(states.contains(state), "a {state} fixture in {states:?}");
    }
}

async fn the_api_walks_from_the_leagues_to_every_record_by_its_links(db: Db) {
    let league = demo(&db).await;
    let short = league.short_name.clone();
    let mut c = Client::new(&db).await;
    let leagues = json(&mut c, &at::leagues()).await;
    assert_eq!(leagues["data"][0]["short_name"], short.as_str());
    assert_eq!(leagues["page"]["total_items"], 1);
    let root = json(&mut c, at::ROOT).await;
    assert_eq!(root["links"]["openapi"], at::openapi());
    // A season's links lead to its divisions and cups, each to its records.
    let l = json(&mut c, &at::league(&short)).await;
    let season = json(&mut c, l["links"]["current_season"].as_str().unwrap()).await;
    let links = season["links"].as_object().unwrap();
    let cups: Vec<&str> = links
        .iter()
        .filter(|(k, _)| k.starts_with("cup:"))
        .map(|(_, v)| v.as_str().unwrap())
        .collect();
    assert!(!cups.is_empty(), "the demo has cups: {links:?}");
    for cup in cups {
        let bracket = json(&mut c, cup).await;
        assert!(!bracket["data"]["rounds"].as_array().unwrap().is_empty());
    }
    let honours = json(&mut c, links["honours"].as_str().unwrap()).await;
    assert!(!honours["data"]["divisions"].as_array().unwrap().is_empty());
    let first_division = format!(
        "division:{}",
        season["data"]["divisions"][0]["division"]["id"]
    );
    let table = json(&mut c, links[&first_division].as_str().unwrap()).await;
    let team_href = table["links"][&format!("team:{}", table["data"]["rows"][0]["team"]["id"])]
        .as_str()
        .unwrap()
        .to_owned();
    let team = json(&mut c, &team_href).await;
    // The team's record is its row of the table.
    for key in ["played", "won", "drawn", "lost"] {
        assert_eq!(
            team["data"]["record"][key], table["data"]["rows"][0][key],
            "{key}"
        );
    }
    let player = team["data"]["players"][0]["id"].as_i64().unwrap();
    let p = json(&mut c, &at::player(&short, player)).await;
    assert_eq!(p["data"]["player"]["id"], player);
    assert!(!p["data"]["seasons"].as_array().unwrap().is_empty());
    // A played match has its boards, games and hands.
    let played = team["data"]["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["state"] == "played" && f["score"]["provisional"] == false)
        .expect("a played match")["id"]
        .as_i64()
        .unwrap();
    let m = json(&mut c, &at::fixture(&short, played)).await;
    let boards = m["data"]["result"]["boards"].as_array().unwrap();
    assert!(!boards.is_empty());
    let won: i64 = boards.iter().filter(|b| b["winner"] == "home").count() as i64;
    assert_eq!(m["data"]["fixture"]["score"]["boards"][0], won);
    let game = &boards[0]["games"][0];
    assert!(game["record"]["hands"].is_array() && game["record"]["sides"].is_array());
    let live = json(&mut c, &at::live(&short)).await;
    assert!(live["data"]["boards"].is_array());
    // Pages of a list: the second page follows the first.
    let first = json(&mut c, &format!("{}?per_page=2", at::players(&short))).await;
    let next = first["links"]["next"].as_str().unwrap().to_owned();
    let second = json(&mut c, &next).await;
    assert_eq!(second["page"]["page"], 2);
    assert_ne!(first["data"][0], second["data"][0]);
}

/// A problem detail, checked to be one with `status`.
fn problem(page: &Page, status: StatusCode) -> Value {
    assert_eq!(page.status, status, "{}", page.body);
    assert_eq!(
        page.headers[header::CONTENT_TYPE],
        "application/problem+json"
    );
    let p: Value = serde_json::from_str(&page.body).unwrap();
    assert_eq!(p["status"], status.as_u16());
    assert_eq!(p["title"], status.canonical_reason().unwrap());
    assert!(!p["detail"].as_str().unwrap().is_empty());
    p
}

async fn bad_ids_and_parameters_are_problem_details(db: Db) {
    let league = demo(&db).await;
    let short = league.short_name.clone();
    let mut c = Client::new(&db).await;
    let (_, division) = divisions(&mut c, &league).await[0];
    for path in [
        at::league("nowhere"),
        at::league("NOT A LEAGUE"),
        at::division(&short, 999_999),
        format!("{}/divisions/abc", at::league(&short)),
        format!("{}/divisions/-3", at::league(&short)),
        at::team(&short, 999_999),
        at::player(&short, 999_999),
        at::fixture(&short, 999_999),
        at::cup(&short, 999_999),
        at::season(&short, 999_999),
        format!("{}/nothing-here", at::ROOT),
        format!("{}?page=999", at::teams(&short)),
    ] {
        let p = problem(&c.get(&path).await, StatusCode::NOT_FOUND);
        assert!(!p["detail"].as_str().unwrap().contains("<"), "{path}");
    }
    // Another league's division is not found under this one.
    let other = db
        .create_league(&NewLeague {
            name: "Other".into(),
            short_name: "other".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    problem(
        &c.get(&at::division(&other.short_name, division)).await,
        StatusCode::NOT_FOUND,
    );
    for query in ["after=x", "after=0", "after=-1"] {
        let p = problem(
            &c.get(&format!("{}?{query}", at::division(&short, division)))
                .await,
            StatusCode::BAD_REQUEST,
        );
        assert!(p["detail"].as_str().unwrap().contains("after"));
    }
    for query in ["page=0", "per_page=201", "page=two"] {
        problem(
            &c.get(&format!("{}?{query}", at::teams(&short))).await,
            StatusCode::BAD_REQUEST,
        );
    }
}

async fn an_api_answer_is_confirmed_by_its_etag_and_readable_from_any_site(db: Db) {
    let league = demo(&db).await;
    let mut c = Client::new(&db).await;
    let (_, division) = divisions(&mut c, &league).await[0];
    let path = at::division(&league.short_name, division);
    let first = c.get(&path).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    let etag = first.headers[header::ETAG].to_str().unwrap().to_owned();
    let again = c.get_with(&path, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    // Another ETag gets the answer itself.
    let other = c.get_with(&path, &[("if-none-match", "\"nope\"")]).await;
    assert_eq!(other.status, StatusCode::OK);
    assert_eq!(other.body, first.body);
    // Problems are readable from another site too.
    let missing = c.get(&at::league("nowhere")).await;
    assert_eq!(missing.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    // A browser's preflight (for If-None-Match) is answered.
    let pre = c.request("OPTIONS", &path).await;
    assert_eq!(pre.status, StatusCode::NO_CONTENT);
    assert!(
        pre.headers[header::ACCESS_CONTROL_ALLOW_METHODS]
            .to_str()
            .unwrap()
            .contains("GET")
    );
    // The pages themselves are not opened to other sites.
    let page = c.get(first_html(&first)).await;
    assert!(
        !page
            .headers
            .contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN)
    );
}

fn first_html(page: &Page) -> &str {
    let start = page.body.find("\"html\":\"").unwrap() + 8;
    let rest = &page.body[start..];
    &rest[..rest.find('"').unwrap()]
}

async fn a_client_past_its_rate_limit_is_told_to_wait(db: Db) {
    let mut c = Client::new(&db).await;
    let burst = boneyard::web::api::limit::BURST as usize;
    for i in 0..burst {
        let page = c.get(at::ROOT).await;
        assert_eq!(page.status, StatusCode::OK, "request {i}");
    }
    // The bucket refills 5 a second: far slower than these requests come.
    let mut refused = None;
    for _ in 0..50 {
        let page = c.get(at::ROOT).await;
        if page.status != StatusCode::OK {
            refused = Some(page);
            break;
        }
    }
    let refused = refused.expect("refused within 50 more requests");
    problem(&refused, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers[header::RETRY_AFTER], "1");
    // The pages are not limited by the API's limit.
    assert_eq!(c.get("/sign-in").await.status, StatusCode::OK);
}

async fn the_openapi_document_describes_every_api_address(db: Db) {
    let mut c = Client::new(&db).await;
    let doc = json(&mut c, &at::openapi()).await;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    let paths = doc["paths"].as_object().unwrap();
    let routes: Vec<&String> = boneyard::web::routes::paths()
        .iter()
        .filter(|p| p.starts_with(at::ROOT))
        .filter(|p| !p.contains("{*") && !p.ends_with("openapi.json"))
        .collect();
    assert!(routes.len() >= 14, "{routes:?}");
    for route in routes {
        let op = &paths[route.as_str()]["get"];
        assert!(op.is_object(), "{route} is documented");
        for status in ["200", "304", "429"] {
            assert!(op["responses"][status].is_object(), "{route} {status}");
        }
        if route.contains('{') {
            assert_eq!(
                op["responses"]["404"]["content"]["application/problem+json"]["schema"]["$ref"],
                "#/components/schemas/Problem",
                "{route}"
            );
        }
    }
    assert!(doc["components"]["schemas"]["TableRow"]["properties"]["points"].is_object());
    // The guide links the document and is linked from every page's foot.
    let guide = c.get(&at::guide()).await;
    assert_eq!(guide.status, StatusCode::OK);
    assert!(guide.has(&at::openapi()));
    assert!(
        c.get("/sign-in")
            .await
            .has(&format!("href=\"{}\"", at::guide()))
    );
}
