-- The order in which ended matches changed ratings. Each rating update starts from the ratings the
-- earlier ones left, so the order matters, and matches can end within the same millisecond:
-- ended_at alone cannot say which came first. rated_seq is 1, 2, 3, ... over the rated matches, in
-- the order their ratings were written; NULL for a match that changed no rating.
ALTER TABLE matches ADD COLUMN rated_seq INTEGER;
CREATE UNIQUE INDEX matches_rated_seq ON matches (rated_seq) WHERE rated_seq IS NOT NULL;
-- Matches rated before this migration are numbered by end time, then id: the best order they
-- left behind (two that ended in the same millisecond may have been rated the other way round).
UPDATE matches SET rated_seq = o.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY ended_at, id) AS n FROM matches
      WHERE rated = 1 AND ended_at IS NOT NULL AND end_reason IS NOT 'aborted') AS o
WHERE matches.id = o.id;
