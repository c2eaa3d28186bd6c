-- Reaching people by email (issue 26).
-- An account's address is optional and, until its owner follows the link
-- sent to it, unverified: nothing but that link is sent to it.
ALTER TABLE users ADD COLUMN email TEXT;
ALTER TABLE users ADD COLUMN email_verified_at TEXT;
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;

-- Single-use links sent by email: verify an address, reset a password,
-- sign in. Only the SHA-256 of the token is kept.
CREATE TABLE email_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'sign-in')),
    email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
) STRICT;

-- What a person chose not to be sent (no row: sent).
CREATE TABLE email_opt_outs (
    user_id INTEGER NOT NULL REFERENCES users (id),
    topic TEXT NOT NULL,
    PRIMARY KEY (user_id, topic)
) STRICT;

-- The transactional outbox: an audited change that may notify someone
-- leaves a row here in its own transaction; the notifier turns it into
-- messages and deletes it in one later transaction.
CREATE TABLE pending_events (
    audit_id INTEGER PRIMARY KEY REFERENCES audit (id)
) STRICT;

-- Messages to send. `once_key` makes a message (a reminder, say) once only.
CREATE TABLE mail (
    id INTEGER PRIMARY KEY,
    league_id INTEGER REFERENCES leagues (id),
    once_key TEXT UNIQUE,
    topic TEXT NOT NULL,
    to_address TEXT NOT NULL,
    to_name TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    unsubscribe_url TEXT,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'sent', 'failed', 'kept')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
) STRICT;
CREATE INDEX mail_due ON mail (next_attempt_at) WHERE status = 'waiting';
CREATE INDEX mail_league ON mail (league_id, created_at);
