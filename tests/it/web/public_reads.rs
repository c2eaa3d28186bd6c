//! No public handler reads the database itself (issue 41): a public page's
//! data is one use case in `app::read`, which the page and the API share.
//! The handlers in `src/web/public/` may hand `state.db()` to an `app::`
//! call (or to the web's rate limit, `throttle::`) and import types (ids,
//! records) from `crate::db`; anything else that reaches the database
//! there is named here by file and line.

use std::path::Path;

/// Functions of `crate::db` that read nothing: the clock.
const NOT_READS: &[&str] = &["now"];

/// The file's text with comments, strings and characters blanked out
/// (newlines kept, so offsets still give lines).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('#') || next == Some('"'))
            && !word(b.get(i.wrapping_sub(1)))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let rest: String = b[j + 1..].iter().collect();
            let end = rest
                .find(&close)
                .map_or(b.len(), |e| j + 1 + rest[..e].chars().count() + close.len());
            for &ch in &b[i..end.min(b.len())] {
                out.push(blank(ch));
            }
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || b.get(i + 2) == Some(&'\'')) {
            // A character ('x', '\n'), not a lifetime ('a).
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '\'' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn word(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// The path called by the innermost call whose parentheses hold `at`
/// (`read::cup::cup` in `read::cup::cup(state.db(), ..)`).
fn enclosing_call(code: &[char], at: usize) -> Option<String> {
    let mut depth = 0;
    let mut i = at;
    while i > 0 {
        i -= 1;
        match code[i] {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth > 0 => depth -= 1,
            '(' => {
                let mut s = i;
                while s > 0
                    && (word(Some(&code[s - 1])) || code[s - 1] == ':' || code[s - 1] == '.')
                {
                    s -= 1;
                }
                return Some(code[s..i].iter().collect());
            }
            '[' | '{' | ';' => return None,
            _ => {}
        }
    }
    None
}

fn skip_space(code: &[char], mut i: usize) -> usize {
    while i < code.len() && code[i].is_whitespace() {
        i += 1;
    }
    i
}

fn ident_at(code: &[char], i: usize) -> String {
    code[i..]
        .iter()
        .take_while(|c| c.is_alphanumeric() || **c == '_')
        .collect()
}

/// Every place in `text` that reaches the database, as (offset, what).
fn reads(text: &str) -> Vec<(usize, String)> {
    let code: Vec<char> = code_only(text).chars().collect();
    let s: String = code.iter().collect();
    let at = |needle: &str| -> Vec<usize> {
        // Offsets in chars (the code is ASCII where it matters).
        s.match_indices(needle)
            .map(|(b, _)| s[..b].chars().count())
            .collect()
    };
    let mut found = Vec::new();

    // `x.db()`: only as an argument of an `app::` call.
    for i in at(".db()") {
        let after = skip_space(&code, i + 5);
        if code.get(after) == Some(&'.') {
            let method = ident_at(&code, skip_space(&code, after + 1));
            found.push((i, format!("calls the Db's `{method}`")));
            continue;
        }
        match enclosing_call(&code, i) {
            Some(call)
                if call.starts_with("app::")
                    || call.starts_with("crate::app::")
                    || call.starts_with("read::")
                    // The web's own rate limit on what a stranger can
                    // cause (a mail), not page data.
                    || call.starts_with("throttle::") => {}
            Some(call) => found.push((
                i,
                format!("hands the Db to `{call}`, not an app:: use case"),
            )),
            None => found.push((i, "keeps the Db itself".to_owned())),
        }
    }

    // `db.method(..)`: a Db held under its usual name.
    for i in at("db") {
        if word(i.checked_sub(1).map(|p| &code[p])) || word(code.get(i + 2)) {
            continue;
        }
        if i > 0 && code[i - 1] == '.' {
            continue; // `.db()`, above
        }
        let dot = skip_space(&code, i + 2);
        if code.get(dot) != Some(&'.') {
            continue;
        }
        let m = skip_space(&code, dot + 1);
        let method = ident_at(&code, m);
        if !method.is_empty() && code.get(skip_space(&code, m + method.len())) == Some(&'(') {
            found.push((i, format!("calls the Db's `{method}`")));
        }
    }

    // The Db type itself: a helper that takes it reads for the page.
    for i in at("Db") {
        if !word(i.checked_sub(1).map(|p| &code[p])) && !word(code.get(i + 2)) {
            found.push((i, "names the Db type".to_owned()));
        }
    }

    // `crate::db::..::f(..)` in code, and functions imported from
    // `crate::db` (types and constants are CamelCase or UPPER).
    for i in at("crate::db::") {
        let line_start = s[..s.char_indices().nth(i).map_or(s.len(), |(b, _)| b)]
            .rfind('\n')
            .map_or(0, |b| b + 1);
        let in_use = s[line_start..].trim_start().starts_with("use ");
        let mut j = i + "crate::db::".len();
        if in_use {
            // The leaves of this `use` up to its `;`.
            let end = code[j..]
                .iter()
                .position(|c| *c == ';')
                .map_or(code.len(), |e| j + e);
            let tree: String = code[j..end].iter().collect();
            for leaf in tree.split(|c: char| "{},".contains(c) || c.is_whitespace()) {
                let name = leaf.rsplit("::").next().unwrap_or("");
                if leaf.contains("::") && leaf.ends_with("::") {
                    continue;
                }
                if name.starts_with(|c: char| c.is_ascii_lowercase())
                    && name != "self"
                    && !NOT_READS.contains(&name)
                {
                    found.push((i, format!("imports `{name}` from crate::db")));
                }
            }
            continue;
        }
        let last = loop {
            let name = ident_at(&code, j);
            j += name.len();
            if code.get(j) == Some(&':') && code.get(j + 1) == Some(&':') {
                j += 2;
            } else {
                break name;
            }
        };
        if last.starts_with(|c: char| c.is_ascii_lowercase())
            && !NOT_READS.contains(&last.as_str())
            && code.get(skip_space(&code, j)) == Some(&'(')
        {
            found.push((i, format!("calls crate::db's `{last}`")));
        }
    }
    found.sort();
    found
}

fn line_of(text: &str, offset: usize) -> usize {
    text.chars().take(offset).filter(|c| *c == '\n').count() + 1
}

#[test]
fn no_public_handler_reads_the_database_itself() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/public");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("src/web/public")
        .map(|e| e.expect("a file").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() > 5, "the public handlers are where they were");
    let mut wrong = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        for (at, what) in reads(&text) {
            wrong.push(format!(
                "src/web/public/{}:{}: {what}",
                path.file_name().unwrap_or_default().to_string_lossy(),
                line_of(&text, at)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "public handlers read the database themselves (move the read to app::read):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scan_finds_each_kind_of_read_and_passes_a_use_case() {
    let fine = r#"
use crate::db::{League, TeamId, now};
use crate::db::generation::Follows;
// state.db().seasons(x) in a comment
async fn page(state: AppState) {
    let view = read::cup::cup(state.db(), &league, CupId(1)).await?;
    let other = crate::app::read::division::table(
        state.db(),
        &season,
    ).await?;
    let s = "db.seasons(1) in words";
    let t = crate::db::now();
    let e = crate::db::DbError::NotFound(what);
}
"#;
    assert_eq!(reads(fine), Vec::new());
    let wrong = r#"
use crate::db::pages::{FixtureScope, seats_by_game};
async fn page(state: AppState) {
    let db = state.db();
    let seasons = db.seasons(league.id).await?;
    let more = state.db().divisions(league.id, season.id).await?;
    let answer = next.with_answer(state.db(), &league).await?;
    let lines = crate::db::pages::fixture_lines(db, 1).await?;
}
fn helper(db: &Db) {}
"#;
    let kinds: Vec<String> = reads(wrong).into_iter().map(|(_, w)| w).collect();
    assert_eq!(
        kinds,
        [
            "imports `seats_by_game` from crate::db",
            "keeps the Db itself",
            "calls the Db's `seasons`",
            "calls the Db's `divisions`",
            "hands the Db to `next.with_answer`, not an app:: use case",
            "calls crate::db's `fixture_lines`",
            "names the Db type",
        ]
    );
}
