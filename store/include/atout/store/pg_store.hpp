// The PostgreSQL store: the same interface as the SQLite one, over a database server shared by
// any number of nodes. Writes go through a batching writer (one transaction per batch, group
// commit) that reconnects and retries a batch after the server went away; reads use a second
// connection.
#pragma once

#include <memory>
#include <string>

#include "atout/store/store.hpp"

namespace atout::store {

// Connects to the database at `url` (postgres://… or postgresql://…), refuses one whose schema
// is newer than this build, applies the missing migrations (each in its own transaction with its
// version bump, under a lock so that nodes starting together apply each once) and starts the
// writer.
std::unique_ptr<Store> open_postgres(const std::string& url, const OpenOptions& options, std::string& error);

// Applies the PostgreSQL migrations to `url` without starting a store: the versions before and
// after, or the error. Tests use it to build databases at old versions (options.migrate_to).
Opened migrate_postgres(const std::string& url, const OpenOptions& options);

// pg_dump of `url` into `target`, in pg_dump's custom format; never overwrites `target`.
std::optional<std::string> backup_postgres(const std::string& url, const std::string& target);

}  // namespace atout::store
