-- The score pad: each board of a fixture kept at the table, tap by tap,
-- apart from the result versions (a board in progress is not a result).
-- `taps` is the board's whole log as JSON; `revision` goes up with every
-- write, so a write based on an older read is refused, not mixed in.
-- `summary` is what the live pages show, computed when the taps change.
CREATE TABLE pad_boards (
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    board BIGINT NOT NULL CHECK (board >= 1),
    taps TEXT NOT NULL,
    revision BIGINT NOT NULL CHECK (revision >= 1),
    summary TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    updated_by BIGINT REFERENCES users (id),
    PRIMARY KEY (league_id, fixture_id, board),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
);
CREATE INDEX pad_boards_recent ON pad_boards (league_id, updated_at);

-- A link that lets whoever holds it keep one board of one fixture without
-- an account, until it expires or is revoked.
CREATE TABLE pad_links (
    token TEXT PRIMARY KEY,
    league_id BIGINT NOT NULL,
    fixture_id BIGINT NOT NULL,
    board BIGINT NOT NULL CHECK (board >= 1),
    created_by BIGINT REFERENCES users (id),
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ,
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
);
CREATE INDEX pad_links_board ON pad_links (league_id, fixture_id, board);
