// The store: migrations from every earlier version, refusal of bad files without touching them,
// the batching writer, and the players/matches/hands/ratings round trip.
#include "atout/store/store.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "test_db.hpp"

namespace atout::store {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ =
        fs::temp_directory_path() / ("atout_store_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, ec);
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int user_version(const std::string& path) {
  Db db;
  EXPECT_FALSE(Db::open(path, false, true, db));
  Statement st;
  EXPECT_FALSE(db.prepare("PRAGMA user_version", st));
  EXPECT_TRUE(st.step());
  return static_cast<int>(st.int64(0));
}

bool has_table(Db& db, const std::string& name) {
  Statement st;
  EXPECT_FALSE(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", st));
  st.bind(1, name);
  return st.step();
}

TEST(Migrations, AreNumberedFromOneWithoutGaps) {
  ASSERT_FALSE(migrations().empty());
  for (std::size_t i = 0; i < migrations().size(); ++i) {
    EXPECT_EQ(migrations()[i].version, static_cast<int>(i) + 1) << migrations()[i].name;
    const std::string sql = migrations()[i].sql;
    // Each changes the schema, adds rows every database needs (the bots' players), or mends rows
    // every database has (the bots' times).
    EXPECT_TRUE(sql.find("CREATE") != std::string::npos || sql.find("ALTER") != std::string::npos ||
                sql.find("INSERT") != std::string::npos || sql.find("UPDATE") != std::string::npos)
        << migrations()[i].name;
  }
  EXPECT_EQ(latest_version(), static_cast<int>(migrations().size()));
}

TEST(Migrations, FromAnEmptyDatabaseCreatesTheDirectoryAndEveryTable) {
  TempDir dir;
  const std::string path = dir.file("sub/dir/atout.db");
  Opened o = open_database(path);
  ASSERT_FALSE(o.error) << *o.error;
  EXPECT_EQ(o.version_before, 0);
  EXPECT_EQ(o.version_after, latest_version());
  for (const char* t : {"players", "matches", "match_seats", "match_actions", "hands", "ratings"})
    EXPECT_TRUE(has_table(o.db, t)) << t;
  Statement mode;
  ASSERT_FALSE(o.db.prepare("PRAGMA journal_mode", mode));
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.text(0), "wal");
}

// A database built at each earlier version, with a row in it, upgrades to the latest and keeps it.
class MigrationsFrom : public ::testing::TestWithParam<int> {};

TEST_P(MigrationsFrom, UpgradesToTheLatestKeepingData) {
  const int from = GetParam();
  TempDir dir;
  const std::string path = dir.file("old.db");
  {
    OpenOptions old;
    old.migrate_to = from;
    Opened o = open_database(path, old);
    ASSERT_FALSE(o.error) << *o.error;
    EXPECT_EQ(o.version_after, from);
    if (from >= 1) {
      ASSERT_FALSE(
          o.db.exec("INSERT INTO players (public_id, name, token_hash, created_at, last_seen) "
                    "VALUES ('p_old', 'Old', x'00', 1, 1)"));
    }
  }
  EXPECT_EQ(user_version(path), from);
  Opened o = open_database(path);
  ASSERT_FALSE(o.error) << *o.error;
  EXPECT_EQ(o.version_before, from);
  EXPECT_EQ(o.version_after, latest_version());
  EXPECT_EQ(user_version(path), latest_version());
  if (from >= 1) {
    Statement st;
    ASSERT_FALSE(o.db.prepare("SELECT name FROM players WHERE public_id = 'p_old'", st));
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "Old");
  }
}

// Matches rated before the rating order existed are numbered by end time, then id; the matches
// that changed no rating are not; the store's next rated match comes after them.
TEST(Migrations, RatedMatchesOfAnEarlierVersionAreNumberedInTheirEndOrder) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  {
    OpenOptions old;
    old.migrate_to = 7;
    Opened o = open_database(path, old);
    ASSERT_FALSE(o.error) << *o.error;
    // (uid, rated, ended_at, end_reason), inserted out of end order; m_tie_c ends with m_tie_b.
    for (const char* r :
         {"'m_late', 1, 300, 'finished'", "'m_early', 1, 100, 'abandoned'", "'m_tie_b', 1, 200, 'finished'",
          "'m_unrated', 0, 150, 'finished'", "'m_aborted', 1, 120, 'aborted'", "'m_running', 1, NULL, NULL",
          "'m_tie_c', 1, 200, 'finished'"})
      ASSERT_FALSE(o.db.exec(std::string("INSERT INTO matches (uid, rated, ended_at, end_reason, table_id, variant, "
                                         "options, first_dealer, started_at) VALUES (") +
                             r + ", 't', 'duel', '{}', 0, 1)"));
  }
  Opened o = open_database(path);
  ASSERT_FALSE(o.error) << *o.error;
  auto seq = [&](const std::string& uid) {
    Statement st;
    EXPECT_FALSE(o.db.prepare("SELECT COALESCE(rated_seq, 0) FROM matches WHERE uid = '" + uid + "'", st));
    return st.step() ? st.int64(0) : -1;
  };
  EXPECT_EQ(seq("m_early"), 1);
  EXPECT_EQ(seq("m_tie_b"), 2);
  EXPECT_EQ(seq("m_tie_c"), 3);
  EXPECT_EQ(seq("m_late"), 4);
  EXPECT_EQ(seq("m_unrated"), 0);
  EXPECT_EQ(seq("m_aborted"), 0);
  EXPECT_EQ(seq("m_running"), 0);
  o.db = Db{};

