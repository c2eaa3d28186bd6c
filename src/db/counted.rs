//! What a figure counts, written once for every query that counts: the
//! current version of a fixture's result, and the games a player's figures
//! are made of, and the fixtures still waiting for a result. The player page, the player table and the round-up all
//! count through these, so a voided fixture cannot count on one and not
//! on another.

/// The current version of each fixture's result (the highest), as a
/// condition on `v` (a `result_versions` row), looked up once per fixture
/// in the `(fixture_id, version)` index.
pub(crate) const CURRENT_VERSION: &str = "v.version = (SELECT MAX(v2.version) \
     FROM result_versions v2 WHERE v2.fixture_id = v.fixture_id)";

/// The games a player's figures count, as a condition on `f` (the
/// fixture), `v` (its result version) and `g` (the game): finished games of
/// the current, approved version of a fixture that is neither void nor a
/// walkover. Written out in full (SQL text cannot be built from two
/// constants at compile time); a test holds it to [`CURRENT_VERSION`].
pub(crate) const COUNTED_GAMES: &str = "f.status NOT IN ('void', 'walkover') \
     AND v.status = 'approved' AND g.finished = TRUE \
     AND v.version = (SELECT MAX(v2.version) \
     FROM result_versions v2 WHERE v2.fixture_id = v.fixture_id)";

/// A fixture still waiting for its result, as a condition on `f`: still
/// scheduled, with a date, no version of a result entered, in a season not
/// closed (a season rolled over is kept as it is: nothing of it is missing
/// any more). When such a fixture is overdue is `league::overdue`'s to say;
/// the console's to-do list, the reminders and the late-result rule all
/// read their fixtures through this.
pub(crate) const AWAITING_RESULT: &str = "f.status = 'scheduled' AND f.starts_at IS NOT NULL \
     AND NOT EXISTS (SELECT 1 FROM result_versions rv \
     WHERE rv.fixture_id = f.id AND rv.league_id = f.league_id) \
     AND NOT EXISTS (SELECT 1 FROM seasons cs WHERE cs.id = f.season_id \
     AND cs.league_id = f.league_id AND cs.closed_at IS NOT NULL)";

/// A board's games won and pegs scored by its home and its away side, as
/// columns summed over `g` (its games) and `gp` (its first home player's
/// seat in each): the home side is that player's record side. The tables'
/// board lines read these sums kept on each board (`results::keep_board_sums`)
/// and the reference read sums them afresh (`pages::board_lines_from_games_sql`).
pub(crate) const BOARD_SUMS: &str = "\
    CAST(SUM(CASE WHEN g.winner_side = gp.side THEN 1 ELSE 0 END) AS BIGINT) AS home_games, \
    CAST(SUM(CASE WHEN g.winner_side = 1 - gp.side THEN 1 ELSE 0 END) AS BIGINT) AS away_games, \
    CAST(COALESCE(SUM(CASE WHEN gp.side = 0 THEN g.total_0 ELSE g.total_1 END), 0) AS BIGINT) \
      AS home_pegs, \
    CAST(COALESCE(SUM(CASE WHEN gp.side = 0 THEN g.total_1 ELSE g.total_0 END), 0) AS BIGINT) \
      AS away_pegs";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_games_are_of_the_current_version() {
        assert!(COUNTED_GAMES.ends_with(CURRENT_VERSION));
    }
}
