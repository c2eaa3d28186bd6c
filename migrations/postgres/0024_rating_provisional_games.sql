-- Ratings (issue 27): a player's rating is shown as provisional until they
-- have played this many rated games of its rule family; a league setting.
ALTER TABLE leagues ADD COLUMN provisional_games BIGINT NOT NULL DEFAULT 10
    CHECK (provisional_games BETWEEN 0 AND 1000);
