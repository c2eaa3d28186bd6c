-- A one-time link with which a person named to a role (a captain or a
-- player's own account by a secretary, a secretary by the administrator) makes their own account and
-- sets their own password: whoever names them never chooses it. Only the
-- token's SHA-256 is kept; the link is shown once, to the one who made it.
-- For a captain, the team_captains row exists already with no account; the
-- acceptance fills its user_id and grants the captain's role.
CREATE TABLE invitations (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('secretary', 'captain', 'player')),
    -- The username suggested; the person may choose another.
    username TEXT NOT NULL,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    season_id BIGINT,
    team_id BIGINT,
    player_id BIGINT,
    created_by BIGINT REFERENCES users (id),
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at TIMESTAMPTZ,
    user_id BIGINT REFERENCES users (id),
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
);
CREATE INDEX invitations_league ON invitations (league_id);
