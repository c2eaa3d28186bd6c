//! The app's addresses, built one way for pages, redirects and emails
//! alike, and checked against the route table (`web::routes`) by a test:
//! a league's pages by typed builders (`at(league).console().season(id)`),
//! and the pages made to be read and shared by name, a season or division
//! made URL-safe (`/leagues/paphos/2026-27/division-1`), a team or player
//! by its id and name (`/leagues/paphos/teams/12-the-crown-a`). Templates
//! call them through `web::links`.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use crate::db::{
    CupId, DivisionId, FineId, FixtureId, League, PenaltyId, PlayerId, RoleId, SeasonId, Side,
    TeamId,
};

mod console;

pub use console::Console;

/// `text` made safe for a path or query: all but letters, digits and
/// `-_.~/` percent-encoded.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// An address of kind `K` that has addresses under it, built only here so
/// it always names a route of the table; it shows as itself.
pub struct Address<K> {
    path: String,
    kind: PhantomData<K>,
}

impl<K> Address<K> {
    fn new(path: String) -> Address<K> {
        Address {
            path,
            kind: PhantomData,
        }
    }

    /// The address `rest` below this one.
    fn under(&self, rest: impl fmt::Display) -> String {
        format!("{}/{rest}", self.path)
    }
}

impl<K> fmt::Display for Address<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)
    }
}

/// A league's home page; every address of the league is built from it.
pub enum LeagueHome {}

/// The addresses of `league`: `at(league).console().teams()`.
pub fn at(league: &League) -> Address<LeagueHome> {
    at_short(&league.short_name)
}

/// [`at`] from the league's short name alone.
pub fn at_short(short_name: &str) -> Address<LeagueHome> {
    Address::new(format!("/leagues/{}", urlencode(short_name)))
}

impl Address<LeagueHome> {
    pub fn console(&self) -> Address<Console> {
        Address::new(self.under("console"))
    }
    pub fn live(&self) -> String {
        self.under("live")
    }
    /// The live page's and the league screen's stream of taps (server-sent
    /// events).
    pub fn live_events(&self) -> String {
        self.under("live/events")
    }
    /// The big screen for the pub's wall.
    pub fn screen(&self) -> String {
        self.under("screen")
    }
    pub fn round_up(&self) -> String {
        self.under("round-up")
    }
    /// Where one subscribes to the round-up by email.
    pub fn round_up_subscribe(&self) -> String {
        self.under("round-up/subscribe")
    }
    /// Where a subscription is confirmed, by the link's token.
    pub fn round_up_confirm(&self, token: &str) -> String {
        self.under(format_args!("round-up/confirm/{}", urlencode(token)))
    }
    pub fn round_up_unsubscribe(&self, token: &str) -> String {
        self.under(format_args!("round-up/unsubscribe/{}", urlencode(token)))
    }
    pub fn ratings(&self) -> String {
        self.under("ratings")
    }
    /// The league's ratings list of one format (`fives-and-threes`, ...).
    pub fn ratings_of(&self, format: &str) -> String {
        self.under(format_args!("ratings/{format}"))
    }
    pub fn penalties(&self) -> String {
        self.under("penalties")
    }
    pub fn void_penalty(&self, id: impl Borrow<PenaltyId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("penalties/{id}/void"))
    }
    pub fn fines(&self) -> String {
        self.under("fines")
    }
    pub fn fine_paid(&self, id: impl Borrow<FineId>) -> String {
        let id = *id.borrow();
        self.under(format_args!("fines/{id}/paid"))
    }
    /// A division's fixtures as the secretary plans them.
    pub fn schedule(&self, division: impl Borrow<DivisionId>) -> Address<Schedule> {
        let division = *division.borrow();
        Address::new(self.under(format_args!("schedule/{division}")))
    }
    pub fn match_page(&self, fixture: impl Borrow<FixtureId>) -> Address<MatchAt> {
        let fixture = *fixture.borrow();
        Address::new(self.under(format_args!("matches/{fixture}")))
    }
    pub fn postpone(&self, fixture: impl Borrow<FixtureId>) -> String {
        let fixture = *fixture.borrow();
        self.under(format_args!("fixtures/{fixture}/postpone"))
    }
    /// A team's card of fixtures, to print.
    pub fn print_team(&self, team: impl Borrow<TeamId>) -> String {
        let team = *team.borrow();
        self.under(format_args!("print/team/{team}"))
    }
    /// A fixture's score sheet, to print.
    pub fn print_fixture(&self, fixture: impl Borrow<FixtureId>) -> String {
        let fixture = *fixture.borrow();
        self.under(format_args!("print/fixture/{fixture}"))
    }
    pub fn players_table(&self, season: impl Borrow<SeasonId>) -> String {
        let season = *season.borrow();
        self.under(format_args!("players-table/{season}"))
    }
    pub fn results_csv(&self, season: impl Borrow<SeasonId>) -> String {
        let season = *season.borrow();
        self.under(format_args!("seasons/{season}/results.csv"))
    }
    pub fn team_calendar(&self, team: impl Borrow<TeamId>) -> String {
        let team = *team.borrow();
        self.under(format_args!("calendar/team/{team}.ics"))
    }
    pub fn player_calendar(&self, player: impl Borrow<PlayerId>) -> String {
        let player = *player.borrow();
        self.under(format_args!("calendar/player/{player}.ics"))
    }
    pub fn division_calendar(&self, division: impl Borrow<DivisionId>) -> String {
        let division = *division.borrow();
        self.under(format_args!("calendar/division/{division}.ics"))
    }
    /// The league's widgets for other websites, made to sit in an iframe.
    pub fn embed(&self) -> Address<Embed> {
        Address::new(self.under("embed"))
    }
    /// A season's results, every match with its boards, games and hands,
    /// as JSON (the published match-result schema for each).
    pub fn results_json(&self, season: impl Borrow<SeasonId>) -> String {
        let season = *season.borrow();
        self.under(format_args!("seasons/{season}/results.json"))
    }
    /// The administrator's page of the league's secretaries.
    pub fn secretaries(&self) -> String {
        format!("/admin{}/secretaries", self.path)
    }
    pub fn remove_secretary(&self, role: impl Borrow<RoleId>) -> String {
        let role = *role.borrow();
        format!("/admin{}/secretaries/{role}/remove", self.path)
    }
}

