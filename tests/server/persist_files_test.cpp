// Bad database files given to the real atout-server: each is refused at start-up with a clear
// message and a non-zero exit, and its bytes are left as they were.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "atout/store/migrations.hpp"
#include "child_process.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A database of the current schema with some rows, in rollback-journal mode so it is one file.
void make_database(const std::string& path, const std::string& extra_sql = {}) {
  store::Opened o = store::open_database(path);
  ASSERT_FALSE(o.error) << *o.error;
  ASSERT_FALSE(o.db.exec("PRAGMA journal_mode=DELETE; BEGIN"));
  for (int i = 0; i < 200; ++i)
    ASSERT_FALSE(o.db.exec("INSERT INTO players (public_id, name, token_hash, created_at, last_seen) VALUES ('p" +
                           std::to_string(i) + "', 'n', randomblob(32), 1, 1)"));
  ASSERT_FALSE(o.db.exec("COMMIT"));
  if (!extra_sql.empty()) {
    ASSERT_FALSE(o.db.exec(extra_sql));
  }
}

// Starts the server on `db` and expects a refusal: exit 2 before listening, `phrase` in the log.
void expect_refused(const std::string& db, const std::string& phrase, bool as_nobody = false) {
  ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", db}, as_nobody);
  const int code = server.wait_exit(60s);
  const std::string out = server.output();
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("cannot use the database " + db), std::string::npos) << out;
  EXPECT_NE(out.find(phrase), std::string::npos) << out;
  EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
}

TEST(PersistBadFiles, CorruptDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string db = dir.file("corrupt.db");
  make_database(db);
  std::string bytes = slurp(db);
  ASSERT_GT(bytes.size(), 8192u);
  for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xA5);
  { std::ofstream(db, std::ios::binary | std::ios::trunc) << bytes; }
  expect_refused(db, "corrupt");
  EXPECT_EQ(slurp(db), bytes);
  EXPECT_FALSE(fs::exists(db + "-wal"));
}

TEST(PersistBadFiles, FileThatIsNotADatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string db = dir.file("notes.db");
  const std::string bytes = "these are somebody's notes, not a database\n" + std::string(5000, 'x');
  { std::ofstream(db, std::ios::binary) << bytes; }
  expect_refused(db, "not an SQLite database");
  EXPECT_EQ(slurp(db), bytes);
}

TEST(PersistBadFiles, NewerDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string db = dir.file("future.db");
  make_database(db, "PRAGMA user_version = " + std::to_string(store::latest_version() + 1));
  const std::string bytes = slurp(db);
  expect_refused(db, "newer than this server");
  EXPECT_EQ(slurp(db), bytes);
}

TEST(PersistBadFiles, ReadOnlyDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string db = dir.file("ro.db");
  make_database(db);
  const std::string bytes = slurp(db);
  // Root writes anywhere: the server runs as an ordinary user here (as it should in production).
  fs::permissions(db, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  expect_refused(db, "", true);
  EXPECT_EQ(slurp(db), bytes);
  EXPECT_FALSE(fs::exists(db + "-wal"));
}

TEST(PersistBadFiles, UnwritableDirectoryIsRefusedAndNothingIsCreated) {
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::string db = dir.file("new.db");
  expect_refused(db, "", true);
  EXPECT_FALSE(fs::exists(db));
}

TEST(PersistBadFiles, MissingDirectoryIsCreatedAndTheSchemaLogged) {
  TempDir dir;
  const std::string db = dir.file("a/b/atout.db");
  ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", db});
  ASSERT_NE(server.wait_for_port(60s), 0) << server.output();
  EXPECT_NE(server.output().find("database " + db + " at schema version " + std::to_string(store::latest_version())),
            std::string::npos)
      << server.output();
  EXPECT_TRUE(fs::exists(db));
  server.kill9();
}

// Nothing listens where the URL points: the same refusal, exit 2, and the password stays out of
// the log.
TEST(PersistBadFiles, AnUnreachablePostgresIsRefusedWithoutItsPassword) {
  const std::string db = "postgresql://atout:s3cret@127.0.0.1:1/atout?connect_timeout=2";
  ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", db});
  const int code = server.wait_exit(60s);
  const std::string out = server.output();
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("cannot use the database postgresql://atout:***@127.0.0.1:1/atout"), std::string::npos) << out;
  EXPECT_NE(out.find("cannot connect"), std::string::npos) << out;
  EXPECT_EQ(out.find("s3cret"), std::string::npos) << out;
  EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
}

}  // namespace
}  // namespace atout::server::testing
