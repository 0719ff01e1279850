-- The order in which ended matches changed ratings. Each rating update starts from the ratings the
-- earlier ones left, so the order matters, and matches can end within the same millisecond, on
-- different nodes: ended_at alone cannot say which came first. rated_seq comes from a sequence,
-- taken once the match's players are locked: of two matches sharing a player, the one that waited
-- for the other's commit takes the higher number. NULL for a match that changed no rating.
CREATE SEQUENCE matches_rated_seq;
ALTER TABLE matches ADD COLUMN rated_seq BIGINT;
CREATE UNIQUE INDEX matches_rated_seq_key ON matches (rated_seq) WHERE rated_seq IS NOT NULL;
-- Matches rated before this migration are numbered by end time, then id: the best order they
-- left behind (two that ended in the same millisecond may have been rated the other way round).
-- The sequence then goes on after them.
UPDATE matches SET rated_seq = o.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY ended_at, id) AS n FROM matches
      WHERE rated <> 0 AND ended_at IS NOT NULL AND end_reason IS DISTINCT FROM 'aborted') AS o
WHERE matches.id = o.id;
SELECT setval('matches_rated_seq', COALESCE(MAX(rated_seq), 0) + 1, false) FROM matches;
