//! Why the league's rules refuse something: one typed list, so that the
//! rules in `league/` and the use cases in `app/` say it and the web layer
//! answers each with the right status and the page again.

use chrono::{DateTime, Utc};

use crate::domain::{DivisionId, PlayerId, ResultStatus, Side, TeamId};

/// Why the league's rules refuse an operation, with what the person acting
/// needs to know to put it right. Decided in `league/` (or by a use case
/// in `app/` asking it) on the records as they are inside the write's
/// transaction; the web layer turns each into the right answer: `Stale`
/// into 409 with the newer version, `NotYours` into 403, the others into
/// the page again saying why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The form showed version `shown`; version `current` is the current
    /// one now.
    #[error(
        "Version {current} of this result was entered after the version {shown} you saw: check it, then act on it."
    )]
    Stale { shown: i64, current: i64 },
    /// Not this user's to do; the message says whose it is.
    #[error("{0}")]
    NotYours(&'static str),
    #[error("This match has no result yet.")]
    NoResult,
    /// Not from the result's (or fixture's) present state.
    #[error("{0}")]
    NotNow(String),
    /// The fixture is more than [`EARLIEST_ENTRY`] ahead.
    #[error("This match is not until {starts_at}: its result can be entered from the day before.")]
    TooEarly { starts_at: DateTime<Utc> },
    /// Past the season's result lock, only a secretary enters or corrects.
    #[error(
        "The result of this match locked on {since}: only a secretary can enter or correct it now."
    )]
    Locked { since: DateTime<Utc> },
    /// A dispute needs a note.
    #[error("Say what is wrong with the result: a dispute needs a note.")]
    NoNote,
    /// The version shown is still current but its state has changed since
    /// (disputed, confirmed): the step is not taken on what was not seen.
    #[error(
        "Version {version} was {was} when the page was shown and is {now} now: check it, then act on it."
    )]
    Changed {
        version: i64,
        was: ResultStatus,
        now: ResultStatus,
    },
    /// The score pads' boards changed since the review that is being
    /// submitted was shown (1-based board numbers).
    #[error("{}", pads_changed(.boards))]
    PadsChanged { boards: Vec<i64> },
    /// A team has its most captains for the season already.
    #[error("The team already has {max} captains this season.")]
    CaptainsFull { max: i64 },
    /// A rule of `league/` refused the value, in its own words (a setting
    /// out of range, a time zone that does not exist, a draw that cannot
    /// be made yet).
    #[error("{0}")]
    Rule(String),
    /// A roll-over without a name for the new season.
    #[error("The new season needs a name.")]
    NoSeasonName,
    #[error("Team {team} is listed twice.")]
    TeamListedTwice { team: TeamId },
    #[error("Season `{season}` was rolled over already.")]
    RolledOverAlready { season: String },
    #[error("Division {division} is not one of season `{season}`'s.")]
    DivisionNotInSeason {
        division: DivisionId,
        season: String,
    },
    #[error("Team {team} was not entered in season `{season}`.")]
    TeamNotInSeason { team: TeamId, season: String },
    #[error("A play-off is between two teams.")]
    PlayoffOfTwo,
    #[error("Both teams of a play-off must be in the division.")]
    PlayoffOutsideDivision,
    /// A change to a season that was rolled over into the next one.
    #[error("The season is over: it was rolled over into the next one.")]
    SeasonOver,
    /// A captain's or link keeper's result for a season rolled over.
    #[error(
        "Season {season} is over: its results are kept as they are. Only a secretary can still correct one."
    )]
    ResultsKept { season: String },
    /// A late result's penalty proposed on a page, no longer due.
    #[error(
        "The fixture has a result or its penalty already, is not late, or the rule changed since."
    )]
    NoLongerLate,
    /// Registrations that would take a team over the season's squad limit.
    #[error(
        "{team} would have {players} players registered, more than the season's squad limit of {limit}. Nothing was saved."
    )]
    SquadFull {
        team: String,
        players: i64,
        limit: u32,
    },
    /// A transfer of a player who is on no team's roster this season.
    #[error(
        "That player is not registered to a team this season: register them on a roster instead."
    )]
    TransferUnregistered,
    #[error("That player is not registered to a team this season.")]
    PlayerNotRegistered,
    #[error("That team is not entered in this season.")]
    TeamNotEntered,
    /// A cup's entrants once its first round is drawn.
    #[error("The first round is drawn: the entrants can no longer change.")]
    EntrantsFixed,
    /// A cup with drawn rounds (and so matches) cannot be deleted.
    #[error("The first round is drawn, so the cup has matches: it can no longer be deleted.")]
    CupHasMatches,
    #[error("Another entrant is seeded {seed} already.")]
    SeedTaken { seed: i64 },
    /// A draw asked of a page showing an older state of the cup.
    #[error("Round {round} is drawn already: this page was out of date. Nothing was drawn.")]
    RoundDrawn { round: u32 },
    #[error("That player is in this league: link a player of another league.")]
    LinkSameLeague,
    #[error("The two records are linked already.")]
    LinkedAlready,
    #[error("The player is linked to another record of that league already: undo that link first.")]
    LinkedElsewhere,
    #[error("That would make two records of one league the same person: undo one link first.")]
    TwoRecordsOneLeague,
    /// A season's fixtures are generated once per division.
    #[error(
        "This division already has {fixtures} fixture{}: a season is generated once. Postpone or change its fixtures one at a time instead.",
        if *.fixtures == 1 { "" } else { "s" }
    )]
    DivisionScheduled { fixtures: i64 },
    #[error(
        "Results, walkovers, penalties or score-pad boards are recorded against this division's fixtures, so they can no longer be thrown away; postpone or change them one at a time instead."
    )]
    FixturesHaveRecords,
    /// An invitation link used or past its date.
    #[error("This link has been used or has expired: ask for a new one.")]
    LinkSpent,
    #[error(
        "The player this link named is no longer the team's captain: ask the secretary for a new link."
    )]
    CaptainGone,
    #[error("A walkover names the side that conceded, and only a walkover does.")]
    WalkoverSide,
    #[error("A penalty or fine is against a team or a player: give exactly one.")]
    PenaltyTarget,
    /// A season rolled over into the next keeps its rules as they were.
    #[error("Season `{season}` was rolled over: its rules and settings are kept as they were.")]
    SeasonArchived { season: String },
    #[error("Season `{season}` has results: its ruleset and match format are fixed.")]
    RulesFixed { season: String },
    /// A captain's step in a season that was rolled over into the next.
    #[error(
        "This season is over: its results are kept as they are. Only a secretary can still correct one."
    )]
    SeasonClosed,
    /// A result without every board the match format has (1-based).
    #[error(
        "{} missing: enter each board's players and games, or mark it not played with the side that conceded it.",
        missing_words(.boards)
    )]
    BoardsMissing { boards: Vec<usize> },
    #[error("The result has {sent} boards; this match has {format}.")]
    TooManyBoards { sent: usize, format: usize },
    /// A player on more boards of a kind than the match allows, in words.
    #[error("{0}")]
    LineUp(String),
    /// A result's board that cannot be stored as it is (1-based).
    #[error("Board {board}: {why}.")]
    Board { board: usize, why: BoardFault },
    /// A bulk action of the console's week (issue 39) chosen for fixtures
    /// it may not act on, each named with why: nothing is done.
    #[error("Nothing was done: {}.", unfit_words(.fixtures))]
    NotForAll {
        fixtures: Vec<(String, super::week::Unfit)>,
    },
    /// A captain's result with games known by their final score alone, in
    /// a season whose captains enter every game hand by hand.
    #[error(
        "This season's games are entered hand by hand: a final score alone is not allowed (a secretary can allow it in the season's settings)."
    )]
    HandsRequired,
    /// A game of a result whose record the rules refuse.
    #[error("Board {board}, game {game}: {why}")]
    Game {
        board: usize,
        game: usize,
        why: String,
    },
}

