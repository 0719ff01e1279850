-- What a server needs to rebuild a match's table after a restart, beside its rules: whether it is
-- private, its invite code and its settings (turn time, reconnect window, rated), as JSON.
ALTER TABLE matches ADD COLUMN table_json TEXT;
