-- Every record of LEAGUE.md. Kept column for column in step with
-- migrations/sqlite/0001_league_records.sql: only the types differ
-- (BIGINT identity keys, TIMESTAMPTZ, BOOLEAN here).
--
-- Scoping: every record that belongs to a league carries `league_id`, and
-- every reference between league records is a composite foreign key that
-- includes `league_id`, so a row can never point into another league.
-- The rows of a match result (boards, games, hands, ...) hang off
-- `result_versions`, which carries the league.
--
-- JSON (ruleset options, match format, audit before/after) is stored as text
-- so that both backends hold it byte for byte alike.
--
-- Sessions: the table of tower-sessions-sqlx-store is created by that
-- crate's own `migrate()`, called by the web layer at start; nothing here.

CREATE TABLE leagues (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    short_name TEXT NOT NULL UNIQUE,
    rules_summary TEXT NOT NULL DEFAULT '',
    contact TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE users (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX users_username ON users (lower(username));

CREATE TABLE seasons (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('fives-and-threes', 'all-fives', 'hands-won')),
    options TEXT NOT NULL DEFAULT '{}',
    match_format TEXT NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
);

CREATE TABLE divisions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    position BIGINT NOT NULL DEFAULT 0,
    FOREIGN KEY (league_id, season_id) REFERENCES seasons (league_id, id),
    UNIQUE (season_id, name),
    UNIQUE (league_id, season_id, id)
);

CREATE TABLE venues (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    tables BIGINT NOT NULL DEFAULT 1 CHECK (tables >= 1),
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
);

CREATE TABLE teams (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    venue_id BIGINT,
    FOREIGN KEY (league_id, venue_id) REFERENCES venues (league_id, id),
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
);

-- A team entered in one division of a season.
CREATE TABLE team_entries (
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    division_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    PRIMARY KEY (season_id, team_id),
    FOREIGN KEY (league_id, season_id, division_id) REFERENCES divisions (league_id, season_id, id),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    UNIQUE (league_id, season_id, team_id),
    UNIQUE (league_id, season_id, division_id, team_id)
);

-- Names are unique in a league: game records name players, and a name must
-- say which player it is.
CREATE TABLE players (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
);

-- One team per player per season (the primary key).
CREATE TABLE registrations (
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    registered_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (season_id, player_id),
    FOREIGN KEY (league_id, season_id, team_id) REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    UNIQUE (league_id, season_id, team_id, player_id)
);
CREATE INDEX registrations_team ON registrations (season_id, team_id);

-- A captain is one of the team's registered players that season.
CREATE TABLE team_captains (
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    PRIMARY KEY (season_id, team_id, player_id),
    FOREIGN KEY (league_id, season_id, team_id, player_id)
        REFERENCES registrations (league_id, season_id, team_id, player_id)
);

CREATE TABLE fixtures (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    division_id BIGINT NOT NULL,
    round BIGINT NOT NULL CHECK (round >= 1),
    starts_at TIMESTAMPTZ,
    home_team_id BIGINT NOT NULL,
    away_team_id BIGINT NOT NULL,
    venue_id BIGINT,
    status TEXT NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'postponed', 'played', 'walkover', 'void')),
    conceded_by TEXT CHECK (conceded_by IN ('home', 'away')),
    CHECK (home_team_id <> away_team_id),
    CHECK ((status = 'walkover') = (conceded_by IS NOT NULL)),
    FOREIGN KEY (league_id, season_id, division_id, home_team_id)
        REFERENCES team_entries (league_id, season_id, division_id, team_id),
    FOREIGN KEY (league_id, season_id, division_id, away_team_id)
        REFERENCES team_entries (league_id, season_id, division_id, team_id),
    FOREIGN KEY (league_id, venue_id) REFERENCES venues (league_id, id),
    UNIQUE (league_id, id),
    UNIQUE (league_id, season_id, id)
);
CREATE INDEX fixtures_division ON fixtures (league_id, season_id, division_id, round);

