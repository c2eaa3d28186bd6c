-- A league's rule for late results (issue 26): when a fixture has had no
-- result for `days` days, the penalty of kind `kind_id` against the home
-- team (who keep the card) is proposed to the secretaries. One rule per
-- league; no row: no proposals.
CREATE TABLE late_result_rules (
    league_id INTEGER PRIMARY KEY REFERENCES leagues (id),
    days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 366),
    kind_id INTEGER NOT NULL,
    FOREIGN KEY (league_id, kind_id) REFERENCES penalty_kinds (league_id, id)
) STRICT;
