//! A cup's bracket as the pages show it (the public cup page and the
//! secretary's cups page): ties in bracket order, each with its score and
//! state in words.

use crate::app::read::{self, cup::CupView};
use crate::db::{Cup, CupData, Db, FixtureId, League, PlayerId, Season, TeamId};
use crate::league::cup::{EntrantKind, Method};

use super::super::dates::{datetime, day, when};
use super::super::error::Result;
use super::super::links::{match_href, player_href, team_href};
/// A cup's bracket as the pages show it.
pub(crate) struct Bracket {
    pub rounds: Vec<RoundView>,
    /// What a tie's score counts: "boards" (team cups) or "games" (a
    /// singles or pairs tie, one board).
    pub counts: &'static str,
    /// Who won the cup, once the final is decided.
    pub champion: Option<String>,
}

pub(crate) struct RoundView {
    pub number: u32,
    pub name: String,
    /// "Thu 5 Mar 2027, 19:30", or "play by Thu 5 Mar 2027".
    pub when: String,
    pub datetime: String,
    pub venue: Option<String>,
    /// How it was drawn, in words (with the seed of a random draw).
    pub drawn: String,
    pub ties: Vec<TieView>,
}

pub(crate) struct TieView {
    pub number: i64,
    pub home: SideView,
    /// `None`: a bye.
    pub away: Option<SideView>,
    /// The match, once there is one.
    pub href: Option<String>,
    pub fixture: Option<FixtureId>,
    /// Its match may still be postponed or moved (not played, nor void).
    pub movable: bool,
    /// Boards, home first (`5–4`), or empty.
    pub score: String,
    /// Where it stands, in words.
    pub state: String,
    pub provisional: bool,
}

pub(crate) struct SideView {
    pub name: String,
    /// The team (team cups) or a player of the entrant's.
    pub href: Option<String>,
    /// The team named for a singles or pairs entrant.
    pub team: Option<String>,
    /// Went through.
    pub won: bool,
    /// Not known yet: "Winner of tie 3".
    pub pending: bool,
}

/// What a listing says about a cup of `entrants`: its kind and format.
pub(crate) fn describe(cup: &Cup, season: &Season, entrants: usize) -> String {
    let format = cup
        .match_format
        .clone()
        .or_else(|| season.rules().ok().map(|r| r.format));
    let played = match (cup.entrants, format) {
        (EntrantKind::Teams, Some(f)) if cup.match_format.is_none() => {
            format!("ties in the season's match format ({})", f.describe())
        }
        (EntrantKind::Teams, Some(f)) => format!("ties of {}", f.describe()),
        (_, Some(f)) => match f.boards.first().map(|b| b.best_of) {
            Some(1) | None => "each tie one game".into(),
            Some(n) => format!("each tie the best of {n} games"),
        },
        (_, None) => String::new(),
    };
    let kind = cup.entrants.title();
    let mut text = format!("{}{}", kind[..1].to_uppercase(), &kind[1..]);
    if !played.is_empty() {
        text.push_str(", ");
        text.push_str(&played);
    }
    format!(
        "{text}; {entrants} entrant{}.",
        if entrants == 1 { "" } else { "s" }
    )
}

/// The bracket of `data` as pages show it: the use case's view
/// (`app::read::cup`) with links and dates in the league's zone.
pub(crate) async fn bracket(
    db: &Db,
    league: &League,
    season: &Season,
    data: &CupData,
) -> Result<Bracket> {
    let view = read::cup::bracket(db, season, data.clone()).await?;
    Ok(bracket_of(league, &view))
}

pub(crate) fn bracket_of(league: &League, view: &CupView) -> Bracket {
    let zone = league.time_zone;
    let teams = view.entrants == EntrantKind::Teams.as_str();
    let side = |s: &read::cup::SideView| SideView {
        name: s.name.clone(),
        href: match (&s.team, &s.player) {
            (_, Some(p)) => Some(player_href(league, PlayerId(p.id), &p.name)),
            (Some(t), None) => Some(team_href(league, TeamId(t.id), &t.name)),
            (None, None) => None,
        },
        team: s.team.as_ref().filter(|_| !teams).map(|t| t.name.clone()),
        won: s.won,
        pending: s.pending,
    };
    let rounds = view
        .rounds
        .iter()
        .map(|round| {
            let when_text = if round.play_by {
                format!("play by {}", day(zone, round.starts_at))
            } else {
                when(zone, round.starts_at)
            };
            RoundView {
                number: round.number,
                name: round.name.clone(),
                when: when_text,
                datetime: datetime(zone, round.starts_at),
                venue: round.venue.clone(),
                drawn: drawn_words(
                    round.method.parse().unwrap_or(Method::Hand),
                    round.seed.as_deref(),
                ),
                ties: round
                    .ties
                    .iter()
                    .map(|t| TieView {
                        number: t.number,
                        home: side(&t.home),
                        away: t.away.as_ref().map(side),
                        href: t.fixture_id.map(|f| match_href(league, FixtureId(f))),
                        fixture: t.fixture_id.map(FixtureId),
                        movable: t.movable,
                        score: t.score.as_ref().map_or_else(String::new, |s| {
                            let n = if teams { s.boards } else { s.games };
                            format!("{}–{}", n[0], n[1])
                        }),
                        state: t.state_words.clone(),
                        provisional: t.provisional,
                    })
                    .collect(),
            }
        })
        .collect();
    Bracket {
        rounds,
        counts: if teams { "boards" } else { "games" },
        champion: view.champion.as_ref().map(|c| c.name.clone()),
    }
}

fn drawn_words(method: Method, seed: Option<&str>) -> String {
    match (method, seed) {
        (Method::Random, Some(seed)) => format!("drawn at random (seed {seed})"),
        (Method::Seeded, Some(seed)) => format!("seeded, the rest drawn at random (seed {seed})"),
        (Method::Random | Method::Seeded, None) => "drawn at random".into(),
        (Method::Bracket, _) => "as the bracket runs".into(),
        (Method::Hand, _) => "drawn on the night, entered by hand".into(),
    }
}

pub(crate) use crate::app::read::cup::entrant_name;
