//! Fixture generation: a division's season as a [`Draft`] the secretary
//! sees before it is saved (LEAGUE.md, "Fixtures"). Pure: no I/O, no clock,
//! no database; the same request always gives the same draft.
//!
//! How a season is built:
//!
//! 1. One leg by the circle method over an even number of *positions*.
//!    With an odd number of teams there is one phantom position more:
//!    whoever meets it that round has the bye. It never becomes a team.
//! 2. Home and away in the leg by de Werra's canonical rule, which gives
//!    every position at most one break (two home or two away running).
//! 3. Further legs replay the first with home and away swapped on every
//!    other leg, each leg starting one round later than the one before, so
//!    that no run of home or away games reaches three across a leg's end.
//! 4. Teams are placed on positions. Positions come in partners that are
//!    never at home on the same night, so teams sharing a venue go on
//!    partner positions, and a venue never has more home matches a night
//!    than half its teams, rounded up. Where that is still more than its
//!    tables, teams swap positions while a swap lowers the clashes. Home
//!    and away are never changed after step 3, so the placement cannot
//!    break a run or a balance. A clash that is left is reported in the
//!    draft ([`Draft::clashes`], [`Draft::warnings`]), not refused: the
//!    secretary decides.
//! 5. Dates: one round a week on the weekday, from the first such day on or
//!    after the start, passing over the dates to skip.
//!
//! Postponing one fixture is not generation: it is an update of that one
//! fixture's date, and nothing here moves.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Datelike, Days, NaiveDate, NaiveDateTime, NaiveTime, Weekday};
use serde::{Deserialize, Serialize};

use super::refusal::Refusal;

/// The most teams one division may have, a guard against a mistaken
/// request: 64 teams already need 63 weeks to meet once.
pub const MAX_TEAMS: usize = 64;

/// The most times a pair may meet in one season. It bounds the size of a
/// draft; the tests check every property up to it.
pub const MAX_MEETINGS: u32 = 8;

/// A team entered in the division, as the caller knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSlot {
    /// The caller's team id; the draft names teams by it.
    pub team: i64,
    /// The team's home venue. Teams without one never clash.
    pub venue: Option<i64>,
}

/// What to generate: a division's teams and how and when they play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixtureRequest {
    pub teams: Vec<TeamSlot>,
    /// How many times each pair meets: 1 once, 2 home and away, and so on.
    pub meetings: u32,
    /// The first round is on the first `weekday` on or after this date.
    pub start: NaiveDate,
    pub weekday: Weekday,
    pub kick_off: NaiveTime,
    /// Nights with no round (holidays, cup nights). A round due on one of
    /// them goes to the next week, and every later round with it.
    #[serde(default)]
    pub skip: Vec<NaiveDate>,
    /// How many matches a venue can host on one night, by venue id. A venue
    /// not listed has 1. Only this division's matches are counted: where a
    /// venue also hosts another division, give the tables left for this one.
    #[serde(default)]
    pub venue_tables: BTreeMap<i64, u32>,
    /// Matches a venue already hosts on a night, from other divisions'
    /// saved fixtures: they take its tables, and teams are placed to keep
    /// off those nights where they can.
    #[serde(default)]
    pub booked: Vec<Booking>,
}

/// A saved fixture as a venue's nights count it: where and on which local
/// night it is played, and whether it is void (a void fixture takes no
/// table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hosted {
    pub venue: Option<i64>,
    pub night: Option<NaiveDate>,
    pub void: bool,
}

/// The matches each venue hosts each night: one table each, a void
/// fixture none, a fixture with no venue or date nowhere.
pub fn venue_nights(fixtures: impl IntoIterator<Item = Hosted>) -> BTreeMap<(i64, NaiveDate), u32> {
    let mut nights: BTreeMap<(i64, NaiveDate), u32> = BTreeMap::new();
    for f in fixtures {
        if let (false, Some(venue), Some(night)) = (f.void, f.venue, f.night) {
            *nights.entry((venue, night)).or_default() += 1;
        }
    }
    nights
}

/// Whether `matches` on one night are more than a venue's `tables`: the
/// one capacity rule the fixture generator and a new date are held to.
pub fn over_tables(matches: u64, tables: u32) -> bool {
    matches > u64::from(tables)
}

/// A division's season is generated once, then changed fixture by
/// fixture: refused when the division has `existing` fixtures already.
pub fn may_generate(existing: i64) -> Result<(), Refusal> {
    if existing > 0 {
        return Err(Refusal::DivisionScheduled { fixtures: existing });
    }
    Ok(())
}

/// A generated season may be thrown away (to be made again) while nothing
/// is `recorded` against its fixtures: results, walkovers, penalties,
/// score-pad boards. Those stay.
pub fn may_discard(recorded: i64) -> Result<(), Refusal> {
    if recorded > 0 {
        return Err(Refusal::FixturesHaveRecords);
    }
    Ok(())
}

/// Home matches of other divisions at a venue on one date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Booking {
    pub venue: i64,
    pub date: NaiveDate,
    pub matches: u32,
}

