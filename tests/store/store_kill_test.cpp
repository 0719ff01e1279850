// A process killed (SIGKILL) while its store appends actions, on both backends: every action it
// saw acknowledged (flush returned) is in the database after a restart, nothing is there twice or
// out of order, and a match that ended just before the kill reads as ended with all its actions.
// On PostgreSQL the actions of a batch go in one multi-row insert, which the kill cuts off; on
// SQLite live actions go to the append-ordered log, and passes copy matches out of it and drop its
// prefix, which the kill cuts off too.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "atout/store/store.hpp"
#include "test_db.hpp"

namespace atout::store {
namespace {

using test::Backend;
using test::TestDb;

std::string action_of(std::int64_t seq) { return R"({"type":"play","n":)" + std::to_string(seq) + R"(,"s":"\"x\\"})"; }

// On SQLite, passes over the action log many times a second, so that the kill can cut one off.
// PostgreSQL ignores these.
OpenOptions busy_log() {
  OpenOptions o;
  o.log_pass_rows = 64;
  o.log_keep_rows = 100;
  return o;
}

// The child: a match that ends, then a live match whose actions it appends and acknowledges in
// rounds, reporting each acknowledged count on `out`, until it is killed.
[[noreturn]] void play_until_killed(const std::string& url, int out) {
  std::string error;
  auto s = Store::open(url, busy_log(), error);
  if (!s) ::_exit(2);
  s->add_player("p_a", "A", std::string(32, 'a'), 1);
  s->add_player("p_b", "B", std::string(32, 'b'), 1);
  s->begin_match(test::duel_match("m_ended"));
  for (std::int64_t q = 0; q < 12; ++q) s->add_action("m_ended", q, static_cast<int>(q % 2), action_of(q), q);
  s->end_match("m_ended", 20, 1, 0, 0, "finished");
  s->begin_match(test::duel_match("m_live"));
  s->flush();
  std::int64_t seq = 0;
  for (;;) {
    for (int i = 0; i < 25; ++i, ++seq) s->add_action("m_live", seq, static_cast<int>(seq % 2), action_of(seq), seq);
    s->flush();
    if (::write(out, &seq, sizeof seq) != static_cast<ssize_t>(sizeof seq)) ::_exit(3);
    // Queued but never acknowledged: the kill may come while these are being written.
    for (int i = 0; i < 25; ++i, ++seq) s->add_action("m_live", seq, static_cast<int>(seq % 2), action_of(seq), seq);
  }
}

// Forks `child` on `url`, reads the counts it acknowledges until one reaches `enough`, kills it
// with SIGKILL, and returns the last count it acknowledged (counts written after the last read
// were acknowledged too). -1, with a failure, when anything goes wrong.
std::int64_t kill_once(const std::string& url, void (*child)(const std::string&, int), std::int64_t enough) {
  int fds[2];
  if (::pipe(fds) != 0) {
    ADD_FAILURE() << "pipe failed";
    return -1;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    return -1;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(url, fds[1]);
  }
  ::close(fds[1]);
  std::int64_t acknowledged = 0;
  std::int64_t got = 0;
  while (acknowledged < enough && ::read(fds[0], &got, sizeof got) == static_cast<ssize_t>(sizeof got))
    acknowledged = got;
  const bool killed = ::kill(pid, SIGKILL) == 0;
  int status = 0;
  const bool reaped = ::waitpid(pid, &status, 0) == pid;
  while (::read(fds[0], &got, sizeof got) == static_cast<ssize_t>(sizeof got)) acknowledged = got;
  ::close(fds[0]);
  if (acknowledged < enough) ADD_FAILURE() << "the child stopped after acknowledging " << acknowledged;
  if (!killed || !reaped || !WIFSIGNALED(status)) ADD_FAILURE() << "the child was not killed by the signal";
  return acknowledged < enough || !killed || !reaped || !WIFSIGNALED(status) ? -1 : acknowledged;
}

class StoreKill : public ::testing::TestWithParam<Backend> {};

TEST_P(StoreKill, EveryAcknowledgedActionSurvivesAKillAndNothingIsThereTwice) {
  if (GetParam() == Backend::postgres) ATOUT_NEEDS_POSTGRES();
  TestDb db(GetParam());
  const std::int64_t acknowledged = kill_once(db.url(), play_until_killed, 400);
  ASSERT_GE(acknowledged, 0);

  std::string error;
  auto s = Store::open(db.url(), {}, error);
  ASSERT_TRUE(s) << error;
  const auto live = s->match("m_live", true);
  ASSERT_TRUE(live);
  ASSERT_GE(static_cast<std::int64_t>(live->actions.size()), acknowledged);
  for (std::size_t i = 0; i < live->actions.size(); ++i) {
    const auto seq = static_cast<std::int64_t>(i);
    ASSERT_EQ(live->actions[i].seq, seq);
    ASSERT_EQ(live->actions[i].seat, static_cast<int>(seq % 2));
    ASSERT_EQ(live->actions[i].action_json, action_of(seq));
  }
  const auto ended = s->match("m_ended", false);
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->end_reason, "finished");
  EXPECT_EQ(ended->actions.size(), 12u);
  const auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].start.uid, "m_live");
  EXPECT_EQ(unfinished[0].actions.size(), live->actions.size());
}

