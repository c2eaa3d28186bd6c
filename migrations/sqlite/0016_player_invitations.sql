-- Invitations for a player's own account, and captains named on the users
-- page without a player: 0010's checks widened. An invitation now names
-- the team's entry in the season rather than a registration, so a player's
-- transfer (which moves the registration) does not break it. SQLite cannot
-- change a table's checks, so the table is made again with its rows.
CREATE TABLE invitations_new (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('secretary', 'captain', 'player')),
    -- The username suggested; the person may choose another.
    username TEXT NOT NULL,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    season_id INTEGER,
    team_id INTEGER,
    player_id INTEGER,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    user_id INTEGER REFERENCES users (id),
    CHECK (kind <> 'secretary'
        OR (season_id IS NULL AND team_id IS NULL AND player_id IS NULL)),
    -- A captain named on the roster has a player; one named on the users
    -- page may not.
    CHECK (kind <> 'captain' OR (season_id IS NOT NULL AND team_id IS NOT NULL)),
    CHECK (kind <> 'player'
        OR (season_id IS NULL AND team_id IS NULL AND player_id IS NOT NULL)),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, season_id, team_id)
        REFERENCES team_entries (league_id, season_id, team_id)
) STRICT;
INSERT INTO invitations_new (id, token_hash, kind, username, league_id, season_id, team_id,
                             player_id, created_by, created_at, expires_at, used_at, user_id)
SELECT id, token_hash, kind, username, league_id, season_id, team_id,
       player_id, created_by, created_at, expires_at, used_at, user_id
FROM invitations;
DROP TABLE invitations;
ALTER TABLE invitations_new RENAME TO invitations;
CREATE INDEX invitations_league ON invitations (league_id);
