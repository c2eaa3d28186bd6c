//! Reading and sending forms as a person would: accounts signed in on a
//! new browser, the error shown beside a field, what a field holds.

use axum::http::StatusCode;
use boneyard::db::*;

use super::client::{Client, Page};
use super::pages::{previewed, unescape};

pub const PASSWORD: &str = "a long enough password";

/// A new account, signed in on a new browser of `base`'s app.
pub async fn signed_in(db: &Db, base: &Client, username: &str) -> (Client, UserId) {
    let hash = boneyard::web::auth::hash_password(PASSWORD.into())
        .await
        .unwrap();
    let user = db.create_user(username, &hash).await.unwrap();
    let mut c = base.stranger();
    let page = c
        .submit(
            "/sign-in",
            "/sign-in",
            &[("username", username), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    (c, user.id)
}

/// A secretary of `league`, signed in.
pub async fn secretary(db: &Db, base: &Client, league: LeagueId, username: &str) -> Client {
    let (c, id) = signed_in(db, base, username).await;
    db.grant_role(&NewRole::secretary(id, league), None)
        .await
        .unwrap();
    c
}

/// A division's season form at `path` sent with `fields` for a preview,
/// then the draft it showed sent back with `action` ("save"): the preview
/// and the answer.
pub async fn preview_then(
    c: &mut Client,
    path: &str,
    fields: &[(&str, &str)],
    action: &str,
) -> (Page, Page) {
    let mut all = fields.to_vec();
    all.push(("action", "preview"));
    let preview = c.submit(path, path, &all).await;
    let shown = previewed(&preview);
    let token = preview.csrf();
    all.pop();
    all.extend([
        ("action", action),
        ("previewed", shown.as_str()),
        ("csrf", token.as_str()),
    ]);
    let answer = c.post(path, &all).await;
    (preview, answer)
}

/// The error shown beside `field`, checked to be tied to it for screen
/// readers; panics when there is none.
pub fn error_beside(page: &Page, field: &str) -> String {
    let marker = format!("<p class=\"error\" id=\"{field}-error\">");
    let start = page
        .body
        .find(&marker)
        .unwrap_or_else(|| panic!("no error beside `{field}`:\n{}", page.body))
        + marker.len();
    let end = page.body[start..].find("</p>").unwrap() + start;
    let tag = tag_of(page, field);
    assert!(
        tag.contains("aria-invalid=\"true\"")
            && tag.contains(&format!("aria-describedby=\"{field}-error\"")),
        "`{field}` is not marked invalid: {tag}"
    );
    unescape(&page.body[start..end])
}

pub fn no_error_beside(page: &Page, field: &str) {
    assert!(
        !page.has(&format!("id=\"{field}-error\"")),
        "an error beside `{field}`:\n{}",
        page.body
    );
}

/// The opening tag of the field `field` (input, select or textarea).
fn tag_of<'a>(page: &'a Page, field: &str) -> &'a str {
    let marker = format!("id=\"{field}\" name=\"{field}\"");
    let at = page
        .body
        .find(&marker)
        .unwrap_or_else(|| panic!("no field `{field}`:\n{}", page.body));
    let start = page.body[..at].rfind('<').unwrap();
    let end = page.body[at..].find('>').unwrap() + at;
    &page.body[start..=end]
}

/// What the field `field` holds as the page shows it.
pub fn value_of(page: &Page, field: &str) -> String {
    let tag = tag_of(page, field);
    if tag.starts_with("<select") {
        let at = page.body.find(tag).unwrap();
        let end = page.body[at..].find("</select>").unwrap() + at;
        let options = &page.body[at..end];
        return options
            .split("<option value=\"")
            .skip(1)
            .find(|o| o.contains("\" selected>"))
            .map(|o| unescape(o.split('"').next().unwrap()))
            .unwrap_or_default();
    }
    if tag.starts_with("<textarea") {
        let at = page.body.find(tag).unwrap() + tag.len();
        let end = page.body[at..].find("</textarea>").unwrap() + at;
        return unescape(&page.body[at..end]);
    }
    let marker = "value=\"";
    let start = tag.find(marker).expect("a value") + marker.len();
    unescape(tag[start..].split('"').next().unwrap())
}
