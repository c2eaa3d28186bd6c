-- The player table counts each player's 8-point plays and chip-outs in a
-- season's counted games (src/db/stats.rs), reached through each game's
-- hands. This index holds only those plays (about one in twenty) with the
-- columns the count reads, so the count never reads the table. Its
-- condition is written as the query's `SCORING_PLAY`: SQLite uses a partial
-- index only when the query's WHERE holds that condition word for word.
-- Kept in step with migrations/postgres/0003_player_stats_indexes.sql.
CREATE INDEX plays_scoring ON plays (hand_id, player_id, points, out)
    WHERE points = 8 OR out = TRUE;
