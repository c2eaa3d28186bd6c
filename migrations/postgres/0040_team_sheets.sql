-- The team sheet before the night (issue 42).

-- Each registered player's answer for a fixture: can play, can't, maybe.
-- Changed until the night; the latest answer is kept.
CREATE TABLE availability (
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    answer TEXT NOT NULL CHECK (answer IN ('yes', 'no', 'maybe')),
    answered_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (fixture_id, player_id),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id),
    FOREIGN KEY (league_id, player_id) REFERENCES players (league_id, id)
);

-- A captain's line-up for a fixture: players' ids as JSON arrays (the
-- singles in order, the pairs in order, the substitutes). Every change is
-- audited (entity `line_up`).
CREATE TABLE line_ups (
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    singles TEXT NOT NULL,
    pairs TEXT NOT NULL,
    substitutes TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    updated_by BIGINT REFERENCES users (id),
    PRIMARY KEY (fixture_id, team_id),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
);

-- When a team's non-answerers are reminded (the captain's time), and
-- whether that was done: one reminder, once.
CREATE TABLE availability_reminders (
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    team_id BIGINT NOT NULL,
    remind_at TIMESTAMPTZ NOT NULL,
    sent_at TIMESTAMPTZ,
    PRIMARY KEY (fixture_id, team_id),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
);
CREATE INDEX availability_reminders_due ON availability_reminders (remind_at) WHERE sent_at IS NULL;

-- Drawn pairings: a fixture's draw, made once (the primary key refuses a
-- second). `drawn` is the seed and each side's order as JSON.
CREATE TABLE pairing_draws (
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL PRIMARY KEY,
    seed TEXT NOT NULL,
    drawn TEXT NOT NULL,
    drawn_at TIMESTAMPTZ NOT NULL,
    drawn_by BIGINT REFERENCES users (id),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
);

-- The key that signs one-tap answer links sent by email (HMAC-SHA256),
-- made on first use; one row.
CREATE TABLE link_keys (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
