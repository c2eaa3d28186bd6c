-- A board not played: which side conceded it (the other takes it, as a
-- walkover takes every board). NULL for a board that was played.
ALTER TABLE boards ADD COLUMN conceded_by TEXT CHECK (conceded_by IN ('home', 'away'));

-- A game entered by its final score only, on a night without hand-by-hand
-- detail: it has no hands, counts in the boards, games and pegs of the
-- tables, and stays out of the per-hand statistics.
ALTER TABLE games ADD COLUMN score_only BOOLEAN NOT NULL DEFAULT FALSE;
