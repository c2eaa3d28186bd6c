-- An address set on an account but never confirmed must not block its
-- real owner (issue 44): only a confirmed address is unique; the clash is
-- settled when an address is confirmed (a confirmed owner wins, and the
-- unconfirmed claims of other accounts are let go).
DROP INDEX users_email;
CREATE UNIQUE INDEX users_email_confirmed ON users (lower(email))
    WHERE email IS NOT NULL AND email_verified_at IS NOT NULL;
CREATE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;
