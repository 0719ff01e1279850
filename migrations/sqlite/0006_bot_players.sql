-- The server's bots are players: one per level, so their matches are stored, rated and shown on
-- the leaderboards like anyone's. Their public ids ("bot:<level>") cannot be a guest's ("p_…"),
-- and no token resumes them: each token hash is 32 random bytes, which no token hashes to.
INSERT INTO players (public_id, name, token_hash, created_at, last_seen) VALUES
  ('bot:random', 'bot:random', randomblob(32), 0, 0),
  ('bot:rules', 'bot:rules', randomblob(32), 0, 0),
  ('bot:sampling', 'bot:sampling', randomblob(32), 0, 0);
