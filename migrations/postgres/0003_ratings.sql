-- Ratings per player and ladder (OpenSkill, Weng-Lin Plackett-Luce). A ladder is a variant id.
CREATE TABLE ratings (
  player_id   BIGINT  NOT NULL REFERENCES players (id),
  ladder      TEXT    NOT NULL,
  mu          DOUBLE PRECISION NOT NULL,
  sigma       DOUBLE PRECISION NOT NULL,
  ordinal     DOUBLE PRECISION NOT NULL, -- mu - 3 sigma, what is displayed and ranked
  matches     INTEGER NOT NULL DEFAULT 0,
  updated_at  BIGINT  NOT NULL,
  PRIMARY KEY (player_id, ladder)
);
CREATE INDEX ratings_board ON ratings (ladder, ordinal DESC);
