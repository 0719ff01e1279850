// The choice of backend, from the --db value.
#include "atout/store/store.hpp"

#include <filesystem>

#include "atout/store/pg_store.hpp"
#include "atout/store/sqlite_store.hpp"

namespace atout::store {

namespace {

constexpr std::string_view kSqliteScheme = "sqlite://";

std::string sqlite_path(const std::string& db) {
  return db.rfind(kSqliteScheme, 0) == 0 ? db.substr(kSqliteScheme.size()) : db;
}

}  // namespace

bool is_postgres_url(const std::string& db) {
  return db.rfind("postgres://", 0) == 0 || db.rfind("postgresql://", 0) == 0;
}

std::unique_ptr<Store> Store::open(const std::string& db, const OpenOptions& options, std::string& error) {
  if (is_postgres_url(db)) return open_postgres(db, options, error);
  return SqliteStore::open(sqlite_path(db), options, error);
}

std::optional<std::string> backup_database(const std::string& source, const std::string& target) {
  if (is_postgres_url(source)) return backup_postgres(source, target);
  const std::string path = sqlite_path(source);
  std::error_code ec;
  if (std::filesystem::exists(target, ec)) return target + " already exists; a backup never overwrites a file";
  if (!std::filesystem::exists(path, ec)) return path + " does not exist";
  Db db;
  if (auto e = Db::open(path, false, true, db)) return "cannot open " + path + ": " + *e;
  Statement st;
  if (auto e = db.prepare("VACUUM INTO ?", st)) return path + ": " + *e;
  st.bind(1, target);
  return st.run();
}

}  // namespace atout::store
