// What is done to a PostgreSQL database besides playing on it: migrating its schema (under a lock,
// so that nodes starting together apply each migration once) and backing it up with pg_dump.
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <string>
#include <vector>

#include "atout/store/migrations.hpp"
#include "atout/store/pg_store.hpp"
#include "pg_connection.hpp"

extern char** environ;

namespace atout::store {

namespace {

// The one row that holds the schema version (SQLite keeps it in PRAGMA user_version).
constexpr const char* kVersionTable = "atout_schema_version";
// Held by whoever migrates, for the migration's transaction: nodes starting together take turns.
constexpr std::int64_t kMigrationLock = 0x61746f7574;  // "atout"

int read_version(pqxx::transaction_base& t) {
  const pqxx::result exists = t.exec_params("SELECT to_regclass($1) IS NOT NULL", std::string(kVersionTable));
  if (!exists[0][0].as<bool>()) return 0;
  const pqxx::result r = t.exec(std::string("SELECT version FROM ") + kVersionTable);
  return r.empty() ? 0 : r[0][0].as<int>();
}

}  // namespace

std::string redact_url(const std::string& url) {
  // postgres://user:password@host/… → postgres://user:***@host/…, and password=… in the query.
  std::string out = url;
  const auto scheme = out.find("://");
  const auto at = out.find('@');
  if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
    const auto colon = out.find(':', scheme + 3);
    if (colon != std::string::npos && colon < at) out = out.substr(0, colon + 1) + "***" + out.substr(at);
  }
  const auto pw = out.find("password=");
  if (pw != std::string::npos) {
    const auto end = out.find('&', pw);
    out = out.substr(0, pw + 9) + "***" + (end == std::string::npos ? "" : out.substr(end));
  }
  return out;
}

Opened migrate_postgres(const std::string& url, const OpenOptions& options) {
  Opened out;
  const std::string where = redact_url(url);
  std::unique_ptr<pqxx::connection> c;
  try {
    c = connect(with_timeout(url, options.connect_timeout));
  } catch (const std::exception& e) {
    out.error = "cannot connect to " + where + ": " + clean(e.what());
    return out;
  }
  try {
    // Look before touching: a newer schema is refused before anything is written.
    {
      pqxx::read_transaction r(*c);
      out.version_before = read_version(r);
    }
    if (out.version_before > latest_version()) {
      out.error = where + " is at schema version " + std::to_string(out.version_before) +
                  ", newer than this server (it knows up to " + std::to_string(latest_version()) +
                  "); run a newer atout-server, or restore a backup";
      return out;
    }
    const int target = options.migrate_to < 0 ? latest_version() : options.migrate_to;
    int version = out.version_before;
    for (const Migration& m : pg_migrations()) {
      if (m.version <= version || m.version > target) continue;
      // The version bump commits with the migration, so a crash leaves either both or neither.
      pqxx::work w(*c);
      w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      w.exec(std::string("CREATE TABLE IF NOT EXISTS ") + kVersionTable + " (version INTEGER NOT NULL)");
      w.exec(std::string("INSERT INTO ") + kVersionTable + " (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM " +
             kVersionTable + ")");
      version = read_version(w);  // another node may have applied it meanwhile
      if (version > latest_version()) {
        out.error = where + " was migrated past this server's schema version meanwhile";
        return out;
      }
      if (m.version <= version) continue;
      try {
        w.exec(m.sql);
      } catch (const std::exception& e) {
        out.error = std::string("migration ") + m.name + " failed: " + clean(e.what());
        return out;
      }
      w.exec_params(std::string("UPDATE ") + kVersionTable + " SET version = $1", m.version);
      w.commit();
      version = m.version;
    }
    out.version_after = version;
  } catch (const std::exception& e) {
    out.error = where + ": " + clean(e.what());
  }
  return out;
}

std::optional<std::string> backup_postgres(const std::string& url, const std::string& target) {
  std::error_code ec;
  if (std::filesystem::exists(target, ec)) return target + " already exists; a backup never overwrites a file";
  std::vector<std::string> args = {"pg_dump", "--format=custom", "--no-password", "--file=" + target,
                                   "--dbname=" + url};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, "pg_dump", nullptr, nullptr, argv.data(), environ); rc != 0)
    return "cannot run pg_dump (is it installed and on PATH?): " + std::generic_category().message(rc);
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return "pg_dump: cannot wait for it";
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "pg_dump of " + redact_url(url) + " failed (exit " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  return std::nullopt;
}

}  // namespace atout::store