/// What is wrong with a board of a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardFault {
    #[error("a conceded board has no players and no games")]
    ConcededWithPlay,
    #[error("a {kind} board has {want} player(s) a side")]
    Sides { kind: &'static str, want: usize },
    #[error("player {0} is not registered to either team this season")]
    Unregistered(PlayerId),
    #[error("{name} is registered to the {registered} team, not the {played} team")]
    WrongTeam {
        name: String,
        registered: Side,
        played: Side,
    },
    #[error("{0} is on it twice")]
    Twice(String),
}

/// "Board 3 is", "Boards 3, 7 and 9 are": the boards a result lacks.
pub fn missing_words(boards: &[usize]) -> String {
    match boards {
        [one] => format!("Board {one} is"),
        [rest @ .., last] => format!(
            "Boards {} and {last} are",
            rest.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => String::new(),
    }
}

/// "Crown v Anchor: it has a result already; ..." for a bulk refusal.
fn unfit_words(fixtures: &[(String, super::week::Unfit)]) -> String {
    fixtures
        .iter()
        .map(|(name, why)| format!("{name}: {why}"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn pads_changed(boards: &[i64]) -> String {
    let list: Vec<String> = boards.iter().map(i64::to_string).collect();
    format!(
        "Not submitted: board{} {} changed on the score pad since the review was shown. Check the boards as they stand now and submit again.",
        if boards.len() == 1 { "" } else { "s" },
        list.join(", ")
    )
}

/// A time zone name that is not one is refused in the zone rule's words.
impl From<super::time::UnknownZone> for Refusal {
    fn from(e: super::time::UnknownZone) -> Refusal {
        Refusal::Rule(e.to_string())
    }
}
