-- A match's fence: the lowest run of its log (seq / 2^32) that may still write to it. A cluster node
-- that takes a table over locks the match's row FOR UPDATE, raises the fence and reads the log.
-- Every write for the match checks the fence under a key-share lock on that row held to its
-- commit, so the node that ran the table before, if its writes are still on their way, can no
-- longer add to the log: the take-over waits for a write already under way, and a later one waits
-- for the take-over, sees the new fence and is refused.
ALTER TABLE matches ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
