// A database of its own for one test, on either backend: an SQLite file in a fresh directory, or
// a fresh schema in the PostgreSQL database named by ATOUT_TEST_PG_URL (so tests run in parallel).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "atout/store/store.hpp"

namespace atout::store::test {

// A duel match `uid` between players "p_a" (seat 0) and "p_b" (seat 1), who must exist.
MatchStart duel_match(const std::string& uid);

enum class Backend { sqlite, postgres };

// Why a PostgreSQL test cannot run (no ATOUT_TEST_PG_URL), or nothing. The build decides whether
// that is a failure (ATOUT_PG_TESTS=ON: CI promised a server) or a skip.
std::optional<std::string> postgres_missing();
bool postgres_required();

// Ends the calling test when PostgreSQL is missing: a failure under ATOUT_PG_TESTS=ON, else a
// skip that names what is missing. A macro, since FAIL and GTEST_SKIP return from the function
// they are written in.
#define ATOUT_NEEDS_POSTGRES()                                                 \
  do {                                                                         \
    if (auto atout_missing = ::atout::store::test::postgres_missing()) {       \
      if (::atout::store::test::postgres_required()) FAIL() << *atout_missing; \
      GTEST_SKIP() << *atout_missing;                                          \
    }                                                                          \
  } while (false)

class TestDb {
 public:
  explicit TestDb(Backend backend);
  ~TestDb();
  TestDb(const TestDb&) = delete;
  TestDb& operator=(const TestDb&) = delete;

  // What Store::open takes: a file path, or a URL whose search_path is the test's schema.
  const std::string& url() const { return url_; }
  Backend backend() const { return backend_; }
  // A file beside the database (for backups).
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  // Runs SQL straight on the database, outside any Store: the error, if any.
  std::optional<std::string> exec(const std::string& sql) const;
  // One value (the first column of the first row) as text; empty when there is none.
  std::string query(const std::string& sql) const;

 private:
  Backend backend_;
  std::filesystem::path dir_;
  std::string schema_;
  std::string url_;
};

// A test run once on each backend, with a fresh database in `db_`.
class OnEachBackend : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;
  std::unique_ptr<TestDb> db_;
};

// The test name's suffix: "sqlite" or "postgres".
std::string backend_name(const ::testing::TestParamInfo<Backend>& info);

}  // namespace atout::store::test
