-- The player table counts each player's 8-point plays and chip-outs in a
-- season's counted games (src/db/stats.rs), reached through each game's
-- hands. This index holds only those plays (about one in twenty) with the
-- columns the count reads, so the count is an index-only scan. Its
-- condition is written as the query's `SCORING_PLAY`, which implies it.
-- Kept in step with migrations/sqlite/0003_player_stats_indexes.sql.
CREATE INDEX plays_scoring ON plays (hand_id, player_id, points, out)
    WHERE points = 8 OR out = TRUE;