/// The league's widgets for other websites (`web::embed`): the only
/// addresses another site may put in a frame.
pub enum Embed {}

impl Address<Embed> {
    /// A division's table.
    pub fn table(&self, division: impl Borrow<DivisionId>) -> String {
        let division = *division.borrow();
        self.under(format_args!("divisions/{division}/table"))
    }
    /// A division's latest results and next fixtures.
    pub fn fixtures(&self, division: impl Borrow<DivisionId>) -> String {
        let division = *division.borrow();
        self.under(format_args!("divisions/{division}/fixtures"))
    }
    /// A team's next match and form.
    pub fn team(&self, team: impl Borrow<TeamId>) -> String {
        let team = *team.borrow();
        self.under(format_args!("teams/{team}"))
    }
    /// The boards in play.
    pub fn live(&self) -> String {
        self.under("live")
    }
}

/// The published JSON Schemas (`web::schema`), at the site's root.
pub const GAME_RECORD_SCHEMA: &str = "/schema/game-record.json";
pub const MATCH_RESULT_SCHEMA: &str = "/schema/match-result.json";

/// A division's schedule.
pub enum Schedule {}

impl Address<Schedule> {
    pub fn discard(&self) -> String {
        self.under("discard")
    }
}

/// A match's page and what is done to its result.
pub enum MatchAt {}

