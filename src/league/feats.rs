//! The notable feats of a week's matches, for the weekly round-up a league
//! sends to the local paper: whitewashes (every board to nil), games won
//! without reply, 8-point plays, the quickest game to the target in hands,
//! and sets won to nil; and of a whole season, for its honours, with who
//! did the most of each ([`season_feats`]). Computed from the hands: each
//! game's record is scored by the engine here, never taken from stored
//! totals. Pure.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::rules::{Format, Game, GameRecord, Outcome, score};

/// A match of the week, as the round-up reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct WeekMatch<'a> {
    /// The caller's key for the match (its fixture id).
    pub fixture: i64,
    /// Boards won, home first: the match's score.
    pub score: [u32; 2],
    /// The boards a match has in its format.
    pub boards: u32,
    /// Every game played, in board order.
    pub games: Vec<WeekGame<'a>>,
}

/// One game of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct WeekGame<'a> {
    /// 1-based.
    pub board: usize,
    pub number: usize,
    /// Borrowed from the kept results: a season's feats read every game.
    pub record: Cow<'a, GameRecord>,
    /// Which of the record's sides is the home team's (0 or 1).
    pub home_side: usize,
    /// Entered by its final score only: no hands, so no feats.
    pub score_only: bool,
}

/// A match won on every board, the other side taking none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whitewash {
    pub fixture: i64,
    /// 0: the home team, 1: the away team.
    pub winner: usize,
    pub boards: u32,
}

/// A game worth naming: who won it, against whom, the score (the winners'
/// first) and in how many hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFeat {
    pub fixture: i64,
    pub board: usize,
    pub game: usize,
    /// 0: the winners played for the home team, 1: for the away team.
    pub team: usize,
    pub winners: Vec<String>,
    pub losers: Vec<String>,
    pub score: [u32; 2],
    pub hands: usize,
    /// The score a game is played to (61, 250, a set of 6).
    pub target: u32,
}

/// A player's 8-point plays in one match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Eights {
    pub fixture: i64,
    /// 0: the home team's player, 1: the away team's.
    pub team: usize,
    pub player: String,
    pub count: u32,
}

/// What the week's games hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Feats {
    pub whitewashes: Vec<Whitewash>,
    /// Games won with the losers still on nothing (`fives-and-threes`,
    /// `all-fives`).
    pub without_reply: Vec<GameFeat>,
    /// `hands-won` sets won with the losers on nothing (6-0).
    pub nil_sets: Vec<GameFeat>,
    /// The `fives-and-threes` games won in the fewest hands, all of them
    /// when several share it.
    pub quickest: Vec<GameFeat>,
    /// Every 8-point play of the week (a "fifteen": the ends totalled 15).
    pub eights_total: u32,
    /// The players with the most 8-point plays in one match, all of them
    /// when several share it.
    pub most_eights: Vec<Eights>,
}

impl Feats {
    pub fn is_empty(&self) -> bool {
        self.whitewashes.is_empty()
            && self.without_reply.is_empty()
            && self.nil_sets.is_empty()
            && self.quickest.is_empty()
            && self.eights_total == 0
    }
}

/// A game the engine scored to a finish.
struct Won<'a> {
    game: &'a WeekGame<'a>,
    outcome: Outcome,
    parsed: Game,
    winner: usize,
}

impl Won<'_> {
    fn feat(&self, fixture: i64) -> GameFeat {
        let w = self.winner;
        let names = |side: usize| self.game.record.sides[side].clone();
        let target = match self.parsed.ruleset.format {
            Format::HandsWon => self.parsed.ruleset.set_to,
            _ => self.parsed.ruleset.target,
        };
        GameFeat {
            fixture,
            board: self.game.board,
            game: self.game.number,
            team: usize::from(w != self.game.home_side),
            winners: names(w),
            losers: names(1 - w),
            score: [self.outcome.totals[w], self.outcome.totals[1 - w]],
            hands: self
                .outcome
                .won_at
                .map_or(self.outcome.hands.len(), |at| at.hand + 1),
            target,
        }
    }
}

/// The feats of `matches`.
pub fn feats(matches: &[WeekMatch]) -> Feats {
    let mut out = every_feat(matches);
    let most = out.most_eights.iter().map(|e| e.count).max().unwrap_or(0);
    out.most_eights.retain(|e| e.count == most);
    out
}

