//! The demo league: `boneyard demo` fills a database with leagues a newcomer
//! can explore and a benchmark can load.
//!
//! By default one league of each format (a Fives and Threes pub league with
//! two divisions, an All Fives tournament, a `hands-won` partnership
//! league), each with one finished season and one half-played, with venues,
//! teams, players, captains, results, penalties and fines. Every hand is
//! actually played: the simulator deals a double-six set and plays legal
//! tiles ([`simulate_board`]), the engine scores each game
//! ([`score_record`]) and the result is stored hand by hand through the
//! database layer, so the data has the shape real games have.
//!
//! Everything is drawn from one [`Rng`] per league seeded from
//! [`DemoOptions::seed`]: the same options give the same leagues, names and
//! games. (Times the database stamps itself, such as `created_at`, are the
//! time of the run.)
//!
//! The plan (names, schedules, line-ups, games) is plain functions; only
//! [`fill`] and its helpers touch the database, through [`Db`]'s own API.
//!
//! [`fill_with_accounts`] also makes someone to sign in as: each league's
//! secretary, the captains of its teams this season and a few of its
//! players, and the installation's administrator when it has no account
//! yet. Their passwords come from the operating system's random generator
//! on every run (never from the seed) and are returned once, to be
//! printed; the database keeps only their argon2id hashes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc, Weekday};
use serde_json::Map;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use crate::db::{
    BoardKind, BoardResult, Db, DbError, DivisionId, Fixture, FixtureChange, FixtureStatus,
    GameOutcome, GameResult, LeagueId, MatchResult, NewFixture, NewLeague, NewPenalty,
    NewPenaltyKind, NewRole, NewSeason, NewVenue, PenaltyEffect, PenaltyKindId, PlayerId,
    ResultStatus, RoleKind, SeasonId, Side, TeamId, UserId, VenueId,
};
use crate::league::fixtures::{self, FixtureRequest, TeamSlot};
use crate::league::match_format::{BoardSpec, MatchFormat};
use crate::league::pad::{PadRules, replay, taps_for_board};
use crate::league::penalties::{DefaultKind, FINE, LATE_CARD, TEAM_LATE, kinds_for};
use crate::league::time::Zone;
use crate::rules::ruleset::PoseRule;
use crate::rules::simulate::{Rng, Style, simulate_board};
use crate::rules::{Format, Ruleset, score_record};

mod cups;

/// Most leagues one run makes (a county association is about 50).
pub const MAX_LEAGUES: u32 = 200;
/// Most teams in one division.
pub const MAX_TEAMS: u32 = 30;
pub const MAX_SEASONS: u32 = 10;
pub const MAX_DIVISIONS: u32 = 6;

/// The last season's first year: it is `2026/27`, and half-played.
const LAST_SEASON_YEAR: i32 = 2026;

/// What to make. [`Default`] is the demo a newcomer gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoOptions {
    /// Leagues to make; formats cycle fives-and-threes, all-fives,
    /// hands-won. Default 3: one of each.
    pub leagues: u32,
    /// Teams in each division. Default 8.
    pub teams: u32,
    /// Seasons in each league; all finished but the last, which is
    /// half-played. Default 2.
    pub seasons: u32,
    /// Divisions in each league; default 2 for fives-and-threes, 1 for the
    /// others.
    pub divisions: Option<u32>,
    /// The same seed makes the same leagues.
    pub seed: u64,
}

impl Default for DemoOptions {
    fn default() -> DemoOptions {
        DemoOptions {
            leagues: 3,
            teams: 8,
            seasons: 2,
            divisions: None,
            seed: 1,
        }
    }
}

/// What [`fill`] wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DemoSummary {
    pub leagues: u64,
    pub seasons: u64,
    pub divisions: u64,
    pub venues: u64,
    pub teams: u64,
    pub players: u64,
    pub fixtures: u64,
    /// Fixtures with a result (approved or pending).
    pub results: u64,
    pub games: u64,
    pub hands: u64,
    /// Penalties inside game records (`talking`, `exposed`, `late`,
    /// `violation`).
    pub game_penalties: u64,
    /// Penalties recorded against teams and players (the league's penalty
    /// list: warnings, league points, fines).
    pub penalties: u64,
    /// Lines of the fines ledger.
    pub fines: u64,
}

impl DemoSummary {
    fn add(&mut self, other: &DemoSummary) {
        self.leagues += other.leagues;
        self.seasons += other.seasons;
        self.divisions += other.divisions;
        self.venues += other.venues;
        self.teams += other.teams;
        self.players += other.players;
        self.fixtures += other.fixtures;
        self.results += other.results;
        self.games += other.games;
        self.hands += other.hands;
        self.game_penalties += other.game_penalties;
        self.penalties += other.penalties;
        self.fines += other.fines;
    }
}

impl fmt::Display for DemoSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = [
            ("leagues", self.leagues),
            ("seasons", self.seasons),
            ("divisions", self.divisions),
            ("venues", self.venues),
            ("teams", self.teams),
            ("players", self.players),
            ("fixtures", self.fixtures),
            ("results", self.results),
            ("games", self.games),
            ("hands", self.hands),
            ("in-game penalties", self.game_penalties),
            ("penalties", self.penalties),
            ("fines", self.fines),
        ];
        let width = rows
            .iter()
            .map(|(_, n)| thousands(*n).len())
            .max()
            .unwrap_or(1);
        for (i, (label, n)) in rows.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{label:<18}{:>width$}", thousands(*n))?;
        }
        Ok(())
    }
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// The options ask for something the demo cannot make.
    #[error("demo options: {0}")]
    Options(String),
    #[error(transparent)]
    Db(#[from] DbError),
    /// The engine refused a game the simulator played: a bug in one of them.
    #[error("the scoring engine refused a simulated game: {0}")]
    Engine(String),
    /// A demo account's password could not be hashed.
    #[error("demo accounts: {0}")]
    Accounts(String),
}

/// Fills `db` with the demo leagues and says what it wrote.
///
/// Short names already taken in `db` are not reused (a second run adds
/// `wessex-2`, ...), so a demo can be added to a database that has one.
///
/// No accounts are made: this is the demo a benchmark loads. The one a
/// newcomer gets is [`fill_with_accounts`].
pub async fn fill(db: &Db, options: &DemoOptions) -> Result<DemoSummary, DemoError> {
    fill_leagues(db, options, None, &mut |_| {}).await
}

/// How far a fill has got: after each league.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    pub done: u32,
    pub of: u32,
    /// The league just written.
    pub league: &'a str,
}

/// What [`fill_with_accounts`] wrote, with the accounts' passwords: the
/// only copy of them, to be shown once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Demo {
    pub summary: DemoSummary,
    /// The administrator (when the installation had no account), then
    /// league by league its secretary, its captains and its players.
    pub accounts: Vec<DemoAccount>,
}

