//! The first administrator, signing in and out, form tokens, the throttle,
//! the 404 page and the headers every response carries.

use axum::http::StatusCode;
use boneyard::db::Db;

use crate::harness::client::{ADMIN_PASSWORD, Client, admin};
use crate::support::on_both;

on_both!(
    a_new_installation_asks_for_the_administrator,
    setup_keeps_what_was_typed_and_says_what_is_wrong,
    two_first_set_ups_at_once_make_one_administrator,
    sign_in_renews_the_session_and_sign_out_ends_it,
    forms_without_the_token_are_refused,
    failed_sign_ins_are_throttled,
    app_servers_sharing_a_database_share_the_throttle,
    unknown_addresses_get_the_404_page_and_headers,
    a_nul_byte_anywhere_is_no_server_error,
);

async fn a_new_installation_asks_for_the_administrator(db: Db) {
    let mut c = Client::new(&db).await;
    let home = c.get("/").await;
    assert_eq!(home.status, StatusCode::SEE_OTHER);
    assert_eq!(home.location.as_deref(), Some("/setup"));
    let setup = c.get("/setup").await;
    assert!(setup.has("<label for=\"username\">Username</label>"));
    let done = c
        .submit(
            "/setup",
            "/setup",
            &[
                ("username", "sec"),
                ("password", ADMIN_PASSWORD),
                ("confirm", ADMIN_PASSWORD),
            ],
        )
        .await;
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    let home = c.get("/").await;
    assert_eq!(home.status, StatusCode::OK);
    assert!(home.has("sec") && home.has("Sign out"), "{}", home.body);
    // Once there is an account, nobody can set up another administrator.
    let mut other = c.stranger();
    let again = other.get("/setup").await;
    assert_eq!(again.status, StatusCode::SEE_OTHER);
    assert_eq!(db.user_count().await.unwrap(), 1);
    let roles = db
        .user_roles(db.user_by_username("sec").await.unwrap().id)
        .await
        .unwrap();
    assert_eq!(roles.len(), 1);
    assert_eq!(roles[0].kind, boneyard::db::RoleKind::Administrator);
}

