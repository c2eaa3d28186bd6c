//! The demo league: `boneyard demo` fills a database with leagues a newcomer
//! can explore and a benchmark can load.
//!
//! By default one league of each format (a Fives and Threes pub league with
//! two divisions, an All Fives tournament, a `hands-won` partnership
//! league), each with one finished season and one being played, with
//! venues, teams, players, captains, results, cups, penalties and fines.
//! Every hand is actually played: the simulator deals a double-six set and
//! plays legal tiles ([`simulate_board`]), the engine scores each game
//! ([`score_record`]) and the result is stored hand by hand through the
//! database layer, so the data has the shape real games have.
//!
//! The leagues are as they would be in the week the demo is made
//! ([`calendar`]): they play on that day's weekday, and the season being
//! played has its current round tonight, some of its matches under way on
//! the score pads ([`tonight`]); the rounds before are played and approved
//! but for last week's results still going through the workflow and one
//! left late ([`fates`]); next week's round and the rest are to come.
//! Results are entered, confirmed and approved by the demo's own accounts,
//! dated on the nights and days after their matches.
//!
//! Everything is drawn from one [`Rng`] per league seeded from
//! [`DemoOptions::seed`]: the same options made on the same day give the
//! same leagues, names and games. (Times the database stamps itself, such
//! as an account's `created_at`, are the time of the run.)
//!
//! The plan (names, schedules, line-ups, games, fates) is plain functions;
//! only [`fill`] and its helpers touch the database, through [`Db`]'s own
//! API and the use cases.
//!
//! [`fill_with_accounts`] also makes someone to sign in as
//! ([`accounts`]): each league's secretary, the captains of its teams this
//! season and a few of its players, and the installation's administrator
//! when it has no account yet.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use chrono::{DateTime, Datelike, Duration, Utc, Weekday};
use serde_json::Map;

use crate::app::results::Recorded;
use crate::db::{
    BoardKind, BoardResult, Db, DbError, DivisionId, Fixture, FixtureChange, FixtureStatus,
    GameOutcome, GameResult, LeagueId, MatchResult, NewFixture, NewLeague, NewPenalty,
    NewPenaltyKind, NewSeason, NewVenue, PenaltyEffect, PenaltyKindId, PlayerId, ResultStatus,
    SeasonId, Side, TeamId, UserId, VenueId,
};
use crate::league::fixtures::{self, FixtureRequest, TeamSlot};
use crate::league::match_format::{BoardSpec, MatchFormat};
use crate::league::penalties::{DefaultKind, FINE, LATE_CARD, TEAM_LATE, kinds_for};
use crate::rules::simulate::{Rng, Style, simulate_board};
use crate::rules::{Format, Ruleset, score_record};

mod accounts;
mod calendar;
mod cups;
mod fates;
mod tonight;

pub use accounts::{AccountTable, DemoAccount, PLAYER_ACCOUNTS};
use accounts::{Accounts, People};
use calendar::{SeasonDates, Today};
use fates::Fate;

/// Most leagues one run makes (a county association is about 50).
pub const MAX_LEAGUES: u32 = 200;
/// Most teams in one division.
pub const MAX_TEAMS: u32 = 30;
pub const MAX_SEASONS: u32 = 10;
pub const MAX_DIVISIONS: u32 = 6;

/// What to make. [`Default`] is the demo a newcomer gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoOptions {
    /// Leagues to make; formats cycle fives-and-threes, all-fives,
    /// hands-won. Default 3: one of each.
    pub leagues: u32,
    /// Teams in each division. Default 8.
    pub teams: u32,
    /// Seasons in each league; all finished but the last, which is
    /// half-played, its current round tonight. Default 2.
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

/// Fills `db` with the demo leagues and says what it wrote, as they are
/// today.
///
/// Short names already taken in `db` are not reused (a second run adds
/// `wessex-2`, ...), so a demo can be added to a database that has one.
///
/// No accounts are made: this is the demo a benchmark loads, its results
/// entered by nobody in particular. The one a newcomer gets is
/// [`fill_with_accounts`].
pub async fn fill(db: &Db, options: &DemoOptions) -> Result<DemoSummary, DemoError> {
    fill_at(db, options, crate::db::now()).await
}

