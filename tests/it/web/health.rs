//! `/healthz` (issue 28): the database answers and its schema is the
//! binary's, asked afresh on every request.

use axum::http::StatusCode;
use boneyard::db::*;

use crate::harness::client::Client;
use crate::support::on_both;

on_both!(healthz_says_the_database_answers_at_this_binarys_schema);

async fn healthz_says_the_database_answers_at_this_binarys_schema(db: Db) {
    let health = db.health().await.unwrap();
    assert!(health.is_current(), "{health:?}");
    assert!(health.known >= 24, "{health:?}");
    let mut c = Client::new(&db).await;
    let page = c.get("/healthz").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(
        page.body,
        format!(
            "ok: the database answers; schema at migration {}\n",
            health.known
        )
    );
    assert_eq!(page.headers["cache-control"], "no-store");
}
