//! A signed-in user's page of a shared route (`Routes::shared`) is the
//! visitor's page, rendered once for everyone and kept (`web::cache`), with
//! the user's own parts filled in. The templates mark each such part
//! `<!--me:NAME ARGS-->...<!--/me:NAME-->`: on the visitor's page it holds
//! what a visitor sees (nothing, or "Sign in"); ARGS are what filling it in
//! needs that the page shows anyway. Everything a page shows of its data is
//! escaped, so a marker can only come from a template; and the shared part
//! is rendered without the user, so it cannot show one user's data to
//! another. What fills a slot reads only what that part needs, and uses the
//! same template the page includes there, so the page is the one the whole
//! app would render for the user.

use std::ops::Range;

use askama::Template;

use crate::db::{DivisionId, FixtureId, PlayerId, SeasonId};

use super::AppState;
use super::auth::CurrentUser;
use super::cache::league_of;
use super::error::{AppError, Result};
use super::page::Ctx;
use super::public::match_actions::{ActionsSlot, actions};
use super::public::team::answering_player;
use super::views::next_match::{AnswerBox, answer_box};

const OPEN: &str = "<!--me:";
const CLOSE: &str = "-->";

/// One marked part of a page.
#[derive(Debug, PartialEq, Eq)]
pub struct Slot<'a> {
    pub name: &'a str,
    args: &'a str,
    /// Where its content is in the page.
    content: Range<usize>,
}

impl Slot<'_> {
    /// The value of the argument `key` (`key=value`, values without
    /// spaces), unescaped as the page escaped it.
    fn arg(&self, key: &str) -> Option<String> {
        self.args
            .split(' ')
            .filter_map(|pair| pair.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| unescape(v))
    }
}

/// The marked parts of `page`, in order. A marker left open ends the list:
/// the page is then the visitor's beyond it.
pub fn slots(page: &str) -> Vec<Slot<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = page[from..].find(OPEN).map(|i| from + i) {
        let Some(head_end) = page[at..].find(CLOSE).map(|i| at + i) else {
            break;
        };
        let head = &page[at + OPEN.len()..head_end];
        let (name, args) = head.split_once(' ').unwrap_or((head, ""));
        let start = head_end + CLOSE.len();
        let end_marker = format!("<!--/me:{name}-->");
        let Some(end) = page[start..].find(&end_marker).map(|i| start + i) else {
            break;
        };
        out.push(Slot {
            name,
            args,
            content: start..end,
        });
        from = end + end_marker.len();
    }
    out
}

