-- Sign-in without locking out the innocent (issue 12). A browser that has
-- signed in as an account is trusted for that account: it carries a random
-- token in a long-lived cookie, of which only the SHA-256 is kept here, and
-- its attempts are counted against itself alone, so guessing at the account
-- from elsewhere, or from the same pub's Wi-Fi, never keeps it out.
CREATE TABLE trusted_devices (
    token_hash TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    last_used_at TEXT NOT NULL,
    PRIMARY KEY (token_hash, user_id)
) STRICT;
-- An address past its free attempts is slowed, not locked: its attempts
-- are spaced, each taking the next free moment, kept here.
ALTER TABLE sign_in_failures ADD COLUMN next_at TEXT;
