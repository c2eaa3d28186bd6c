-- The score pad: each board of a fixture kept at the table, tap by tap,
-- apart from the result versions (a board in progress is not a result).
-- `taps` is the board's whole log as JSON; `revision` goes up with every
-- write, so a write based on an older read is refused, not mixed in.
-- `summary` is what the live pages show, computed when the taps change.
CREATE TABLE pad_boards (
    league_id INTEGER NOT NULL,
    fixture_id INTEGER NOT NULL,
    board INTEGER NOT NULL CHECK (board >= 1),
    taps TEXT NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 1),
    summary TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_by INTEGER REFERENCES users (id),
    PRIMARY KEY (league_id, fixture_id, board),
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
) STRICT;
CREATE INDEX pad_boards_recent ON pad_boards (league_id, updated_at);

-- A link that lets whoever holds it keep one board of one fixture without
-- an account, until it expires or is revoked.
CREATE TABLE pad_links (
    token TEXT PRIMARY KEY,
    league_id INTEGER NOT NULL,
    fixture_id INTEGER NOT NULL,
    board INTEGER NOT NULL CHECK (board >= 1),
    created_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT,
    FOREIGN KEY (league_id, fixture_id) REFERENCES fixtures (league_id, id)
) STRICT;
CREATE INDEX pad_links_board ON pad_links (league_id, fixture_id, board);