/// A generated season, not yet saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    pub rounds: Vec<Round>,
    /// The kick-off of every round, from the request.
    pub kick_off: NaiveTime,
    /// Nights when a venue has more home matches than tables, which no
    /// arrangement tried could avoid. Empty when there are none.
    pub clashes: Vec<VenueClash>,
    /// Each clash said in words, for the secretary to read.
    pub warnings: Vec<String>,
}

/// One night of the season.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based, counted through the whole season.
    pub number: u32,
    pub date: NaiveDate,
    pub matches: Vec<Pairing>,
    /// With an odd number of teams, the team that does not play.
    pub bye: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    pub home: i64,
    pub away: i64,
}

/// A venue with more home matches one night than it has tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VenueClash {
    pub round: u32,
    pub date: NaiveDate,
    pub venue: i64,
    pub tables: u32,
    /// The teams at home there that night.
    pub home: Vec<i64>,
    /// Matches of other divisions there that night.
    #[serde(default)]
    pub booked: u32,
}

/// Why a request cannot be turned into a season.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FixtureError {
    #[error("a division needs at least 2 teams to make fixtures; this one has {0}")]
    TooFewTeams(usize),
    #[error("a division can have at most {max} teams; this one has {0}", max = MAX_TEAMS)]
    TooManyTeams(usize),
    #[error("team {0} is listed twice")]
    DuplicateTeam(i64),
    #[error("the number of meetings must be at least 1 (once each)")]
    NoMeetings,
    #[error("teams can meet at most {max} times in a season; asked for {0}", max = MAX_MEETINGS)]
    TooManyMeetings(u32),
    #[error("venue {0} has 0 tables, so it cannot host a match; give it at least 1")]
    NoTables(i64),
    #[error("the season runs past the last date the calendar can hold")]
    DateOutOfRange,
}

impl Draft {
    /// When a round's matches start: its date at the kick-off.
    pub fn starts_at(&self, round: &Round) -> NaiveDateTime {
        round.date.and_time(self.kick_off)
    }
}

/// Generates a division's season. See the module's documentation for how.
pub fn generate(req: &FixtureRequest) -> Result<Draft, FixtureError> {
    validate(req)?;
    let n = req.teams.len();

    // Positions: 0..n are the teams' places; with an odd n, position n is
    // the phantom, the fixed point of the circle.
    let positions = n + n % 2;
    let leg = circle(positions);
    let season = legs(&leg, req.meetings as usize);
    let dates = dates(req, season.len())?;
    let venues = Venues::new(req, &dates);
    let team_at = place(&leg, &season, n, &venues);

    let plan = in_teams(&season, &team_at);

    let rounds: Vec<Round> = plan
        .iter()
        .zip(dates)
        .enumerate()
        .map(|(i, ((matches, bye), date))| Round {
            number: i as u32 + 1,
            date,
            matches: matches
                .iter()
                .map(|&(h, a)| Pairing {
                    home: req.teams[h].team,
                    away: req.teams[a].team,
                })
                .collect(),
            bye: bye.map(|t| req.teams[t].team),
        })
        .collect();
    let clashes = find_clashes(&rounds, req);
    let warnings = clashes.iter().map(describe).collect();
    Ok(Draft {
        rounds,
        kick_off: req.kick_off,
        clashes,
        warnings,
    })
}

fn validate(req: &FixtureRequest) -> Result<(), FixtureError> {
    let n = req.teams.len();
    if n < 2 {
        return Err(FixtureError::TooFewTeams(n));
    }
    if n > MAX_TEAMS {
        return Err(FixtureError::TooManyTeams(n));
    }
    if req.meetings == 0 {
        return Err(FixtureError::NoMeetings);
    }
    if req.meetings > MAX_MEETINGS {
        return Err(FixtureError::TooManyMeetings(req.meetings));
    }
    let mut seen = BTreeSet::new();
    for slot in &req.teams {
        if !seen.insert(slot.team) {
            return Err(FixtureError::DuplicateTeam(slot.team));
        }
        // Only the venues this division uses: a closed pub elsewhere in the
        // league should not stop its fixtures.
        if let Some(v) = slot.venue
            && req.venue_tables.get(&v) == Some(&0)
        {
            return Err(FixtureError::NoTables(v));
        }
    }
    Ok(())
}

/// The teams' venues as dense indices, so loads can be counted in arrays.
struct Venues {
    /// For each team (by index in the request), its venue's index.
    of: Vec<Option<usize>>,
    tables: Vec<u32>,
    /// For each venue and round, the tables other divisions take.
    booked: Vec<Vec<u32>>,
}

impl Venues {
    fn new(req: &FixtureRequest, dates: &[NaiveDate]) -> Self {
        let mut index: BTreeMap<i64, usize> = BTreeMap::new();
        let mut tables = Vec::new();
        let of = req
            .teams
            .iter()
            .map(|slot| {
                slot.venue.map(|v| {
                    *index.entry(v).or_insert_with(|| {
                        tables.push(req.venue_tables.get(&v).copied().unwrap_or(1));
                        tables.len() - 1
                    })
                })
            })
            .collect();
        let mut booked = vec![vec![0; dates.len()]; tables.len()];
        for b in &req.booked {
            let Some(&v) = index.get(&b.venue) else {
                continue;
            };
            for (r, date) in dates.iter().enumerate() {
                if *date == b.date {
                    booked[v][r] += b.matches;
                }
            }
        }
        Venues { of, tables, booked }
    }

