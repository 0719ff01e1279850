// Recovery at start-up, in process: a graceful restart, a log that no longer replays (aborted, and
// the server still serves), and a match whose end the crash kept from the store (finished, rated).
#include <gtest/gtest.h>

#include <thread>

#include "atout/server/recovery.hpp"
#include "atout/server/seat_view.hpp"
#include "atout/store/rating.hpp"
#include "atout/store/sqlite.hpp"
#include "atout/store/store.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

void exec(const std::string& db, const std::string& sql) {
  store::Db d;
  ASSERT_FALSE(store::Db::open(db, false, false, d));
  ASSERT_FALSE(d.exec(sql)) << sql;
}

TEST(PersistRecoveryLoopback, GracefulRestartResumesEveryTableWhereItWas) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  Rng rng(Seed{0x5E5u, 3});
  TableRun t;
  {
    LiveServer first(2, db);
    t = open_table(first.port(), "coinche", json::object(), false, "co", &log);
    ASSERT_FALSE(t.table_id.empty());
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(step(t, rng));
  }  // stopping flushes the writer: nothing is lost on a clean stop
  const std::vector<json> before = t.last;
  LiveServer second(2, db);
  ASSERT_TRUE(resume(t, second.port(), &log));
  // Event 13 was the last; the rebuilt table numbers its events from the next run's (2^32).
  EXPECT_EQ(t.seq, SeatView::kSeqsPerRun);
  for (std::size_t s = 0; s < t.seats.size(); ++s) EXPECT_EQ(t.last[s]["observation"], before[s]["observation"]);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(step(t, rng));
  EXPECT_TRUE(log.validate());
}

// Plays six actions at each of two duel tables on a server over `db`, then stops it. The test then
// damages the first table's stored log; the second must come back untouched.
void play_two_tables(const std::string& db, std::uint64_t seed, MessageLog& log, TableRun& damaged, TableRun& sound) {
  Rng rng(Seed{seed, 4});
  LiveServer first(2, db);
  damaged = open_table(first.port(), "duel", json::object(), false, "br", &log);
  sound = open_table(first.port(), "duel", json::object(), false, "so", &log);
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(step(damaged, rng));
    ASSERT_TRUE(step(sound, rng));
  }
}

TEST(PersistRecoveryLoopback, ALogThatDoesNotReplayIsAbortedAndTheServerServesOn) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  TableRun broken, sound;
  ASSERT_NO_FATAL_FAILURE(play_two_tables(db, 0xBADu, log, broken, sound));
  // An action the engine must refuse, where the sixth action was (a live match's actions are in the
  // append-ordered log).
  exec(db,
       "UPDATE action_log SET action = '{\"type\":\"play\",\"card\":\"AS\"}', seat = 1 - seat "
       "WHERE seq = 5 AND match_id = (SELECT id FROM matches WHERE uid = '" +
           broken.match_id + "')");
  LiveServer second(2, db);
  // Recovery queues the mark; the writer commits it a moment later.
  eventually([&] { return end_reason(db, broken.match_id) == "aborted"; }, 5s);
  EXPECT_EQ(end_reason(db, broken.match_id), "aborted");
  EXPECT_EQ(end_reason(db, sound.match_id), "");
  // Its players are still known; its table is gone; the other table resumes.
  TestClient c(second.port(), &log);
  const json w = c.request({{"type", "hello"}, {"protocol", 1}, {"token", broken.seats[0].token}});
  EXPECT_EQ(w["player_id"], broken.seats[0].player_id);
  const json sit = c.request({{"type", "sit"}, {"table_id", broken.table_id}, {"seat", 0}});
  EXPECT_EQ(sit["type"], "error");
  EXPECT_EQ(sit["code"], "unknown_table");
  const json history = c.request({{"type", "get_history"}, {"player_id", broken.seats[0].player_id}});
  ASSERT_EQ(history["matches"].size(), 1u);
  EXPECT_EQ(history["matches"][0]["end_reason"], "aborted");
  EXPECT_TRUE(history["matches"][0]["winner"].is_null());
  ASSERT_TRUE(resume(sound, second.port(), &log));
  EXPECT_EQ(sound.seq, SeatView::kSeqsPerRun);
  EXPECT_EQ(http_get(second.port(), "/healthz").status, 200u);
  EXPECT_TRUE(log.validate());
}