impl Address<MatchAt> {
    pub fn history(&self) -> String {
        self.under("history")
    }
    pub fn approve(&self) -> String {
        self.under("approve")
    }
    pub fn card(&self) -> String {
        self.under("card")
    }
    /// The match's games as game records, to download.
    pub fn games_json(&self) -> String {
        self.under("games.json")
    }
    /// Where a file of game records is loaded into the card.
    pub fn import(&self) -> String {
        self.under("import")
    }
    pub fn confirm(&self) -> String {
        self.under("confirm")
    }
    pub fn dispute(&self) -> String {
        self.under("dispute")
    }
    pub fn void(&self) -> String {
        self.under("void")
    }
    pub fn reinstate(&self) -> String {
        self.under("reinstate")
    }
    pub fn restore(&self) -> String {
        self.under("restore")
    }
    pub fn walkover(&self) -> String {
        self.under("walkover")
    }
    /// The boards as the score pads send them, for a screen in the pub.
    pub fn screen(&self) -> String {
        self.under("screen")
    }
    /// The stream of this match's taps (server-sent events): its page, its
    /// screen, its pads on other phones.
    pub fn events(&self) -> String {
        self.under("events")
    }
    /// Where a board's pad sends the taps it kept offline.
    pub fn pad_sync(&self, board: impl Borrow<i64>) -> String {
        let board = *board.borrow();
        self.under(format_args!("pad/{board}/sync"))
    }
    /// Where links to the pads are made for keepers without an account.
    pub fn pad_links(&self) -> String {
        self.under("pad/links")
    }
    /// The match's pads: a link to each board's.
    pub fn pad(&self) -> String {
        self.under("pad")
    }
    /// One board's score pad.
    pub fn pad_board(&self, board: impl Borrow<i64>) -> String {
        let board = *board.borrow();
        self.under(format_args!("pad/{board}"))
    }
    /// A side's team sheet (`home` or `away`): answers and the line-up.
    pub fn team_sheet(&self, side: Side) -> Address<TeamSheet> {
        Address::new(self.under(format_args!("team-sheet/{}", side.as_str())))
    }
    /// Where a signed-in player answers whether they can play.
    pub fn availability(&self) -> String {
        self.under("availability")
    }
    /// Where the pairings are drawn, when the format draws them.
    pub fn draw_pairings(&self) -> String {
        self.under("draw")
    }
}

/// A side's team sheet and what its captain does there.
pub enum TeamSheet {}

impl Address<TeamSheet> {
    pub fn line_up(&self) -> String {
        self.under("line-up")
    }
    /// Remind the non-answerers now (once).
    pub fn remind(&self) -> String {
        self.under("remind")
    }
    /// When the non-answerers are reminded.
    pub fn remind_at(&self) -> String {
        self.under("remind-at")
    }
    /// Email the squad the question, each with their own link.
    pub fn ask(&self) -> String {
        self.under("ask")
    }
    /// The sheet on paper.
    pub fn print(&self) -> String {
        self.under("print")
    }
}

impl Address<LeagueHome> {
    /// A one-tap answer link, signed for one player and one fixture.
    pub fn answer_link(&self, token: &str) -> String {
        self.under(format_args!("answer/{}", urlencode(token)))
    }
}

/// Why a page named `name` could not have an address of its own among
/// `siblings` (the others named in the same place, itself left out) and
/// the `taken` segments: none at all, another page's, or a sibling's.
pub(crate) fn address_clash(name: &str, siblings: &[&str], taken: &[&str]) -> Option<String> {
    let address = slug(name);
    if address == "-" {
        return Some(
            "Give a name with a letter or digit: the page's address is made of them.".into(),
        );
    }
    if taken.contains(&address.as_str()) {
        return Some(format!(
            "The address …/{address} belongs to another page of the league: add to the name, e.g. a year."
        ));
    }
    siblings.iter().find(|s| slug(s) == address).map(|other| {
        format!(
            "{other} already has the address …/{address}: choose a name that differs in more than capitals or punctuation."
        )
    })
}

/// A name made URL-safe: lowercase, each run of anything but letters and
/// digits one `-`, none at either end (`2026/27` -> `2026-27`).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() { "-".to_owned() } else { out }
}

/// `12-the-crown-a` -> `(12, "the-crown-a")`; `12` -> `(12, "")`.
pub(crate) fn split_id_slug(text: &str) -> Option<(i64, &str)> {
    let (id, rest) = text.split_once('-').unwrap_or((text, ""));
    let id: i64 = id.parse().ok()?;
    (id > 0).then_some((id, rest))
}

pub(crate) fn league_href(league: &League) -> String {
    at(league).to_string()
}

pub(crate) fn season_href(league: &League, season: &str) -> String {
    format!("{}/{}", league_href(league), slug(season))
}

/// A season's honours: its champions, cup winners, top players and feats.
pub(crate) fn honours_href(league: &League, season: &str) -> String {
    format!("{}/honours", season_href(league, season))
}

pub(crate) fn division_href(league: &League, season: &str, division: &str) -> String {
    division_at(league, season, division).to_string()
}

/// A division's table, and its other pages.
pub enum DivisionPage {}

pub(crate) fn division_at(league: &League, season: &str, division: &str) -> Address<DivisionPage> {
    Address::new(format!(
        "{}/{}",
        season_href(league, season),
        slug(division)
    ))
}