    /// Home matches of this division venue `v` can host in round `r`.
    fn free(&self, v: usize, r: usize) -> u32 {
        self.tables[v].saturating_sub(self.booked[v][r])
    }
}

/// A round as (home, away) pairs of positions or of teams.
type Games = Vec<(usize, usize)>;

/// One leg by the circle method over `m` positions (`m` even): position
/// `m - 1` stays put and meets `r` in round `r`; the others meet across the
/// circle, `r + k` against `r - k`. Home and away by de Werra's canonical
/// rule (the fixed position alternates; across the circle the home side is
/// `r + k` for odd `k`, `r - k` for even `k`), which leaves every position
/// at most one break in the leg and balanced within one.
fn circle(m: usize) -> Vec<Games> {
    let c = m - 1;
    (0..c)
        .map(|r| {
            let mut games = Vec::with_capacity(m / 2);
            games.push(if r % 2 == 0 { (c, r) } else { (r, c) });
            for k in 1..m / 2 {
                let (up, down) = ((r + k) % c, (r + c - k) % c);
                games.push(if k % 2 == 1 { (up, down) } else { (down, up) });
            }
            games
        })
        .collect()
}

/// The whole season in positions: the leg `meetings` times, home and away
/// swapped on every other leg (so each pair's meetings alternate and, with
/// an even number of meetings, balance exactly). Leg `l` starts at the
/// leg's round `l + 1`: replayed in the same order, a position's last game
/// of one leg would sit next to the mirror of its first, and with a break
/// at either end that makes three running; starting one round later avoids
/// it (the tests check every size and number of meetings allowed), and
/// keeps a pair from meeting in two rounds running.
fn legs(leg: &[Games], meetings: usize) -> Vec<Games> {
    let c = leg.len();
    (0..meetings)
        .flat_map(|l| {
            (0..c).map(move |j| {
                let games = &leg[(j + l) % c];
                if l % 2 == 0 {
                    games.clone()
                } else {
                    games.iter().map(|&(h, a)| (a, h)).collect()
                }
            })
        })
        .collect()
}

/// For each of the first `n` positions and each round: `Some(true)` at
/// home, `Some(false)` away, `None` not playing (the bye, or the phantom).
fn sides_by_position(rounds: &[Games], n: usize) -> Vec<Vec<Option<bool>>> {
    let mut sides = vec![vec![None; rounds.len()]; n];
    for (r, games) in rounds.iter().enumerate() {
        for &(h, a) in games {
            // A game against the phantom is a bye, not a game.
            if h < n && a < n {
                sides[h][r] = Some(true);
                sides[a][r] = Some(false);
            }
        }
    }
    sides
}

/// Places the teams on positions: `team_at[p]` is the team (by index) on
/// position `p`, `None` for the phantom.
///
/// Partner positions are never on the same side on a night when both
/// play, so in every leg (each leg is the first or its mirror) at most one
/// of them is at home. A venue whose teams fill `k` partner pairs and `j`
/// single places has at most `k + j` home matches a night; placing its teams
/// in pairs first keeps that at half its teams, rounded up.
fn place(leg: &[Games], season: &[Games], n: usize, venues: &Venues) -> Vec<Option<usize>> {
    let (pairs, singles) = partner_pairs(leg, n);
    let mut by_venue: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut loose = Vec::new();
    for (t, v) in venues.of.iter().enumerate() {
        match v {
            Some(v) => by_venue.entry(*v).or_default().push(t),
            None => loose.push(t),
        }
    }
    let mut team_pairs = Vec::new();
    for teams in by_venue.values() {
        for two in teams.chunks(2) {
            match *two {
                [a, b] => team_pairs.push((a, b)),
                [a] => loose.push(a),
                _ => {}
            }
        }
    }
    loose.sort_unstable();

    let mut team_at = vec![None; n + n % 2];
    let mut free_pairs = pairs.into_iter();
    for (a, b) in team_pairs {
        match free_pairs.next() {
            Some((p, q)) => {
                team_at[p] = Some(a);
                team_at[q] = Some(b);
            }
            None => loose.extend([a, b]),
        }
    }
    let free = free_pairs.flat_map(|(p, q)| [p, q]).chain(singles);
    for (p, t) in free.zip(loose) {
        team_at[p] = Some(t);
    }

    improve_placement(&mut team_at, &sides_by_position(season, n), venues);
    team_at
}

/// Pairs of partner positions among the first `n`, and the positions left
/// without a partner (one when `n` is odd).
fn partner_pairs(leg: &[Games], n: usize) -> (Vec<(usize, usize)>, Vec<usize>) {
    let sides = sides_by_position(leg, n);
    let partners = |p: usize, q: usize| {
        sides[p].iter().zip(&sides[q]).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => x != y,
            _ => true,
        })
    };
    // Taking the first free partner finds a pair for every position (but
    // one, when odd): the tests check it for every size allowed.
    let mut taken = vec![false; n];
    let mut pairs = Vec::new();
    let mut singles = Vec::new();
    for p in 0..n {
        if taken[p] {
            continue;
        }
        taken[p] = true;
        match (p + 1..n).find(|&q| !taken[q] && partners(p, q)) {
            Some(q) => {
                taken[q] = true;
                pairs.push((p, q));
            }
            None => singles.push(p),
        }
    }
    (pairs, singles)
}

