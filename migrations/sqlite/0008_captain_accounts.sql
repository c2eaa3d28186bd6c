-- The account named with a captain, which got the captain's role for the
-- team that season: removing the captain takes that role away. Captains
-- named before this have none recorded.
ALTER TABLE team_captains ADD COLUMN user_id INTEGER REFERENCES users (id);
