//! The published JSON Schemas (2020-12) of dominoes results: RULES.md's
//! game record, and a match's result (its boards, games and hands), at
//! `/schema/game-record.json` and `/schema/match-result.json`. The files
//! live in `schema/`; each is served with its `$id` made this site's own
//! address, so a validator that follows the match result's `$ref` to the
//! game record finds it here.

use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::addresses::{GAME_RECORD_SCHEMA, MATCH_RESULT_SCHEMA};
use crate::web::routes::Routes;

/// The schemas as written, `$id` under [`PLACEHOLDER`].
pub const GAME_RECORD: &str = include_str!("../../schema/game-record.json");
pub const MATCH_RESULT: &str = include_str!("../../schema/match-result.json");

/// The base of the files' `$id`s: a reserved name (RFC 2606), replaced by
/// the site's address when served.
const PLACEHOLDER: &str = "https://boneyard.invalid/schema/";

/// JSON Schema's own media type.
const SCHEMA_JSON: &str = "application/schema+json";

pub fn router() -> Routes {
    Routes::new()
        .route(GAME_RECORD_SCHEMA, get(game_record))
        .route(MATCH_RESULT_SCHEMA, get(match_result))
}

async fn game_record(headers: HeaderMap) -> Response {
    serve(&headers, GAME_RECORD)
}

async fn match_result(headers: HeaderMap) -> Response {
    serve(&headers, MATCH_RESULT)
}

fn serve(headers: &HeaderMap, text: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, SCHEMA_JSON),
            // Public: any site's validator may fetch it from a browser.
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        ],
        published(text, &super::pad::absolute(headers, "/schema/")),
    )
        .into_response()
}

/// `text` with its `$id`s (and so its `$ref`s' base) under `here`.
fn published(text: &str, here: &str) -> String {
    text.replace(PLACEHOLDER, here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_json_schema_2020_12_with_its_id_under_the_placeholder() {
        for (text, name) in [
            (GAME_RECORD, "game-record.json"),
            (MATCH_RESULT, "match-result.json"),
        ] {
            let doc: serde_json::Value = serde_json::from_str(text).expect(name);
            assert_eq!(
                doc["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{name}"
            );
            assert_eq!(doc["$id"], format!("{PLACEHOLDER}{name}"), "{name}");
        }
    }

    #[test]
    fn served_here_the_ids_are_this_sites() {
        let served: serde_json::Value = serde_json::from_str(&published(
            MATCH_RESULT,
            "https://league.example.org/schema/",
        ))
        .unwrap();
        assert_eq!(
            served["$id"],
            "https://league.example.org/schema/match-result.json"
        );
        assert!(!published(MATCH_RESULT, "x").contains("boneyard.invalid"));
    }
}