-- A match result is kept as versions; the highest version is the current
-- one. Each version has its own rows below and none is ever changed except
-- its status. `format` and `options` are the season's ruleset when the
-- version was written: past results keep the ruleset they were scored under.
CREATE TABLE result_versions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    version BIGINT NOT NULL CHECK (version >= 1),
    status TEXT NOT NULL CHECK (status IN ('entered', 'confirmed', 'disputed', 'approved')),
    status_note TEXT NOT NULL DEFAULT '',
    format TEXT NOT NULL,
    options TEXT NOT NULL,
    restored_from BIGINT,
    created_by BIGINT REFERENCES users (id),
    created_at TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id),
    UNIQUE (fixture_id, version),
    UNIQUE (league_id, id)
);

CREATE TABLE boards (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    version_id BIGINT NOT NULL REFERENCES result_versions (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('singles', 'pairs')),
    UNIQUE (version_id, number)
);

CREATE TABLE board_players (
    board_id BIGINT NOT NULL REFERENCES boards (id),
    side TEXT NOT NULL CHECK (side IN ('home', 'away')),
    position BIGINT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (board_id, side, position),
    UNIQUE (board_id, player_id)
);
CREATE INDEX board_players_player ON board_players (player_id);

-- One game of a board. `options` is the game record's own options (NULL
-- when the record has none); total_0/total_1/winner_side/finished/
-- next_pose_player_id are the engine's outcome, stored for the tables
-- (NULL when not given).
CREATE TABLE games (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    board_id BIGINT NOT NULL REFERENCES boards (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    format TEXT NOT NULL,
    options TEXT,
    draw_given BOOLEAN NOT NULL,
    first_pose_player_id BIGINT REFERENCES players (id),
    total_0 BIGINT,
    total_1 BIGINT,
    winner_side BIGINT CHECK (winner_side IN (0, 1)),
    finished BOOLEAN,
    next_pose_player_id BIGINT REFERENCES players (id),
    UNIQUE (board_id, number)
);

-- The game's players in order of play, with their side (index into the
-- record's `sides`), their place within the side, and the tile they drew.
CREATE TABLE game_players (
    game_id BIGINT NOT NULL REFERENCES games (id),
    position BIGINT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    side BIGINT NOT NULL,
    side_position BIGINT NOT NULL,
    drawn_tile TEXT,
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, player_id),
    UNIQUE (game_id, side, side_position)
);
CREATE INDEX game_players_player ON game_players (player_id);

-- `end_kind` 'none' is a last hand during which the game was won.
-- `left_given`: an `out` end that carries the opponents' pips (all-fives).
CREATE TABLE hands (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    end_kind TEXT NOT NULL CHECK (end_kind IN ('out', 'blocked', 'abandoned', 'none')),
    out_player_id BIGINT REFERENCES players (id),
    left_given BOOLEAN NOT NULL DEFAULT FALSE,
    CHECK ((end_kind = 'out') = (out_player_id IS NOT NULL)),
    CHECK (end_kind = 'out' OR NOT left_given),
    UNIQUE (game_id, number)
);

-- Pips held at the end of a hand: every player's count for a blocked hand,
-- the opponents' `left` for an all-fives `out`.
CREATE TABLE hand_pips (
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    pips BIGINT NOT NULL,
    PRIMARY KEY (hand_id, player_id)
);

