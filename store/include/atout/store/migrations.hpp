// Numbered schema migrations (migrations/<dialect>/*.sql, compiled in) and the checked opening of an
// SQLite database.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "atout/store/sqlite.hpp"

namespace atout::store {

struct Migration {
  int version = 0;
  const char* name = "";
  const char* sql = "";
};

// Every SQLite migration, in version order (1, 2, 3, …).
const std::vector<Migration>& migrations();
// The same migrations for PostgreSQL: the same numbers and names, in its dialect.
const std::vector<Migration>& pg_migrations();
int latest_version();

struct OpenOptions {
  bool create = true;                  // create the file (and its directory) when missing
  std::string synchronous = "NORMAL";  // NORMAL or FULL (docs/operations.md, durability)
  int migrate_to = -1;                 // stop at this version (tests build old databases); -1: latest
  // How long the writer gathers writes before it commits them (Store::open; see Writer).
  std::chrono::microseconds commit_window{2000};
  // SQLite only: the action log (SqliteStore). After every `log_pass_rows` rows appended, a pass
  // copies into match_actions the rows older than the newest `log_keep_rows` and drops them from
  // the log.
  std::int64_t log_pass_rows = 16384;
  std::int64_t log_keep_rows = 65536;
  // PostgreSQL only: how long to wait for the server when connecting, at start and on reconnects.
  std::chrono::seconds connect_timeout{5};
};

struct Opened {
  Db db;
  std::optional<std::string> error;  // why the database was refused; it is then left untouched
  int version_before = 0;
  int version_after = 0;
};

// Opens `path` for the server: refuses a file that is not an SQLite database, a corrupt one, one
// newer than this build knows, or one that cannot be written, before writing anything; then turns
// on WAL and applies the missing migrations, each in one transaction with its version bump.
Opened open_database(const std::string& path, const OpenOptions& options = {});

}  // namespace atout::store
