-- Ratings per player and ladder (OpenSkill, Weng-Lin Plackett-Luce). A ladder is a variant id.
CREATE TABLE ratings (
  player_id   INTEGER NOT NULL REFERENCES players (id),
  ladder      TEXT    NOT NULL,
  mu          REAL    NOT NULL,
  sigma       REAL    NOT NULL,
  ordinal     REAL    NOT NULL,          -- mu - 3 sigma, what is displayed and ranked
  matches     INTEGER NOT NULL DEFAULT 0,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (player_id, ladder)
) STRICT;
CREATE INDEX ratings_board ON ratings (ladder, ordinal DESC);
