-- The server's bot players were made with a creation and last-seen time of 0 (1 January 1970),
-- which their profiles showed as such. They take the time this migration runs: when this
-- database first had them, as far as can now be told.
UPDATE players SET created_at = (extract(epoch FROM now()) * 1000)::BIGINT,
                   last_seen = (extract(epoch FROM now()) * 1000)::BIGINT
 WHERE public_id LIKE 'bot:%' AND created_at = 0;
