-- Invitations for a player's own account, and captains named on the users
-- page without a player: 0010's checks widened. An invitation now names
-- the team's entry in the season rather than a registration, so a player's
-- transfer (which moves the registration) does not break it.
ALTER TABLE invitations
    DROP CONSTRAINT invitations_kind_check,
    DROP CONSTRAINT invitations_check,
    DROP CONSTRAINT invitations_league_id_season_id_team_id_player_id_fkey;
ALTER TABLE invitations
    ADD CONSTRAINT invitations_kind_check CHECK (kind IN ('secretary', 'captain', 'player')),
    ADD CONSTRAINT invitations_secretary_check CHECK (kind <> 'secretary'
        OR (season_id IS NULL AND team_id IS NULL AND player_id IS NULL)),
    -- A captain named on the roster has a player; one named on the users
    -- page may not.
    ADD CONSTRAINT invitations_captain_check
        CHECK (kind <> 'captain' OR (season_id IS NOT NULL AND team_id IS NOT NULL)),
    ADD CONSTRAINT invitations_player_check CHECK (kind <> 'player'
        OR (season_id IS NULL AND team_id IS NULL AND player_id IS NOT NULL)),
    ADD FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    ADD FOREIGN KEY (league_id, season_id, team_id)
        REFERENCES team_entries (league_id, season_id, team_id);
