-- Cups and knockouts (issue 14): competitions of a season beside the
-- league's divisions. A cup tie is a fixture like any other, so results,
-- the workflow, penalties, pads and printouts work on it unchanged; a
-- fixture now belongs to a division (the league) or to a cup, never both.
-- Kept column for column in step with migrations/postgres/0020_cups.sql.

-- A competition of the season that is not the league: `kind` is how it is
-- played ('knockout' for now; a group stage or a plate would be another
-- kind), `entrants` what enters it. `match_format` is the JSON of the
-- ties' own match format; NULL plays them in the season's (team cups only:
-- a singles or pairs tie is always its own one board).
CREATE TABLE cups (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'knockout' CHECK (kind IN ('knockout')),
    entrants TEXT NOT NULL CHECK (entrants IN ('teams', 'singles', 'pairs')),
    match_format TEXT,
    created_at TEXT NOT NULL,
    CHECK (entrants = 'teams' OR match_format IS NOT NULL),
    FOREIGN KEY (league_id, season_id) REFERENCES seasons (league_id, id),
    UNIQUE (season_id, name),
    UNIQUE (league_id, id),
    UNIQUE (league_id, season_id, id)
) STRICT;

-- An entrant: a team of the season (team cups), or one or two of the
-- league's players with the team named for them (the team whose players
-- they are; both of a pairs entrant need not be of it). `seed` orders a
-- seeded draw (1 first); unseeded entrants have none.
CREATE TABLE cup_entrants (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    cup_id INTEGER NOT NULL,
    team_id INTEGER NOT NULL,
    player_id INTEGER,
    partner_id INTEGER,
    seed INTEGER CHECK (seed >= 1),
    CHECK (partner_id IS NULL OR player_id IS NOT NULL),
    CHECK (partner_id IS NULL OR partner_id <> player_id),
    FOREIGN KEY (league_id, season_id, cup_id) REFERENCES cups (league_id, season_id, id),
    FOREIGN KEY (league_id, season_id, team_id)
        REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id),
    FOREIGN KEY (league_id, partner_id) REFERENCES players (league_id, id),
    UNIQUE (cup_id, id)
) STRICT;
CREATE INDEX cup_entrants_cup ON cup_entrants (league_id, cup_id);

-- A round of a cup, made when it is drawn: the night it is played on (or,
-- with `play_by`, the last night it may be played by), the neutral venue
-- every tie of it is played at (finals night) or NULL for the home
-- entrant's, and how it was drawn. `seed` is the random draw's seed (16
-- hex digits) for a random or seeded draw (which draws the unseeded at
-- random), from which the draw can be made again.
CREATE TABLE cup_rounds (
    league_id INTEGER NOT NULL,
    cup_id INTEGER NOT NULL,
    round INTEGER NOT NULL CHECK (round >= 1),
    starts_at TEXT NOT NULL,
    play_by INTEGER NOT NULL DEFAULT 0 CHECK (play_by IN (0, 1)),
    venue_id INTEGER,
    method TEXT NOT NULL CHECK (method IN ('random', 'seeded', 'bracket', 'hand')),
    seed TEXT,
    drawn_at TEXT NOT NULL,
    drawn_by INTEGER REFERENCES users (id),
    CHECK ((method IN ('random', 'seeded')) = (seed IS NOT NULL)),
    PRIMARY KEY (cup_id, round),
    FOREIGN KEY (league_id, cup_id) REFERENCES cups (league_id, id),
    FOREIGN KEY (league_id, venue_id) REFERENCES venues (league_id, id),
    UNIQUE (league_id, cup_id, round)
) STRICT;

