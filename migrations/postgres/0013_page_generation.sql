-- The generation of what the pages show: one number, raised by every write
-- transaction (`write_tx!` in src/db/mod.rs) in the same transaction as its
-- writes. The web layer caches rendered public pages under the generation
-- it read before rendering them; every app server sharing this database
-- reads it on each request, so a change made through one server is shown by
-- all of them on their next request.
CREATE TABLE page_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation BIGINT NOT NULL
);
INSERT INTO page_generation (id, generation) VALUES (1, 1);
