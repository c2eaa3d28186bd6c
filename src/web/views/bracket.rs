//! A cup's bracket as the pages show it (the public cup page and the
//! secretary's cups page): ties in bracket order, each with its score and
//! state in words.

use std::collections::HashMap;

use crate::app::cups::{rounds, tie_matches};
use crate::app::formats::{match_formats, scores_by_season};
use crate::db::pages::{FixtureLine, FixtureScope, Score};
use crate::db::{
    Cup, CupData, CupEntrant, CupEntrantId, CupTieId, Db, FixtureId, FixtureStatus, League, Season,
    Side,
};
use crate::league::cup::{self, EntrantKind, Method, Verdict};

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

/// The bracket of `data`: its fixtures' lines and scores read in two
/// queries, the ties in bracket order.
pub(crate) async fn bracket(
    db: &Db,
    league: &League,
    season: &Season,
    data: &CupData,
) -> Result<Bracket> {
    let scope = FixtureScope::Cup(data.cup.id);
    let lines = db.fixture_lines(league.id, &scope).await?;
    let boards = db.board_lines(league.id, &scope, false).await?;
    let scores = scores_by_season(
        &lines,
        &boards,
        &match_formats(std::slice::from_ref(season))?,
    );
    let facts = tie_matches(&lines, &scores);
    let lines: HashMap<FixtureId, &FixtureLine> = lines.iter().map(|l| (l.id, l)).collect();
    let states = data.states(&facts)?;
    let entrants: HashMap<CupEntrantId, &CupEntrant> =
        data.entrants.iter().map(|e| (e.id, e)).collect();
    let number_of: HashMap<CupTieId, i64> = data.ties.iter().map(|t| (t.id, t.number)).collect();
    let total = rounds(data);
    let zone = league.time_zone;
    let individual = data.cup.entrants != EntrantKind::Teams;
    let side = |entrant: Option<CupEntrantId>, from: Option<CupTieId>, won: bool| -> SideView {
        match entrant.and_then(|e| entrants.get(&e)) {
            Some(e) => entrant_side(league, data.cup.entrants, e, won),
            None => SideView {
                name: match from.and_then(|t| number_of.get(&t)) {
                    Some(n) => format!("Winner of tie {n}"),
                    None => "To be decided".into(),
                },
                href: None,
                team: None,
                won: false,
                pending: true,
            },
        }
    };
    let by_id: HashMap<CupTieId, &crate::db::CupTie> =
        data.ties.iter().map(|t| (t.id, t)).collect();
    let mut rounds = Vec::new();
    for (round, order) in data.rounds.iter().zip(cup::bracket_order(&states)) {
        let ties = order
            .iter()
            .filter_map(|id| by_id.get(id))
            .map(|t| {
                let line = t.fixture_id.and_then(|f| lines.get(&f));
                let verdict = t.fixture_id.and_then(|f| facts.get(&f)).map(|m| m.verdict);
                let won = |s: Side| verdict == Some(Verdict::Won(s));
                let bye = t.round == 1 && t.away_entrant_id.is_none();
                let score = line.and_then(|l| shown_score(l, scores.get(&l.id)));
                TieView {
                    number: t.number,
                    home: side(t.home_entrant_id, t.home_from, won(Side::Home) || bye),
                    away: (!bye).then(|| side(t.away_entrant_id, t.away_from, won(Side::Away))),
                    href: line.map(|l| match_href(league, l.id)),
                    fixture: t.fixture_id,
                    movable: line.is_some_and(|l| {
                        crate::league::workflow::reschedule(l.status, FixtureStatus::Postponed)
                            .is_ok()
                    }),
                    score: score.map_or_else(String::new, |s| {
                        let n = if individual { s.games } else { s.boards };
                        format!("{}–{}", n[0], n[1])
                    }),
                    state: tie_state(bye, line, verdict, score),
                    provisional: score.is_some_and(|s| s.provisional()),
                }
            })
            .collect();
        let (when_text, stamp) = if round.play_by {
            (
                format!("play by {}", day(zone, round.starts_at)),
                round.starts_at,
            )
        } else {
            (when(zone, round.starts_at), round.starts_at)
        };
        rounds.push(RoundView {
            number: round.round,
            name: cup::round_name(round.round, total),
            when: when_text,
            datetime: datetime(zone, stamp),
            venue: round.venue_name.clone(),
            drawn: drawn_words(round.method, round.seed.as_deref()),
            ties,
        });
    }
    let champion = cup::champion(&states, total)
        .and_then(|e| entrants.get(&e))
        .map(|e| entrant_name(data.cup.entrants, e));
    Ok(Bracket {
        rounds,
        counts: if individual { "games" } else { "boards" },
        champion,
    })
}

/// The score a tie shows: its result's, or none for a void match or a
/// walkover (which the state says in words).
fn shown_score(line: &FixtureLine, score: Option<&Score>) -> Option<Score> {
    match line.status {
        FixtureStatus::Void | FixtureStatus::Walkover => None,
        _ => score.copied(),
    }
}

fn tie_state(
    bye: bool,
    line: Option<&&FixtureLine>,
    verdict: Option<Verdict>,
    score: Option<Score>,
) -> String {
    if bye {
        return "through on a bye".into();
    }
    let Some(line) = line else {
        return "waiting for its sides".into();
    };
    match (line.status, line.conceded_by, verdict) {
        (FixtureStatus::Walkover, Some(side), _) => format!(
            "walkover: {} conceded",
            match side {
                Side::Home => line.home_label(),
                Side::Away => line.away_label(),
            }
        ),
        (FixtureStatus::Void, _, _) => "void: nobody goes through".into(),
        (_, _, Some(Verdict::Level)) => "level: the secretary settles it".into(),
        _ if score.is_some_and(|s| s.provisional()) => "result awaiting approval".into(),
        (_, _, Some(Verdict::Won(_))) => "played".into(),
        (FixtureStatus::Postponed, _, _) => "postponed".into(),
        _ => "to play".into(),
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

/// An entrant's name: the team, the player, or the pair.
pub(crate) fn entrant_name(kind: EntrantKind, e: &CupEntrant) -> String {
    match kind {
        EntrantKind::Teams => e.team_name.clone(),
        _ => e.name(),
    }
}

fn entrant_side(league: &League, kind: EntrantKind, e: &CupEntrant, won: bool) -> SideView {
    let (href, team) = match (kind, e.player_id, &e.player_name) {
        (EntrantKind::Teams, _, _) => (Some(team_href(league, e.team_id, &e.team_name)), None),
        (_, Some(id), Some(name)) if e.partner_id.is_none() => (
            Some(player_href(league, id, name)),
            Some(e.team_name.clone()),
        ),
        _ => (
            Some(team_href(league, e.team_id, &e.team_name)),
            Some(e.team_name.clone()),
        ),
    };
    SideView {
        name: entrant_name(kind, e),
        href,
        team,
        won,
        pending: false,
    }
}