CREATE TABLE plays (
    hand_id BIGINT NOT NULL REFERENCES hands (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    player_id BIGINT NOT NULL REFERENCES players (id),
    points BIGINT NOT NULL,
    out BOOLEAN NOT NULL DEFAULT FALSE,
    muggins BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (hand_id, number)
);
CREATE INDEX plays_player ON plays (player_id);

-- In-game penalties of the game record (RULES.md), in record order.
CREATE TABLE game_penalties (
    game_id BIGINT NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    player_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,
    before_hand BIGINT NOT NULL,
    minutes BIGINT,
    PRIMARY KEY (game_id, number)
);
CREATE INDEX game_penalties_player ON game_penalties (player_id);

-- The league's list of penalty kinds, each with its default effect.
CREATE TABLE penalty_kinds (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    effect TEXT NOT NULL
        CHECK (effect IN ('game_points', 'penalty_games', 'league_points', 'fine', 'warning')),
    amount BIGINT NOT NULL DEFAULT 0,
    UNIQUE (league_id, code),
    UNIQUE (league_id, id)
);

-- A penalty against a team or a player (exactly one), in a fixture or not.
-- Never deleted: a withdrawn penalty is voided (with an audit entry).
CREATE TABLE penalties (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL,
    season_id BIGINT NOT NULL,
    fixture_id BIGINT,
    team_id BIGINT,
    player_id BIGINT,
    kind_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    recorded_by BIGINT REFERENCES users (id),
    recorded_at TIMESTAMPTZ NOT NULL,
    voided_at TIMESTAMPTZ,
    CHECK ((team_id IS NULL) <> (player_id IS NULL)),
    FOREIGN KEY (league_id, season_id) REFERENCES seasons (league_id, id),
    FOREIGN KEY (league_id, season_id, fixture_id) REFERENCES fixtures (league_id, season_id, id),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, kind_id) REFERENCES penalty_kinds (league_id, id),
    UNIQUE (league_id, id)
);
CREATE INDEX penalties_season ON penalties (league_id, season_id);

-- The fines ledger: money owed by a team or a player, in pence.
CREATE TABLE fines (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    team_id BIGINT,
    player_id BIGINT,
    penalty_id BIGINT,
    amount_pence BIGINT NOT NULL CHECK (amount_pence >= 0),
    reason TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    paid_at TIMESTAMPTZ,
    CHECK ((team_id IS NULL) <> (player_id IS NULL)),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, penalty_id) REFERENCES penalties (league_id, id)
);
CREATE INDEX fines_league ON fines (league_id);

-- What a user may do: administrator (of the installation), secretary (of a
-- league), captain (of a team in a season), player (a league's player).
CREATE TABLE roles (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL CHECK (kind IN ('administrator', 'secretary', 'captain', 'player')),
    league_id BIGINT REFERENCES leagues (id),
    season_id BIGINT,
    team_id BIGINT,
    player_id BIGINT,
    granted_at TIMESTAMPTZ NOT NULL,
    CHECK (kind <> 'administrator'
        OR (league_id IS NULL AND season_id IS NULL AND team_id IS NULL AND player_id IS NULL)),
    CHECK (kind <> 'secretary'
        OR (league_id IS NOT NULL AND season_id IS NULL AND team_id IS NULL AND player_id IS NULL)),
    CHECK (kind <> 'captain'
        OR (league_id IS NOT NULL AND season_id IS NOT NULL AND team_id IS NOT NULL AND player_id IS NULL)),
    CHECK (kind <> 'player'
        OR (league_id IS NOT NULL AND season_id IS NULL AND team_id IS NULL AND player_id IS NOT NULL)),
    FOREIGN KEY (league_id, season_id, team_id) REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id)
);
CREATE UNIQUE INDEX roles_administrator ON roles (user_id) WHERE kind = 'administrator';
CREATE UNIQUE INDEX roles_secretary ON roles (user_id, league_id) WHERE kind = 'secretary';
CREATE UNIQUE INDEX roles_captain ON roles (user_id, season_id, team_id) WHERE kind = 'captain';
CREATE UNIQUE INDEX roles_player ON roles (user_id, league_id) WHERE kind = 'player';
CREATE INDEX roles_league ON roles (league_id);

-- Every change to a result, penalty, fixture or role: who, when, before and
-- after (JSON text). `league_id` is NULL only for installation-wide changes
-- (an administrator named).
CREATE TABLE audit (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT REFERENCES leagues (id),
    user_id BIGINT REFERENCES users (id),
    at TIMESTAMPTZ NOT NULL,
    entity TEXT NOT NULL,
    entity_id BIGINT NOT NULL,
    action TEXT NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX audit_entity ON audit (league_id, entity, entity_id);
