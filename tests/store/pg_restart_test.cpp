// PostgreSQL restarted under a running store: the writer keeps what is queued, reconnects, and
// commits it; nothing that was acknowledged is lost, and play goes on. It restarts the shared test
// server, so CTest runs it alone (tests/CMakeLists.txt); the restart command comes from
// ATOUT_TEST_PG_RESTART (scripts/pg_test_server.sh restart).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "atout/store/store.hpp"
#include "test_db.hpp"

namespace atout::store {
namespace {

TEST(PostgresRestart, NothingAcknowledgedIsLostAndPlayResumes) {
  const char* restart = std::getenv("ATOUT_TEST_PG_RESTART");
  if (auto missing = test::postgres_missing(); missing || restart == nullptr) {
    const std::string why = missing ? *missing : "ATOUT_TEST_PG_RESTART is not set";
    if (test::postgres_required()) FAIL() << why;
    GTEST_SKIP() << why;
  }
  test::TestDb db(test::Backend::postgres);
  std::string error;
  auto s = Store::open(db.url(), {}, error);
  ASSERT_TRUE(s) << error;
  std::vector<std::string> errors;
  std::mutex errors_mu;
  s->on_write_error([&](const std::string& e) {
    std::lock_guard lock(errors_mu);
    errors.push_back(e);
  });
  s->add_player("p_a", "A", std::string(32, 'a'), 1);
  s->add_player("p_b", "B", std::string(32, 'b'), 1);
  MatchStart m;
  m.uid = "m1";
  m.table_id = "t1";
  m.variant = "duel";
  m.options_json = "{}";
  m.started_at = 1;
  m.seats = {{0, 0, "p_a", ""}, {1, 1, "p_b", ""}};
  s->begin_match(m);
  std::int64_t seq = 0;
  for (; seq < 10; ++seq) s->add_action("m1", seq, static_cast<int>(seq % 2), "{}", seq);
  s->flush();  // acknowledged

  // A table keeps playing while the server goes down and comes back.
  std::atomic<bool> restarted{false};
  std::thread table([&] {
    while (!restarted.load()) {
      s->add_action("m1", seq, static_cast<int>(seq % 2), "{}", seq);
      ++seq;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a table's pace, not a timer under test
    }
  });
  const int rc = std::system(restart);
  restarted = true;
  table.join();
  ASSERT_EQ(rc, 0) << restart;
  const std::int64_t during = seq;
  for (int i = 0; i < 10; ++i, ++seq) s->add_action("m1", seq, static_cast<int>(seq % 2), "{}", seq);
  s->flush();

  EXPECT_GT(during, 10);  // writes were queued while the server was down
  // The actions went through the batch's multi-row insert, the path a restart must not break.
  EXPECT_GT(s->writer_stats().appended_actions, 0u);
  const auto stored = s->match("m1", false);
  ASSERT_TRUE(stored) << "the reader did not reconnect";
  ASSERT_EQ(static_cast<std::int64_t>(stored->actions.size()), seq);
  for (std::int64_t i = 0; i < seq; ++i) EXPECT_EQ(stored->actions[static_cast<std::size_t>(i)].seq, i);
  // Only duplicates from a commit of unknown outcome may be refused; nothing else fails.
  std::lock_guard lock(errors_mu);
  for (const std::string& e : errors)
    EXPECT_TRUE(e.find("retrying") != std::string::npos || e.find("duplicate key") != std::string::npos) << e;
  // And the store goes on: a new match after the restart.
  m.uid = "m2";
  s->begin_match(m);
  s->end_match("m2", 5, 1, 0, 0, "finished");
  s->flush();
  const auto m2 = s->match("m2", false);
  ASSERT_TRUE(m2);
  EXPECT_EQ(m2->end_reason, "finished");
}

}  // namespace
}  // namespace atout::store