/// Fills `db` as [`fill`] does, and makes accounts to sign in as: per
/// league a secretary (`sec-LEAGUE`), a captain for each team entered in
/// the current season (`cap-LEAGUE-TEAM`) and [`PLAYER_ACCOUNTS`] of its
/// players (`player-LEAGUE-NAME`); and an administrator (`admin`) when
/// `db` has no account yet (which would otherwise close the first-run
/// page that makes one). Usernames taken already get `-2`, `-3`, ...
///
/// Every account has its own random password, new on every run; the hashes
/// are made off the async threads, a few at a time, while the leagues are
/// being written.
pub async fn fill_with_accounts(db: &Db, options: &DemoOptions) -> Result<Demo, DemoError> {
    fill_reporting(db, options, &mut |_| {}).await
}

/// [`fill_with_accounts`], calling `report` after each league.
pub async fn fill_reporting(
    db: &Db,
    options: &DemoOptions,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<Demo, DemoError> {
    let mut accounts = Accounts::new();
    let summary = fill_leagues(db, options, Some(&mut accounts), report).await?;
    let accounts = accounts.create(db).await?;
    Ok(Demo { summary, accounts })
}

async fn fill_leagues(
    db: &Db,
    options: &DemoOptions,
    accounts: Option<&mut Accounts>,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<DemoSummary, DemoError> {
    check(options)?;
    // One durable commit per result made the demo wait on the disk for
    // most of its time: the whole fill is one bulk load, synced at the end.
    let loader = db.begin_bulk_load().await?;
    let filled = fill_all(&loader, options, accounts, report).await;
    db.end_bulk_load(loader).await?;
    filled
}

async fn fill_all(
    db: &Db,
    options: &DemoOptions,
    mut accounts: Option<&mut Accounts>,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<DemoSummary, DemoError> {
    let mut taken: HashSet<String> = db
        .leagues()
        .await?
        .into_iter()
        .map(|l| l.short_name)
        .collect();
    if let Some(accounts) = accounts.as_deref_mut() {
        if db.user_count().await? == 0 {
            accounts.plan("", "", Grant::Administrator, "admin");
        }
    }
    let mut summary = DemoSummary::default();
    // On Postgres most of the time is round trips and the server's own
    // work: eight leagues written at once (within the loader's pool of ten)
    // took the 50-league demo from 73 s to 47 s here. SQLite has one
    // writer, so one league at a time.
    let at_once = match db {
        Db::Postgres(_) => 8,
        Db::Sqlite(_) => 1,
    };
    let indexes: Vec<u32> = (0..options.leagues).collect();
    for chunk in indexes.chunks(at_once) {
        let mut plans = Vec::new();
        for &index in chunk {
            let mut rng = Rng::new(league_seed(options.seed, index));
            let league = plan_league(index, options, &mut rng, &mut taken);
            plans.push((index, league, rng, DemoSummary::default()));
        }
        let filled = futures_util::future::join_all(
            plans
                .iter_mut()
                .map(|(_, league, rng, part)| fill_league(db, league, options.seasons, rng, part)),
        )
        .await;
        for ((index, league, _, part), written) in plans.iter().zip(filled) {
            let written = written?;
            summary.add(part);
            if let Some(accounts) = accounts.as_deref_mut() {
                accounts.plan_league(league, &written);
            }
            report(Progress {
                done: index + 1,
                of: options.leagues,
                league: &league.name,
            });
        }
    }
    Ok(summary)
}

fn check(o: &DemoOptions) -> Result<(), DemoError> {
    let bad = |what: &str, value: u32, low: u32, high: u32| {
        (value < low || value > high).then(|| {
            DemoError::Options(format!("{what} must be from {low} to {high}, not {value}"))
        })
    };
    let problems = [
        bad("leagues", o.leagues, 1, MAX_LEAGUES),
        bad("teams", o.teams, 2, MAX_TEAMS),
        bad("seasons", o.seasons, 1, MAX_SEASONS),
        o.divisions
            .and_then(|d| bad("divisions", d, 1, MAX_DIVISIONS)),
    ];
    match problems.into_iter().flatten().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Each league its own stream, so that league 7 is the same whatever the
/// number of leagues asked for.
fn league_seed(seed: u64, index: u32) -> u64 {
    Rng::new(seed ^ u64::from(index).wrapping_mul(0xA24B_AED4_963E_E407)).next_u64()
}

// ---------------------------------------------------------------------------
// Names

#[rustfmt::skip]
const AREAS: &[&str] = &[
    "Wessex", "Purbeck", "Mendip", "Cotswold", "Chiltern", "Fenland", "Wolds", "Pennine", "Dales",
    "Weald", "Exmoor", "Quantock", "Malvern", "Wirral", "Furness", "Peak", "Broads", "Solent",
    "Severn", "Tamar", "Cheviot", "Wyre", "Marches", "Holderness", "Lindsey",
];

/// Beyond the areas, the same again with these in front.
#[rustfmt::skip]
const QUARTERS: &[&str] = &[
    "North", "South", "East", "West", "Upper", "Lower", "Mid",
];

#[rustfmt::skip]
const TOWNS: &[&str] = &[
    "Wareham", "Swanage", "Blandford", "Shaftesbury", "Sherborne", "Bridport", "Dorchester",
    "Wimborne", "Gillingham", "Sturminster", "Frome", "Wells", "Glastonbury", "Shepton Mallet",
    "Cheddar", "Axbridge", "Chard", "Crewkerne", "Ilminster", "Yeovil", "Wincanton", "Bruton",
    "Castle Cary", "Langport", "Somerton", "Street", "Highbridge", "Watchet", "Minehead",
    "Dulverton", "Tiverton", "Cullompton", "Honiton", "Axminster", "Lyme Regis", "Seaton",
    "Sidmouth", "Ottery", "Crediton", "Bampton",
];

#[rustfmt::skip]
const PUBS: &[&str] = &[
    "The Crown", "The Red Lion", "The White Hart", "The Royal Oak", "The King's Head",
    "The Plough", "The Swan", "The Bell", "The Rose and Crown", "The George", "The Black Horse",
    "The Wheatsheaf", "The Fox and Hounds", "The Star", "The Ship", "The Green Man",
    "The Queen's Head", "The White Horse", "The New Inn", "The Anchor", "The Railway", "The Bull",
    "The Angel", "The Three Horseshoes", "The Chequers", "The Cross Keys", "The Lamb",
    "The Nag's Head", "The Coach and Horses", "The Globe", "The Blue Boar", "The Old Bell",
    "The Half Moon", "The Greyhound", "The Feathers", "The Golden Lion", "The Sun",
    "The Hare and Hounds", "The Castle", "The Cricketers",
];

#[rustfmt::skip]
const STREETS: &[&str] = &[
    "High Street", "Market Place", "Church Street", "Bridge Street", "Mill Lane", "Station Road",
    "East Street", "West Street", "The Square", "Fore Street", "Silver Street", "North Street",
    "South Street", "Sheep Street", "Castle Street",
];

#[rustfmt::skip]
const FIRST_NAMES: &[&str] = &[
    "Dave", "Steve", "Mick", "Gary", "Pete", "Terry", "Colin", "Trevor", "Barry", "Keith",
    "Nigel", "Alan", "Brian", "Derek", "Roy", "Ray", "Ken", "Phil", "Tony", "Graham", "Martin",
    "Paul", "John", "Rob", "Ian", "Neil", "Stuart", "Mark", "Andy", "Chris", "Sue", "Jan", "Pat",
    "Val", "Carol", "Linda", "Sandra", "Jean", "Maureen", "Brenda", "Julie", "Karen", "Tracey",
    "Debbie", "Lynn", "Wendy", "Pam", "Sheila", "Gail", "Shirley", "Jack", "Tom", "Harry", "Ben",
    "Sam", "Josh", "Emma", "Sophie", "Kate", "Lucy",
];

#[rustfmt::skip]
const SURNAMES: &[&str] = &[
    "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson",
    "Wright", "Thompson", "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood",
    "Jackson", "Clarke", "Hughes", "Edwards", "Harris", "Lewis", "Turner", "Hill", "Cooper",
    "Ward", "Morris", "Moore", "Baker", "King", "Parker", "Mitchell", "Carter", "Phillips",
    "Bennett", "Cook", "Shaw", "Webb", "Hunt", "Marsh", "Pike", "Dyer", "Gale", "Cox", "Hoskins",
    "Lush", "Sansom", "Toop", "Frampton", "Northover", "Legg", "Hann", "Cake", "Dibben", "Bugler",
    "Old", "Mullins", "Vincent",
];

#[rustfmt::skip]
const DIVISION_NAMES: &[&str] = &[
    "Premier", "Division One", "Division Two", "Division Three", "Division Four", "Division Five",
];

fn pick<'a>(rng: &mut Rng, list: &[&'a str]) -> &'a str {
    list[rng.below(list.len() as u32) as usize]
}

/// `name`, or `name 2`, `name 3`, ... whichever is not in `used` yet.
fn unique(name: String, used: &mut HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{name} {n}");
        n += 1;
    }
    used.insert(candidate.clone());
    candidate
}

