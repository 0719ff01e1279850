// Checked opening and migration of the database.
#include "atout/store/migrations.hpp"

#include <sqlite3.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace atout::store {

int latest_version() { return migrations().empty() ? 0 : migrations().back().version; }

namespace {

// The first 16 bytes of every SQLite 3 database file.
constexpr char kHeader[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

std::optional<std::string> check_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read " + path;
  char head[16] = {};
  in.read(head, sizeof head);
  const auto got = in.gcount();
  if (got == 0) return std::nullopt;  // an empty file: SQLite treats it as a new database
  if (got < 16 || std::memcmp(head, kHeader, sizeof kHeader) != 0)
    return path + " is not an SQLite database (its header is not \"SQLite format 3\")";
  return std::nullopt;
}

std::optional<std::string> query_int(Db& db, const char* sql, int& out) {
  Statement st;
  if (auto e = db.prepare(sql, st)) return e;
  if (!st.step()) return st.error().value_or("no result");
  out = static_cast<int>(st.int64(0));
  return std::nullopt;
}

}  // namespace

Opened open_database(const std::string& path, const OpenOptions& options) {
  Opened out;
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (exists) {
    if (fs::is_directory(path, ec)) {
      out.error = path + " is a directory, not a database file";
      return out;
    }
    if (auto e = check_header(path)) {
      out.error = *e;
      return out;
    }
    // Look before touching: a read-only connection reads the version and checks the pages.
    Db ro;
    if (auto e = Db::open(path, false, true, ro)) {
      out.error = "cannot open " + path + ": " + *e;
      return out;
    }
    int version = 0;
    if (auto e = query_int(ro, "PRAGMA user_version", version)) {
      out.error = path + " is not a usable SQLite database: " + *e;
      return out;
    }
    out.version_before = version;
    if (version > latest_version()) {
      out.error = path + " is at schema version " + std::to_string(version) +
                  ", newer than this server (it knows up to " + std::to_string(latest_version()) +
                  "); run a newer atout-server, or restore a backup";
      return out;
    }
    Statement check;
    if (auto e = ro.prepare("PRAGMA quick_check", check)) {
      out.error = path + " is corrupt: " + *e;
      return out;
    }
    if (!check.step() || check.text(0) != "ok") {
      out.error = path + " is corrupt: " + (check.error() ? *check.error() : check.text(0));
      return out;
    }
  } else {
    if (!options.create) {
      out.error = path + " does not exist";
      return out;
    }
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::exists(parent, ec)) {
      fs::create_directories(parent, ec);
      if (ec) {
        out.error = "cannot create the directory " + parent.string() + ": " + ec.message();
        return out;
      }
    }
  }

  if (auto e = Db::open(path, options.create, false, out.db)) {
    out.error = "cannot open " + path + " for writing: " + *e;
    return out;
  }
  if (sqlite3_db_readonly(out.db.handle(), "main") == 1) {
    out.error = path + " is read-only; the server needs to write to it";
    out.db = Db();
    return out;
  }
  Statement mode;
  if (auto e = out.db.prepare("PRAGMA journal_mode=WAL", mode)) {
    out.error = "cannot switch " + path + " to WAL: " + *e;
    out.db = Db();
    return out;
  }
  if (!mode.step() || mode.text(0) != "wal") {
    out.error = "cannot switch " + path + " to WAL: " + mode.error().value_or(mode.text(0));
    out.db = Db();
    return out;
  }
  mode = Statement();
  const std::string sync = options.synchronous == "FULL" ? "FULL" : "NORMAL";
  // A live server keeps the last leaf page of every running match's log in hand: 1,000 tables
  // outgrow SQLite's 2 MiB default cache, and each insert then re-reads its page from the WAL.
  // Checkpointing every 32 MiB instead of 4 MiB writes a page rewritten by many commits back once.
  if (auto e = out.db.exec("PRAGMA synchronous=" + sync +
                           "; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=8192;")) {
    out.error = *e;
    out.db = Db();
    return out;
  }

  int version = 0;
  query_int(out.db, "PRAGMA user_version", version);
  out.version_before = version;
  const int target = options.migrate_to < 0 ? latest_version() : options.migrate_to;
  for (const Migration& m : migrations()) {
    if (m.version <= version || m.version > target) continue;
    // The version bump commits with the migration, so a crash leaves either both or neither.
    std::optional<std::string> e = out.db.exec("BEGIN IMMEDIATE");
    if (!e) e = out.db.exec(m.sql);
    if (!e) e = out.db.exec("PRAGMA user_version = " + std::to_string(m.version));
    if (!e) e = out.db.exec("COMMIT");
    if (e) {
      out.db.exec("ROLLBACK");
      out.error = std::string("migration ") + m.name + " failed: " + *e;
      out.db = Db();
      return out;
    }
    version = m.version;
  }
  out.version_after = version;
  return out;
}

}  // namespace atout::store