/// [`fill`] as if made at `now`: the leagues as they are in that week.
pub async fn fill_at(
    db: &Db,
    options: &DemoOptions,
    now: DateTime<Utc>,
) -> Result<DemoSummary, DemoError> {
    fill_leagues(db, options, Today::at(now), None, &mut |_| {}).await
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
/// The league's results are entered by its captains' accounts, confirmed
/// by the other team's and approved by its secretary's.
///
/// Every account has its own random password, new on every run; the hashes
/// are made off the async threads, a few at a time, while the leagues are
/// being written.
pub async fn fill_with_accounts(db: &Db, options: &DemoOptions) -> Result<Demo, DemoError> {
    fill_with_accounts_at(db, options, crate::db::now()).await
}

/// [`fill_with_accounts`] as if made at `now`.
pub async fn fill_with_accounts_at(
    db: &Db,
    options: &DemoOptions,
    now: DateTime<Utc>,
) -> Result<Demo, DemoError> {
    fill_made(db, options, Today::at(now), &mut |_| {}).await
}

/// [`fill_with_accounts`], calling `report` after each league.
pub async fn fill_reporting(
    db: &Db,
    options: &DemoOptions,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<Demo, DemoError> {
    fill_made(db, options, Today::at(crate::db::now()), report).await
}

async fn fill_made(
    db: &Db,
    options: &DemoOptions,
    today: Today,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<Demo, DemoError> {
    check(options)?;
    let mut accounts = Accounts::new().await?;
    // The accounts are written in the bulk load too: made one durable
    // commit at a time after it, hundreds of them waited on the disk.
    let loader = db.begin_bulk_load().await?;
    let filled = async {
        let summary = fill_all(&loader, options, today, Some(&mut accounts), report).await?;
        let accounts = accounts.create(&loader).await?;
        Ok(Demo { summary, accounts })
    }
    .await;
    db.end_bulk_load(loader).await?;
    filled
}

async fn fill_leagues(
    db: &Db,
    options: &DemoOptions,
    today: Today,
    accounts: Option<&mut Accounts>,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<DemoSummary, DemoError> {
    check(options)?;
    // One durable commit per result made the demo wait on the disk for
    // most of its time: the whole fill is one bulk load, synced at the end.
    let loader = db.begin_bulk_load().await?;
    let filled = fill_all(&loader, options, today, accounts, report).await;
    db.end_bulk_load(loader).await?;
    filled
}

async fn fill_all(
    db: &Db,
    options: &DemoOptions,
    today: Today,
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
            accounts.administrator();
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
            // The people its results name, made before them.
            let people = match accounts.as_deref_mut() {
                Some(accounts) => Some(accounts.people(db, &league).await?),
                None => None,
            };
            plans.push((index, league, rng, DemoSummary::default(), people));
        }
        let filled = futures_util::future::join_all(plans.iter_mut().map(
            |(_, league, rng, part, people)| {
                let setting = Setting {
                    seasons: options.seasons,
                    today,
                    people: people.clone(),
                };
                fill_league(db, league, setting, rng, part)
            },
        ))
        .await;
        for ((index, league, _, part, people), written) in plans.iter().zip(filled) {
            let written = written?;
            summary.add(part);
            if let (Some(accounts), Some(people)) = (accounts.as_deref_mut(), people) {
                accounts.plan_league(people, league, &written);
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

/// A season's fixtures of one division by the league's generator: home
/// and away, one round a week on `weekday` from `dates`' start, at 8pm,
/// passing over its skipped days. Teams sharing a pub are kept apart on
/// its nights as its tables require.
fn season_request(
    dates: &SeasonDates,
    weekday: Weekday,
    teams: &[TeamSlot],
    venue_tables: BTreeMap<i64, u32>,
) -> FixtureRequest {
    FixtureRequest {
        teams: teams.to_vec(),
        meetings: 2,
        start: dates.start,
        weekday,
        kick_off: calendar::kick_off(),
        skip: dates.skip.clone(),
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
    /// Whether a result is left late this week: in two leagues of three,
    /// so the default demo has a couple.
    leave_late: bool,
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
        leave_late: i % 3 != 2,
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
    dates: SeasonDates,
    /// The round played tonight, in the season being played; `None` in a
    /// finished one.
    tonight: Option<i64>,
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
    today: Today,
    /// Who enters, confirms and approves its results, when it has
    /// accounts.
    people: Option<People>,
}

/// What a league is written with besides its plan.
struct Setting {
    seasons: u32,
    today: Today,
    people: Option<People>,
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
    setting: Setting,
    rng: &mut Rng,
    summary: &mut DemoSummary,
) -> Result<Written, DemoError> {
    let mut writer = LeagueWriter::create(db, plan, rng, summary, setting.today).await?;
    writer.people = setting.people;
    let (current, rounds) = writer.current_dates()?;
    let seasons = setting.seasons as i32;
    for back in (1..seasons).rev() {
        writer
            .season(calendar::past(current.year - back), None)
            .await?;
    }
    let tonight = i64::try_from(calendar::current_round(rounds)).unwrap_or(1);
    let season = writer.season(current, Some(tonight)).await?;
    Ok(Written {
        league: writer.league,
        season,
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
        today: Today,
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
            today,
            people: None,
        })
    }

    /// Each division's fixtures as the league's generator draws them over
    /// `dates`, on today's weekday.
    fn drafts(&self, dates: &SeasonDates) -> Result<Vec<fixtures::Draft>, DemoError> {
        (0..self.plan.divisions.len())
            .map(|d| {
                let ours = self.teams.iter().filter(|t| t.division == d);
                let slots: Vec<TeamSlot> = ours
                    .clone()
                    .map(|t| TeamSlot {
                        team: t.id.0,
                        venue: Some(t.venue.0),
                    })
                    .collect();
                let tables = ours.map(|t| (t.venue.0, t.tables)).collect();
                let request = season_request(dates, self.today.weekday(), &slots, tables);
                fixtures::generate(&request)
                    .map_err(|e| DemoError::Options(format!("fixtures: {e}")))
            })
            .collect()
    }

    /// The season being played's dates (its current round tonight) and
    /// its number of rounds.
    fn current_dates(&self) -> Result<(SeasonDates, usize), DemoError> {
        // The rounds are as many whenever they start.
        let rounds = self
            .drafts(&calendar::past(self.today.date.year()))?
            .iter()
            .map(|d| d.rounds.len())
            .max()
            .unwrap_or(0);
        Ok((calendar::current(self.today, rounds), rounds))
    }

    /// A season from its divisions to its penalties; the one being played
    /// (`tonight` its current round) with its cups and tonight's pads.
    async fn season(
        &mut self,
        dates: SeasonDates,
        tonight: Option<i64>,
    ) -> Result<SeasonId, DemoError> {
        let (db, league) = (self.db, self.league);
        let id = crate::app::seasons::create_season(
            db,
            league,
            &NewSeason {
                name: season_name(dates.year),
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
            dates,
            tonight,
            divisions,
        };

        self.enter_teams(&season).await?;
        let mut fixtures = self.create_fixtures(&season).await?;
        let rounds: Vec<i64> = fixtures.iter().map(|f| f.fixture.round).collect();
        let fates = fates::decide(&rounds, tonight, self.plan.leave_late, self.rng);
        for (f, fate) in fixtures.iter_mut().zip(fates) {
            f.fate = fate;
        }
        let mut played = Vec::new();
        for f in &fixtures {
            played.extend(self.settle(&season, f).await?);
        }
        self.give_penalties(&season, &played).await?;
        match tonight {
            Some(round) => {
                self.cups(&season).await?;
                self.tonight(&fixtures, round).await?;
            }
            // A past season is kept as it was (LEAGUE.md).
            None => db.close_season(league, id).await?,
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
        let drafts = self.drafts(&season.dates)?;
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
                        starts_at: Some(calendar::in_zone(round.date, calendar::kick_off())),
                        home_team_id: self.teams[home].id,
                        away_team_id: self.teams[away].id,
                        venue_id: Some(self.teams[home].venue),
                    };
                    out.push(Planned {
                        fixture: self.db.create_fixture(self.league, &new).await?,
                        home,
                        away,
                        fate: Fate::Scheduled,
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

    /// How a played match's result came in: entered on the night by the
    /// home captain (now and then the away one), and now `status`:
    /// confirmed or disputed by the other captain the day after, approved
    /// by the secretary a few days on. Without accounts, by nobody in
    /// particular; nothing after the demo was made.
    fn card(
        &mut self,
        night: DateTime<Utc>,
        home: usize,
        away: usize,
        status: ResultStatus,
    ) -> Card {
        let rng = &mut *self.rng;
        let (entering, other) = if rng.chance(250) {
            (away, home)
        } else {
            (home, away)
        };
        let captain = |team: usize| self.people.as_ref().map(|p| p.captains[team]);
        let entered_at = night + Duration::minutes(i64::from(110 + rng.below(70)));
        let next_day = entered_at + Duration::hours(i64::from(11 + rng.below(10)));
        let (note, by, at) = match status {
            ResultStatus::Entered => ("", None, entered_at),
            ResultStatus::Confirmed => ("", captain(other), next_day),
            ResultStatus::Disputed => (
                DISPUTES[rng.below(DISPUTES.len() as u32) as usize],
                captain(other),
                next_day,
            ),
            ResultStatus::Approved => {
                let days = Duration::days(i64::from(1 + rng.below(3)));
                (
                    "",
                    self.people.as_ref().map(|p| p.secretary),
                    next_day + days,
                )
            }
        };
        let entered_at = self.today.by_now(entered_at);
        Card {
            by: captain(entering),
            at: entered_at,
            status: (status != ResultStatus::Entered)
                .then(|| (status, note, by, self.today.by_now_since(at, entered_at))),
        }
    }

    /// Stores a played match's result as `card` says.
    async fn record(
        &mut self,
        fixture: &Fixture,
        result: &MatchResult,
        card: &Card,
    ) -> Result<(), DemoError> {
        let recorded = Recorded {
            by: card.by,
            at: card.at,
            status: card.status,
        };
        crate::app::results::record_played(self.db, self.league, fixture.id, result, &recorded)
            .await?;
        Ok(())
    }

    /// The secretary's account, when the league has accounts.
    fn secretary(&self) -> Option<UserId> {
        self.people.as_ref().map(|p| p.secretary)
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
        let night = f.fixture.starts_at.unwrap_or(self.today.now);
        let secretary = self.secretary();
        match f.fate {
            Fate::Scheduled | Fate::Late => {}
            Fate::Played(status) => {
                let m = self.play(f)?;
                let card = self.card(night, f.home, f.away, status);
                self.record(&f.fixture, &m.result, &card).await?;
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
                // Rearranged for two nights after next week's round,
                // moving no other fixture.
                let moved = FixtureChange {
                    starts_at: Some(self.today.night(9)),
                    ..change(FixtureStatus::Postponed, None)
                };
                crate::app::fixtures::change(db, league, id, &moved, secretary).await?;
            }
            Fate::Walkover(side) => {
                let walkover = change(FixtureStatus::Walkover, Some(side));
                crate::app::fixtures::change(db, league, id, &walkover, secretary).await?;
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
                let paid_at = night + Duration::days(21);
                self.penalty(&penalty, night, Some(paid_at)).await?;
            }
            Fate::Void => {
                let void = change(FixtureStatus::Void, None);
                crate::app::fixtures::change(db, league, id, &void, secretary).await?;
            }
        }
        Ok(None)
    }

    /// Records a penalty for the match played on `night` (the day after
    /// it) and, for a fine, its line in the ledger, paid at `paid_at` or
    /// owed (when that is still to come).
    async fn penalty(
        &mut self,
        new: &NewPenalty,
        night: DateTime<Utc>,
        paid_at: Option<DateTime<Utc>>,
    ) -> Result<(), DemoError> {
        let (db, league, by) = (self.db, self.league, self.secretary());
        let reason = new
            .note
            .strip_prefix("Fine: ")
            .unwrap_or(&new.note)
            .to_owned();
        let (penalty, fine) =
            crate::app::penalties::record_with_fine(db, league, new, Some(reason), by).await?;
        db.date_penalty(
            league,
            penalty.id,
            self.today.by_now(night + Duration::days(1)),
        )
        .await?;
        self.summary.penalties += 1;
        if let Some(line) = fine {
            self.summary.fines += 1;
            if let Some(paid_at) = paid_at.filter(|t| *t <= self.today.now) {
                db.set_fine_paid(league, line.id, Some(paid_at), by).await?;
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
                let owed = rng.chance(if season.tonight.is_some() { 500 } else { 100 });
                let days = Duration::days(7 + i64::from(rng.below(28)));
                let night = p.fixture.starts_at.unwrap_or(self.today.now);
                let paid_at = (!owed).then_some(night + days);
                let new = NewPenalty {
                    season_id: season.id,
                    fixture_id: Some(p.fixture.id),
                    team_id,
                    player_id,
                    kind_id: self.kinds[spec.code],
                    amount,
                    note,
                };
                self.penalty(&new, night, paid_at).await?;
            }
        }
        Ok(())
    }
}

/// What captains say when they dispute a result.
const DISPUTES: &[&str] = &[
    "Board 4 was ours: the card has the scores the wrong way round.",
    "We had a different player on board 2: please check the card.",
    "The last game finished 61-58 to us, not to them.",
];

/// Who entered a result and when, and its status now: see
/// [`LeagueWriter::card`].
struct Card {
    by: Option<UserId>,
    at: DateTime<Utc>,
    status: Option<(ResultStatus, &'static str, Option<UserId>, DateTime<Utc>)>,
}