  std::string error;
  auto s = Store::open(path, {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", std::string(32, 'a'), 1);
  s->add_player("p_b", "B", std::string(32, 'b'), 1);
  MatchStart m = test::duel_match("m_new");
  m.rated = true;
  s->begin_match(m);
  s->end_match("m_new", 2000, 1001, 0, 0, "finished");
  s->flush();
  s.reset();
  Opened again = open_database(path);
  ASSERT_FALSE(again.error) << *again.error;
  Statement st;
  ASSERT_FALSE(again.db.prepare("SELECT rated_seq FROM matches WHERE uid = 'm_new'", st));
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.int64(0), 5);
}

std::vector<int> earlier_versions() {
  std::vector<int> v;
  for (int i = 0; i < latest_version(); ++i) v.push_back(i);
  return v;
}
INSTANTIATE_TEST_SUITE_P(EveryEarlierVersion, MigrationsFrom, ::testing::ValuesIn(earlier_versions()));

TEST(BadFiles, NotADatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string path = dir.file("notes.db");
  { std::ofstream(path) << "these are my notes, not a database\n"; }
  const std::string before = slurp(path);
  std::string error;
  EXPECT_EQ(Store::open(path, {}, error), nullptr);
  EXPECT_NE(error.find("not an SQLite database"), std::string::npos) << error;
  EXPECT_EQ(slurp(path), before);
}

TEST(BadFiles, CorruptDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string path = dir.file("corrupt.db");
  {
    Opened o = open_database(path);
    ASSERT_FALSE(o.error);
    ASSERT_FALSE(o.db.exec("PRAGMA journal_mode=DELETE"));
    for (int i = 0; i < 200; ++i)
      ASSERT_FALSE(o.db.exec("INSERT INTO players (public_id, name, token_hash, created_at, last_seen) VALUES ('p" +
                             std::to_string(i) + "', 'n', randomblob(32), 1, 1)"));
  }
  // Keep the header, scribble over the pages after the first.
  std::string bytes = slurp(path);
  ASSERT_GT(bytes.size(), 8192u);
  for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xA5);
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }
  std::string error;
  EXPECT_EQ(Store::open(path, {}, error), nullptr);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(slurp(path), bytes);
}

TEST(BadFiles, NewerDatabaseIsRefusedAndUntouched) {
  TempDir dir;
  const std::string path = dir.file("future.db");
  {
    Opened o = open_database(path);
    ASSERT_FALSE(o.error);
    ASSERT_FALSE(
        o.db.exec("PRAGMA journal_mode=DELETE; PRAGMA user_version = " + std::to_string(latest_version() + 1)));
  }
  const std::string before = slurp(path);
  std::string error;
  EXPECT_EQ(Store::open(path, {}, error), nullptr);
  EXPECT_NE(error.find("newer than this server"), std::string::npos) << error;
  EXPECT_EQ(slurp(path), before);
  EXPECT_EQ(user_version(path), latest_version() + 1);
}