/// A player's name not yet used in the league.
fn player_name(rng: &mut Rng, used: &mut HashSet<String>) -> String {
    for _ in 0..20 {
        let name = format!("{} {}", pick(rng, FIRST_NAMES), pick(rng, SURNAMES));
        if used.insert(name.clone()) {
            return name;
        }
    }
    // A crowded league: a middle initial tells them apart.
    let initial = char::from(b'A' + rng.below(26) as u8);
    let name = format!(
        "{} {initial}. {}",
        pick(rng, FIRST_NAMES),
        pick(rng, SURNAMES)
    );
    unique(name, used)
}

// ---------------------------------------------------------------------------
// Match formats

/// Distinct players a team fields in one match.
fn players_needed(boards: &[BoardSpec]) -> usize {
    let singles = boards
        .iter()
        .filter(|b| b.kind == BoardKind::Singles)
        .count();
    let pairs = boards.len() - singles;
    singles.max(2 * pairs)
}

fn league_name(format: Format, area: &str) -> String {
    match format {
        Format::FivesAndThrees => format!("{area} Fives and Threes League"),
        Format::AllFives => format!("{area} All Fives Tournament"),
        Format::HandsWon => format!("{area} Partnership Dominoes League"),
    }
}

fn rules_summary(format: Format) -> &'static str {
    match format {
        Format::FivesAndThrees => {
            "Fives and threes to 61 exactly. Six singles and three pairs boards of one game \
             each; a point a board, two for a match won, one for a draw."
        }
        Format::AllFives => {
            "All fives to 250, spinner on the first double. Four singles boards, each the best \
             of three games; talking or an exposed tile costs 50 points."
        }
        Format::HandsWon => {
            "Partnership dominoes: three sets between pairs, each to six hands, pose rotating. \
             Late arrival and rules violations are penalty games on the player's own tally."
        }
    }
}

fn division_names(format: Format, count: usize) -> Vec<String> {
    if count == 1 {
        let name = match format {
            Format::FivesAndThrees => "Premier",
            Format::AllFives => "Open",
            Format::HandsWon => "League",
        };
        return vec![name.to_owned()];
    }
    DIVISION_NAMES[..count]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
}

// ---------------------------------------------------------------------------
// Penalty kinds

/// The kinds a demo league of `format` starts with: LEAGUE.md's list as
/// the console has it ([`DEFAULT_KINDS`](crate::league::penalties::DEFAULT_KINDS)).
fn penalty_kinds(format: Format) -> impl Iterator<Item = &'static DefaultKind> {
    kinds_for(format)
}

// ---------------------------------------------------------------------------
// Fixtures

/// A time in England (the demo leagues' time zone), in UTC; 8pm always
/// exists.
fn in_england(local: NaiveDateTime) -> DateTime<Utc> {
    Zone::LONDON
        .instant(local.date(), local.time())
        .unwrap_or_else(|_| local.and_utc())
}

/// A season's fixtures of one division by the league's generator: home
/// and away, one round a week on `weekday` from the first of September of
/// `year`, at 8pm, over Christmas week. Teams sharing a pub are kept apart
/// on its nights as its tables require.
fn season_request(
    year: i32,
    weekday: Weekday,
    teams: &[TeamSlot],
    venue_tables: BTreeMap<i64, u32>,
) -> FixtureRequest {
    let start = NaiveDate::from_ymd_opt(year, 9, 1).expect("1 September exists");
    let christmas = NaiveDate::from_ymd_opt(year, 12, 20).expect("20 December exists");
    FixtureRequest {
        teams: teams.to_vec(),
        meetings: 2,
        start,
        weekday,
        kick_off: chrono::NaiveTime::from_hms_opt(20, 0, 0).expect("8pm exists"),
        skip: christmas.iter_days().take(15).collect(),
        venue_tables,
        booked: Vec::new(),
    }
}

fn season_name(year: i32) -> String {
    format!("{year}/{:02}", (year + 1) % 100)
}

// ---------------------------------------------------------------------------
// The plan of a league

struct VenuePlan {
    name: String,
    address: String,
    tables: i64,
}

struct TeamPlan {
    name: String,
    venue: usize,
    division: usize,
}

struct LeaguePlan {
    format: Format,
    name: String,
    short_name: String,
    contact: String,
    weekday: Weekday,
    divisions: Vec<String>,
    /// LEAGUE.md's default for the format, every season.
    match_format: MatchFormat,
    venues: Vec<VenuePlan>,
    teams: Vec<TeamPlan>,
}

