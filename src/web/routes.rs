//! Every address of the app in one table, in the manner of crates.io's one
//! route list: each route group adds its routes here, a league's routes
//! are written relative to the league's own address (`/leagues/{league}`
//! is written once, in [`Routes::league`]), and what other code needs to
//! know about addresses (the first segments a league's pages take, every
//! path for the role test) is read off the table, never kept by hand.

use std::sync::OnceLock;

use axum::Router;
use axum::routing::MethodRouter;

use super::AppState;

/// Where a league's pages live.
pub const LEAGUE: &str = "/leagues/{league}";

/// Routes as they are added: kept as (path, handlers) until the app is
/// built, so the table can be read.
#[derive(Default)]
pub struct Routes {
    routes: Vec<(String, MethodRouter<AppState>)>,
    /// The paths whose pages are the same for everyone, which the page
    /// cache may keep (see [`Routes::kept`]).
    kept: Vec<String>,
    /// The kept paths whose pages are the same for everyone signed in too,
    /// but for the parts marked their own (see [`Routes::shared`]).
    shared: Vec<String>,
}

impl Routes {
    pub fn new() -> Routes {
        Routes::default()
    }

    /// A route at `path` from the site's root.
    pub fn route(mut self, path: &str, handlers: MethodRouter<AppState>) -> Routes {
        self.routes.push((path.to_owned(), handlers));
        self
    }

    /// A route of a league's: `rest` after the league's address (`""` for
    /// the league's home).
    pub fn league(self, rest: &str, handlers: MethodRouter<AppState>) -> Routes {
        self.route(&format!("{LEAGUE}{rest}"), handlers)
    }

    pub fn merge(mut self, other: Routes) -> Routes {
        self.routes.extend(other.routes);
        self.kept.extend(other.kept);
        self.shared.extend(other.shared);
        self
    }

    /// Says that this group's pages are the same for every visitor
    /// without a session, so the page cache may keep them. The cache keeps
    /// nothing it was not told of this way; and never a page whose address
    /// carries a token (`{token}`), which is one person's secret.
    pub fn kept(mut self) -> Routes {
        let kept = self.without_tokens();
        self.kept.extend(kept);
        self
    }

    /// Says that this group's pages show a signed-in user what they show a
    /// visitor, but for their own parts, which the templates mark
    /// (`web::personal`): the page cache answers them from the visitor's
    /// kept page with those parts filled in. Kept too.
    pub fn shared(mut self) -> Routes {
        self = self.kept();
        let shared = self.without_tokens();
        self.shared.extend(shared);
        self
    }

    /// This group's paths but those carrying a token (`{token}`): never
    /// kept nor shared.
    fn without_tokens(&self) -> Vec<String> {
        self.routes
            .iter()
            .map(|(p, _)| p.clone())
            .filter(|p| !p.contains("{token}"))
            .collect()
    }

    /// Every path in the table, in the order added.
    pub fn paths(&self) -> Vec<String> {
        self.routes.iter().map(|(p, _)| p.clone()).collect()
    }

    pub fn into_router(self) -> Router<AppState> {
        let kept = self.kept;
        self.routes
            .into_iter()
            .fold(Router::new(), |r, (path, handlers)| {
                if kept.contains(&path) {
                    r.route(
                        &path,
                        handlers.layer(axum::middleware::map_response(super::cache::mark_public)),
                    )
                } else {
                    r.route(&path, handlers)
                }
            })
    }
}

/// The whole table: every route group's routes.
pub fn table() -> Routes {
    use super::*;
    // Only the groups marked `kept()` may be kept by the page cache: the
    // account's, the invitations', the administrator's and the consoles'
    // pages never are, whatever headers they answer with.
    Routes::new()
        .merge(home::router().kept())
        .merge(account::router())
        .merge(email::router())
        .merge(invitations::router())
        .merge(public::router().shared())
        .merge(results::router().kept())
        .merge(pad::router().kept())
        .merge(penalties::router().kept())
        .merge(players_table::router().shared())
        .merge(admin::router())
        .merge(console::router())
        .merge(schedule::router().kept())
        .merge(embed::router().shared())
        .merge(schema::router().shared())
        .merge(team_sheet::router())
        .merge(api::router().shared())
}

/// Every path of the app (`{name}` for each parameter), read off the table.
pub fn paths() -> &'static [String] {
    static PATHS: OnceLock<Vec<String>> = OnceLock::new();
    PATHS.get_or_init(|| table().paths())
}

