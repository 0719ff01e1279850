-- Numbers that are never handed out twice for the life of the database, reserved in blocks: a
-- server writes a block's end here before it uses any number in it, so a crash may skip numbers
-- but never repeats one. 'table' numbers the table ids ("t<n>").
CREATE TABLE id_blocks (
  kind  TEXT    PRIMARY KEY,
  next  INTEGER NOT NULL       -- the first number not yet reserved
) STRICT;
-- Start past every table id the log already names.
INSERT INTO id_blocks (kind, next)
  SELECT 'table', COALESCE(MAX(CAST(substr(table_id, 2) AS INTEGER)), 0) + 1 FROM matches WHERE table_id GLOB 't[0-9]*';

-- A private match is shown only to its players until it ends. Earlier rows kept this only inside
-- table_json.
ALTER TABLE matches ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
UPDATE matches SET private = 1 WHERE json_extract(table_json, '$.private') = 1;
