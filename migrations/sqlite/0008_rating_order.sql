-- The order in which ended matches changed ratings. Each rating update starts from the ratings the
-- earlier ones left, so the order matters, and matches can end within the same millisecond:
-- ended_at alone cannot say which came first. rated_seq is 1, 2, 3, ... over the rated matches, in
-- the order their ratings were written; NULL for a match that changed no rating.
ALTER TABLE matches ADD COLUMN rated_seq INTEGER;
CREATE UNIQUE INDEX matches_rated_seq ON matches (rated_seq) WHERE rated_seq IS NOT NULL;