/// The feats of `matches`, with every player's 8-point plays in each match
/// in `most_eights` (not only the most).
fn every_feat(matches: &[WeekMatch]) -> Feats {
    let mut out = Feats::default();
    for m in matches {
        // A one-board cup tie won 1-0 is no whitewash to report.
        if let Some(winner) = (0..2).find(|&w| m.boards > 1 && m.score[w] == m.boards) {
            if m.score[1 - winner] == 0 {
                out.whitewashes.push(Whitewash {
                    fixture: m.fixture,
                    winner,
                    boards: m.boards,
                });
            }
        }
        let mut eights: Vec<Eights> = Vec::new();
        for g in m.games.iter().filter(|g| !g.score_only) {
            let Ok(parsed) = Game::from_record(&g.record) else {
                continue;
            };
            let Ok(outcome) = score(&parsed) else {
                continue;
            };
            let format = parsed.ruleset.format;
            if format == Format::FivesAndThrees {
                for play in g.record.hands.iter().flat_map(|h| &h.plays) {
                    if play.points != 8 {
                        continue;
                    }
                    out.eights_total += 1;
                    let side = g.record.sides.iter().position(|s| s.contains(&play.by));
                    let team = usize::from(side != Some(g.home_side));
                    match eights
                        .iter_mut()
                        .find(|e| e.player == play.by && e.team == team)
                    {
                        Some(e) => e.count += 1,
                        None => eights.push(Eights {
                            fixture: m.fixture,
                            team,
                            player: play.by.clone(),
                            count: 1,
                        }),
                    }
                }
            }
            let (true, Some(winner)) = (outcome.finished, outcome.winner) else {
                continue;
            };
            let won = Won {
                game: g,
                outcome,
                parsed,
                winner,
            };
            let nil = won.outcome.totals[1 - winner] == 0;
            match format {
                Format::HandsWon if nil => out.nil_sets.push(won.feat(m.fixture)),
                Format::HandsWon => {}
                _ if nil => out.without_reply.push(won.feat(m.fixture)),
                _ => {}
            }
            if format == Format::FivesAndThrees {
                let feat = won.feat(m.fixture);
                match out.quickest.first().map(|q| q.hands) {
                    Some(best) if feat.hands > best => {}
                    Some(best) if feat.hands == best => out.quickest.push(feat),
                    _ => out.quickest = vec![feat],
                }
            }
        }
        out.most_eights.extend(eights);
    }
    out
}

/// A player's count over a season: their name as the game records give it,
/// the caller's key for the team they played for (`T`), and how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCount<T> {
    pub player: String,
    pub team: T,
    pub count: u32,
}

/// A team's count over a season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamCount<T> {
    pub team: T,
    pub count: u32,
}

/// A season's feats, for its honours: the week's feats over every match
/// of the season, and who did the most of each over all their matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonFeats<T> {
    /// Every feat of the season's matches, as [`feats`] finds them for a
    /// week (its `most_eights`: the most in one match).
    pub all: Feats,
    /// The teams with the most whitewashes.
    pub most_whitewashes: Vec<TeamCount<T>>,
    /// The players with the most 8-point plays over the season.
    pub most_eights: Vec<PlayerCount<T>>,
    /// The players with the most games won without reply (each winner of
    /// a pairs game counts it).
    pub most_without_reply: Vec<PlayerCount<T>>,
    /// The players with the most `hands-won` sets won to nil.
    pub most_nil_sets: Vec<PlayerCount<T>>,
}

/// The feats of a season's `matches`, and who did the most of each: a
/// player counted for the team they played for in each match, `team`
/// giving its key from the match's fixture key and side (0: home, 1:
/// away). All who share the most are listed (players by name, then team).
pub fn season_feats<T: Ord + Clone>(
    matches: &[WeekMatch],
    team: impl Fn(i64, usize) -> T,
) -> SeasonFeats<T> {
    let every = every_feat(matches);
    let mut whitewashes: BTreeMap<T, u32> = BTreeMap::new();
    for w in &every.whitewashes {
        *whitewashes.entry(team(w.fixture, w.winner)).or_default() += 1;
    }
    let mut eights: BTreeMap<(String, T), u32> = BTreeMap::new();
    for e in &every.most_eights {
        *eights
            .entry((e.player.clone(), team(e.fixture, e.team)))
            .or_default() += e.count;
    }
    let winners = |games: &[GameFeat]| {
        let mut out: BTreeMap<(String, T), u32> = BTreeMap::new();
        for g in games {
            for name in &g.winners {
                *out.entry((name.clone(), team(g.fixture, g.team)))
                    .or_default() += 1;
            }
        }
        out
    };
    let players = |counts: BTreeMap<(String, T), u32>| {
        most(counts)
            .into_iter()
            .map(|((player, team), count)| PlayerCount {
                player,
                team,
                count,
            })
            .collect()
    };
    let most_without_reply = players(winners(&every.without_reply));
    let most_nil_sets = players(winners(&every.nil_sets));
    let most_eights = players(eights);
    let mut all = every;
    let top = all.most_eights.iter().map(|e| e.count).max().unwrap_or(0);
    all.most_eights.retain(|e| e.count == top);
    SeasonFeats {
        all,
        most_whitewashes: most(whitewashes)
            .into_iter()
            .map(|(team, count)| TeamCount { team, count })
            .collect(),
        most_eights,
        most_without_reply,
        most_nil_sets,
    }
}

