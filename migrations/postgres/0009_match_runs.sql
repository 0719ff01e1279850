-- A match's fence: the lowest run of its log (seq / 2^32) that may still write to it. A cluster node
-- that takes a table over raises it before reading the log, and every write for the match checks
-- it under a share lock on the match's row, so the node that ran the table before, if its writes
-- are still on their way, can no longer add to the log: the take-over waits for a write already
-- under way, and a later one sees the new fence and is refused.
ALTER TABLE matches ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
