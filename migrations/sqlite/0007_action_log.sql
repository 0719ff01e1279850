-- Live matches' actions are appended to a log in the order they were accepted, rather than
-- inserted into match_actions under their (match, seq) key. A batch holding one action of each of
-- a thousand live matches then writes a few pages at the end of the log, not a page per match.
-- The store moves the actions of ended matches into match_actions in gathered passes; until its
-- pass, a match's actions are read from both tables.
CREATE TABLE action_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so a match's rows all lie at or above its log_from
  match_id    INTEGER NOT NULL,
  seq         INTEGER NOT NULL,
  seat        INTEGER NOT NULL,
  action      TEXT    NOT NULL,
  at          INTEGER NOT NULL
) STRICT;

-- The first log id a match's actions can have (the log's next id when the match began); NULL once
-- the match's actions are all in match_actions.
ALTER TABLE matches ADD COLUMN log_from INTEGER;
CREATE INDEX matches_in_log ON matches (log_from) WHERE log_from IS NOT NULL;
-- A match unfinished at the upgrade keeps its earlier actions in match_actions and appends the
-- rest to the (empty) log.
UPDATE matches SET log_from = 1 WHERE ended_at IS NULL;
