-- A one-time link with which a person named to a role (a captain by a
-- secretary, a secretary by the administrator) makes their own account and
-- sets their own password: whoever names them never chooses it. Only the
-- token's SHA-256 is kept; the link is shown once, to the one who made it.
-- For a captain, the team_captains row exists already with no account; the
-- acceptance fills its user_id and grants the captain's role.
CREATE TABLE invitations (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('secretary', 'captain')),
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
    CHECK (kind <> 'captain'
        OR (season_id IS NOT NULL AND team_id IS NOT NULL AND player_id IS NOT NULL)),
    FOREIGN KEY (league_id, season_id, team_id, player_id)
        REFERENCES registrations (league_id, season_id, team_id, player_id)
);
CREATE INDEX invitations_league ON invitations (league_id);
