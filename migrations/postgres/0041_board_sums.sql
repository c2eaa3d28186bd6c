-- Each board's games and pegs as its result's tables count them, kept on
-- the board when its version is written (issue 43): a version never
-- changes once written, and every table, fixture list, team page, cup and
-- round-up summed them from every game and seat on each request.
--
-- A board's home side is the record side of its first home player, in
-- each game that player sat in (`counted_games`); a board with no such
-- game has no line of its own (a conceded one still has).
ALTER TABLE boards ADD COLUMN counted_games BIGINT NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN home_games BIGINT NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN away_games BIGINT NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN home_pegs BIGINT NOT NULL DEFAULT 0;
ALTER TABLE boards ADD COLUMN away_pegs BIGINT NOT NULL DEFAULT 0;

-- The boards written before: the same sums `db::results::keep_board_sums`
-- makes for each new version.
UPDATE boards SET
    counted_games = s.counted_games,
    home_games = s.home_games,
    away_games = s.away_games,
    home_pegs = s.home_pegs,
    away_pegs = s.away_pegs
FROM (
    SELECT bp.board_id,
        CAST(COUNT(*) AS BIGINT) AS counted_games,
        CAST(SUM(CASE WHEN g.winner_side = gp.side THEN 1 ELSE 0 END) AS BIGINT) AS home_games,
        CAST(SUM(CASE WHEN g.winner_side = 1 - gp.side THEN 1 ELSE 0 END) AS BIGINT) AS away_games,
        CAST(COALESCE(SUM(CASE WHEN gp.side = 0 THEN g.total_0 ELSE g.total_1 END), 0) AS BIGINT) AS home_pegs,
        CAST(COALESCE(SUM(CASE WHEN gp.side = 0 THEN g.total_1 ELSE g.total_0 END), 0) AS BIGINT) AS away_pegs
    FROM board_players bp
    JOIN games g ON g.board_id = bp.board_id
    JOIN game_players gp ON gp.game_id = g.id AND gp.player_id = bp.player_id
    WHERE bp.side = 'home' AND bp.position = 1
    GROUP BY bp.board_id
) AS s
WHERE boards.id = s.board_id;