fn plan_league(
    index: u32,
    options: &DemoOptions,
    rng: &mut Rng,
    taken: &mut HashSet<String>,
) -> LeaguePlan {
    let format = Format::ALL[index as usize % Format::ALL.len()];
    let i = index as usize;
    let base = AREAS[i % AREAS.len()];
    let area = match i / AREAS.len() {
        0 => base.to_owned(),
        q => format!("{} {base}", QUARTERS[(q - 1) % QUARTERS.len()]),
    };
    let slug = area.to_lowercase().replace(' ', "-");
    let mut short_name = slug.clone();
    let mut n = 2;
    while taken.contains(&short_name) {
        short_name = format!("{slug}-{n}");
        n += 1;
    }
    taken.insert(short_name.clone());

    let divisions = options
        .divisions
        .unwrap_or(if format == Format::FivesAndThrees {
            2
        } else {
            1
        }) as usize;
    let teams_per_division = options.teams as usize;
    let weekday = [Weekday::Tue, Weekday::Wed, Weekday::Thu][i % 3];
    let mut towns: Vec<&str> = TOWNS.to_vec();
    rng.shuffle(&mut towns);
    towns.truncate(4 + rng.below(3) as usize);
    let (venues, teams) = plan_clubs(divisions, teams_per_division, &towns, rng);
    let mut secretary = HashSet::new();
    let secretary = player_name(rng, &mut secretary);
    LeaguePlan {
        format,
        name: league_name(format, &area),
        contact: format!("{secretary}, league secretary: {slug}.secretary@example.org"),
        short_name,
        weekday,
        divisions: division_names(format, divisions),
        match_format: MatchFormat::default_for(format),
        venues,
        teams,
    }
}

/// The league's pubs and teams, division by division: mostly a team a pub,
/// some pubs with two (`Crown A`, `Crown B`), some of those with one table
/// (the fixture generator keeps such teams apart on its nights).
fn plan_clubs(
    divisions: usize,
    per_division: usize,
    towns: &[&str],
    rng: &mut Rng,
) -> (Vec<VenuePlan>, Vec<TeamPlan>) {
    let mut pubs: Vec<&str> = PUBS.to_vec();
    rng.shuffle(&mut pubs);
    let mut next_pub = 0;
    let mut venue_names = HashSet::new();
    let mut team_names = HashSet::new();
    let mut venues = Vec::new();
    let mut teams = Vec::new();
    for division in 0..divisions {
        let mut left = per_division;
        while left > 0 {
            let two = left >= 2 && rng.chance(250);
            let one_table = two && rng.chance(500);
            let tables = if two && !one_table { 2 } else { 1 };
            let here = if two { 2 } else { 1 };
            left -= here;
            let pub_name = pubs[next_pub % pubs.len()];
            let town = pick(rng, towns);
            next_pub += 1;
            // Past the list of pubs, the same names in other towns.
            let short = pub_name.strip_prefix("The ").unwrap_or(pub_name);
            let (venue_name, short) = if venue_names.contains(pub_name) {
                let venue = unique(format!("{pub_name}, {town}"), &mut venue_names);
                (venue, format!("{town} {short}"))
            } else {
                (
                    unique(pub_name.to_owned(), &mut venue_names),
                    short.to_owned(),
                )
            };
            let street = pick(rng, STREETS);
            venues.push(VenuePlan {
                name: venue_name,
                address: format!("{} {street}, {town}", 1 + rng.below(90)),
                tables,
            });
            let venue = venues.len() - 1;
            for letter in ["A", "B"].into_iter().take(here) {
                let name = if here == 2 {
                    format!("{short} {letter}")
                } else {
                    short.clone()
                };
                teams.push(TeamPlan {
                    name: unique(name, &mut team_names),
                    venue,
                    division,
                });
            }
        }
    }
    (venues, teams)
}

// ---------------------------------------------------------------------------
// Playing a match

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    id: PlayerId,
    name: String,
}

/// A match as played: the result to store, and what it holds.
struct PlayedMatch {
    result: MatchResult,
    games: u64,
    hands: u64,
    game_penalties: u64,
    /// Who played, home then away.
    home: Vec<Member>,
    away: Vec<Member>,
}

/// The captains' line-up: `needed` players of the team, in board order.
fn line_up(rng: &mut Rng, roster: &[Member], needed: usize) -> Vec<Member> {
    let mut order: Vec<usize> = (0..roster.len()).collect();
    rng.shuffle(&mut order);
    order
        .into_iter()
        .take(needed)
        .map(|i| roster[i].clone())
        .collect()
}

/// The line-up drawn into pairs.
fn pairs_of<'a>(rng: &mut Rng, team: &'a [Member]) -> Vec<Vec<&'a Member>> {
    let mut pool: Vec<&Member> = team.iter().collect();
    rng.shuffle(&mut pool);
    pool.chunks(2).map(<[&Member]>::to_vec).collect()
}

/// Plays every board of a fixture: the players of each board from the
/// line-ups (singles boards one each, pairs boards pairs drawn from the
/// same players), each board simulated as a best of N, each game scored by
/// the engine. Side 0 of every game is the home team.
fn play_match(
    ruleset: &Ruleset,
    boards: &[BoardSpec],
    home_roster: &[Member],
    away_roster: &[Member],
    rng: &mut Rng,
) -> Result<PlayedMatch, DemoError> {
    let needed = players_needed(boards);
    let home = line_up(rng, home_roster, needed);
    let away = line_up(rng, away_roster, needed);
    let home_pairs = pairs_of(rng, &home);
    let away_pairs = pairs_of(rng, &away);
    let style = Style::default();
    let (mut singles, mut pairs) = (0, 0);
    let mut played = PlayedMatch {
        result: MatchResult::default(),
        games: 0,
        hands: 0,
        game_penalties: 0,
        home: Vec::new(),
        away: Vec::new(),
    };
    for board in boards {
        let kind = board.kind;
        let (h, a): (Vec<&Member>, Vec<&Member>) = match kind {
            BoardKind::Singles => {
                singles += 1;
                (vec![&home[singles - 1]], vec![&away[singles - 1]])
            }
            BoardKind::Pairs => {
                pairs += 1;
                (home_pairs[pairs - 1].clone(), away_pairs[pairs - 1].clone())
            }
        };
        // Order of play alternates sides: home, away, home, away.
        let players: Vec<String> = h
            .iter()
            .zip(&a)
            .flat_map(|(x, y)| [x.name.clone(), y.name.clone()])
            .collect();
        let sides = vec![
            h.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
            a.iter().map(|m| m.name.clone()).collect::<Vec<_>>(),
        ];
        let records = simulate_board(ruleset, &players, &sides, board.best_of, rng, &style);
        let mut games = Vec::with_capacity(records.len());
        for record in records {
            let outcome = score_record(&record).map_err(|e| DemoError::Engine(e.to_string()))?;
            played.games += 1;
            played.hands += record.hands.len() as u64;
            played.game_penalties += record.penalties.len() as u64;
            games.push(GameResult {
                outcome: Some(GameOutcome {
                    totals: [i64::from(outcome.totals[0]), i64::from(outcome.totals[1])],
                    winner: outcome.winner,
                    finished: outcome.finished,
                    next_pose: record.players.get(outcome.next_pose).cloned(),
                }),
                record,
                score_only: false,
            });
        }
        played.result.boards.push(BoardResult {
            kind,
            home: h.iter().map(|m| m.id).collect(),
            away: a.iter().map(|m| m.id).collect(),
            games,
            conceded_by: None,
        });
    }
    played.home = home;
    played.away = away;
    Ok(played)
}

// ---------------------------------------------------------------------------
// Writing a league

