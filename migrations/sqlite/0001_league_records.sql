-- Every record of LEAGUE.md. Kept column for column in step with
-- migrations/postgres/0001_league_records.sql: only the types differ.
-- Tables are STRICT: INTEGER for ids, counts and booleans (0/1), TEXT for
-- times (ISO 8601, UTC, as sqlx writes chrono's DateTime<Utc>) and JSON.
--
-- Scoping: every record that belongs to a league carries `league_id`, and
-- every reference between league records is a composite foreign key that
-- includes `league_id`, so a row can never point into another league.
-- The rows of a match result (boards, games, hands, ...) hang off
-- `result_versions`, which carries the league.
--
-- Sessions: the table of tower-sessions-sqlx-store is created by that
-- crate's own `migrate()`, called by the web layer at start; nothing here.

CREATE TABLE leagues (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    short_name TEXT NOT NULL UNIQUE,
    rules_summary TEXT NOT NULL DEFAULT '',
    contact TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
) STRICT;

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX users_username ON users (lower(username));

CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('fives-and-threes', 'all-fives', 'hands-won')),
    options TEXT NOT NULL DEFAULT '{}',
    match_format TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
) STRICT;

CREATE TABLE divisions (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (league_id, season_id) REFERENCES seasons (league_id, id),
    UNIQUE (season_id, name),
    UNIQUE (league_id, season_id, id)
) STRICT;

CREATE TABLE venues (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    tables INTEGER NOT NULL DEFAULT 1 CHECK (tables >= 1),
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
) STRICT;

CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    venue_id INTEGER,
    FOREIGN KEY (league_id, venue_id) REFERENCES venues (league_id, id),
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
) STRICT;

-- A team entered in one division of a season.
CREATE TABLE team_entries (
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    division_id INTEGER NOT NULL,
    team_id INTEGER NOT NULL,
    PRIMARY KEY (season_id, team_id),
    FOREIGN KEY (league_id, season_id, division_id) REFERENCES divisions (league_id, season_id, id),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    UNIQUE (league_id, season_id, team_id),
    UNIQUE (league_id, season_id, division_id, team_id)
) STRICT;

-- Names are unique in a league: game records name players, and a name must
-- say which player it is.
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (league_id, name),
    UNIQUE (league_id, id)
) STRICT;

-- One team per player per season (the primary key).
CREATE TABLE registrations (
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    team_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    registered_at TEXT NOT NULL,
    PRIMARY KEY (season_id, player_id),
    FOREIGN KEY (league_id, season_id, team_id) REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    UNIQUE (league_id, season_id, team_id, player_id)
) STRICT;
CREATE INDEX registrations_team ON registrations (season_id, team_id);

-- A captain is one of the team's registered players that season.
CREATE TABLE team_captains (
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    team_id INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    PRIMARY KEY (season_id, team_id, player_id),
    FOREIGN KEY (league_id, season_id, team_id, player_id)
        REFERENCES registrations (league_id, season_id, team_id, player_id)
) STRICT;

CREATE TABLE fixtures (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    division_id INTEGER NOT NULL,
    round INTEGER NOT NULL CHECK (round >= 1),
    starts_at TEXT,
    home_team_id INTEGER NOT NULL,
    away_team_id INTEGER NOT NULL,
    venue_id INTEGER,
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
) STRICT;
CREATE INDEX fixtures_division ON fixtures (league_id, season_id, division_id, round);

-- A match result is kept as versions; the highest version is the current
-- one. Each version has its own rows below and none is ever changed except
-- its status. `format` and `options` are the season's ruleset when the
-- version was written: past results keep the ruleset they were scored under.
CREATE TABLE result_versions (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    fixture_id INTEGER NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    status TEXT NOT NULL CHECK (status IN ('entered', 'confirmed', 'disputed', 'approved')),
    status_note TEXT NOT NULL DEFAULT '',
    format TEXT NOT NULL,
    options TEXT NOT NULL,
    restored_from INTEGER,
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id),
    UNIQUE (fixture_id, version),
    UNIQUE (league_id, id)
) STRICT;

CREATE TABLE boards (
    id INTEGER PRIMARY KEY,
    version_id INTEGER NOT NULL REFERENCES result_versions (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('singles', 'pairs')),
    UNIQUE (version_id, number)
) STRICT;

CREATE TABLE board_players (
    board_id INTEGER NOT NULL REFERENCES boards (id),
    side TEXT NOT NULL CHECK (side IN ('home', 'away')),
    position INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (board_id, side, position),
    UNIQUE (board_id, player_id)
) STRICT;
CREATE INDEX board_players_player ON board_players (player_id);

-- One game of a board. `options` is the game record's own options (NULL
-- when the record has none); total_0/total_1/winner_side/finished/
-- next_pose_player_id are the engine's outcome, stored for the tables
-- (NULL when not given).
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    board_id INTEGER NOT NULL REFERENCES boards (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    format TEXT NOT NULL,
    options TEXT,
    draw_given INTEGER NOT NULL,
    first_pose_player_id INTEGER REFERENCES players (id),
    total_0 INTEGER,
    total_1 INTEGER,
    winner_side INTEGER CHECK (winner_side IN (0, 1)),
    finished INTEGER,
    next_pose_player_id INTEGER REFERENCES players (id),
    UNIQUE (board_id, number)
) STRICT;