/// The keys with the highest count (none when every count is 0), in key
/// order.
fn most<K: Ord>(counts: BTreeMap<K, u32>) -> Vec<(K, u32)> {
    let top = counts.values().copied().max().unwrap_or(0);
    counts
        .into_iter()
        .filter(|(_, n)| *n == top && top > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn record(value: Value) -> GameRecord {
        serde_json::from_value(value).unwrap()
    }

    /// Ann (home) against Bob, fives-and-threes: `hands` as given.
    fn singles(hands: Value) -> WeekGame<'static> {
        WeekGame {
            board: 1,
            number: 1,
            record: Cow::Owned(record(json!({
                "format": "fives-and-threes",
                "players": ["Ann", "Bob"],
                "sides": [["Ann"], ["Bob"]],
                "first_pose": "Ann",
                "hands": hands,
            }))),
            home_side: 0,
            score_only: false,
        }
    }

    fn plays(by: &str, points: &[u32]) -> Value {
        Value::Array(
            points
                .iter()
                .map(|p| json!({"by": by, "points": p}))
                .collect(),
        )
    }

    /// Ann wins 61-0 in `hands` hands: each hand but the last blocked.
    fn ann_to_nil(hands: usize) -> WeekGame<'static> {
        let per_hand = 61 / hands as u32;
        let mut out = Vec::new();
        let mut left = 61;
        for h in 0..hands {
            let mut points = Vec::new();
            let want = if h + 1 == hands { left } else { per_hand };
            let mut got = 0;
            while got < want {
                let p = [8, 6, 4, 3, 2, 1]
                    .into_iter()
                    .find(|p| got + p <= want)
                    .unwrap();
                points.push(p);
                got += p;
            }
            left -= want;
            let mut hand = json!({"plays": plays("Ann", &points)});
            if h + 1 < hands {
                hand["end"] = json!({"blocked": {}});
            }
            out.push(hand);
        }
        singles(Value::Array(out))
    }

    fn week(fixture: i64, score: [u32; 2], games: Vec<WeekGame>) -> WeekMatch {
        WeekMatch {
            fixture,
            score,
            boards: 9,
            games,
        }
    }

    #[test]
    fn a_game_to_nil_is_without_reply_and_the_fewest_hands_is_quickest() {
        let f = feats(&[
            week(1, [9, 0], vec![ann_to_nil(3)]),
            week(2, [5, 4], vec![ann_to_nil(2), ann_to_nil(2)]),
        ]);
        assert_eq!(
            f.whitewashes,
            [Whitewash {
                fixture: 1,
                winner: 0,
                boards: 9
            }]
        );
        assert_eq!(f.without_reply.len(), 3);
        assert_eq!(f.without_reply[0].score, [61, 0]);
        assert_eq!(f.without_reply[0].winners, ["Ann"]);
        assert_eq!(f.without_reply[0].target, 61);
        // Two games of two hands share the quickest.
        assert_eq!(f.quickest.len(), 2);
        assert!(f.quickest.iter().all(|q| q.hands == 2 && q.fixture == 2));
        // 8s: seven a hand of 61 in a 2-hand game (8*3 + ...) counted.
        assert!(f.eights_total > 0);
        assert!(
            f.most_eights
                .iter()
                .all(|e| e.player == "Ann" && e.team == 0)
        );
    }

    #[test]
    fn a_one_board_cup_tie_won_is_no_whitewash() {
        let tie = WeekMatch {
            boards: 1,
            ..week(4, [1, 0], vec![ann_to_nil(3)])
        };
        let f = feats(&[tie]);
        assert!(f.whitewashes.is_empty());
        // Its game to nil is still a feat.
        assert_eq!(f.without_reply.len(), 1);
    }

    #[test]
    fn eights_count_every_play_of_eight_and_the_most_in_a_match_win() {
        // Bob (away) scores two 8s, Ann one; the game is not finished.
        let g = singles(json!([
            {"plays": [{"by": "Bob", "points": 8}, {"by": "Ann", "points": 8},
                       {"by": "Bob", "points": 8}], "end": {"blocked": {}}}
        ]));
        let f = feats(&[week(3, [4, 5], vec![g])]);
        assert_eq!(f.eights_total, 3);
        assert_eq!(
            f.most_eights,
            [Eights {
                fixture: 3,
                team: 1,
                player: "Bob".into(),
                count: 2
            }]
        );
        assert!(f.quickest.is_empty() && f.without_reply.is_empty());
        assert!(f.whitewashes.is_empty());
        assert!(!f.is_empty());
    }

    #[test]
    fn a_set_to_nil_and_what_is_left_out() {
        let won = json!({"plays": [], "end": {"out": "Ann"}});
        let set = WeekGame {
            board: 2,
            number: 1,
            record: Cow::Owned(record(json!({
                "format": "hands-won",
                "players": ["Ann", "Bob", "Cat", "Dan"],
                "sides": [["Bob", "Dan"], ["Ann", "Cat"]],
                "first_pose": "Ann",
                "hands": [won, won, won, won, won, won],
            }))),
            home_side: 0,
            score_only: false,
        };
        let f = feats(&[WeekMatch {
            fixture: 4,
            score: [0, 3],
            boards: 3,
            games: vec![set.clone()],
        }]);
        assert_eq!(f.nil_sets.len(), 1);
        let s = &f.nil_sets[0];
        assert_eq!((s.team, s.score, s.target, s.board), (1, [6, 0], 6, 2));
        assert_eq!(s.winners, ["Ann", "Cat"]);
        assert_eq!(
            f.whitewashes,
            [Whitewash {
                fixture: 4,
                winner: 1,
                boards: 3
            }]
        );
        assert!(f.without_reply.is_empty(), "a set to nil is said once");
        // A game kept by its final score only has no hands: no feats.
        let kept = WeekGame {
            score_only: true,
            ..set
        };
        let f = feats(&[WeekMatch {
            fixture: 5,
            score: [2, 1],
            boards: 3,
            games: vec![kept],
        }]);
        assert!(f.is_empty());
    }

    #[test]
    fn a_seasons_most_are_summed_over_its_matches_by_player_and_team() {
        // Ann (home in match 1, away in match 2, for team 7 both times)
        // makes 8s in both: 2 and 6 (her game to nil) in the first, 2 in
        // the second; Bob 3 in the second.
        let eights = |by: &str, n: usize| -> WeekGame<'static> {
            let plays: Vec<Value> = (0..n).map(|_| json!({"by": by, "points": 8})).collect();
            singles(json!([{"plays": plays, "end": {"blocked": {}}}]))
        };
        let mut away = eights("Ann", 2);
        away.home_side = 1;
        let matches = [
            week(1, [9, 0], vec![eights("Ann", 2), ann_to_nil(3)]),
            week(2, [0, 9], vec![away, eights("Bob", 3)]),
        ];
        // Match 1: team 7 at home to 8; match 2: team 9 at home to 7.
        let team = |fixture: i64, side: usize| match (fixture, side) {
            (1, 0) | (2, 1) => 7,
            (1, 1) => 8,
            _ => 9,
        };
        let s = season_feats(&matches, team);
        assert_eq!(
            s.most_eights,
            [PlayerCount {
                player: "Ann".into(),
                team: 7,
                count: 10
            }]
        );
        // The most in one match, as a week's feats say it: Ann's 8.
        assert_eq!(
            s.all.most_eights,
            [Eights {
                fixture: 1,
                team: 0,
                player: "Ann".into(),
                count: 8
            }]
        );
        assert_eq!(s.all.eights_total, 2 + 6 + 2 + 3);
        // Team 7 won both whitewashes: at home, then away.
        assert_eq!(s.all.whitewashes.len(), 2);
        assert_eq!(s.most_whitewashes, [TeamCount { team: 7, count: 2 }]);
        assert_eq!(
            s.most_without_reply,
            [PlayerCount {
                player: "Ann".into(),
                team: 7,
                count: 1
            }]
        );
        assert!(s.most_nil_sets.is_empty());
        // Nothing at all: nobody did the most.
        let none = season_feats(&[], team);
        assert!(none.all.is_empty() && none.most_eights.is_empty());
        assert!(none.most_whitewashes.is_empty());
    }
}
