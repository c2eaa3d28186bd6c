//! A cup's bracket: its rounds in order, each round's ties in bracket
//! order (each beside the two it is drawn from), with their sides, scores
//! and states. The public cup page, the secretary's cups pages and
//! `/api/v1/.../cups/{id}` all show this view.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::Ref;
use super::fixtures::ScoreView;
use crate::app::cups::{rounds, tie_matches};
use crate::app::formats::{match_formats, scores_by_season};
use crate::db::pages::{FixtureLine, FixtureScope, Score};
use crate::db::{
    CupData, CupEntrant, CupEntrantId, CupId, CupTieId, Db, FixtureStatus, League, Result, Season,
    Side,
};
use crate::league::cup::{self, EntrantKind, Verdict};

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CupView {
    pub cup: Ref,
    pub season: Ref,
    /// What enters it: `teams`, `singles` or `pairs`.
    pub entrants: String,
    /// Entrants, while the first round is still to be drawn.
    pub entered: Vec<SideView>,
    /// What a tie's score counts: `boards` (team cups) or `games`.
    pub counts: String,
    pub rounds: Vec<RoundView>,
    /// Who won the cup, once the final is decided.
    pub champion: Option<SideView>,
    #[serde(skip)]
    pub data: Option<CupData>,
    #[serde(skip)]
    pub season_record: Option<Season>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundView {
    pub number: u32,
    /// `Final`, `Semi-finals`, `Round 1`...
    pub name: String,
    /// The night it is played, or (with `play_by`) the last it may be.
    pub starts_at: DateTime<Utc>,
    pub play_by: bool,
    /// The neutral venue of every tie (a finals night), if any.
    pub venue: Option<String>,
    /// How it was drawn: `random`, `seeded`, `bracket` or `hand`.
    pub method: String,
    /// The seed of a random or seeded draw.
    pub seed: Option<String>,
    pub ties: Vec<TieView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TieView {
    pub number: i64,
    pub home: SideView,
    /// Absent: a bye.
    pub away: Option<SideView>,
    /// Its match, once there is one.
    pub fixture_id: Option<i64>,
    /// Its match may still be postponed or moved.
    #[serde(skip)]
    pub movable: bool,
    /// Boards (team cups) or games, home first; absent when none shown.
    pub score: Option<ScoreView>,
    /// Where it stands, in words.
    pub state_words: String,
    pub provisional: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SideView {
    /// The team, player or pair; `Winner of tie 3` while not known.
    pub name: String,
    /// The team (of a team cup), or the team a singles or pairs entrant
    /// plays for.
    pub team: Option<Ref>,
    /// A singles entrant's player.
    pub player: Option<Ref>,
    /// Went through.
    pub won: bool,
    /// Not known yet.
    pub pending: bool,
}

/// An entrant's name: the team, the player, or the pair.
pub fn entrant_name(kind: EntrantKind, e: &CupEntrant) -> String {
    match kind {
        EntrantKind::Teams => e.team_name.clone(),
        _ => e.name(),
    }
}

fn entrant_side(kind: EntrantKind, e: &CupEntrant, won: bool) -> SideView {
    SideView {
        name: entrant_name(kind, e),
        team: Some(Ref::new(e.team_id.0, e.team_name.clone())),
        player: match (kind, e.player_id, &e.player_name) {
            (EntrantKind::Teams, _, _) => None,
            (_, Some(id), Some(name)) if e.partner_id.is_none() => {
                Some(Ref::new(id.0, name.clone()))
            }
            _ => None,
        },
        won,
        pending: false,
    }
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
    match (line.status, verdict) {
        (FixtureStatus::Walkover | FixtureStatus::Void, _) => line.state_words(score.is_some()),
        (_, Some(Verdict::Level)) => "level: the secretary settles it".into(),
        _ if score.is_some_and(|s| s.provisional()) => "result awaiting approval".into(),
        (_, Some(Verdict::Won(_))) => line.state_words(true),
        _ => line.state_words(false),
    }
}

/// The cup `id` of `league`.
pub async fn cup(db: &Db, league: &League, id: CupId) -> Result<CupView> {
    let data = db.cup_data(league.id, id).await?;
    let season = db.season(league.id, data.cup.season_id).await?;
    bracket(db, &season, data).await
}

/// The bracket of `data` (a cup of `season`): its fixtures' lines and
/// scores read in two queries, the ties in bracket order.
pub async fn bracket(db: &Db, season: &Season, data: CupData) -> Result<CupView> {
    let league = season.league_id;
    let scope = FixtureScope::Cup(data.cup.id);
    let lines = db.fixture_lines(league, &scope).await?;
    let boards = db.board_lines(league, &scope, false).await?;
    let scores = scores_by_season(
        &lines,
        &boards,
        &match_formats(std::slice::from_ref(season))?,
    );
    let facts = tie_matches(&lines, &scores);
    let lines: HashMap<_, &FixtureLine> = lines.iter().map(|l| (l.id, l)).collect();
    let states = data.states(&facts)?;
    let kind = data.cup.entrants;
    let entrants: HashMap<CupEntrantId, &CupEntrant> =
        data.entrants.iter().map(|e| (e.id, e)).collect();
    let number_of: HashMap<CupTieId, i64> = data.ties.iter().map(|t| (t.id, t.number)).collect();
    let total = rounds(&data);
    let individual = kind != EntrantKind::Teams;
    let side = |entrant: Option<CupEntrantId>, from: Option<CupTieId>, won: bool| -> SideView {
        match entrant.and_then(|e| entrants.get(&e)) {
            Some(e) => entrant_side(kind, e, won),
            None => SideView {
                name: match from.and_then(|t| number_of.get(&t)) {
                    Some(n) => format!("Winner of tie {n}"),
                    None => "To be decided".into(),
                },
                team: None,
                player: None,
                won: false,
                pending: true,
            },
        }
    };
    let by_id: HashMap<CupTieId, &crate::db::CupTie> =
        data.ties.iter().map(|t| (t.id, t)).collect();
    let mut rounds_out = Vec::new();
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
                    fixture_id: t.fixture_id.map(|f| f.0),
                    movable: line.is_some_and(|l| {
                        crate::league::workflow::reschedule(l.status, FixtureStatus::Postponed)
                            .is_ok()
                    }),
                    score: score.map(|s| ScoreView {
                        boards: s.boards,
                        games: s.games,
                        pegs: s.pegs,
                        provisional: s.provisional(),
                        status: s.status.map(|st| st.as_str().to_owned()),
                    }),
                    state_words: tie_state(bye, line, verdict, score),
                    provisional: score.is_some_and(|s| s.provisional()),
                }
            })
            .collect();
        rounds_out.push(RoundView {
            number: round.round,
            name: cup::round_name(round.round, total),
            starts_at: round.starts_at,
            play_by: round.play_by,
            venue: round.venue_name.clone(),
            method: round.method.as_str().to_owned(),
            seed: round.seed.clone(),
            ties,
        });
    }
    let champion = cup::champion(&states, total)
        .and_then(|e| entrants.get(&e))
        .map(|e| entrant_side(kind, e, true));
    let entered = if data.rounds.is_empty() {
        data.entrants
            .iter()
            .map(|e| entrant_side(kind, e, false))
            .collect()
    } else {
        Vec::new()
    };
    Ok(CupView {
        cup: Ref::new(data.cup.id.0, data.cup.name.clone()),
        season: Ref::new(season.id.0, season.name.clone()),
        entrants: kind.as_str().to_owned(),
        entered,
        counts: if individual { "games" } else { "boards" }.to_owned(),
        rounds: rounds_out,
        champion,
        data: Some(data),
        season_record: Some(season.clone()),
    })
}
