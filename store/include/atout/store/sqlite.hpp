// A thin RAII layer over the SQLite C API: a connection and prepared statements, errors as values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace atout::store {

class Statement;

class Db {
 public:
  Db() = default;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  Db(Db&& o) noexcept : db_(o.db_) { o.db_ = nullptr; }
  Db& operator=(Db&& o) noexcept;
  ~Db();

  // Opens `path`. `create`: make the file if missing; `read_only`: never write.
  static std::optional<std::string> open(const std::string& path, bool create, bool read_only, Db& out);

  // Runs one or more statements without results. Returns the error text, if any.
  std::optional<std::string> exec(std::string_view sql);
  std::optional<std::string> prepare(std::string_view sql, Statement& out);
  std::int64_t last_insert_rowid() const;
  int changes() const;
  std::string error() const;
  sqlite3* handle() const { return db_; }
  bool is_open() const { return db_ != nullptr; }

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& o) noexcept : st_(o.st_) { o.st_ = nullptr; }
  Statement& operator=(Statement&& o) noexcept;
  ~Statement();

  // Parameters are numbered from 1, as in SQLite.
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view text);
  Statement& bind_blob(int i, const void* data, std::size_t size);
  Statement& bind_null(int i);
  // Steps once: true with a row, false when done. Errors leave `error()` set and return false.
  bool step();
  // Steps to the end; returns the error text, if any. Resets the statement afterwards.
  std::optional<std::string> run();
  void reset();

  std::int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;
  std::string blob(int col) const;
  bool is_null(int col) const;
  const std::optional<std::string>& error() const { return error_; }

 private:
  friend class Db;
  sqlite3_stmt* st_ = nullptr;
  std::optional<std::string> error_;
};

}  // namespace atout::store