async fn setup_keeps_what_was_typed_and_says_what_is_wrong(db: Db) {
    let mut c = Client::new(&db).await;
    let page = c
        .submit(
            "/setup",
            "/setup",
            &[
                ("username", "a <b>"),
                ("password", "short"),
                ("confirm", "other"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.has("value=\"a &#60;b&#62;\"") || page.has("value=\"a &lt;b&gt;\""),
        "escaped: {}",
        page.body
    );
    assert!(!page.has("<b>"));
    assert!(page.has("Use letters, digits"));
    assert!(page.has("at least 10 characters"));
    assert!(page.has("The two passwords differ."));
    assert!(page.has("aria-invalid=\"true\""));
    assert_eq!(db.user_count().await.unwrap(), 0);
}

async fn sign_in_renews_the_session_and_sign_out_ends_it(db: Db) {
    admin(&db).await;
    let mut c = Client::new(&db).await;
    let form = c.get("/sign-in?next=/").await;
    let before = c.cookie.clone().expect("the sign-in form starts a session");
    let wrong = c
        .post(
            "/sign-in",
            &[
                ("csrf", &form.csrf()),
                ("username", "admin"),
                ("password", "wrong password"),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.has("do not match"));
    let unknown = c
        .post(
            "/sign-in",
            &[
                ("csrf", &wrong.csrf()),
                ("username", "nobody"),
                ("password", "wrong password"),
            ],
        )
        .await;
    assert!(
        unknown.has("do not match"),
        "the same answer for an unknown name"
    );
    let ok = c
        .post(
            "/sign-in",
            &[
                ("csrf", &unknown.csrf()),
                ("username", "ADMIN"),
                ("password", ADMIN_PASSWORD),
                ("next", "//evil.example"),
            ],
        )
        .await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER);
    assert_eq!(ok.location.as_deref(), Some("/"), "never off-site");
    let after = c.cookie.clone().unwrap();
    assert_ne!(before, after, "a new session id at sign-in");
    // The old id signs nobody in.
    let mut thief = c.stranger();
    thief.cookie = Some(before);
    assert!(!thief.get("/").await.has("Sign out"));
    let home = c.get("/").await;
    assert!(home.has("Sign out"));
    let out = c.post("/sign-out", &[("csrf", &home.csrf())]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    // Replaying the signed-in cookie after sign-out: the session is gone on
    // the server.
    let mut replay = c.stranger();
    replay.cookie = Some(after);
    let page = replay.get("/").await;
    assert!(!page.has("Sign out"), "{}", page.body);
}

async fn forms_without_the_token_are_refused(db: Db) {
    admin(&db).await;
    let mut c = Client::new(&db).await;
    c.get("/sign-in").await;
    let none = c
        .post(
            "/sign-in",
            &[("username", "admin"), ("password", ADMIN_PASSWORD)],
        )
        .await;
    assert_eq!(none.status, StatusCode::FORBIDDEN);
    let forged = c
        .post(
            "/sign-in",
            &[
                ("csrf", "0000"),
                ("username", "admin"),
                ("password", ADMIN_PASSWORD),
            ],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert!(forged.has("Form expired"));
    assert!(!c.get("/").await.has("Sign out"));
}

async fn failed_sign_ins_are_throttled(db: Db) {
    admin(&db).await;
    let mut c = Client::new(&db).await;
    let mut page = c.get("/sign-in").await;
    for _ in 0..5 {
        page = c
            .post(
                "/sign-in",
                &[
                    ("csrf", &page.csrf()),
                    ("username", "admin"),
                    ("password", "not the password"),
                ],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let blocked = c
        .post(
            "/sign-in",
            &[
                ("csrf", &page.csrf()),
                ("username", "admin"),
                ("password", ADMIN_PASSWORD),
            ],
        )
        .await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(blocked.has("Too many failed attempts"));
    assert!(!c.get("/").await.has("Sign out"));
}

/// One failed sign-in as `username` on `server`.
async fn fail(server: &mut Client, username: &str) -> StatusCode {
    let page = server.get("/sign-in").await;
    server
        .post(
            "/sign-in",
            &[
                ("csrf", &page.csrf()),
                ("username", username),
                ("password", "not the password"),
            ],
        )
        .await
        .status
}

async fn app_servers_sharing_a_database_share_the_throttle(db: Db) {
    admin(&db).await;
    // Three app servers on one database, as behind a load balancer.
    let mut servers = [
        Client::new(&db).await,
        Client::new(&db).await,
        Client::new(&db).await,
    ];
    let mut failed = 0;
    for i in [0, 1, 0, 1] {
        let status = fail(&mut servers[i], "admin").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        failed += 1;
    }
    // A success on one forgets the account's failures on all.
    let c = &mut servers[2];
    let page = c.get("/sign-in").await;
    let fields = [
        ("csrf", page.csrf()),
        ("username", "ADMIN ".to_owned()),
        ("password", ADMIN_PASSWORD.to_owned()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let signed_in = c.post("/sign-in", &fields).await;
    assert_eq!(
        signed_in.status,
        StatusCode::SEE_OTHER,
        "{}",
        signed_in.body
    );
    // The rest from a browser not signed in, on the same server.
    servers[2] = servers[2].stranger();
    for i in [0, 1, 2, 0, 1] {
        let status = fail(&mut servers[i], "admin").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        failed += 1;
    }
    // The fifth failure since, counted across servers, blocks the account
    // on a server that saw only one of them.
    let mut d = servers[2].stranger();
    assert_eq!(fail(&mut d, "admin").await, StatusCode::TOO_MANY_REQUESTS);
    // An address that has failed 20 times (every request here comes from
    // the same, local, address) is slowed, never shut: other accounts
    // still have their passwords checked.
    while failed < 20 {
        let status = fail(&mut servers[failed % 3], &format!("nobody{failed}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        failed += 1;
    }
    let status = fail(&mut servers[0], "somebody").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

async fn unknown_addresses_get_the_404_page_and_headers(db: Db) {
    admin(&db).await;
    let mut c = Client::new(&db).await;
    let page = c.get("/no/such/page").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.has("<h1>Not found</h1>"));
    for h in [
        "content-security-policy",
        "x-content-type-options",
        "x-frame-options",
        "referrer-policy",
    ] {
        assert!(page.headers.contains_key(h), "{h}");
    }
    // The plain name is revalidated; the content-hashed one is immutable.
    let css = c.get("/static/style.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert_eq!(css.headers["cache-control"], "no-cache");
    let hashed = c.get(boneyard::web::assets::url("style.css")).await;
    assert!(
        hashed.headers["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
}

async fn a_nul_byte_anywhere_is_no_server_error(db: Db) {
    admin(&db).await;
    let mut c = Client::new(&db).await;
    for path in [
        "/leagues/%00",
        "/leagues/a%00b/console",
        "/leagues/x%00/matches/1/card",
    ] {
        let page = c.get(path).await;
        assert!(
            page.status.is_client_error() || page.status.is_redirection(),
            "{path}: {}",
            page.status
        );
    }
    let form = c.get("/sign-in").await;
    let page = c
        .post(
            "/sign-in",
            &[
                ("csrf", &form.csrf()),
                ("username", "ad\0min"),
                ("password", "whatever it is"),
            ],
        )
        .await;
    assert!(page.status.is_client_error(), "{}", page.status);
}

async fn two_first_set_ups_at_once_make_one_administrator(db: Db) {
    // Two browsers open the set-up page of a new installation; both post.
    let mut a = Client::new(&db).await;
    let mut b = a.stranger();
    let (form_a, form_b) = (a.get("/setup").await, b.get("/setup").await);
    let (csrf_a, csrf_b) = (form_a.csrf(), form_b.csrf());
    let fields = |csrf: &str, name: &str| {
        vec![
            ("csrf".to_owned(), csrf.to_owned()),
            ("username".to_owned(), name.to_owned()),
            ("password".to_owned(), ADMIN_PASSWORD.to_owned()),
            ("confirm".to_owned(), ADMIN_PASSWORD.to_owned()),
        ]
    };
    let (fa, fb) = (fields(&csrf_a, "first"), fields(&csrf_b, "second"));
    let refs = |f: &[(String, String)]| -> Vec<(String, String)> { f.to_vec() };
    let (fa, fb) = (refs(&fa), refs(&fb));
    let pa: Vec<(&str, &str)> = fa.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let pb: Vec<(&str, &str)> = fb.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (ra, rb) = tokio::join!(a.post("/setup", &pa), b.post("/setup", &pb));
    assert_eq!(ra.status, StatusCode::SEE_OTHER, "{}", ra.body);
    assert_eq!(rb.status, StatusCode::SEE_OTHER, "{}", rb.body);
    // One account, and it is the administrator; the other browser is not
    // signed in as anyone.
    assert_eq!(db.user_count().await.unwrap(), 1);
    let signed_in: Vec<bool> = [a.get("/").await, b.get("/").await]
        .iter()
        .map(|p| p.has("Sign out"))
        .collect();
    assert_eq!(signed_in.iter().filter(|s| **s).count(), 1, "{signed_in:?}");
    let winner = if signed_in[0] { "first" } else { "second" };
    let roles = db
        .user_roles(db.user_by_username(winner).await.unwrap().id)
        .await
        .unwrap();
    assert_eq!(roles.len(), 1);
    assert_eq!(roles[0].kind, boneyard::db::RoleKind::Administrator);
}
