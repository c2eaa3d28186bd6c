-- Each league's time zone, an IANA name such as Europe/London (checked by
-- the program when written: SQL cannot tell a zone from a typo). Kick-offs
-- are typed and shown in it; instants stay stored in UTC. Kept in step with
-- migrations/sqlite/0002_league_time_zone.sql.
ALTER TABLE leagues ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/London';