impl Address<DivisionPage> {
    /// Every fixture and result of the division.
    pub fn fixtures(&self) -> String {
        self.under("fixtures")
    }
    /// The table and results as data, to read and as JSON.
    pub fn data(&self) -> String {
        self.under("data")
    }
    pub fn data_json(&self) -> String {
        self.under("data.json")
    }
}

pub(crate) fn cup_href(league: &League, id: CupId, name: &str) -> String {
    format!("{}/cups/{}-{}", league_href(league), id, slug(name))
}

pub(crate) fn team_href(league: &League, id: TeamId, name: &str) -> String {
    format!("{}/teams/{}-{}", league_href(league), id, slug(name))
}

pub(crate) fn player_href(league: &League, id: PlayerId, name: &str) -> String {
    player_href_in(&league.short_name, id, name)
}

/// [`player_href`] from the league's short name alone.
pub(crate) fn player_href_in(league_short_name: &str, id: PlayerId, name: &str) -> String {
    format!(
        "{}/players/{}-{}",
        at_short(league_short_name),
        id,
        slug(name)
    )
}

pub(crate) fn match_href(league: &League, id: FixtureId) -> String {
    at(league).match_page(id).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{
        CupEntrantId, LinkRequestId, PenaltyKindId, PlayerId, RoleId, SeasonId, TeamId, VenueId,
    };
    use crate::web::routes::route_of;

    /// Every address built here, with each kind of id.
    fn every_address() -> Vec<String> {
        let at = at_short("wessex");
        let console = at.console();
        let season = console.season(SeasonId(2));
        let team = console.team(TeamId(3));
        let squad = team.season(SeasonId(2));
        let player = console.player(PlayerId(4));
        let cup = console.cup(CupId(5));
        let game = at.match_page(FixtureId(6));
        let schedule = at.schedule(DivisionId(7));
        vec![
            at.to_string(),
            at.live(),
            at.live_events(),
            at.screen(),
            at.round_up(),
            at.ratings(),
            at.penalties(),
            at.void_penalty(PenaltyId(8)),
            at.fines(),
            at.fine_paid(FineId(9)),
            schedule.to_string(),
            schedule.discard(),
            game.to_string(),
            game.history(),
            game.approve(),
            game.card(),
            game.pad(),
            game.pad_board(1),
            game.games_json(),
            game.import(),
            game.confirm(),
            game.dispute(),
            game.void(),
            game.reinstate(),
            game.restore(),
            game.walkover(),
            game.screen(),
            game.events(),
            game.pad_links(),
            game.pad_sync(1),
            game.team_sheet(Side::Home).to_string(),
            game.team_sheet(Side::Away).line_up(),
            game.team_sheet(Side::Home).remind(),
            game.team_sheet(Side::Home).remind_at(),
            game.team_sheet(Side::Home).ask(),
            game.team_sheet(Side::Home).print(),
            game.availability(),
            game.draw_pairings(),
            at.answer_link("6-4-1790000000-abc"),
            at.round_up_subscribe(),
            at.round_up_confirm("abc"),
            at.round_up_unsubscribe("abc"),
            at.ratings_of("all-fives"),
            at.team_calendar(TeamId(3)),
            at.player_calendar(PlayerId(4)),
            division_at(&league(), "2026/27", "Premier").fixtures(),
            division_at(&league(), "2026/27", "Premier").data(),
            division_at(&league(), "2026/27", "Premier").data_json(),
            at.postpone(FixtureId(6)),
            at.print_team(TeamId(3)),
            at.print_fixture(FixtureId(6)),
            at.players_table(SeasonId(2)),
            at.results_csv(SeasonId(2)),
            at.division_calendar(DivisionId(7)),
            at.secretaries(),
            at.remove_secretary(RoleId(10)),
            at.embed().table(DivisionId(7)),
            at.embed().fixtures(DivisionId(7)),
            at.embed().team(TeamId(3)),
            at.embed().live(),
            at.results_json(SeasonId(2)),
            console.website(),
            GAME_RECORD_SCHEMA.to_owned(),
            MATCH_RESULT_SCHEMA.to_owned(),
            console.to_string(),
            console.league(),
            console.approvals(),
            console.mail(),
            console.seasons(),
            console.new_season(),
            season.to_string(),
            season.divisions(),
            season.division(DivisionId(7)),
            season.cups(),
            season.transfers(),
            season.import(),
            season.end(),
            season.playoffs(),
            console.teams(),
            team.to_string(),
            team.entries(),
            squad.to_string(),
            squad.roster(),
            squad.players(),
            squad.captains(),
            squad.remove_captain(PlayerId(4)),
            console.players(),
            player.to_string(),
            player.link(),
            player.unlink(),
            console.venues(),
            console.venue(VenueId(11)),
            cup.to_string(),
            cup.edit(),
            cup.delete(),
            cup.draw(),
            cup.draw_by_hand(),
            cup.entrants(),
            cup.withdraw(CupEntrantId(12)),
            console.penalty_kinds(),
            console.penalty_kind(PenaltyKindId(13)),
            console.default_penalty_kinds(),
            console.late_result_rule(),
            console.apply_late_penalty(FixtureId(6)),
            console.users(),
            console.revoke_role(RoleId(10)),
            console.invitation(15).to_string(),
            console.invitation(15).resend(),
            console.invitation(15).revoke(),
            console.confirm_link(LinkRequestId(14)),
            console.drop_link(LinkRequestId(14)),
            season_href(&league(), "2026/27"),
            honours_href(&league(), "2026/27"),
            division_href(&league(), "2026/27", "Premier"),
            cup_href(&league(), CupId(5), "Knock-out"),
            team_href(&league(), TeamId(3), "Plough A"),
            player_href(&league(), PlayerId(4), "Ann"),
        ]
    }

    fn league() -> League {
        League {
            id: crate::db::LeagueId(1),
            name: "Wessex".into(),
            short_name: "wessex".into(),
            rules_summary: String::new(),
            contact: String::new(),
            time_zone: crate::league::time::Zone::LONDON,
            created_at: chrono::Utc::now(),
            provisional_games: 20,
        }
    }

    #[test]
    fn every_address_built_here_names_a_route_of_the_table() {
        for address in every_address() {
            assert!(route_of(&address).is_some(), "{address} has no route");
        }
    }

    #[test]
    fn an_id_goes_by_value_or_by_reference_alike() {
        // Templates pass a field by reference, Rust code an id by value.
        let fixture = FixtureId(6);
        let by_reference: &FixtureId = &fixture;
        let at = at_short("wessex");
        assert_eq!(
            at.match_page(fixture).history(),
            at.match_page(by_reference).history()
        );
        assert_eq!(
            at.match_page(fixture).history(),
            "/leagues/wessex/matches/6/history"
        );
    }
}

