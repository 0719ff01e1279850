-- Players: who they are and how they prove it. Only a hash of the resume token is kept.
CREATE TABLE players (
  id          INTEGER PRIMARY KEY,
  public_id   TEXT    NOT NULL UNIQUE,   -- the id clients see ("p_…")
  name        TEXT    NOT NULL,
  token_hash  BLOB    NOT NULL UNIQUE,   -- SHA-256 of the token; never the token itself
  created_at  INTEGER NOT NULL,          -- Unix time, milliseconds
  last_seen   INTEGER NOT NULL
) STRICT;