TEST(BadFiles, DirectoryIsRefused) {
  TempDir dir;
  std::string error;
  EXPECT_EQ(Store::open(dir.path().string(), {}, error), nullptr);
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

// Read-only paths: a read-only database file and a directory that may not be written. Root may
// write anywhere, so the opening runs in a child process as an unprivileged user when needed.
void expect_refused_as_unprivileged(const std::string& path, const std::string& dir) {
  const std::string before = fs::exists(path) ? slurp(path) : "";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::geteuid() == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    }
    std::string error;
    auto s = Store::open(path, {}, error);
    ::_exit(s == nullptr && !error.empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the store opened " << path << " in " << dir;
  EXPECT_EQ(fs::exists(path) ? slurp(path) : "", before);
}

TEST(BadFiles, ReadOnlyFileIsRefusedAndUntouched) {
  TempDir dir;
  const std::string path = dir.file("ro.db");
  {
    Opened o = open_database(path);
    ASSERT_FALSE(o.error);
    ASSERT_FALSE(o.db.exec("PRAGMA journal_mode=DELETE"));
  }
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  expect_refused_as_unprivileged(path, dir.path().string());
}

TEST(BadFiles, UnwritableDirectoryIsRefused) {
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  expect_refused_as_unprivileged(dir.file("new.db"), dir.path().string());
  EXPECT_FALSE(fs::exists(dir.file("new.db")));
}

TEST(Writer, BatchesAndFlushes) {
  TempDir dir;
  Opened o = open_database(dir.file("w.db"));
  ASSERT_FALSE(o.error);
  ASSERT_FALSE(o.db.exec("CREATE TABLE t (x INTEGER)"));
  Writer w(std::move(o.db));
  std::vector<std::string> errors;
  w.on_error([&](const std::string& e) { errors.push_back(e); });
  for (int i = 0; i < 5000; ++i)
    w.post([i](Tx& tx) { return tx.stmt("INSERT INTO t (x) VALUES (?)").bind(1, i).run(); });
  w.post([](Tx& tx) { return tx.stmt("INSERT INTO no_such_table VALUES (1)").run(); });
  w.flush();
  const WriterStats s = w.stats();
  EXPECT_EQ(s.jobs, 5001u);
  EXPECT_EQ(s.errors, 1u);
  EXPECT_LT(s.batches, 5001u);  // grouped into transactions
  EXPECT_EQ(errors.size(), 1u);
  Db r;
  ASSERT_FALSE(Db::open(dir.file("w.db"), false, true, r));
  Statement st;
  ASSERT_FALSE(r.prepare("SELECT COUNT(*), SUM(x) FROM t", st));
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.int64(0), 5000);
  EXPECT_EQ(st.int64(1), 4999 * 5000 / 2);
  w.stop();
  w.post([](Tx&) { return std::optional<std::string>(); });  // after stop: dropped, counted
  EXPECT_EQ(w.stats().errors, 2u);
}

// Polls `done` for up to `limit`: for writes the writer commits on its own, with no flush.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

Db table_db(TempDir& dir, const std::string& name) {
  Opened o = open_database(dir.file(name));
  EXPECT_FALSE(o.error);
  EXPECT_FALSE(o.db.exec("CREATE TABLE t (x INTEGER)"));
  return std::move(o.db);
}

Job insert(int i) {
  return [i](Tx& tx) { return tx.stmt("INSERT INTO t (x) VALUES (?)").bind(1, i).run(); };
}

// The gathering window: writes that arrive while it is open share one commit, and a flush or a
// stop ends it at once (a window of an hour would otherwise hold them).
TEST(Writer, WritesInsideTheGatheringWindowShareOneCommit) {
  TempDir dir;
  Writer w(table_db(dir, "g.db"), 8192, std::chrono::hours(1));
  for (int i = 0; i < 50; ++i) w.post(insert(i));
  w.flush();
  EXPECT_EQ(w.stats().jobs, 50u);
  EXPECT_EQ(w.stats().batches, 1u);
  w.post(insert(50));
  w.stop();  // commits what is queued, window or not
  EXPECT_EQ(w.stats().jobs, 51u);
  EXPECT_EQ(w.stats().batches, 2u);
}

TEST(Writer, ALoneWriteCommitsWhenTheWindowCloses) {
  TempDir dir;
  Writer w(table_db(dir, "l.db"), 8192, std::chrono::milliseconds(20));
  w.post(insert(1));
  EXPECT_TRUE(eventually([&] { return w.stats().jobs == 1; }, std::chrono::seconds(30)));
}