TEST(PersistRecoveryLoopback, AGapInTheActionLogAbortsThatMatchAloneWithItsReason) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  TableRun torn, sound;
  ASSERT_NO_FATAL_FAILURE(play_two_tables(db, 0x6A9u, log, torn, sound));
  // One row gone from the middle of the match's rows in the append-ordered log.
  exec(db, "DELETE FROM action_log WHERE seq = 3 AND match_id = (SELECT id FROM matches WHERE uid = '" + torn.match_id +
               "')");
  {
    // What recovery reads: the torn match's log is refused for its gap, the other replays.
    std::string error;
    auto store = store::Store::open(db, {}, error);
    ASSERT_TRUE(store) << error;
    const auto unfinished = store->unfinished_matches();
    ASSERT_EQ(unfinished.size(), 2u);
    for (const store::MatchRow& m : unfinished) {
      const Rebuilt r = rebuild(m);
      if (m.start.uid == torn.match_id) {
        EXPECT_EQ(r.fault, StoredMatchFault::seq_out_of_order) << r.error;
      } else {
        EXPECT_TRUE(r.init) << r.error;
      }
    }
  }
  LiveServer second(2, db);
  eventually([&] { return end_reason(db, torn.match_id) == "aborted"; }, 5s);
  EXPECT_EQ(end_reason(db, torn.match_id), "aborted");
  EXPECT_EQ(end_reason(db, sound.match_id), "");
  ASSERT_TRUE(resume(sound, second.port(), &log));
  EXPECT_EQ(sound.seq, SeatView::kSeqsPerRun);
  EXPECT_TRUE(log.validate());
}

// In a cluster, recovery takes each match it may claim over in the store before rebuilding it:
// the match's fence rises (so the node that ran it can write nothing more to it), and a match
// another node took over before is numbered past that node's run. Tables it may not claim, or
// outside `only`, are left alone.
TEST(PersistRecoveryLoopback, ClaimedMatchesAreTakenOverInTheStoreAndOthersLeftAlone) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  TableRun a, b;
  ASSERT_NO_FATAL_FAILURE(play_two_tables(db, 0x7C1u, log, a, b));
  std::string error;
  auto store = store::Store::open(db, {}, error);
  ASSERT_TRUE(store) << error;
  // Another node took `a` over before, and wrote nothing.
  ASSERT_TRUE(store->take_over(a.match_id));
  auto run_of = [&](const TableRun& t) {
    return db_text(db, "SELECT run FROM matches WHERE uid = '" + t.match_id + "'");
  };
  ASSERT_EQ(run_of(a), "1");

  net::io_context ioc;
  auto lobby = std::make_shared<Lobby>(ioc.get_executor());
  std::vector<std::string> claimed;
  RecoveryClaims claims;
  claims.claim = [&](const std::string& t) {
    claimed.push_back(t);
    return t == a.table_id;  // `b` is another live node's
  };
  claims.release = [](const std::string&) {};
  const RecoveryReport r = recover(*store, *lobby, claims);
  EXPECT_EQ(r.restored, 1);
  EXPECT_EQ(claimed.size(), 2u);
  EXPECT_EQ(run_of(a), "2");
  EXPECT_EQ(run_of(b), "0");

  claims.only = std::set<std::string>{b.table_id};
  claims.claim = [&](const std::string&) { return true; };
  const RecoveryReport only_b = recover(*store, *lobby, claims);
  EXPECT_EQ(only_b.restored, 1);
  EXPECT_EQ(run_of(a), "2");
  EXPECT_EQ(run_of(b), "1");
}

TEST(PersistRecoveryLoopback, AMatchWhoseEndWasNotStoredIsFinishedAndRatedOnce) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  Rng rng(Seed{0xE4Du, 5});
  TableRun t;
  {
    LiveServer first(2, db);
    t = open_table(first.port(), "simple", json::object(), false, "en", &log);
    while (!t.result) ASSERT_TRUE(step(t, rng));
  }
  // As if the crash came after the last action was committed and before the end was: no end, no
  // ratings, and the last hand's result not kept either.
  exec(db,
       "UPDATE matches SET ended_at = NULL, score0 = NULL, score1 = NULL, winner = NULL, end_reason = NULL; "
       "DELETE FROM ratings; UPDATE hands SET result = NULL, revealed = 0, last_seq = NULL "
       "WHERE number = (SELECT MAX(number) FROM hands)");
  LiveServer second(2, db);
  eventually([&] { return end_reason(db, t.match_id) == "finished"; }, 5s);
  ASSERT_EQ(end_reason(db, t.match_id), "finished");
  TestClient c(second.port(), &log);
  c.hello("reader");
  const json replay = c.request({{"type", "get_replay"}, {"match_id", t.match_id}});
  EXPECT_EQ(replay["match_score"], (*t.result)["match_score"]);
  EXPECT_EQ(replay["winner"], (*t.result)["winner"]);
  EXPECT_EQ(db_text(db, "SELECT COUNT(*) FROM hands WHERE revealed = 0"), "0");
  const int winner = (*t.result)["winner"];
  const auto expected = store::rate({{store::Rating{}}, {store::Rating{}}}, {winner == 0 ? 1 : 2, winner == 1 ? 1 : 2});
  for (std::size_t s = 0; s < 2; ++s) {
    const json p = c.request({{"type", "get_profile"}, {"player_id", t.seats[s].player_id}});
    ASSERT_EQ(p["ratings"].size(), 1u) << p;
    EXPECT_EQ(p["ratings"][0]["matches"], 1);
    EXPECT_NEAR(p["ratings"][0]["mu"].get<double>(), expected[s][0].mu, 1e-9);
  }
  EXPECT_TRUE(log.validate());
}

}  // namespace
}  // namespace atout::server::testing
