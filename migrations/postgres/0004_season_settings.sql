-- A season's settings for how results count and show (tie-breakers,
-- minimum games to rank, approval on confirmation): kept apart from the
-- match format, which is fixed once there are results, since these may
-- change at any time.
ALTER TABLE seasons ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- Approval on confirmation used to be part of the match format.
UPDATE seasons SET settings = '{"approve_on_confirmation":true}'
WHERE (match_format::jsonb ->> 'approve_on_confirmation') = 'true';
UPDATE seasons SET match_format = (match_format::jsonb - 'approve_on_confirmation')::text
WHERE (match_format::jsonb -> 'approve_on_confirmation') IS NOT NULL;
