-- Live matches' actions are appended to a log in the order they were accepted, rather than
-- inserted into match_actions under their (match, seq) key. A batch holding one action of each of
-- a thousand live matches then writes a few pages at the end of the log, not a page per match.
-- The store copies the log's oldest rows into match_actions in passes, many at a time, and drops
-- them from the log; a match's actions are read from both tables.
CREATE TABLE action_log (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: a match's rows lie at or above its log_from
  match_id    INTEGER NOT NULL,
  seq         INTEGER NOT NULL,
  seat        INTEGER NOT NULL,
  action      TEXT    NOT NULL,
  at          INTEGER NOT NULL
) STRICT;

-- log_from: the log id from which the match's actions are in the log (those below it are in
-- match_actions); NULL once they are all in match_actions. log_to: for an ended match, the log's
-- last id when it ended, at or above its last row.
ALTER TABLE matches ADD COLUMN log_from INTEGER;
ALTER TABLE matches ADD COLUMN log_to INTEGER;
CREATE INDEX matches_in_log ON matches (log_from) WHERE log_from IS NOT NULL;
-- A match unfinished at the upgrade keeps its earlier actions in match_actions and appends the
-- rest to the (empty) log.
UPDATE matches SET log_from = 1 WHERE ended_at IS NULL;