/// Nights over capacity at venue `v` with the teams placed as in
/// `team_at`, each counted by how many matches too many.
fn placed_cost(
    v: usize,
    team_at: &[Option<usize>],
    sides: &[Vec<Option<bool>>],
    venues: &Venues,
) -> u32 {
    let members: Vec<usize> = (0..sides.len())
        .filter(|&p| team_at[p].and_then(|t| venues.of[t]) == Some(v))
        .collect();
    let rounds = sides.first().map_or(0, Vec::len);
    (0..rounds)
        .map(|r| {
            let home = members
                .iter()
                .filter(|&&p| sides[p][r] == Some(true))
                .count() as u32;
            home.saturating_sub(venues.free(v, r))
        })
        .sum()
}

/// Swaps teams between positions while a swap lowers a clashing venue's
/// count and raises no venue's: a venue that had no clash keeps none.
fn improve_placement(team_at: &mut [Option<usize>], sides: &[Vec<Option<bool>>], venues: &Venues) {
    let n = sides.len();
    let venue_at = |team_at: &[Option<usize>], p: usize| team_at[p].and_then(|t| venues.of[t]);
    loop {
        let mut improved = false;
        'search: for i in 0..n {
            let Some(vi) = venue_at(team_at, i) else {
                continue;
            };
            let before_i = placed_cost(vi, team_at, sides, venues);
            if before_i == 0 {
                continue;
            }
            for j in 0..n {
                let vj = venue_at(team_at, j);
                if vj == Some(vi) {
                    continue;
                }
                let before_j = vj.map_or(0, |v| placed_cost(v, team_at, sides, venues));
                team_at.swap(i, j);
                let after_i = placed_cost(vi, team_at, sides, venues);
                let after_j = vj.map_or(0, |v| placed_cost(v, team_at, sides, venues));
                if after_i < before_i && after_j <= before_j {
                    improved = true;
                    break 'search;
                }
                team_at.swap(i, j);
            }
        }
        if !improved {
            return;
        }
    }
}

/// The season in teams (indices into the request): each round's games and
/// its bye, the team drawn against the phantom.
fn in_teams(season: &[Games], team_at: &[Option<usize>]) -> Vec<(Games, Option<usize>)> {
    season
        .iter()
        .map(|games| {
            let mut round = Vec::with_capacity(games.len());
            let mut bye = None;
            for &(h, a) in games {
                match (team_at[h], team_at[a]) {
                    (Some(h), Some(a)) => round.push((h, a)),
                    (Some(t), None) | (None, Some(t)) => bye = Some(t),
                    (None, None) => {}
                }
            }
            (round, bye)
        })
        .collect()
}

/// The dates of `count` rounds: weekly on the weekday from the first one on
/// or after the start, passing over the dates to skip.
fn dates(req: &FixtureRequest, count: usize) -> Result<Vec<NaiveDate>, FixtureError> {
    let skip: BTreeSet<NaiveDate> = req.skip.iter().copied().collect();
    let ahead =
        (7 + req.weekday.num_days_from_monday() - req.start.weekday().num_days_from_monday()) % 7;
    let mut date = req
        .start
        .checked_add_days(Days::new(ahead.into()))
        .ok_or(FixtureError::DateOutOfRange)?;
    let mut out = Vec::with_capacity(count);
    loop {
        if !skip.contains(&date) {
            out.push(date);
            if out.len() == count {
                return Ok(out);
            }
        }
        date = date
            .checked_add_days(Days::new(7))
            .ok_or(FixtureError::DateOutOfRange)?;
    }
}

/// Every night a venue has more home matches than tables, from the rounds
/// as they will be shown, so what is reported is what the draft says.
fn find_clashes(rounds: &[Round], req: &FixtureRequest) -> Vec<VenueClash> {
    let venue_of: BTreeMap<i64, i64> = req
        .teams
        .iter()
        .filter_map(|s| s.venue.map(|v| (s.team, v)))
        .collect();
    let mut booked: BTreeMap<(i64, NaiveDate), u32> = BTreeMap::new();
    for b in &req.booked {
        *booked.entry((b.venue, b.date)).or_default() += b.matches;
    }
    let mut clashes = Vec::new();
    for round in rounds {
        let mut home: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for m in &round.matches {
            if let Some(&v) = venue_of.get(&m.home) {
                home.entry(v).or_default().push(m.home);
            }
        }
        for (venue, teams) in home {
            let tables = req.venue_tables.get(&venue).copied().unwrap_or(1);
            let booked = booked.get(&(venue, round.date)).copied().unwrap_or(0);
            if over_tables(teams.len() as u64 + u64::from(booked), tables) {
                clashes.push(VenueClash {
                    round: round.number,
                    date: round.date,
                    venue,
                    tables,
                    home: teams,
                    booked,
                });
            }
        }
    }
    clashes
}