/// A team as created, with its players this season.
struct TeamState {
    id: TeamId,
    venue: VenueId,
    division: usize,
    /// Its pub's tables.
    tables: u32,
    roster: Vec<Member>,
    captains: Vec<PlayerId>,
}

/// What becomes of a fixture this season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Played(ResultStatus),
    Scheduled,
    Postponed,
    Walkover(Side),
    Void,
}

/// A fixture as created, with its teams' indices.
struct Planned {
    fixture: Fixture,
    home: usize,
    away: usize,
    fate: Fate,
}

/// A played fixture, for the penalties handed out after it.
struct Played {
    fixture: Fixture,
    home: usize,
    away: usize,
    players: Vec<Member>,
}

/// One season as it is being written.
struct SeasonState {
    id: SeasonId,
    year: i32,
    /// The last season: half-played.
    last: bool,
    divisions: Vec<DivisionId>,
}

/// Writes one league's plan, season by season.
struct LeagueWriter<'a> {
    db: &'a Db,
    plan: &'a LeaguePlan,
    rng: &'a mut Rng,
    summary: &'a mut DemoSummary,
    league: LeagueId,
    ruleset: Ruleset,
    kinds: BTreeMap<&'static str, PenaltyKindId>,
    teams: Vec<TeamState>,
    /// Player names taken in the league.
    names: HashSet<String>,
}

/// A league as written: what its accounts are made from.
struct Written {
    league: LeagueId,
    /// The current (last, half-played) season.
    season: SeasonId,
    /// In the plan's order, with this season's players and captains.
    teams: Vec<TeamState>,
}

async fn fill_league(
    db: &Db,
    plan: &LeaguePlan,
    seasons: u32,
    rng: &mut Rng,
    summary: &mut DemoSummary,
) -> Result<Written, DemoError> {
    let mut writer = LeagueWriter::create(db, plan, rng, summary).await?;
    let seasons = seasons as i32;
    let mut current = None;
    for s in 0..seasons {
        let year = LAST_SEASON_YEAR - (seasons - 1 - s);
        current = Some(writer.season(year, s == seasons - 1).await?);
    }
    Ok(Written {
        league: writer.league,
        season: current.expect("at least one season (checked)"),
        teams: writer.teams,
    })
}

impl<'a> LeagueWriter<'a> {
    /// The league, its penalty list, venues and teams.
    async fn create(
        db: &'a Db,
        plan: &'a LeaguePlan,
        rng: &'a mut Rng,
        summary: &'a mut DemoSummary,
    ) -> Result<LeagueWriter<'a>, DemoError> {
        let league = db
            .create_league(&NewLeague {
                name: plan.name.clone(),
                short_name: plan.short_name.clone(),
                rules_summary: rules_summary(plan.format).to_owned(),
                contact: plan.contact.clone(),
            })
            .await?
            .id;
        summary.leagues += 1;

        let mut kinds = BTreeMap::new();
        for spec in penalty_kinds(plan.format) {
            let new = NewPenaltyKind {
                code: spec.code.to_owned(),
                name: spec.name.to_owned(),
                effect: spec.effect,
                amount: spec.amount,
            };
            kinds.insert(spec.code, db.add_penalty_kind(league, &new).await?.id);
        }

        let mut venues = Vec::with_capacity(plan.venues.len());
        for v in &plan.venues {
            let new = NewVenue {
                name: v.name.clone(),
                address: v.address.clone(),
                tables: v.tables,
            };
            venues.push(db.create_venue(league, &new).await?.id);
        }
        summary.venues += venues.len() as u64;

        let mut teams = Vec::with_capacity(plan.teams.len());
        for t in &plan.teams {
            let venue = venues[t.venue];
            teams.push(TeamState {
                id: db.create_team(league, &t.name, Some(venue)).await?.id,
                venue,
                division: t.division,
                tables: u32::try_from(plan.venues[t.venue].tables).unwrap_or(1),
                roster: Vec::new(),
                captains: Vec::new(),
            });
        }
        summary.teams += teams.len() as u64;