/// Whether the page at `path` (no query) is one of the [`Routes::shared`]
/// pages, matched as the router matches it (a fixed segment before a
/// `{name}`).
pub fn is_shared(path: &str) -> bool {
    static SHARED: OnceLock<matchit::Router<bool>> = OnceLock::new();
    let router = SHARED.get_or_init(|| {
        let table = table();
        let mut router = matchit::Router::new();
        for path in table.paths() {
            // The same path twice (a GET and a POST group) is one route.
            let _ = router.insert(path.clone(), table.shared.contains(&path));
        }
        router
    });
    router.at(path).is_ok_and(|m| *m.value)
}

/// The route of the table that `path` (no query or fragment) would take,
/// if any: each `{name}` of a route stands for any one segment.
pub fn route_of(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.split('/').collect();
    paths()
        .iter()
        .find(|route| {
            let pattern: Vec<&str> = route.split('/').collect();
            pattern.len() == segments.len()
                && pattern.iter().zip(&segments).all(|(p, s)| {
                    if p.starts_with('{') {
                        !s.is_empty()
                    } else {
                        p == s
                    }
                })
        })
        .map(String::as_str)
}

/// The first segments after a league's address that its pages take (`live`,
/// `console`, ...): a season named one of them would have no page of its
/// own. Read off the table.
pub fn taken_segments() -> &'static [String] {
    static TAKEN: OnceLock<Vec<String>> = OnceLock::new();
    TAKEN.get_or_init(|| first_segments_after(&format!("{LEAGUE}/")))
}

/// The segments after a season's address that its own pages take
/// (`honours`, ...): a division named one of them would have no table of
/// its own. Read off the table, like [`taken_segments`].
pub fn taken_division_segments() -> &'static [String] {
    static TAKEN: OnceLock<Vec<String>> = OnceLock::new();
    TAKEN.get_or_init(|| first_segments_after(&format!("{LEAGUE}/{{season}}/")))
}

/// The fixed first segments of the table's paths after `prefix`, sorted.
fn first_segments_after(prefix: &str) -> Vec<String> {
    let mut taken: Vec<String> = paths()
        .iter()
        .filter_map(|p| p.strip_prefix(prefix))
        .filter_map(|rest| rest.split('/').next())
        .filter(|first| !first.starts_with('{') && !first.is_empty())
        .map(str::to_owned)
        .collect();
    taken.sort();
    taken.dedup();
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_taken_segments_are_the_league_pages_first_segments() {
        let taken = taken_segments();
        for page in [
            "calendar",
            "console",
            "cups",
            "fines",
            "fixtures",
            "live",
            "matches",
            "penalties",
            "players",
            "players-table",
            "print",
            "round-up",
            "schedule",
            "screen",
            "seasons",
            "teams",
        ] {
            assert!(taken.iter().any(|t| t == page), "{page} in {taken:?}");
        }
        // A season's or a division's address is a parameter, never taken.
        assert!(!taken.iter().any(|t| t.starts_with('{')));
        assert!(paths().iter().any(|p| p == "/leagues/{league}/{season}"));
    }

    #[test]
    fn a_seasons_own_pages_take_segments_no_division_may_have() {
        let taken = taken_division_segments();
        assert!(taken.iter().any(|t| t == "honours"), "{taken:?}");
        assert!(!taken.iter().any(|t| t.starts_with('{')));
    }

    #[test]
    fn an_address_takes_the_route_whose_fixed_segments_it_has() {
        assert_eq!(
            route_of("/leagues/wessex/console/seasons/3/divisions"),
            Some("/leagues/{league}/console/seasons/{season}/divisions")
        );
        assert_eq!(route_of("/leagues/wessex"), Some("/leagues/{league}"));
        assert_eq!(route_of("/leagues/wessex/console/seasons/3/nowhere"), None);
        assert_eq!(route_of("/leagues//console"), None);
    }

    #[test]
    fn only_the_sites_own_pages_sit_at_its_root() {
        let mut roots: Vec<&str> = paths()
            .iter()
            .map(|p| p.trim_start_matches('/').split('/').next().unwrap_or(""))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        assert_eq!(
            roots,
            [
                "",
                "account",
                "admin",
                "api",
                "healthz",
                "invitations",
                "leagues",
                "pad-sw.js",
                "password",
                "ratings",
                "schema",
                "setup",
                "sign-in",
                "sign-out"
            ]
        );
    }
}