TEST(Writer, AFullBatchDoesNotWaitForTheWindow) {
  TempDir dir;
  Writer w(table_db(dir, "f.db"), 10, std::chrono::hours(1));
  for (int i = 0; i < 25; ++i) w.post(insert(i));
  // Two batches of 10 go at once; the last 5 wait for the window (an hour) or a flush.
  EXPECT_TRUE(eventually([&] { return w.stats().jobs == 20; }, std::chrono::seconds(30)));
  EXPECT_EQ(w.stats().batches, 2u);
  w.flush();
  EXPECT_EQ(w.stats().jobs, 25u);
  EXPECT_EQ(w.stats().largest_batch, 10u);
}

TEST(Writer, AFlushBesideAStopReturnsOnceTheQueuedWritesAreDone) {
  // A flush from one thread while another stops the writer: both return, and the writes queued
  // before are committed (the writer drains its queue before it stops).
  TempDir dir;
  Writer w(table_db(dir, "s.db"), 8192, std::chrono::milliseconds(0));
  std::atomic<int> done{0};
  for (int i = 0; i < 3; ++i)
    w.post([&](Tx&) -> std::optional<std::string> {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++done;
      return std::nullopt;
    });
  std::thread flusher([&] { w.flush(); });
  w.stop();
  flusher.join();
  EXPECT_EQ(done.load(), 3);
  w.flush();  // after the stop: returns at once
  EXPECT_EQ(w.stats().jobs, 3u);
}

TEST(Writer, RunsBelowTheIoThreadsPriority) {
  // The writer's nice value is its own (docs/operations.md, "Durability"): asked from inside a job,
  // which runs on the writer thread.
  TempDir dir;
  Writer w(table_db(dir, "n.db"), 8192, std::chrono::milliseconds(0));
  const int caller = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  int writer = -100;
  w.post([&](Tx&) -> std::optional<std::string> {
    writer = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    return std::nullopt;
  });
  w.flush();
  // An already nicer process cannot be made less nice, except by root; otherwise the writer sits
  // at kNice.
  EXPECT_EQ(writer, geteuid() == 0 ? Writer::kNice : std::max(caller, Writer::kNice));
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))), caller);  // the caller is untouched
}

TEST(Migrations, TheWriteConnectionKeepsALargeCacheAndCheckpointsEvery32MiB) {
  // Values chosen in bench/RESULTS.md ("fourth pass"): 1,000 live tables outgrow the defaults.
  TempDir dir;
  Opened o = open_database(dir.file("p.db"));
  ASSERT_FALSE(o.error);
  const auto pragma = [&](const char* sql) {
    Statement st;
    EXPECT_FALSE(o.db.prepare(sql, st));
    EXPECT_TRUE(st.step());
    return st.int64(0);
  };
  EXPECT_EQ(pragma("PRAGMA cache_size"), -65536);        // KiB when negative: 64 MiB
  EXPECT_EQ(pragma("PRAGMA wal_autocheckpoint"), 8192);  // pages of 4 KiB
  EXPECT_EQ(pragma("PRAGMA page_size"), 4096);
}

// The migration that brings id blocks starts table numbers past every table id already logged.
TEST(Migrations, TableNumbersStartPastTheTablesAlreadyLogged) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  {
    OpenOptions old;
    old.migrate_to = 4;
    Opened o = open_database(path, old);
    ASSERT_FALSE(o.error) << *o.error;
    ASSERT_FALSE(
        o.db.exec("INSERT INTO matches (uid, table_id, variant, options, first_dealer, started_at, table_json) "
                  "VALUES ('m1', 't41', 'duel', '{}', 0, 1, '{\"private\":true}'), "
                  "('m2', 't7', 'duel', '{}', 0, 1, '{\"private\":false}')"));
  }
  std::string error;
  auto s = Store::open(path, {}, error);
  ASSERT_TRUE(s) << error;
  const auto first = s->reserve_ids("table", 1);
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, 42u);
  Opened o = open_database(path);
  ASSERT_FALSE(o.error) << *o.error;
  Statement st;
  ASSERT_FALSE(o.db.prepare("SELECT uid FROM matches WHERE private = 1", st));
  ASSERT_TRUE(st.step());
  EXPECT_EQ(st.text(0), "m1");  // the flag kept in table_json became the column
  EXPECT_FALSE(st.step());
}

}  // namespace
}  // namespace atout::store
