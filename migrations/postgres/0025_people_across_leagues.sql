-- Careers across leagues (issue 27): the player records of one person in
-- several leagues of the installation share a person, once a secretary of
-- each league has agreed; their ratings are then worked out together.
CREATE TABLE people (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL
);

ALTER TABLE players ADD COLUMN person_id BIGINT REFERENCES people (id);
CREATE INDEX players_person ON players (person_id) WHERE person_id IS NOT NULL;

-- A secretary's word that their player is another league's player: a
-- secretary of that league confirms (the records are linked) or declines.
CREATE TABLE person_link_requests (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    other_player_id BIGINT NOT NULL REFERENCES players (id),
    requested_by BIGINT NOT NULL REFERENCES users (id),
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (player_id, other_player_id),
    CHECK (player_id <> other_player_id)
);
CREATE INDEX person_link_requests_other ON person_link_requests (other_player_id);
