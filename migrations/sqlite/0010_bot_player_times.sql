-- The server's bot players were made with a creation and last-seen time of 0 (1 January 1970),
-- which their profiles showed as such. They take the time this migration runs: when this
-- database first had them, as far as can now be told.
UPDATE players SET created_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000,
                   last_seen = CAST(strftime('%s', 'now') AS INTEGER) * 1000
 WHERE public_id LIKE 'bot:%' AND created_at = 0;