-- The game's players in order of play, with their side (index into the
-- record's `sides`), their place within the side, and the tile they drew.
CREATE TABLE game_players (
    game_id INTEGER NOT NULL REFERENCES games (id),
    position INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    side INTEGER NOT NULL,
    side_position INTEGER NOT NULL,
    drawn_tile TEXT,
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, player_id),
    UNIQUE (game_id, side, side_position)
) STRICT;
CREATE INDEX game_players_player ON game_players (player_id);

-- `end_kind` 'none' is a last hand during which the game was won.
-- `left_given`: an `out` end that carries the opponents' pips (all-fives).
CREATE TABLE hands (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    end_kind TEXT NOT NULL CHECK (end_kind IN ('out', 'blocked', 'abandoned', 'none')),
    out_player_id INTEGER REFERENCES players (id),
    left_given INTEGER NOT NULL DEFAULT 0,
    CHECK ((end_kind = 'out') = (out_player_id IS NOT NULL)),
    CHECK (end_kind = 'out' OR NOT left_given),
    UNIQUE (game_id, number)
) STRICT;

-- Pips held at the end of a hand: every player's count for a blocked hand,
-- the opponents' `left` for an all-fives `out`.
CREATE TABLE hand_pips (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    pips INTEGER NOT NULL,
    PRIMARY KEY (hand_id, player_id)
) STRICT;

CREATE TABLE plays (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    player_id INTEGER NOT NULL REFERENCES players (id),
    points INTEGER NOT NULL,
    out INTEGER NOT NULL DEFAULT 0,
    muggins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hand_id, number)
) STRICT;
CREATE INDEX plays_player ON plays (player_id);

-- In-game penalties of the game record (RULES.md), in record order.
CREATE TABLE game_penalties (
    game_id INTEGER NOT NULL REFERENCES games (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    player_id INTEGER NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL,
    before_hand INTEGER NOT NULL,
    minutes INTEGER,
    PRIMARY KEY (game_id, number)
) STRICT;
CREATE INDEX game_penalties_player ON game_penalties (player_id);

-- The league's list of penalty kinds, each with its default effect.
CREATE TABLE penalty_kinds (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    effect TEXT NOT NULL
        CHECK (effect IN ('game_points', 'penalty_games', 'league_points', 'fine', 'warning')),
    amount INTEGER NOT NULL DEFAULT 0,
    UNIQUE (league_id, code),
    UNIQUE (league_id, id)
) STRICT;

-- A penalty against a team or a player (exactly one), in a fixture or not.
-- Never deleted: a withdrawn penalty is voided (with an audit entry).
CREATE TABLE penalties (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    fixture_id INTEGER,
    team_id INTEGER,
    player_id INTEGER,
    kind_id INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    recorded_by INTEGER REFERENCES users (id),
    recorded_at TEXT NOT NULL,
    voided_at TEXT,
    CHECK ((team_id IS NULL) <> (player_id IS NULL)),
    FOREIGN KEY (league_id, season_id) REFERENCES seasons (league_id, id),
    FOREIGN KEY (league_id, season_id, fixture_id) REFERENCES fixtures (league_id, season_id, id),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, kind_id) REFERENCES penalty_kinds (league_id, id),
    UNIQUE (league_id, id)
) STRICT;
CREATE INDEX penalties_season ON penalties (league_id, season_id);

-- The fines ledger: money owed by a team or a player, in pence.
CREATE TABLE fines (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    team_id INTEGER,
    player_id INTEGER,
    penalty_id INTEGER,
    amount_pence INTEGER NOT NULL CHECK (amount_pence >= 0),
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    paid_at TEXT,
    CHECK ((team_id IS NULL) <> (player_id IS NULL)),
    FOREIGN KEY (league_id, team_id) REFERENCES teams (league_id, id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, penalty_id) REFERENCES penalties (league_id, id)
) STRICT;
CREATE INDEX fines_league ON fines (league_id);

-- What a user may do: administrator (of the installation), secretary (of a
-- league), captain (of a team in a season), player (a league's player).
CREATE TABLE roles (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL CHECK (kind IN ('administrator', 'secretary', 'captain', 'player')),
    league_id INTEGER REFERENCES leagues (id),
    season_id INTEGER,
    team_id INTEGER,
    player_id INTEGER,
    granted_at TEXT NOT NULL,
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
) STRICT;
CREATE UNIQUE INDEX roles_administrator ON roles (user_id) WHERE kind = 'administrator';
CREATE UNIQUE INDEX roles_secretary ON roles (user_id, league_id) WHERE kind = 'secretary';
CREATE UNIQUE INDEX roles_captain ON roles (user_id, season_id, team_id) WHERE kind = 'captain';
CREATE UNIQUE INDEX roles_player ON roles (user_id, league_id) WHERE kind = 'player';
CREATE INDEX roles_league ON roles (league_id);

-- Every change to a result, penalty, fixture or role: who, when, before and
-- after (JSON text). `league_id` is NULL only for installation-wide changes
-- (an administrator named).
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    league_id INTEGER REFERENCES leagues (id),
    user_id INTEGER REFERENCES users (id),
    at TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    before TEXT,
    after TEXT
) STRICT;
CREATE INDEX audit_entity ON audit (league_id, entity, entity_id);
