-- A player's move from one team to another during a season (LEAGUE.md,
-- "Transfers"). The registration row always holds the present team; these
-- rows say which team the player was with before each move, so the games
-- already played stay with the old team and a card for a fixture dated
-- before the move still names the player for the old one. `from_at` is the
-- start of `on_day` in the league's time zone, in UTC: a fixture starting
-- at or after it is the new team's.
CREATE TABLE transfers (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    from_team_id INTEGER NOT NULL,
    to_team_id INTEGER NOT NULL,
    on_day TEXT NOT NULL,
    from_at TEXT NOT NULL,
    fee_pence INTEGER CHECK (fee_pence IS NULL OR fee_pence >= 0),
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    CHECK (from_team_id <> to_team_id),
    FOREIGN KEY (league_id, season_id, from_team_id)
        REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, season_id, to_team_id)
        REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id)
) STRICT;
CREATE INDEX transfers_player ON transfers (league_id, season_id, player_id, from_at);