fn describe(c: &VenueClash) -> String {
    let teams: Vec<String> = c.home.iter().map(i64::to_string).collect();
    let others = match c.booked {
        0 => String::new(),
        1 => " and 1 of another division".into(),
        n => format!(" and {n} of other divisions"),
    };
    format!(
        "round {} ({}): venue {} has {} home matches (teams {}){others} but {} table{}",
        c.round,
        c.date,
        c.venue,
        c.home.len(),
        teams.join(", "),
        c.tables,
        if c.tables == 1 { "" } else { "s" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_venue_night_counts_each_match_but_a_void_one() {
        let night: NaiveDate = "2026-10-07".parse().unwrap();
        let at = |venue, void| Hosted {
            venue: Some(venue),
            night: Some(night),
            void,
        };
        let nights = venue_nights([
            at(1, false),
            at(1, false),
            at(1, true),
            at(2, false),
            Hosted {
                venue: None,
                night: Some(night),
                void: false,
            },
        ]);
        assert_eq!(nights.get(&(1, night)), Some(&2));
        assert_eq!(nights.get(&(2, night)), Some(&1));
        assert_eq!(nights.len(), 2);
        // Two tables take two matches; a third is one too many.
        assert!(!over_tables(2, 2));
        assert!(over_tables(3, 2));
    }

    #[test]
    fn a_season_is_generated_once_and_discarded_while_nothing_is_recorded() {
        assert_eq!(may_generate(0), Ok(()));
        assert_eq!(
            may_generate(20),
            Err(Refusal::DivisionScheduled { fixtures: 20 })
        );
        assert_eq!(may_discard(0), Ok(()));
        assert_eq!(may_discard(1), Err(Refusal::FixturesHaveRecords));
    }
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    /// `n` teams with ids far from their indices (so a mix-up shows), no
    /// venues, Thursdays from Tuesday 1 September 2026.
    fn request(n: usize, meetings: u32) -> FixtureRequest {
        FixtureRequest {
            teams: (0..n)
                .map(|i| TeamSlot {
                    team: 1000 + 7 * i as i64,
                    venue: None,
                })
                .collect(),
            meetings,
            start: date(2026, 9, 1),
            weekday: Weekday::Thu,
            kick_off: NaiveTime::from_hms_opt(19, 30, 0).unwrap(),
            skip: vec![date(2026, 12, 24), date(2026, 12, 31), date(2026, 12, 25)],
            venue_tables: BTreeMap::new(),
            booked: Vec::new(),
        }
    }

    /// Each team's games in order, `true` at home, byes left out.
    fn sides(draft: &Draft) -> BTreeMap<i64, Vec<bool>> {
        let mut sides: BTreeMap<i64, Vec<bool>> = BTreeMap::new();
        for m in draft.rounds.iter().flat_map(|r| &r.matches) {
            sides.entry(m.home).or_default().push(true);
            sides.entry(m.away).or_default().push(false);
        }
        sides
    }

    /// Every property the issue asks for, checked from the draft alone.
    fn check(req: &FixtureRequest, draft: &Draft) -> Result<(), String> {
        let n = req.teams.len();
        let meetings = req.meetings as usize;
        let ids: Vec<i64> = req.teams.iter().map(|s| s.team).collect();
        let known: BTreeSet<i64> = ids.iter().copied().collect();
        let rounds_per_leg = n - 1 + n % 2;
        if draft.rounds.len() != meetings * rounds_per_leg {
            return Err(format!("{} rounds", draft.rounds.len()));
        }

        let mut met: BTreeMap<(i64, i64), usize> = BTreeMap::new();
        let mut byes: BTreeMap<i64, usize> = BTreeMap::new();
        for (i, round) in draft.rounds.iter().enumerate() {
            if round.number as usize != i + 1 {
                return Err(format!("round {i} is numbered {}", round.number));
            }
            let mut playing = BTreeSet::new();
            for m in &round.matches {
                for t in [m.home, m.away] {
                    if !known.contains(&t) {
                        return Err(format!("round {}: unknown team {t}", round.number));
                    }
                    if !playing.insert(t) {
                        return Err(format!("round {}: team {t} plays twice", round.number));
                    }
                }
                *met.entry((m.home, m.away)).or_default() += 1;
            }
            match (n % 2, round.bye) {
                (0, None) => {}
                (1, Some(b)) => {
                    if playing.contains(&b) || !known.contains(&b) {
                        return Err(format!("round {}: bye {b} is wrong", round.number));
                    }
                    *byes.entry(b).or_default() += 1;
                }
                (_, bye) => return Err(format!("round {}: bye {bye:?}", round.number)),
            }
            if playing.len() != n - n % 2 {
                return Err(format!(
                    "round {}: {} teams play",
                    round.number,
                    playing.len()
                ));
            }
        }
        if n % 2 == 1 && (byes.len() != n || byes.values().any(|&b| b != meetings)) {
            return Err(format!("byes {byes:?}"));
        }

        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                let ab = met.get(&(a, b)).copied().unwrap_or(0);
                let ba = met.get(&(b, a)).copied().unwrap_or(0);
                if ab + ba != meetings {
                    return Err(format!("{a} and {b} meet {} times", ab + ba));
                }
                // Even: as many home as away; odd: within one.
                if ab.abs_diff(ba) > meetings % 2 {
                    return Err(format!("{a} v {b}: {ab} at home, {ba} away"));
                }
            }
        }

        let sides = sides(draft);
        for &t in &ids {
            let s = &sides[&t];
            let home = s.iter().filter(|&&x| x).count();
            if home.abs_diff(s.len() - home) > 1 {
                return Err(format!("team {t}: {home} home of {}", s.len()));
            }
            if s.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
                return Err(format!("team {t}: three running on one side in {s:?}"));
            }
        }

        // Dates: on the weekday, weekly, no skipped date, the first on or
        // after the start, and no week left empty except a skipped one.
        let skip: BTreeSet<NaiveDate> = req.skip.iter().copied().collect();
        let mut expected = req.start;
        while expected.weekday() != req.weekday {
            expected = expected.succ_opt().unwrap();
        }
        for round in &draft.rounds {
            while skip.contains(&expected) {
                expected += chrono::Duration::weeks(1);
            }
            if round.date != expected || round.date.weekday() != req.weekday {
                return Err(format!(
                    "round {} on {}, expected {expected}",
                    round.number, round.date
                ));
            }
            expected += chrono::Duration::weeks(1);
        }

        // Clashes: reported exactly when they happen.
        let venue_of: BTreeMap<i64, i64> = req
            .teams
            .iter()
            .filter_map(|s| s.venue.map(|v| (s.team, v)))
            .collect();
        let mut seen = Vec::new();
        for round in &draft.rounds {
            let mut home: BTreeMap<i64, usize> = BTreeMap::new();
            for m in &round.matches {
                if let Some(v) = venue_of.get(&m.home) {
                    *home.entry(*v).or_default() += 1;
                }
            }
            for (v, count) in home {
                let booked: u32 = req
                    .booked
                    .iter()
                    .filter(|b| b.venue == v && b.date == round.date)
                    .map(|b| b.matches)
                    .sum();
                let count = count + booked as usize;
                if count > req.venue_tables.get(&v).copied().unwrap_or(1) as usize {
                    seen.push((round.number, v));
                }
            }
        }
        let reported: Vec<(u32, i64)> = draft.clashes.iter().map(|c| (c.round, c.venue)).collect();
        if seen != reported || draft.warnings.len() != draft.clashes.len() {
            return Err(format!("clashes {seen:?}, reported {reported:?}"));
        }
        Ok(())
    }

    #[test]
    fn every_size_from_2_to_24_once_to_four_times() {
        let mut passed = 0;
        for n in 2..=24 {
            for meetings in 1..=4 {
                let req = request(n, meetings);
                let draft = generate(&req).unwrap();
                check(&req, &draft)
                    .unwrap_or_else(|e| panic!("{n} teams, {meetings} meetings: {e}"));
                assert!(draft.clashes.is_empty() && draft.warnings.is_empty());
                passed += 1;
            }
        }
        assert_eq!(passed, 23 * 4);
    }

    #[test]
    fn every_size_and_number_of_meetings_allowed() {
        // A season of k meetings is the first k legs of a longer one, so
        // the most meetings shows every run any fewer could have; the short
        // ones are there for the counts and the balance.
        for n in 2..=MAX_TEAMS {
            for meetings in [1, 2, 3, MAX_MEETINGS] {
                let req = request(n, meetings);
                let draft = generate(&req).unwrap();
                check(&req, &draft)
                    .unwrap_or_else(|e| panic!("{n} teams, {meetings} meetings: {e}"));
            }
        }
    }

    #[test]
    fn partner_positions_pair_off_every_team_but_one_when_odd() {
        for n in 2..=MAX_TEAMS {
            let leg = circle(n + n % 2);
            let (pairs, singles) = partner_pairs(&leg, n);
            assert_eq!((pairs.len(), singles.len()), (n / 2, n % 2), "{n} teams");
            let sides = sides_by_position(&leg, n);
            for (p, q) in pairs {
                for (x, y) in sides[p].iter().zip(&sides[q]) {
                    assert!(
                        x.is_none() || y.is_none() || x != y,
                        "{n} teams: {p} and {q}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_pair_meets_two_rounds_running() {
        for n in 3..=24 {
            for meetings in 1..=4 {
                let draft = generate(&request(n, meetings)).unwrap();
                for w in draft.rounds.windows(2) {
                    let last: BTreeSet<(i64, i64)> = w[0]
                        .matches
                        .iter()
                        .map(|m| (m.home.min(m.away), m.home.max(m.away)))
                        .collect();
                    assert!(
                        w[1].matches
                            .iter()
                            .all(|m| !last.contains(&(m.home.min(m.away), m.home.max(m.away)))),
                        "{n} teams, {meetings} meetings, round {}",
                        w[1].number
                    );
                }
            }
        }
    }

    #[test]
    fn a_small_division_in_full() {
        let mut req = request(3, 2);
        req.teams = [1, 2, 3]
            .map(|team| TeamSlot { team, venue: None })
            .to_vec();
        req.skip = vec![date(2026, 9, 10)];
        let draft = generate(&req).unwrap();
        let shown: Vec<_> = draft
            .rounds
            .iter()
            .map(|r| {
                (
                    r.number,
                    r.date,
                    r.matches
                        .iter()
                        .map(|m| (m.home, m.away))
                        .collect::<Vec<_>>(),
                    r.bye,
                )
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                (1, date(2026, 9, 3), vec![(2, 3)], Some(1)),
                (2, date(2026, 9, 17), vec![(3, 1)], Some(2)),
                (3, date(2026, 9, 24), vec![(1, 2)], Some(3)),
                (4, date(2026, 10, 1), vec![(1, 3)], Some(2)),
                (5, date(2026, 10, 8), vec![(2, 1)], Some(3)),
                (6, date(2026, 10, 15), vec![(3, 2)], Some(1)),
            ]
        );
        assert_eq!(
            draft.starts_at(&draft.rounds[0]),
            date(2026, 9, 3).and_hms_opt(19, 30, 0).unwrap()
        );
    }

    #[test]
    fn dates_start_on_the_day_itself_and_pass_over_skipped_weeks() {
        let mut req = request(4, 1);
        req.start = date(2026, 9, 3); // a Thursday
        req.skip = vec![date(2026, 9, 3), date(2026, 9, 17), date(2026, 9, 18)];
        let draft = generate(&req).unwrap();
        let dates: Vec<NaiveDate> = draft.rounds.iter().map(|r| r.date).collect();
        assert_eq!(
            dates,
            vec![date(2026, 9, 10), date(2026, 9, 24), date(2026, 10, 1)]
        );
        check(&req, &draft).unwrap();
    }

    #[test]
    fn the_same_request_gives_the_same_draft() {
        let mut req = request(9, 2);
        req.teams[0].venue = Some(1);
        req.teams[4].venue = Some(1);
        req.teams[5].venue = Some(1);
        assert_eq!(generate(&req).unwrap(), generate(&req).unwrap());
    }

    #[test]
    fn teams_sharing_a_pub_are_never_home_together() {
        for n in 2..=24 {
            for meetings in 1..=3 {
                let mut req = request(n, meetings);
                // Every team shares its pub with one other, the first with
                // the last and so on; the odd one out has a pub of its own.
                for i in 0..n {
                    req.teams[i].venue = Some(i.min(n - 1 - i) as i64);
                }
                let draft = generate(&req).unwrap();
                check(&req, &draft).unwrap_or_else(|e| panic!("{n} teams: {e}"));
                assert!(
                    draft.clashes.is_empty(),
                    "{n} teams, {meetings}: {:?}",
                    draft.warnings
                );
            }
        }
    }

    /// The home nights at venue `v` of a saved draft, as another division
    /// sees them.
    fn bookings(req: &FixtureRequest, draft: &Draft, v: i64) -> Vec<Booking> {
        let at_v: BTreeSet<i64> = req
            .teams
            .iter()
            .filter(|s| s.venue == Some(v))
            .map(|s| s.team)
            .collect();
        draft
            .rounds
            .iter()
            .filter(|r| r.matches.iter().any(|m| at_v.contains(&m.home)))
            .map(|r| Booking {
                venue: v,
                date: r.date,
                matches: 1,
            })
            .collect()
    }

    #[test]
    fn another_divisions_nights_at_a_shared_pub_are_kept_free() {
        // Crown A plays in one division and Crown B in another; the Crown
        // has one table. The second division, generated after the first is
        // saved, keeps Crown B at home on the other nights.
        for n in (2..=24).step_by(2) {
            for meetings in 1..=3 {
                let mut first = request(n, meetings);
                first.teams[n / 2].venue = Some(7);
                let saved = generate(&first).unwrap();
                let mut second = request(n, meetings);
                for slot in &mut second.teams {
                    slot.team += 1;
                }
                second.teams[0].venue = Some(7);
                second.booked = bookings(&first, &saved, 7);
                let draft = generate(&second).unwrap();
                check(&second, &draft).unwrap_or_else(|e| panic!("{n} teams: {e}"));
                assert!(
                    draft.clashes.is_empty(),
                    "{n} teams, {meetings} meetings: {:?}",
                    draft.warnings
                );
            }
        }
    }

    #[test]
    fn a_venue_booked_every_night_clashes_with_a_warning() {
        let mut req = request(4, 2);
        req.teams[0].venue = Some(9);
        let dates = generate(&req)
            .unwrap()
            .rounds
            .iter()
            .map(|r| r.date)
            .collect::<Vec<_>>();
        req.booked = dates
            .iter()
            .map(|&date| Booking {
                venue: 9,
                date,
                matches: 1,
            })
            .collect();
        let draft = generate(&req).unwrap();
        check(&req, &draft).unwrap();
        // Its team's three home matches all clash.
        assert_eq!(draft.clashes.len(), 3, "{:?}", draft.warnings);
        assert!(
            draft
                .clashes
                .iter()
                .all(|c| c.booked == 1 && c.home.len() == 1)
        );
        assert!(
            draft.warnings[0].contains("and 1 of another division"),
            "{}",
            draft.warnings[0]
        );
        // With a second table, nothing does.
        req.venue_tables.insert(9, 2);
        assert!(generate(&req).unwrap().clashes.is_empty());
    }

    #[test]
    fn an_unavoidable_clash_is_reported_not_refused() {
        // Three teams at one single-table pub among six: they have 7 or 8
        // home games over 5 nights, so some nights clash whatever is done.
        let mut req = request(6, 1);
        for i in 0..3 {
            req.teams[i].venue = Some(42);
        }
        let draft = generate(&req).unwrap();
        check(&req, &draft).unwrap();
        assert!(!draft.clashes.is_empty());
        assert!(
            draft.warnings[0].contains("venue 42"),
            "{}",
            draft.warnings[0]
        );
        // Two of them on partner places: one home match there a night, so
        // only the third one's home nights clash.
        let excess: usize = draft.clashes.iter().map(|c| c.home.len() - 1).sum();
        assert!(excess <= 3, "{:?}", draft.warnings);

        // With a second table nothing clashes.
        req.venue_tables.insert(42, 2);
        assert!(generate(&req).unwrap().clashes.is_empty());
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        assert_eq!(generate(&request(1, 2)), Err(FixtureError::TooFewTeams(1)));
        assert_eq!(generate(&request(0, 2)), Err(FixtureError::TooFewTeams(0)));
        assert_eq!(
            generate(&request(65, 1)),
            Err(FixtureError::TooManyTeams(65))
        );
        assert_eq!(generate(&request(4, 0)), Err(FixtureError::NoMeetings));
        assert_eq!(
            generate(&request(4, 9)),
            Err(FixtureError::TooManyMeetings(9))
        );
        let mut twice = request(4, 2);
        twice.teams[3].team = twice.teams[1].team;
        assert_eq!(generate(&twice), Err(FixtureError::DuplicateTeam(1007)));
        let mut closed = request(4, 2);
        closed.teams[0].venue = Some(5);
        closed.venue_tables.insert(5, 0);
        assert_eq!(generate(&closed), Err(FixtureError::NoTables(5)));
        // A closed pub no team of the division uses does not matter.
        closed.teams[0].venue = None;
        assert!(generate(&closed).is_ok());
        let mut late = request(4, 2);
        late.start = NaiveDate::MAX;
        assert_eq!(generate(&late), Err(FixtureError::DateOutOfRange));
        assert_eq!(
            FixtureError::TooManyTeams(70).to_string(),
            "a division can have at most 64 teams; this one has 70"
        );
    }

    fn weekday() -> impl Strategy<Value = Weekday> {
        (0u8..7).prop_map(|d| Weekday::try_from(d).unwrap())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Pairs of teams sharing a one-table pub, anywhere in the list,
        /// with any dates: never both at home, and every other property
        /// holds.
        #[test]
        fn shared_single_table_pubs_never_clash(
            n in 2usize..=24,
            meetings in 1u32..=3,
            order in any::<u64>(),
            pairs_wanted in 0usize..=12,
            start_offset in 0u64..400,
            day in weekday(),
            skips in proptest::collection::vec(0u64..700, 0..10),
        ) {
            let mut req = request(n, meetings);
            req.start = date(2026, 1, 1) + Days::new(start_offset);
            req.weekday = day;
            req.skip = skips.iter().map(|&d| date(2026, 1, 1) + Days::new(d)).collect();
            // Shuffle which teams pair up, deterministically from `order`.
            let mut idx: Vec<usize> = (0..n).collect();
            let mut s = order;
            for i in (1..n).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                idx.swap(i, (s >> 33) as usize % (i + 1));
            }
            let pairs = pairs_wanted.min(n / 2);
            for p in 0..pairs {
                req.teams[idx[2 * p]].venue = Some(500 + p as i64);
                req.teams[idx[2 * p + 1]].venue = Some(500 + p as i64);
            }
            let draft = generate(&req).unwrap();
            prop_assert_eq!(check(&req, &draft), Ok(()));
            prop_assert!(draft.clashes.is_empty(), "{:?}", draft.warnings);
        }

        /// Any pubs, any tables: every property holds, a clash is always
        /// reported, and a pub with at least half its teams' worth of
        /// tables (rounded up) never clashes.
        #[test]
        fn any_pubs_clash_only_with_a_warning(
            n in 2usize..=24,
            meetings in 1u32..=3,
            venue_of in proptest::collection::vec(proptest::option::of(0i64..5), 24),
            tables in proptest::collection::vec(1u32..=3, 5),
        ) {
            let mut req = request(n, meetings);
            for (slot, v) in req.teams.iter_mut().zip(&venue_of) {
                slot.venue = *v;
            }
            for (v, &t) in tables.iter().enumerate() {
                req.venue_tables.insert(v as i64, t);
            }
            let draft = generate(&req).unwrap();
            prop_assert_eq!(check(&req, &draft), Ok(()));
            for clash in &draft.clashes {
                let teams = req.teams.iter().filter(|s| s.venue == Some(clash.venue)).count() as u32;
                prop_assert!(teams.div_ceil(2) > clash.tables, "{:?}", clash);
            }
        }
    }
}
