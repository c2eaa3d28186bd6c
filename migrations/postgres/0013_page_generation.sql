-- The generations of what the pages show: one number for the installation
-- (scope 0: leagues' names, accounts) and one per league (scope: the
-- league's id), each raised by every write transaction (`write_tx!` in
-- src/db/mod.rs) in the same transaction as its writes. The web layer
-- caches rendered public pages under the generations it read before
-- rendering them; every app server sharing this database reads them on
-- each request, so a change made through one server is shown by all of
-- them on their next request, and a write in one league leaves the other
-- leagues' kept pages as they are.
CREATE TABLE page_generations (
    scope BIGINT PRIMARY KEY,
    generation BIGINT NOT NULL
);
INSERT INTO page_generations (scope, generation) VALUES (0, 1);
