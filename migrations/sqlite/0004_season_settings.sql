-- A season's settings for how results count and show (tie-breakers,
-- minimum games to rank, approval on confirmation): kept apart from the
-- match format, which is fixed once there are results, since these may
-- change at any time.
ALTER TABLE seasons ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- Approval on confirmation used to be part of the match format.
UPDATE seasons SET settings = '{"approve_on_confirmation":true}'
WHERE json_extract(match_format, '$.approve_on_confirmation') = 1;
UPDATE seasons SET match_format = json_remove(match_format, '$.approve_on_confirmation')
WHERE json_type(match_format, '$.approve_on_confirmation') IS NOT NULL;
