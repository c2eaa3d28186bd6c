-- Invitations kept in view until taken up (issue 39): each stays listed on
-- its team's page and the users page, where the secretary copies its link,
-- emails it again or revokes it.
--
-- `token`: the link itself, kept while the invitation is open so that it
-- can be copied again (the emailed message holds it already); cleared when
-- the invitation is taken up or revoked. Older rows have none: resending
-- one makes a new link. `token_hash` stays the key a link is found by.
-- `revoked_at`: the link no longer works. `sent_at`: last emailed.
ALTER TABLE invitations ADD COLUMN token TEXT;
ALTER TABLE invitations ADD COLUMN revoked_at TEXT;
ALTER TABLE invitations ADD COLUMN sent_at TEXT;
