//! The demo's cups: in the season being played, a team cup of every team
//! and a singles knockout (pairs in a league of partnership sets), each
//! drawn at random from the league's generator and played part of the way:
//! the team cup's first round (on a night ten days ago) and half its
//! second, the knockout's first round but for a result awaiting approval
//! and a tie still to play. Rounds part played are to be played by a night
//! still to come, their ties played so far on the nights before today.
//!
//! Written through the database's own calls, inside the fill's bulk load
//! (no durable commit per row), like the rest of the demo.

use crate::app::cup_commands::{add_cup_entrant, draw_cup_round};
use crate::db::pages::{FixtureLine, FixtureScope};
use crate::db::{
    CupId, DrawRequest, FixtureChange, FixtureStatus, How, NewCup, NewEntrant, ResultStatus, Side,
};
use crate::league::cup::EntrantKind;
use crate::league::match_format::{BoardKind, BoardSpec, MatchFormat};
use crate::rules::Format;

use super::{DemoError, LeagueWriter, Member, SeasonState, play_match};

/// How a cup tie of the demo ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Approved,
    Entered,
    Walkover,
    Unplayed,
}

impl LeagueWriter<'_> {
    /// The season's team cup, its first round played (a walkover among
    /// them) and half its second.
    pub(super) async fn cups(&mut self, season: &SeasonState) -> Result<(), DemoError> {
        let teams = self
            .cup(season, "League Cup", EntrantKind::Teams, None)
            .await?;
        let seed = self.rng.next_u64();
        self.draw(teams, 1, (-10, false), How::Random { seed })
            .await?;
        self.play_round(teams, 1, |i, _| {
            if i == 1 {
                Outcome::Walkover
            } else {
                Outcome::Approved
            }
        })
        .await?;
        // A league of two teams has played its final already.
        if self.teams.len() < 3 {
            return self.knockout(season).await;
        }
        self.draw(teams, 2, (11, true), How::Bracket).await?;
        self.play_round(teams, 2, |i, n| {
            if i < n / 2 {
                Outcome::Approved
            } else if i == n / 2 {
                Outcome::Entered
            } else {
                Outcome::Unplayed
            }
        })
        .await?;
        self.knockout(season).await
    }

    /// The singles (or pairs) knockout: its first round played but for a
    /// tie still to play and a result awaiting approval.
    async fn knockout(&mut self, season: &SeasonState) -> Result<(), DemoError> {
        // Partnership sets are played between pairs only.
        let (kind, name) = if self.plan.format == Format::HandsWon {
            (EntrantKind::Pairs, "Pairs Knockout")
        } else {
            (EntrantKind::Singles, "Singles Knockout")
        };
        let board = BoardSpec {
            kind: if kind == EntrantKind::Pairs {
                BoardKind::Pairs
            } else {
                BoardKind::Singles
            },
            best_of: 3,
        };
        let format = MatchFormat {
            boards: vec![board],
            ..MatchFormat::with_boards(0, 0, 1)
        };
        let knockout = self.cup(season, name, kind, Some(format)).await?;
        let seed = self.rng.next_u64();
        self.draw(knockout, 1, (5, true), How::Random { seed })
            .await?;
        self.play_round(knockout, 1, |i, n| match n - i {
            1 if n >= 2 => Outcome::Unplayed,
            2 if n >= 3 => Outcome::Entered,
            _ => Outcome::Approved,
        })
        .await
    }

    /// A cup of the season with its entrants: every team; or a player of
    /// each team and a second of every third (so that the first round has
    /// byes); or a pair of each team.
    async fn cup(
        &mut self,
        season: &SeasonState,
        name: &str,
        kind: EntrantKind,
        match_format: Option<MatchFormat>,
    ) -> Result<CupId, DemoError> {
        let (db, league) = (self.db, self.league);
        let new = NewCup {
            season_id: season.id,
            name: name.to_owned(),
            entrants: kind,
            match_format,
        };
        let cup = db.create_cup(league, &new, None).await?.id;
        for (t, team) in self.teams.iter().enumerate() {
            let groups: Vec<Vec<&Member>> = match kind {
                EntrantKind::Teams => vec![Vec::new()],
                EntrantKind::Singles if t % 3 == 0 => {
                    team.roster.iter().take(2).map(|m| vec![m]).collect()
                }
                EntrantKind::Singles => vec![team.roster.iter().take(1).collect()],
                EntrantKind::Pairs => vec![team.roster.iter().take(2).collect()],
            };
            for players in groups {
                let entrant = NewEntrant {
                    team_id: team.id,
                    players: players.iter().map(|m| m.id).collect(),
                    seed: None,
                };
                add_cup_entrant(db, league, cup, &entrant, None).await?;
            }
        }
        Ok(cup)
    }

    /// Draws round `round` for 8pm `days` from today: its night, or with
    /// `play_by` the last night its ties may be played.
    async fn draw(
        &mut self,
        cup: CupId,
        round: u32,
        (days, play_by): (i64, bool),
        how: How,
    ) -> Result<(), DemoError> {
        let request = DrawRequest {
            round,
            starts_at: self.today.night(days),
            play_by,
            venue_id: None,
            how,
        };
        draw_cup_round(self.db, self.league, cup, &request, None).await?;
        Ok(())
    }

    /// Plays round `round`'s matches as `outcome` says for the `i`-th of
    /// `n`: each side's players as the simulator lines them up.
    async fn play_round(
        &mut self,
        cup: CupId,
        round: i64,
        outcome: impl Fn(usize, usize) -> Outcome,
    ) -> Result<(), DemoError> {
        let (db, league) = (self.db, self.league);
        let format = db
            .cup(league, cup)
            .await?
            .match_format
            .unwrap_or_else(|| self.plan.match_format.clone());
        let lines: Vec<FixtureLine> = db
            .fixture_lines(league, &FixtureScope::Cup(cup))
            .await?
            .into_iter()
            .filter(|f| f.round == round)
            .collect();
        let n = lines.len();
        let secretary = self.secretary();
        for (i, line) in lines.iter().enumerate() {
            let fixture = db.fixture(league, line.id).await?;
            match outcome(i, n) {
                Outcome::Unplayed => {}
                Outcome::Walkover => {
                    let walkover = FixtureChange {
                        status: FixtureStatus::Walkover,
                        conceded_by: Some(Side::Away),
                        ..FixtureChange::from(&fixture)
                    };
                    crate::app::fixtures::change(db, league, line.id, &walkover, secretary).await?;
                }
                played => {
                    let (home, away) = match db.cup_tie_players(league, line.id).await? {
                        Some((home, away)) => (members(home), members(away)),
                        None => (
                            self.roster(line.home_team_id),
                            self.roster(line.away_team_id),
                        ),
                    };
                    let m = play_match(&self.ruleset, &format.boards, &home, &away, self.rng)?;
                    // On its night; or, to be played by a night to come,
                    // on one of the nights before today, which the tie is
                    // then dated (as a secretary would), so that it is
                    // among the recent results rather than the ones to
                    // come.
                    let night = match fixture.starts_at.filter(|t| *t < self.today.start()) {
                        Some(night) => night,
                        None => {
                            // Not last week's league night.
                            let night = self.today.night([-4, -5, -6, -8, -9][i % 5]);
                            let played_on = FixtureChange {
                                starts_at: Some(night),
                                ..FixtureChange::from(&fixture)
                            };
                            crate::app::fixtures::change(
                                db, league, line.id, &played_on, secretary,
                            )
                            .await?;
                            night
                        }
                    };
                    let status = if played == Outcome::Approved {
                        ResultStatus::Approved
                    } else {
                        ResultStatus::Entered
                    };
                    let card = self.card(
                        night,
                        self.team_index(line.home_team_id),
                        self.team_index(line.away_team_id),
                        status,
                    );
                    self.record(&fixture, &m.result, &card).await?;
                }
            }
        }
        Ok(())
    }

    /// A team's place in the plan.
    fn team_index(&self, team: crate::db::TeamId) -> usize {
        self.teams.iter().position(|t| t.id == team).unwrap_or(0)
    }

    /// A team's players this season.
    fn roster(&self, team: crate::db::TeamId) -> Vec<Member> {
        self.teams
            .iter()
            .find(|t| t.id == team)
            .map(|t| t.roster.clone())
            .unwrap_or_default()
    }
}

fn members(players: Vec<crate::db::Player>) -> Vec<Member> {
    players
        .into_iter()
        .map(|p| Member {
            id: p.id,
            name: p.name,
        })
        .collect()
}
