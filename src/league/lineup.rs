//! The line-up rule (LEAGUE.md, "Match format"): how many boards of each
//! kind one player may play in one match. A team of six plays six singles
//! and three pairs, so by default each player plays one singles board and
//! one pairs board.

use serde::{Deserialize, Serialize};

use super::match_format::{BoardKind, MatchFormat};

/// Most boards of each kind one player may play in one match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineUp {
    pub singles: u32,
    pub pairs: u32,
}

impl Default for LineUp {
    fn default() -> LineUp {
        LineUp {
            singles: 1,
            pairs: 1,
        }
    }
}

impl LineUp {
    pub fn most(&self, kind: BoardKind) -> u32 {
        match kind {
            BoardKind::Singles => self.singles,
            BoardKind::Pairs => self.pairs,
        }
    }

    /// Refuses a limit no match could be played under.
    pub fn check(&self) -> Result<(), String> {
        if self.singles == 0 || self.pairs == 0 {
            return Err("a player may play at least one board of each kind".into());
        }
        Ok(())
    }
}

/// The players of one board of a match: its number (1-based), its kind
/// and every player on it, home and away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardPlayers {
    pub board: usize,
    pub kind: BoardKind,
    pub players: Vec<i64>,
}

/// A player on more boards of one kind than the match format allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    pub player: i64,
    pub kind: BoardKind,
    /// Every board of that kind the player is on, in order.
    pub boards: Vec<usize>,
    pub most: u32,
}

impl Clash {
    /// The clash in words, `name` being the player's name.
    pub fn words(&self, name: &str) -> String {
        let list: Vec<String> = self.boards.iter().map(usize::to_string).collect();
        format!(
            "{name} is on {} boards {} ({}); a player plays at most {} {} board{} a match.",
            self.kind,
            join(&list),
            self.boards.len(),
            self.most,
            self.kind,
            if self.most == 1 { "" } else { "s" }
        )
    }
}

fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every player on more boards of a kind than `format` allows, in the
/// order of their first board.
pub fn clashes(format: &MatchFormat, boards: &[BoardPlayers]) -> Vec<Clash> {
    let mut seen: Vec<(i64, BoardKind, Vec<usize>)> = Vec::new();
    let mut sorted: Vec<&BoardPlayers> = boards.iter().collect();
    sorted.sort_by_key(|b| b.board);
    for b in sorted {
        let mut players = b.players.clone();
        players.sort_unstable();
        players.dedup();
        for p in players {
            match seen.iter_mut().find(|(q, k, _)| *q == p && *k == b.kind) {
                Some((_, _, on)) => on.push(b.board),
                None => seen.push((p, b.kind, vec![b.board])),
            }
        }
    }
    seen.into_iter()
        .filter(|(_, kind, on)| on.len() > format.line_up.most(*kind) as usize)
        .map(|(player, kind, boards)| Clash {
            player,
            kind,
            boards,
            most: format.line_up.most(kind),
        })
        .collect()
}

/// Whether `players` may be put on board `board` of kind `kind` while the
/// match's other boards have the players in `others`: the first player who
/// is already on as many other boards of that kind as allowed, with those
/// boards.
pub fn refuse(
    format: &MatchFormat,
    board: usize,
    kind: BoardKind,
    players: &[i64],
    others: &[BoardPlayers],
) -> Option<Clash> {
    let most = format.line_up.most(kind);
    players.iter().find_map(|&p| {
        let mut on: Vec<usize> = others
            .iter()
            .filter(|o| o.board != board && o.kind == kind && o.players.contains(&p))
            .map(|o| o.board)
            .collect();
        on.sort_unstable();
        on.dedup();
        (on.len() >= most as usize).then_some(Clash {
            player: p,
            kind,
            boards: on,
            most,
        })
    })
}

/// [`refuse`]'s clash in the pad's words: the boards the player is on.
pub fn refusal_words(clash: &Clash, name: &str) -> String {
    let list: Vec<String> = clash.boards.iter().map(usize::to_string).collect();
    format!(
        "{name} already plays {} board{} {}: a player plays at most {} {} board{} a match",
        clash.kind,
        if clash.boards.len() == 1 { "" } else { "s" },
        join(&list),
        clash.most,
        clash.kind,
        if clash.most == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(board: usize, kind: BoardKind, players: &[i64]) -> BoardPlayers {
        BoardPlayers {
            board,
            kind,
            players: players.to_vec(),
        }
    }

    #[test]
    fn one_player_on_three_singles_boards_is_one_clash_naming_them() {
        let f = MatchFormat::with_boards(6, 3, 1);
        let boards = [
            board(1, BoardKind::Singles, &[1, 11]),
            board(2, BoardKind::Singles, &[1, 12]),
            board(5, BoardKind::Singles, &[1, 15]),
            board(7, BoardKind::Pairs, &[1, 2, 11, 12]),
        ];
        let c = clashes(&f, &boards);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!((c[0].player, c[0].boards.clone()), (1, vec![1, 2, 5]));
        assert_eq!(
            c[0].words("Ann"),
            "Ann is on singles boards 1, 2 and 5 (3); a player plays at most 1 singles board a match."
        );
    }

    #[test]
    fn a_singles_and_a_pairs_board_each_is_the_default_and_fine() {
        let f = MatchFormat::with_boards(6, 3, 1);
        let boards: Vec<BoardPlayers> = (1..=6)
            .map(|b| board(b, BoardKind::Singles, &[b as i64, 10 + b as i64]))
            .chain((0..3).map(|j| {
                let p = 2 * j as i64 + 1;
                board(7 + j, BoardKind::Pairs, &[p, p + 1, 10 + p, 11 + p])
            }))
            .collect();
        assert!(clashes(&f, &boards).is_empty());
    }

    #[test]
    fn a_looser_format_allows_more_and_the_pad_names_the_other_board() {
        let mut f = MatchFormat::with_boards(4, 0, 1);
        let others = [
            board(1, BoardKind::Singles, &[1, 11]),
            board(2, BoardKind::Singles, &[2, 12]),
        ];
        let refused = refuse(&f, 3, BoardKind::Singles, &[2, 13], &others).unwrap();
        assert_eq!(refused.boards, vec![2]);
        assert_eq!(
            refusal_words(&refused, "Bob"),
            "Bob already plays singles board 2: a player plays at most 1 singles board a match"
        );
        // The board itself is not another board: choosing again is fine.
        assert_eq!(refuse(&f, 2, BoardKind::Singles, &[2, 12], &others), None);
        f.line_up.singles = 2;
        assert_eq!(refuse(&f, 3, BoardKind::Singles, &[2, 13], &others), None);
        assert!(clashes(&f, &others).is_empty());
    }
}