        Ok(LeagueWriter {
            db,
            plan,
            rng,
            summary,
            league,
            ruleset: Ruleset::new(plan.format),
            kinds,
            teams,
            names: HashSet::new(),
        })
    }

    /// A season from its divisions to its penalties.
    async fn season(&mut self, year: i32, last: bool) -> Result<SeasonId, DemoError> {
        let (db, league) = (self.db, self.league);
        let id = crate::app::seasons::create_season(
            db,
            league,
            &NewSeason {
                name: season_name(year),
                format: self.plan.format,
                options: Map::new(),
                match_format: self.plan.match_format.to_value(),
            },
        )
        .await?
        .id;
        self.summary.seasons += 1;
        let mut divisions = Vec::with_capacity(self.plan.divisions.len());
        for (position, name) in self.plan.divisions.iter().enumerate() {
            let division = db
                .create_division(league, id, name, position as i64)
                .await?;
            divisions.push(division.id);
        }
        self.summary.divisions += divisions.len() as u64;
        let season = SeasonState {
            id,
            year,
            last,
            divisions,
        };

        self.enter_teams(&season).await?;
        let mut fixtures = self.create_fixtures(&season).await?;
        decide_fates(&mut fixtures, last, self.rng);
        let mut played = Vec::new();
        for f in &fixtures {
            played.extend(self.settle(&season, f).await?);
        }
        self.give_penalties(&season, &played).await?;
        if last {
            self.cups(&season).await?;
            self.boards_in_progress(&fixtures).await?;
        } else {
            // A past season is kept as it was (LEAGUE.md).
            db.close_season(league, id).await?;
        }
        Ok(id)
    }

    /// Enters every team in its division, with this season's players: most
    /// stay, a few leave, new ones join; and one or two captains, last
    /// season's where they stayed.
    async fn enter_teams(&mut self, season: &SeasonState) -> Result<(), DemoError> {
        let (db, league) = (self.db, self.league);
        let needed = players_needed(&self.plan.match_format.boards);
        for team in &mut self.teams {
            let rng = &mut *self.rng;
            db.enter_team(league, season.id, season.divisions[team.division], team.id)
                .await?;
            let returning = !team.roster.is_empty();
            team.roster.retain(|_| !rng.chance(80));
            let mut want = needed + 1 + rng.below(3) as usize;
            if returning && rng.chance(250) {
                want = want.max(team.roster.len() + 1);
            }
            while team.roster.len() < want {
                let name = player_name(rng, &mut self.names);
                let player = db.create_player(league, &name).await?;
                self.summary.players += 1;
                team.roster.push(Member {
                    id: player.id,
                    name: player.name,
                });
            }
            for m in &team.roster {
                crate::app::registrations::register_player(db, league, season.id, team.id, m.id)
                    .await?;
            }
            let roster = &team.roster;
            team.captains.retain(|c| roster.iter().any(|m| m.id == *c));
            let count = if rng.chance(300) { 2 } else { 1 };
            while team.captains.len() < count {
                let m = &roster[rng.below(roster.len() as u32) as usize];
                if !team.captains.contains(&m.id) {
                    team.captains.push(m.id);
                }
            }
            for &c in &team.captains {
                crate::app::teams::add_captain(db, league, season.id, team.id, c).await?;
            }
        }
        Ok(())
    }

    /// Every fixture of the season as the league's generator makes it,
    /// round by round across the divisions, at the home team's pub.
    async fn create_fixtures(&mut self, season: &SeasonState) -> Result<Vec<Planned>, DemoError> {
        let index: HashMap<i64, usize> = self
            .teams
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.0, i))
            .collect();
        let mut drafts = Vec::with_capacity(season.divisions.len());
        for d in 0..season.divisions.len() {
            let ours = self.teams.iter().filter(|t| t.division == d);
            let slots: Vec<TeamSlot> = ours
                .clone()
                .map(|t| TeamSlot {
                    team: t.id.0,
                    venue: Some(t.venue.0),
                })
                .collect();
            let tables = ours.map(|t| (t.venue.0, t.tables)).collect();
            let request = season_request(season.year, self.plan.weekday, &slots, tables);
            drafts.push(
                fixtures::generate(&request)
                    .map_err(|e| DemoError::Options(format!("fixtures: {e}")))?,
            );
        }
        let rounds = drafts.iter().map(|d| d.rounds.len()).max().unwrap_or(0);
        let mut out = Vec::new();
        for r in 0..rounds {
            for (draft, &division) in drafts.iter().zip(&season.divisions) {
                let Some(round) = draft.rounds.get(r) else {
                    continue;
                };
                for pairing in &round.matches {
                    let (home, away) = (index[&pairing.home], index[&pairing.away]);
                    let new = NewFixture {
                        season_id: season.id,
                        division_id: division,
                        round: i64::from(round.number),
                        starts_at: Some(in_england(draft.starts_at(round))),
                        home_team_id: self.teams[home].id,
                        away_team_id: self.teams[away].id,
                        venue_id: Some(self.teams[home].venue),
                    };
                    out.push(Planned {
                        fixture: self.db.create_fixture(self.league, &new).await?,
                        home,
                        away,
                        fate: Fate::Played(ResultStatus::Approved),
                    });
                }
            }
        }
        self.summary.fixtures += out.len() as u64;
        Ok(out)
    }

    /// A fixture's match as the simulator plays it.
    fn play(&mut self, f: &Planned) -> Result<PlayedMatch, DemoError> {
        play_match(
            &self.ruleset,
            &self.plan.match_format.boards,
            &self.teams[f.home].roster,
            &self.teams[f.away].roster,
            self.rng,
        )
    }

    /// The next unplayed fixture being played on the score pads: its first
    /// board finished, the second halfway through its game, the third just
    /// set up; so the live page and a pad mid-game have something to show.
    async fn boards_in_progress(&mut self, fixtures: &[Planned]) -> Result<(), DemoError> {
        let Some(f) = fixtures.iter().find(|f| matches!(f.fate, Fate::Scheduled)) else {
            return Ok(());
        };
        let m = self.play(f)?;
        let roster = |team: usize| -> Vec<(i64, String)> {
            self.teams[team]
                .roster
                .iter()
                .map(|p| (p.id.0, p.name.clone()))
                .collect()
        };
        let (home, away) = (roster(f.home), roster(f.away));
        let boards = m.result.boards.iter().zip(&self.plan.match_format.boards);
        for (number, (board, spec)) in boards.enumerate().take(3) {
            let ids = |p: &[PlayerId]| p.iter().map(|id| id.0).collect::<Vec<_>>();
            let records: Vec<_> = board.games.iter().map(|g| g.record.clone()).collect();
            let mut taps = taps_for_board(&ids(&board.home), &ids(&board.away), &records);
            match number {
                0 => {}
                1 => taps.truncate(2 + (taps.len() - 2) / 2),
                _ => taps.truncate(2),
            }
            let rules = PadRules {
                ruleset: &self.ruleset,
                kind: spec.kind,
                best_of: spec.best_of,
                home: &home,
                away: &away,
            };
            let (pad, refused) = replay(&rules, &taps);
            if let Some(r) = refused {
                return Err(DemoError::Engine(format!(
                    "the score pad refused tap {} of a demo board: {}",
                    r.index + 1,
                    r.reason
                )));
            }
            let summary = pad.summary(self.ruleset.pose == PoseRule::Rotate);
            self.db
                .save_pad(
                    self.league,
                    f.fixture.id,
                    number as i64 + 1,
                    0,
                    &taps,
                    &summary,
                    None,
                )
                .await?;
        }
        Ok(())
    }

    /// Plays, postpones, concedes or voids one fixture as its fate says.
    async fn settle(
        &mut self,
        season: &SeasonState,
        f: &Planned,
    ) -> Result<Option<Played>, DemoError> {
        let (db, league, id) = (self.db, self.league, f.fixture.id);
        let change = |status, conceded_by| FixtureChange {
            status,
            conceded_by,
            ..FixtureChange::from(&f.fixture)
        };
        match f.fate {
            Fate::Scheduled => {}
            Fate::Played(status) => {
                let m = self.play(f)?;
                crate::app::results::write(db, league, id, &m.result, None).await?;
                if status != ResultStatus::Entered {
                    crate::app::results::set_status(db, league, id, status, "", None).await?;
                }
                crate::app::fixtures::change(
                    db,
                    league,
                    id,
                    &change(FixtureStatus::Played, None),
                    None,
                )
                .await?;
                self.summary.results += 1;
                self.summary.games += m.games;
                self.summary.hands += m.hands;
                self.summary.game_penalties += m.game_penalties;
                return Ok(Some(Played {
                    fixture: f.fixture.clone(),
                    home: f.home,
                    away: f.away,
                    players: m.home.into_iter().chain(m.away).collect(),
                }));
            }
            Fate::Postponed => {
                // Rearranged for two nights after the next round, moving no
                // other fixture.
                let moved = FixtureChange {
                    starts_at: f.fixture.starts_at.map(|t| t + Duration::days(16)),
                    ..change(FixtureStatus::Postponed, None)
                };
                crate::app::fixtures::change(db, league, id, &moved, None).await?;
            }
            Fate::Walkover(side) => {
                let walkover = change(FixtureStatus::Walkover, Some(side));
                crate::app::fixtures::change(db, league, id, &walkover, None).await?;
                let team = if side == Side::Home { f.home } else { f.away };
                let penalty = NewPenalty {
                    season_id: season.id,
                    fixture_id: Some(id),
                    team_id: Some(self.teams[team].id),
                    player_id: None,
                    kind_id: self.kinds[FINE],
                    amount: 1000,
                    note: "Fine: conceded the match, could not raise a team".into(),
                };
                let paid_at = f.fixture.starts_at.map(|t| t + Duration::days(21));
                self.penalty(&penalty, paid_at).await?;
            }
            Fate::Void => {
                crate::app::fixtures::change(
                    db,
                    league,
                    id,
                    &change(FixtureStatus::Void, None),
                    None,
                )
                .await?;
            }
        }
        Ok(None)
    }

    /// Records a penalty and, for a fine, its line in the ledger (paid at
    /// `paid_at`, or owed).
    async fn penalty(
        &mut self,
        new: &NewPenalty,
        paid_at: Option<DateTime<Utc>>,
    ) -> Result<(), DemoError> {
        let (db, league) = (self.db, self.league);
        let reason = new
            .note
            .strip_prefix("Fine: ")
            .unwrap_or(&new.note)
            .to_owned();
        let (_, fine) =
            crate::app::penalties::record_with_fine(db, league, new, Some(reason), None).await?;
        self.summary.penalties += 1;
        if let Some(line) = fine {
            self.summary.fines += 1;
            if paid_at.is_some() {
                db.set_fine_paid(league, line.id, paid_at, None).await?;
            }
        }
        Ok(())
    }

    /// The penalties of the league's list that are not in game records, a
    /// few of each kind a season (one at least), on fixtures played:
    /// warnings to players, league points off teams, fines to both, most of
    /// them paid.
    async fn give_penalties(
        &mut self,
        season: &SeasonState,
        played: &[Played],
    ) -> Result<(), DemoError> {
        if played.is_empty() {
            return Ok(());
        }
        let each = (played.len() / 30).max(1);
        for spec in penalty_kinds(self.plan.format) {
            // In-game kinds are in the records; the penalty for a repeat
            // at the table is what a second warning stands for (the
            // repeat rule), so the demo gives only the warnings.
            if spec.in_game.is_some() || spec.effect == PenaltyEffect::PenaltyGames {
                continue;
            }
            for _ in 0..each {
                let rng = &mut *self.rng;
                let p = &played[rng.below(played.len() as u32) as usize];
                let (team, reporter) = if rng.chance(500) {
                    (p.home, "away")
                } else {
                    (p.away, "home")
                };
                let team = Some(self.teams[team].id);
                let player = Some(p.players[rng.below(p.players.len() as u32) as usize].id);
                let (team_id, player_id, amount, note) = match spec.effect {
                    PenaltyEffect::Warning => {
                        let what = ["Phone out at the table", "Drink on the table during play"]
                            [rng.below(2) as usize];
                        (None, player, 0, format!("{what}: warned"))
                    }
                    PenaltyEffect::LeaguePoints if spec.code == LATE_CARD => {
                        let days = 3 + rng.below(9);
                        let note = format!("Result card reached the secretary {days} days late");
                        (Some(self.teams[p.home].id), None, spec.amount, note)
                    }
                    PenaltyEffect::LeaguePoints if spec.code == TEAM_LATE => {
                        let minutes = 10 + 5 * rng.below(6);
                        let note = format!("Not ready to start until {minutes} minutes past 8pm");
                        (team, None, spec.amount, note)
                    }
                    PenaltyEffect::LeaguePoints => {
                        let note = format!(
                            "Fielded a player not registered with the team (reported by the \
                             {reporter} captain)"
                        );
                        (team, None, spec.amount, note)
                    }
                    _ => {
                        let amount = [250, 500, 1000][rng.below(3) as usize];
                        if rng.chance(400) {
                            let note = "Fine: abusive language to an opponent".to_owned();
                            (None, player, amount, note)
                        } else {
                            let why = ["no result card sent", "short-handed team", "match fees"];
                            let note = format!("Fine: {}", why[rng.below(3) as usize]);
                            (team, None, amount, note)
                        }
                    }
                };
                // Settled within a month; a few owed, more in the season
                // still going.
                let owed = rng.chance(if season.last { 500 } else { 100 });
                let days = Duration::days(7 + i64::from(rng.below(28)));
                let paid_at = p.fixture.starts_at.filter(|_| !owed).map(|t| t + days);
                let new = NewPenalty {
                    season_id: season.id,
                    fixture_id: Some(p.fixture.id),
                    team_id,
                    player_id,
                    kind_id: self.kinds[spec.code],
                    amount,
                    note,
                };
                self.penalty(&new, paid_at).await?;
            }
        }
        Ok(())
    }
}

