-- Each seat's 8-point plays and chip-outs, kept on the seat when its
-- version is written (issue 43), as the boards' sums are (0041): the player
-- table and the honours counted them from every play of every hand of the
-- season on each request (their largest query). A version
-- never changes once written, so the counts cannot go stale.
ALTER TABLE game_players ADD COLUMN eights INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN chip_outs INTEGER NOT NULL DEFAULT 0;

-- The seats written before: the counts `db::results::insert_version`
-- makes for each new seat from its hands.
UPDATE game_players SET
    eights = s.eights,
    chip_outs = s.chip_outs
FROM (
    SELECT h.game_id, pl.player_id,
        CAST(SUM(CASE WHEN pl.points = 8 THEN 1 ELSE 0 END) AS BIGINT) AS eights,
        CAST(SUM(CASE WHEN pl.out = TRUE THEN 1 ELSE 0 END) AS BIGINT) AS chip_outs
    FROM hands h
    JOIN plays pl ON pl.hand_id = h.id
    WHERE pl.points = 8 OR pl.out = TRUE
    GROUP BY h.game_id, pl.player_id
) AS s
WHERE game_players.game_id = s.game_id AND game_players.player_id = s.player_id;