// The child: match after match, each of ten actions and an end, acknowledging every eighth, until
// it is killed. On SQLite the kill comes amid appends to the log and passes over it.
[[noreturn]] void end_matches_until_killed(const std::string& url, int out) {
  std::string error;
  auto s = Store::open(url, busy_log(), error);
  if (!s) ::_exit(2);
  s->add_player("p_a", "A", std::string(32, 'a'), 1);
  s->add_player("p_b", "B", std::string(32, 'b'), 1);
  for (std::int64_t k = 0;; ++k) {
    const std::string uid = "e" + std::to_string(k);
    s->begin_match(test::duel_match(uid));
    for (std::int64_t q = 0; q < 10; ++q) s->add_action(uid, q, static_cast<int>(q % 2), action_of(q), q);
    s->end_match(uid, 100 + k, 1, 0, 0, "finished");
    if (k % 8 == 7) {
      s->flush();
      const std::int64_t ended = k + 1;
      if (::write(out, &ended, sizeof ended) != static_cast<ssize_t>(sizeof ended)) ::_exit(3);
    }
  }
}

TEST_P(StoreKill, MatchesEndingAroundAKillAreWholeOrAbsentAfterRestart) {
  if (GetParam() == Backend::postgres) ATOUT_NEEDS_POSTGRES();
  TestDb db(GetParam());
  const std::int64_t acknowledged = kill_once(db.url(), end_matches_until_killed, 200);
  ASSERT_GE(acknowledged, 0);

  std::string error;
  auto s = Store::open(db.url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->flush();
  // Every acknowledged match is ended with its ten actions; those after are absent, or a prefix
  // of their actions, and whole if their end is there.
  for (std::int64_t k = 0;; ++k) {
    const auto m = s->match("e" + std::to_string(k), false);
    if (!m) {
      ASSERT_GE(k, acknowledged);
      EXPECT_FALSE(s->match("e" + std::to_string(k + 1), false)) << "a match stored after one that is absent";
      break;
    }
    if (k < acknowledged) {
      EXPECT_EQ(m->end_reason, "finished") << "match " << k;
    }
    if (m->ended_at) {
      ASSERT_EQ(m->actions.size(), 10u) << "match " << k;
    }
    for (std::size_t i = 0; i < m->actions.size(); ++i) {
      ASSERT_EQ(m->actions[i].seq, static_cast<std::int64_t>(i)) << "match " << k;
      ASSERT_EQ(m->actions[i].action_json, action_of(static_cast<std::int64_t>(i))) << "match " << k;
    }
  }
  if (GetParam() == Backend::sqlite) {
    // The passes kept the log to its window: at most the newest 100 rows and one pass's 64.
    EXPECT_LE(std::stoll(db.query("SELECT COUNT(*) FROM action_log")), 164);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreKill, ::testing::Values(Backend::sqlite, Backend::postgres),
                         test::backend_name);

}  // namespace
}  // namespace atout::store