/// A finished season: everything played and approved. The last season:
/// the first half of the rounds played, the rest scheduled; in the last
/// round played two results pending (one entered, one confirmed) and one
/// fixture postponed; a walkover and a void fixture earlier on.
fn decide_fates(fixtures: &mut [Planned], last: bool, rng: &mut Rng) {
    if !last {
        return;
    }
    let rounds = fixtures.iter().map(|f| f.fixture.round).max().unwrap_or(0);
    let played = (rounds / 2).max(1);
    for f in fixtures.iter_mut() {
        if f.fixture.round > played {
            f.fate = Fate::Scheduled;
        }
    }
    // The latest fixture still to be played and approved in round `round`
    // or before.
    let take = |fixtures: &mut [Planned], round: i64, fate: Fate| {
        let found = fixtures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.fate == Fate::Played(ResultStatus::Approved))
            .filter(|(_, f)| f.fixture.round <= round)
            .max_by_key(|(i, f)| (f.fixture.round, std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        if let Some(i) = found {
            fixtures[i].fate = fate;
        }
    };
    take(fixtures, played, Fate::Played(ResultStatus::Entered));
    take(fixtures, played, Fate::Played(ResultStatus::Confirmed));
    take(fixtures, played, Fate::Postponed);
    let side = if rng.chance(500) {
        Side::Home
    } else {
        Side::Away
    };
    take(fixtures, (played * 2 / 3).max(1), Fate::Walkover(side));
    take(fixtures, (played / 3).max(1), Fate::Void);
}

// ---------------------------------------------------------------------------
// Accounts

/// Player accounts made in each league.
pub const PLAYER_ACCOUNTS: usize = 3;

/// The longest username an account may have.
const USERNAME_MAX: usize = 40;

/// An account [`fill_with_accounts`] made, with its password.
#[derive(Clone, PartialEq, Eq)]
pub struct DemoAccount {
    /// The league's short name; empty for the administrator.
    pub league: String,
    pub role: RoleKind,
    /// The team captained, or the player's team this season; empty for a
    /// secretary and the administrator.
    pub team: String,
    pub username: String,
    pub password: String,
}

impl fmt::Debug for DemoAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DemoAccount")
            .field("league", &self.league)
            .field("role", &self.role)
            .field("team", &self.team)
            .field("username", &self.username)
            .field("password", &"[redacted]")
            .finish()
    }
}

/// Accounts as a table to print: league, role, team, username, password,
/// one account a line under a heading, the columns aligned.
pub struct AccountTable<'a>(pub &'a [DemoAccount]);

impl fmt::Display for AccountTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or_dash = |s: &str| {
            if s.is_empty() {
                "-".to_owned()
            } else {
                s.to_owned()
            }
        };
        let rows = self.0.iter().map(|a| {
            [
                or_dash(&a.league),
                a.role.as_str().to_owned(),
                or_dash(&a.team),
                a.username.clone(),
                a.password.clone(),
            ]
        });
        let heading = ["league", "role", "team", "username", "password"].map(str::to_owned);
        let rows: Vec<[String; 5]> = std::iter::once(heading).chain(rows).collect();
        let mut widths = [0; 5];
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let mut line = String::new();
            for (cell, w) in row.iter().zip(widths) {
                line.push_str(&format!("{cell:<w$}  "));
            }
            f.write_str(line.trim_end())?;
        }
        Ok(())
    }
}

