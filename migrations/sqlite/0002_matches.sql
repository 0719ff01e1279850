-- Matches, their action log (the durable table: every accepted action, in order) and their hands.
CREATE TABLE matches (
  id          INTEGER PRIMARY KEY,
  uid         TEXT    NOT NULL UNIQUE,   -- the server's match id, also used in deal commitments
  table_id    TEXT    NOT NULL,
  variant     TEXT    NOT NULL,
  options     TEXT    NOT NULL,          -- JSON object, completed with the defaults
  match_seed  TEXT,                      -- 32 hex digits, when the deals derive from one seed
  first_dealer INTEGER NOT NULL,
  rated       INTEGER NOT NULL DEFAULT 0,
  started_at  INTEGER NOT NULL,
  ended_at    INTEGER,                   -- NULL while the match is unfinished
  score0      INTEGER,
  score1      INTEGER,
  winner      INTEGER,                   -- team 0 or 1; NULL when nobody won
  end_reason  TEXT CHECK (end_reason IN ('finished', 'abandoned', 'aborted'))
) STRICT;
CREATE INDEX matches_unfinished ON matches (ended_at) WHERE ended_at IS NULL;

CREATE TABLE match_seats (
  match_id    INTEGER NOT NULL REFERENCES matches (id),
  seat        INTEGER NOT NULL,
  team        INTEGER NOT NULL,
  player_id   INTEGER NOT NULL REFERENCES players (id),
  PRIMARY KEY (match_id, seat)
) STRICT;
CREATE INDEX match_seats_player ON match_seats (player_id);

CREATE TABLE match_actions (
  match_id    INTEGER NOT NULL REFERENCES matches (id),
  seq         INTEGER NOT NULL,          -- 0, 1, 2, … in the order the engine accepted them
  seat        INTEGER NOT NULL,
  action      TEXT    NOT NULL,          -- JSON, the record format's action
  at          INTEGER NOT NULL,
  PRIMARY KEY (match_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE hands (
  match_id    INTEGER NOT NULL REFERENCES matches (id),
  number      INTEGER NOT NULL,
  dealer      INTEGER NOT NULL,
  commitment  TEXT    NOT NULL,          -- published before the deal (docs/fair-dealing.md)
  seed        TEXT    NOT NULL,          -- kept secret until the hand ends, so a crash can rebuild the deal
  revealed    INTEGER NOT NULL DEFAULT 0,
  first_seq   INTEGER NOT NULL,          -- this hand's actions are match_actions [first_seq, last_seq]
  last_seq    INTEGER,
  result      TEXT,                      -- JSON scoring breakdown
  PRIMARY KEY (match_id, number)
) STRICT, WITHOUT ROWID;
