-- Invitations sent by email (issue 26): the address the link went to. The
-- person proved it is theirs by opening the link, so their new account
-- takes it as verified.
ALTER TABLE invitations ADD COLUMN email TEXT;

-- The weekly round-up's mailing list: anyone may subscribe, no account
-- needed. Double opt-in: nothing but the confirmation is sent until it is
-- followed. `unsubscribe_token` is in every message (RFC 8058 one-click).
CREATE TABLE round_up_subscribers (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    league_id BIGINT NOT NULL REFERENCES leagues (id),
    email TEXT NOT NULL,
    confirm_hash TEXT NOT NULL UNIQUE,
    unsubscribe_token TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL,
    confirm_sent_at TIMESTAMPTZ NOT NULL,
    confirmed_at TIMESTAMPTZ
);
CREATE UNIQUE INDEX round_up_subscribers_email ON round_up_subscribers (league_id, lower(email));