/// `page` with each slot's content replaced by its fill (None: as it is).
pub fn splice(page: &str, slots: &[Slot<'_>], fills: &[Option<String>]) -> String {
    let mut out = String::with_capacity(page.len() + 1024);
    let mut at = 0;
    for (slot, fill) in slots.iter().zip(fills) {
        if let Some(fill) = fill {
            out.push_str(&page[at..slot.content.start]);
            out.push_str(fill);
            at = slot.content.end;
        }
    }
    out.push_str(&page[at..]);
    out
}

/// What `slot` of the page at `path` holds for `user` (None: what the
/// visitor's page holds).
pub async fn fill(
    state: &AppState,
    user: &CurrentUser,
    path: &str,
    slot: &Slot<'_>,
) -> Result<Option<String>> {
    match slot.name {
        "who" => render(&Who { ctx: user.ctx() }).map(Some),
        "secretary" => {
            let Some(short) = league_of(path) else {
                return Ok(None);
            };
            if !user.consoles.iter().any(|c| c.short_name == short) {
                return Ok(None);
            }
            // The links' addresses are made here, not carried on the
            // visitor's page: a visitor's page names no secretary's page.
            let id = |key: &str| slot.arg(key).and_then(|v| v.parse::<i64>().ok());
            let at = super::links::at_short(short);
            let sec = match (slot.arg("what").as_deref(), id("season"), id("division")) {
                (Some("playoff"), Some(season), _) => {
                    ("playoff", at.console().season(SeasonId(season)).end())
                }
                (Some("schedule"), _, Some(division)) => {
                    ("schedule", at.schedule(DivisionId(division)).to_string())
                }
                _ => return Ok(None),
            };
            render(&SecretaryLink { sec }).map(Some)
        }
        "actions" => match_actions(state, user, path).await,
        "answer" => answer(state, user, path, slot).await,
        // A slot this code does not know: the visitor's part is the safe one.
        _ => Ok(None),
    }
}

/// The header's account part (`templates/who.html`).
#[derive(Template)]
#[template(path = "who.html")]
struct Who {
    ctx: Ctx,
}

/// A link only the league's secretaries see.
#[derive(Template)]
#[template(path = "public/secretary_link.html")]
struct SecretaryLink {
    sec: (&'static str, String),
}

/// The answer box of a team's next match.
#[derive(Template)]
#[template(path = "public/answer_box.html")]
struct AnswerPart {
    a: AnswerBox,
    ctx: Ctx,
}

fn render<T: Template>(part: &T) -> Result<String> {
    part.render()
        .map_err(|e| AppError::Internal(format!("a page's own part: {e}")))
}

/// A match page's actions (`/leagues/L/matches/F`): read only for a
/// secretary of the league or a captain in it.
async fn match_actions(state: &AppState, user: &CurrentUser, path: &str) -> Result<Option<String>> {
    let parts: Vec<&str> = path.split('/').collect();
    let ["", "leagues", short, "matches", id] = parts.as_slice() else {
        return Ok(None);
    };
    let Ok(id) = id.parse::<i64>() else {
        return Ok(None);
    };
    use crate::db::RoleKind::{Captain, Secretary};
    let may_act = user.consoles.iter().any(|c| c.short_name == *short)
        || user
            .roles
            .iter()
            .any(|r| r.kind == Captain || r.kind == Secretary);
    if !may_act {
        return Ok(None);
    }
    let db = state.db();
    let league = super::auth::league_named(db, short).await?;
    let fixture = db.fixture(league.id, FixtureId(id)).await?;
    let season = db.season(league.id, fixture.season_id).await?;
    let result = db
        .result(league.id, fixture.id)
        .await?
        .map(|s| s.version.status);
    let at = super::links::at(&league).match_page(fixture.id);
    let actions = actions(state, Some(user), &league, &season, fixture.id, result, &at).await?;
    render(&ActionsSlot { actions }).map(Some)
}

/// A team page's answer box (`/leagues/L/teams/T`): for a registered
/// player of the squad the slot names.
async fn answer(
    state: &AppState,
    user: &CurrentUser,
    path: &str,
    slot: &Slot<'_>,
) -> Result<Option<String>> {
    let (Some(fixture), Some(back), Some(players)) =
        (slot.arg("fixture"), slot.arg("back"), slot.arg("players"))
    else {
        return Ok(None);
    };
    let Ok(fixture) = fixture.parse::<i64>() else {
        return Ok(None);
    };
    let squad: Vec<i64> = players.split(',').filter_map(|p| p.parse().ok()).collect();
    let Some(short) = league_of(path) else {
        return Ok(None);
    };
    // No query for a user who plays nowhere.
    if !user
        .roles
        .iter()
        .any(|r| r.player_id.is_some_and(|p| squad.contains(&p.0)))
    {
        return Ok(None);
    }
    let league = super::auth::league_named(state.db(), short).await?;
    let Some(player): Option<PlayerId> = answering_player(user, &league, &squad) else {
        return Ok(None);
    };
    let a = answer_box(state.db(), &league, FixtureId(fixture), player, &back).await?;
    render(&AnswerPart { a, ctx: user.ctx() }).map(Some)
}

/// `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;` back to what they stand for.
fn unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_spliced_only_where_it_is_marked() {
        let page = "<p>a</p><!--me:who--><a>Sign in</a><!--/me:who--><p>b</p>\
                    <!--me:answer fixture=3 back=/x&amp;y--><!--/me:answer--><p>c</p>";
        let slots = slots(page);
        assert_eq!(slots.len(), 2);
        assert_eq!(slots[0].name, "who");
        assert_eq!(&page[slots[0].content.clone()], "<a>Sign in</a>");
        assert_eq!(slots[1].arg("fixture").as_deref(), Some("3"));
        assert_eq!(slots[1].arg("back").as_deref(), Some("/x&y"));
        assert_eq!(slots[1].arg("none"), None);
        let spliced = splice(page, &slots, &[Some("<a>Ann</a>".into()), None]);
        assert_eq!(
            spliced,
            "<p>a</p><!--me:who--><a>Ann</a><!--/me:who--><p>b</p>\
             <!--me:answer fixture=3 back=/x&amp;y--><!--/me:answer--><p>c</p>"
        );
        let both = splice(page, &slots, &[None, Some("<form></form>".into())]);
        assert!(
            both.contains("<!--me:answer fixture=3 back=/x&amp;y--><form></form><!--/me:answer-->")
        );
        assert!(both.contains("<a>Sign in</a>"));
    }

    #[test]
    fn an_unclosed_marker_leaves_the_rest_as_it_is() {
        let page = "<!--me:who-->x<!--/me:who--><!--me:actions-->y";
        let slots = slots(page);
        assert_eq!(slots.len(), 1);
        assert_eq!(
            splice(page, &slots, &[Some("z".into())]),
            "<!--me:who-->z<!--/me:who--><!--me:actions-->y"
        );
        assert!(super::slots("no markers <!-- a comment -->").is_empty());
    }

    #[test]
    fn escaped_data_cannot_open_a_slot() {
        // What a team called "<!--me:who-->" shows on a page.
        let page = "<h1>&lt;!--me:who--&gt;</h1>";
        assert!(slots(page).is_empty());
    }
}
