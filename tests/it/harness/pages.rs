//! Reading pages as a test does: a page that must show, where a form sent
//! the browser, a form refused, a table's cells, text as askama escapes it
//! and names as addresses make them.

use axum::http::StatusCode;

use super::client::{Client, Page};

/// Gets `path`, which must show (200).
pub async fn ok(c: &mut Client, path: &str) -> Page {
    let page = c.get(path).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
    page
}

/// The form went through: the browser is sent to `to`.
pub fn redirected(page: &Page, to: &str) {
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(page.location.as_deref(), Some(to));
}

/// The form was refused, shown again with what is wrong (422).
pub fn refused(page: &Page) {
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
}

/// The fingerprint of the draft season a schedule page shows (its
/// `previewed` field), which a save must send back.
pub fn previewed(page: &Page) -> String {
    let marker = "name=\"previewed\" value=\"";
    let start = page.body.find(marker).expect("a previewed field") + marker.len();
    page.body[start..].split('"').next().unwrap().to_owned()
}

/// The address form of a name, as the pages make it (written again here).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// The text unescaped as askama escapes it.
pub fn unescape(s: &str) -> String {
    s.replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&#60;", "<")
        .replace("&lt;", "<")
        .replace("&#62;", ">")
        .replace("&gt;", ">")
        .replace("&#38;", "&")
        .replace("&amp;", "&")
}

/// The text of each cell of each body row of the first table whose opening
/// tag starts with `table_start`.
pub fn rows(page: &Page, table_start: &str) -> Vec<Vec<String>> {
    let body = &page.body;
    let start = body
        .find(table_start)
        .unwrap_or_else(|| panic!("no `{table_start}` in {body}"));
    let end = start + body[start..].find("</table>").unwrap();
    let table = &body[start..end];
    let tbody = &table[table.find("<tbody>").unwrap()..];
    let tbody = &tbody[..tbody.find("</tbody>").unwrap()];
    tbody
        .split("<tr")
        .skip(1)
        .map(|row| {
            let marked = row.replace("</td>", "\u{1}").replace("</th>", "\u{1}");
            let mut text = String::new();
            let mut in_tag = true;
            for ch in marked.chars() {
                match ch {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            let mut cells: Vec<String> = text
                .split('\u{1}')
                .map(|s| unescape(&s.split_whitespace().collect::<Vec<_>>().join(" ")))
                .collect();
            cells.pop();
            cells
        })
        .collect()
}
