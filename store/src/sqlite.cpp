// The RAII SQLite layer.
#include "atout/store/sqlite.hpp"

#include <sqlite3.h>

namespace atout::store {

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    o.db_ = nullptr;
  }
  return *this;
}

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

std::optional<std::string> Db::open(const std::string& path, bool create, bool read_only, Db& out) {
  int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (create && !read_only) flags |= SQLITE_OPEN_CREATE;
  // Each connection is used by one thread at a time; SQLite's own mutexes are not needed.
  flags |= SQLITE_OPEN_NOMUTEX;
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (db) sqlite3_close_v2(db);
    return msg;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, 5000);
  out = Db();
  out.db_ = db;
  return std::nullopt;
}

std::optional<std::string> Db::exec(std::string_view sql) {
  std::string s(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    return msg;
  }
  return std::nullopt;
}

std::optional<std::string> Db::prepare(std::string_view sql, Statement& out) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &st, nullptr) != SQLITE_OK)
    return std::string(sqlite3_errmsg(db_));
  out = Statement();
  out.st_ = st;
  return std::nullopt;
}

std::int64_t Db::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
int Db::changes() const { return sqlite3_changes(db_); }
std::string Db::error() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    if (st_) sqlite3_finalize(st_);
    st_ = o.st_;
    o.st_ = nullptr;
    error_ = std::move(o.error_);
  }
  return *this;
}

Statement::~Statement() {
  if (st_) sqlite3_finalize(st_);
}

Statement& Statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(st_, i, v);
  return *this;
}
Statement& Statement::bind(int i, double v) {
  sqlite3_bind_double(st_, i, v);
  return *this;
}
Statement& Statement::bind(int i, std::string_view text) {
  sqlite3_bind_text(st_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_blob(int i, const void* data, std::size_t size) {
  sqlite3_bind_blob(st_, i, data, static_cast<int>(size), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_null(int i) {
  sqlite3_bind_null(st_, i);
  return *this;
}

bool Statement::step() {
  if (!st_) {
    error_ = "the statement failed to prepare";
    return false;
  }
  const int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) error_ = sqlite3_errmsg(sqlite3_db_handle(st_));
  return false;
}

std::optional<std::string> Statement::run() {
  error_.reset();
  while (step()) {
  }
  auto e = error_;
  reset();
  return e;
}

void Statement::reset() {
  if (!st_) return;
  sqlite3_reset(st_);
  sqlite3_clear_bindings(st_);
}

std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(st_, col); }
double Statement::real(int col) const { return sqlite3_column_double(st_, col); }
std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(st_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(st_, col)))
           : std::string();
}
std::string Statement::blob(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(st_, col));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(st_, col))) : std::string();
}
bool Statement::is_null(int col) const { return sqlite3_column_type(st_, col) == SQLITE_NULL; }

}  // namespace atout::store
