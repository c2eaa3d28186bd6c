-- The end of a season (issue 13): a play-off fixture, added by a secretary
-- between teams level on every tie-breaker at the top, a promotion or a
-- relegation place, whose result settles only their order and never counts
-- in the table; and the moment a season was rolled over into the next one,
-- after which it is kept as it is (captains can no longer enter results).
ALTER TABLE fixtures ADD COLUMN playoff BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seasons ADD COLUMN closed_at TIMESTAMPTZ;