/// The read-only JSON API's addresses (`/api/v1`): records by their stable
/// ids, a league by its short name.
pub mod api {
    use super::urlencode;

    pub const ROOT: &str = "/api/v1";

    /// The OpenAPI document describing every address below.
    pub fn openapi() -> String {
        format!("{ROOT}/openapi.json")
    }
    /// The page explaining the API to a league's web volunteer.
    pub fn guide() -> String {
        "/api".to_owned()
    }
    pub fn leagues() -> String {
        format!("{ROOT}/leagues")
    }
    pub fn league(short: &str) -> String {
        format!("{ROOT}/leagues/{}", urlencode(short))
    }
    pub fn season(short: &str, season: i64) -> String {
        format!("{}/seasons/{season}", league(short))
    }
    pub fn honours(short: &str, season: i64) -> String {
        format!("{}/honours", self::season(short, season))
    }
    pub fn division(short: &str, division: i64) -> String {
        format!("{}/divisions/{division}", league(short))
    }
    pub fn division_fixtures(short: &str, division: i64) -> String {
        format!("{}/fixtures", self::division(short, division))
    }
    pub fn fixture(short: &str, fixture: i64) -> String {
        format!("{}/matches/{fixture}", league(short))
    }
    pub fn teams(short: &str) -> String {
        format!("{}/teams", league(short))
    }
    pub fn team(short: &str, team: i64) -> String {
        format!("{}/{team}", teams(short))
    }
    pub fn players(short: &str) -> String {
        format!("{}/players", league(short))
    }
    pub fn player(short: &str, player: i64) -> String {
        format!("{}/{player}", players(short))
    }
    pub fn cup(short: &str, cup: i64) -> String {
        format!("{}/cups/{cup}", league(short))
    }
    pub fn live(short: &str) -> String {
        format!("{}/live", league(short))
    }
}
