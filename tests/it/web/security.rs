//! Holes an attack on the running app found (issue 12): guesses at a
//! password in parallel.

use axum::http::StatusCode;
use boneyard::db::*;

use crate::harness::{LeagueBuilder, PASSWORD, TestApp};
use crate::support::on_both;

on_both!(
    a_burst_of_guesses_checks_no_more_passwords_than_the_limit,
);

/// Failed attempts an account is allowed in the window (`web::auth`).
const ACCOUNT_LIMIT: usize = 5;

async fn a_burst_of_guesses_checks_no_more_passwords_than_the_limit(db: Db) {
    let app = TestApp::new(&db, LeagueBuilder::new("burst")).await;
    let user = app.league.secretary.clone();
    let mut first = app.anonymous().await;
    let token = first.get("/sign-in").await.csrf();
    // 100 guesses at once from one browser session, each its own request.
    let mut guesses = Vec::new();
    for i in 0..100 {
        let mut c = first.stranger();
        c.cookie = first.cookie.clone();
        let (token, user) = (token.clone(), user.clone());
        guesses.push(tokio::spawn(async move {
            let guess = format!("guess number {i}");
            let fields = [
                ("csrf", token.as_str()),
                ("username", user.as_str()),
                ("password", guess.as_str()),
            ];
            c.post("/sign-in", &fields).await.status
        }));
    }
    let mut checked = 0;
    for g in guesses {
        match g.await.unwrap() {
            StatusCode::TOO_MANY_REQUESTS => {}
            // A password was checked, and was wrong.
            StatusCode::UNPROCESSABLE_ENTITY => checked += 1,
            other => panic!("a guess answered {other}"),
        }
    }
    eprintln!("passwords checked in a burst of 100: {checked}");
    assert!(
        checked <= ACCOUNT_LIMIT,
        "{checked} of 100 guesses had their password checked"
    );
    // The right password, after the limit, is refused too.
    let page = first
        .post(
            "/sign-in",
            &[
                ("csrf", token.as_str()),
                ("username", user.as_str()),
                ("password", PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS, "{}", page.body);
    assert!(!first.get("/").await.has("Sign out"));
}