-- A tie: its place in its round (`number`, top to bottom of the bracket)
-- and its two sides. In round 1 a side is an entrant, and a tie with no
-- away entrant is a bye. In later rounds a side is the winner of a tie of
-- the round before (`*_from`), and its entrant is filled in once that tie
-- is decided. `fixture_id`: the match, made once both sides are known.
CREATE TABLE cup_ties (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    cup_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL CHECK (number >= 1),
    home_entrant_id INTEGER,
    away_entrant_id INTEGER,
    home_from INTEGER,
    away_from INTEGER,
    fixture_id INTEGER UNIQUE,
    CHECK (home_entrant_id IS NULL OR away_entrant_id IS NULL
        OR home_entrant_id <> away_entrant_id),
    FOREIGN KEY (league_id, cup_id, round) REFERENCES cup_rounds (league_id, cup_id, round),
    FOREIGN KEY (cup_id, home_entrant_id) REFERENCES cup_entrants (cup_id, id),
    FOREIGN KEY (cup_id, away_entrant_id) REFERENCES cup_entrants (cup_id, id),
    FOREIGN KEY (cup_id, home_from) REFERENCES cup_ties (cup_id, id),
    FOREIGN KEY (cup_id, away_from) REFERENCES cup_ties (cup_id, id),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id),
    UNIQUE (cup_id, round, number),
    UNIQUE (cup_id, id)
) STRICT;

-- The fixtures table again, since SQLite cannot drop a NOT NULL or a
-- check: `division_id` may be NULL (a cup tie), `cup_id` is new, and the
-- two teams may be the same in a cup (two singles entrants of one team).
-- Every team still has to be entered in the season. The rows keep their
-- ids, so the tables referring to them need no change: with the foreign
-- keys deferred to the commit, the rows put back into `fixtures` settle
-- the references the drop left open.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE fixtures_old (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    division_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    starts_at TEXT,
    home_team_id INTEGER NOT NULL,
    away_team_id INTEGER NOT NULL,
    venue_id INTEGER,
    status TEXT NOT NULL,
    conceded_by TEXT,
    playoff INTEGER NOT NULL
) STRICT;
INSERT INTO fixtures_old (id, league_id, season_id, division_id, round, starts_at,
                          home_team_id, away_team_id, venue_id, status, conceded_by, playoff)
SELECT id, league_id, season_id, division_id, round, starts_at,
       home_team_id, away_team_id, venue_id, status, conceded_by, playoff
FROM fixtures;
DROP TABLE fixtures;
CREATE TABLE fixtures (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    division_id INTEGER,
    round INTEGER NOT NULL CHECK (round >= 1),
    starts_at TEXT,
    home_team_id INTEGER NOT NULL,
    away_team_id INTEGER NOT NULL,
    venue_id INTEGER,
    status TEXT NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'postponed', 'played', 'walkover', 'void')),
    conceded_by TEXT CHECK (conceded_by IN ('home', 'away')),
    playoff INTEGER NOT NULL DEFAULT 0 CHECK (playoff IN (0, 1)),
    cup_id INTEGER,
    CHECK ((division_id IS NULL) <> (cup_id IS NULL)),
    CHECK (cup_id IS NOT NULL OR home_team_id <> away_team_id),
    CHECK (cup_id IS NULL OR playoff = 0),
    CHECK ((status = 'walkover') = (conceded_by IS NOT NULL)),
    FOREIGN KEY (league_id, season_id, division_id, home_team_id)
        REFERENCES team_entries (league_id, season_id, division_id, team_id),
    FOREIGN KEY (league_id, season_id, division_id, away_team_id)
        REFERENCES team_entries (league_id, season_id, division_id, team_id),
    FOREIGN KEY (league_id, season_id, home_team_id)
        REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, season_id, away_team_id)
        REFERENCES team_entries (league_id, season_id, team_id),
    FOREIGN KEY (league_id, season_id, cup_id) REFERENCES cups (league_id, season_id, id),
    FOREIGN KEY (league_id, venue_id) REFERENCES venues (league_id, id),
    UNIQUE (league_id, id),
    UNIQUE (league_id, season_id, id)
) STRICT;
INSERT INTO fixtures (id, league_id, season_id, division_id, round, starts_at,
                      home_team_id, away_team_id, venue_id, status, conceded_by, playoff)
SELECT id, league_id, season_id, division_id, round, starts_at,
       home_team_id, away_team_id, venue_id, status, conceded_by, playoff
FROM fixtures_old;
DROP TABLE fixtures_old;
CREATE INDEX fixtures_division ON fixtures (league_id, season_id, division_id, round);
CREATE INDEX fixtures_cup ON fixtures (league_id, cup_id);
