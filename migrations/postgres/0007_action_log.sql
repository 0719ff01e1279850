-- The SQLite store appends live actions to an ordered log (its migration 0007). PostgreSQL keeps
-- every action in match_actions: nodes of a cluster share this database, and the table's primary
-- key (match, seq) is the last guard against two nodes writing one match, refusing the second
-- writer's actions at once. This migration only keeps the two lists' numbers in step.
COMMENT ON TABLE match_actions IS
  'Every accepted action, keyed by (match, seq); written as the table accepts it, on every node.';