/// Crockford's base32 in lower case: no `i`, `l`, `o` or `u` to misread.
const PASSWORD_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A new password from the operating system's random generator: 16
/// base32 characters (80 bits) in groups of four, `k7m2-q9xa-4bne-t3hw`.
fn new_password() -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    let mut out = String::with_capacity(19);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        // 256 is a multiple of 32: every character is equally likely.
        out.push(char::from(PASSWORD_ALPHABET[usize::from(b % 32)]));
    }
    out
}

/// `name` as a username: lower-case letters and digits, anything else a
/// single dash (an apostrophe nothing: `King's Head` is `kings-head`).
fn username_slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().filter(|&c| c != '\'') {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// `base`, or for `n` of 2 and more `base-n`, cut to a username's length.
fn numbered(base: &str, n: u32) -> String {
    let suffix = if n < 2 {
        String::new()
    } else {
        format!("-{n}")
    };
    // The slug is ASCII: any byte is a character boundary.
    let mut cut = base[..base.len().min(USERNAME_MAX - suffix.len())].to_owned();
    while cut.ends_with('-') {
        cut.pop();
    }
    cut + &suffix
}

/// The role an account is given once it exists.
#[derive(Debug, Clone, Copy)]
enum Grant {
    Administrator,
    Secretary(LeagueId),
    Captain(LeagueId, SeasonId, TeamId),
    Player(LeagueId, PlayerId),
}

impl Grant {
    fn kind(self) -> RoleKind {
        match self {
            Grant::Administrator => RoleKind::Administrator,
            Grant::Secretary(..) => RoleKind::Secretary,
            Grant::Captain(..) => RoleKind::Captain,
            Grant::Player(..) => RoleKind::Player,
        }
    }

    fn role(self, user: UserId) -> NewRole {
        match self {
            Grant::Administrator => NewRole::administrator(user),
            Grant::Secretary(league) => NewRole::secretary(user, league),
            Grant::Captain(league, season, team) => NewRole::captain(user, league, season, team),
            Grant::Player(league, player) => NewRole::player(user, league, player),
        }
    }
}

/// A password being hashed in the background; dropped unfinished (the
/// demo failed), it is abandoned.
struct Hashing(JoinHandle<Result<String, String>>);

impl Drop for Hashing {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// An account to make once its password's hash is ready.
struct PlannedAccount {
    account: DemoAccount,
    /// The username before any `-n`, and the `n` it has now.
    base: String,
    n: u32,
    grant: Grant,
    hash: Hashing,
}

/// The demo's accounts: planned (and their passwords hashed, a few at a
/// time) as each league is written, created at the end.
struct Accounts {
    /// As many hashes at once as there are cores, four at most: each
    /// takes 19 MiB.
    hashing: Arc<Semaphore>,
    planned: Vec<PlannedAccount>,
    /// Usernames this run has given out.
    usernames: HashSet<String>,
}

impl Accounts {
    fn new() -> Accounts {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        Accounts {
            hashing: Arc::new(Semaphore::new(workers)),
            planned: Vec::new(),
            usernames: HashSet::new(),
        }
    }

    /// The first of `base`, `base-2`, ... not given out yet in this run.
    fn next_free(usernames: &mut HashSet<String>, base: &str, n: &mut u32) -> String {
        loop {
            let candidate = numbered(base, *n);
            if usernames.insert(candidate.clone()) {
                return candidate;
            }
            *n = (*n).max(1) + 1;
        }
    }

    /// An account named after `name`, with a new password whose hash is
    /// started now.
    fn plan(&mut self, league: &str, team: &str, grant: Grant, name: &str) {
        let base = username_slug(name);
        let mut n = 1;
        let username = Accounts::next_free(&mut self.usernames, &base, &mut n);
        let password = new_password();
        let permits = Arc::clone(&self.hashing);
        let to_hash = password.clone();
        let hash = Hashing(tokio::spawn(async move {
            let _permit = permits.acquire_owned().await.map_err(|e| e.to_string())?;
            crate::web::auth::hash_password(to_hash)
                .await
                .map_err(|e| e.to_string())
        }));
        self.planned.push(PlannedAccount {
            account: DemoAccount {
                league: league.to_owned(),
                role: grant.kind(),
                team: team.to_owned(),
                username,
                password,
            },
            base,
            n,
            grant,
            hash,
        });
    }

    /// A league's secretary, a captain for each team of its current
    /// season, and [`PLAYER_ACCOUNTS`] of its players.
    fn plan_league(&mut self, plan: &LeaguePlan, written: &Written) {
        let short = plan.short_name.as_str();
        let league = written.league;
        self.plan(short, "", Grant::Secretary(league), &format!("sec-{short}"));
        for (t, team) in plan.teams.iter().zip(&written.teams) {
            let grant = Grant::Captain(league, written.season, team.id);
            self.plan(short, &t.name, grant, &format!("cap-{short}-{}", t.name));
        }
        for (team, member) in account_players(plan, written) {
            let grant = Grant::Player(league, member.id);
            self.plan(
                short,
                team,
                grant,
                &format!("player-{short}-{}", member.name),
            );
        }
    }

    /// Creates the accounts, in the order planned, as their hashes are
    /// ready. A username someone already has gets the next free `-n`.
    async fn create(self, db: &Db) -> Result<Vec<DemoAccount>, DemoError> {
        let Accounts {
            planned,
            mut usernames,
            ..
        } = self;
        let mut made = Vec::with_capacity(planned.len());
        for mut p in planned {
            let hash = (&mut p.hash.0)
                .await
                .map_err(|e| DemoError::Accounts(format!("hashing task: {e}")))?
                .map_err(DemoError::Accounts)?;
            let user = loop {
                match db.create_user(&p.account.username, &hash).await {
                    Ok(user) => break user,
                    Err(DbError::Unique(_)) => {
                        p.n = p.n.max(1) + 1;
                        p.account.username = Accounts::next_free(&mut usernames, &p.base, &mut p.n);
                    }
                    Err(e) => return Err(e.into()),
                }
            };
            db.grant_role(&p.grant.role(user.id), None).await?;
            made.push(p.account.clone());
        }
        Ok(made)
    }
}

/// The players given accounts: each from another team as far as the teams
/// go, and none a captain (the captain's account is the team's).
fn account_players<'a>(plan: &'a LeaguePlan, written: &'a Written) -> Vec<(&'a str, &'a Member)> {
    let mut out = Vec::new();
    let mut round = 0;
    loop {
        let mut found = false;
        for (t, team) in plan.teams.iter().zip(&written.teams) {
            let mut others = team
                .roster
                .iter()
                .filter(|m| !team.captains.contains(&m.id));
            let Some(member) = others.nth(round) else {
                continue;
            };
            found = true;
            out.push((t.name.as_str(), member));
            if out.len() == PLAYER_ACCOUNTS {
                return out;
            }
        }
        if !found {
            return out;
        }
        round += 1;
    }
}
