-- A one-time link with which a person named to a role (a captain by a
-- secretary, a secretary by the administrator) makes their own account and
-- sets their own password: whoever names them never chooses it. Only the
-- token's SHA-256 is kept; the link is shown once, to the one who made it.
-- For a captain, the team_captains row exists already with no account; the
-- acceptance fills its user_id and grants the captain's role.
CREATE TABLE invitations (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('secretary', 'captain')),
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
    CHECK (kind <> 'captain'
        OR (season_id IS NOT NULL AND team_id IS NOT NULL AND player_id IS NOT NULL)),
    FOREIGN KEY (league_id, season_id, team_id, player_id)
        REFERENCES registrations (league_id, season_id, team_id, player_id)
) STRICT;
CREATE INDEX invitations_league ON invitations (league_id);
