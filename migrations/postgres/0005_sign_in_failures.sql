-- Failed sign-ins per account and per address, kept in the database so
-- that every app server sharing it throttles the same counts.
CREATE TABLE sign_in_failures (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL CHECK (failures >= 1),
    first_at TIMESTAMPTZ NOT NULL
);
