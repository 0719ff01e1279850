-- A match's fence: the lowest run of its log (seq / 2^32) that may still write to it, raised by
-- each take-over of the match so that the new run is numbered past every earlier one. Only the
-- PostgreSQL store refuses writes from below it; nodes sharing an SQLite file on one host rely on
-- their table leases alone.
ALTER TABLE matches ADD COLUMN run INTEGER NOT NULL DEFAULT 0;
