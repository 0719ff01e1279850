// Taking a match over for a new run of its table (Store::take_over), as a cluster node does when
// it adopts a table another node ran: where the new run's seqs start, on both backends; and on
// PostgreSQL, shared by the nodes, that the node which ran the table before can add nothing more
// to the match, and that a take-over waits for a write already under way.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "atout/store/store.hpp"
#include "test_db.hpp"

namespace atout::store {
namespace {

using test::Backend;
using test::TestDb;

constexpr std::int64_t kRun = kSeqsPerRun;

std::unique_ptr<Store> open_store(const TestDb& db) {
  std::string error;
  auto s = Store::open(db.url(), {}, error);
  EXPECT_TRUE(s) << error;
  return s;
}

// Players p_a and p_b, and their duel `uid` with its first hand and `actions` actions (seqs 1..n).
void start_duel(Store& s, const std::string& uid, int actions) {
  s.add_player("p_a", "A", std::string(32, 'a'), 1);
  s.add_player("p_b", "B", std::string(32, 'b'), 1);
  s.begin_match(test::duel_match(uid));
  s.begin_hand(uid, HandRow{0, 0, "c0", "00ff", false, 1, std::nullopt, ""});
  for (int i = 1; i <= actions; ++i) s.add_action(uid, i, i % 2, R"({"type":"pass"})", 100 + i);
  s.flush();
}

using TakeOver = test::OnEachBackend;

TEST_P(TakeOver, EachTakeOverStartsANewRunPastTheLogAndPastTheTakeOversBefore) {
  auto s = open_store(*db_);
  ASSERT_TRUE(s);
  start_duel(*s, "m1", 3);

  auto first = s->take_over("m1");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->start_seq, 1 * kRun);
  EXPECT_EQ(first->match.actions.size(), 3u);
  EXPECT_EQ(first->match.hands.at(0).seed, "00ff");  // read with its secrets, to rebuild the deal

  // The first taker wrote nothing: a second take-over still starts a run of its own, so that the
  // two never name the same seq.
  auto second = s->take_over("m1");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->start_seq, 2 * kRun);

  s->add_action("m1", 2 * kRun + 1, 0, R"({"type":"take"})", 200);
  s->flush();
  EXPECT_EQ(s->writer_stats().errors, 0u);
  auto third = s->take_over("m1");
  ASSERT_TRUE(third);
  EXPECT_EQ(third->start_seq, 3 * kRun);
  ASSERT_EQ(third->match.actions.size(), 4u);
  EXPECT_EQ(third->match.actions.back().seq, 2 * kRun + 1);
}

TEST_P(TakeOver, ARunInTheLogThatNoTakeOverStartedIsPassedToo) {
  auto s = open_store(*db_);
  ASSERT_TRUE(s);
  start_duel(*s, "m1", 2);
  // A server restarted on its own goes on in a new run without taking anything over.
  s->add_action("m1", 5 * kRun + 1, 0, R"({"type":"take"})", 300);
  s->flush();
  auto t = s->take_over("m1");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->start_seq, 6 * kRun);
}

TEST_P(TakeOver, AnEndedOrUnknownMatchIsNotTakenOver) {
  auto s = open_store(*db_);
  ASSERT_TRUE(s);
  start_duel(*s, "m1", 2);
  s->end_match("m1", 500, 1000, 0, 0, "finished");
  s->flush();
  EXPECT_FALSE(s->take_over("m1"));
  EXPECT_FALSE(s->take_over("m_nobody"));
}

TEST_P(TakeOver, TheUnfinishedMatchesAreListedByTheirIdsOldestFirst) {
  auto s = open_store(*db_);
  ASSERT_TRUE(s);
  start_duel(*s, "m1", 1);
  s->begin_match(test::duel_match("m2"));
  s->begin_match(test::duel_match("m3"));
  s->end_match("m2", 500, 1000, 0, 0, "finished");
  s->flush();
  const std::vector<MatchRef> refs = s->unfinished_refs();
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].uid, "m1");
  EXPECT_EQ(refs[0].table_id, test::duel_match("m1").table_id);
  EXPECT_EQ(refs[1].uid, "m3");
}

INSTANTIATE_TEST_SUITE_P(Backends, TakeOver, ::testing::Values(Backend::sqlite, Backend::postgres), test::backend_name);

// Two stores on one PostgreSQL database: two nodes of a cluster.
class PostgresTakeOver : public ::testing::Test {
 protected:
  void SetUp() override {
    ATOUT_NEEDS_POSTGRES();
    db_ = std::make_unique<TestDb>(Backend::postgres);
  }
  std::unique_ptr<TestDb> db_;
};

TEST_F(PostgresTakeOver, TheNodeThatLostAMatchCanWriteNothingMoreToIt) {
  auto old_node = open_store(*db_);
  auto new_node = open_store(*db_);
  ASSERT_TRUE(old_node && new_node);
  std::vector<std::string> refused;
  old_node->on_write_error([&](const std::string& e) { refused.push_back(e); });
  start_duel(*old_node, "m1", 2);
  old_node->add_player("p_c", "C", std::string(32, 'c'), 1);
  old_node->flush();

  auto taken = new_node->take_over("m1");
  ASSERT_TRUE(taken);
  ASSERT_EQ(taken->start_seq, kRun);

  // What the old node's table still had on its way: an action alone in its batch, then another
  // among the hand's end, a new hand, a seat change and the match's end.
  old_node->add_action("m1", 3, 1, R"({"type":"take"})", 103);
  old_node->flush();
  old_node->add_action("m1", 4, 0, R"({"type":"pass"})", 104);
  old_node->end_hand("m1", 0, 4, R"({"outcome":"made"})");
  old_node->begin_hand("m1", HandRow{1, 1, "c1", "11ee", false, 5, std::nullopt, ""});
  old_node->change_seat("m1", 1, "p_c");
  old_node->end_match("m1", 900, 1001, 0, 0, "finished");
  old_node->flush();
  EXPECT_EQ(old_node->writer_stats().errors, 6u);
  ASSERT_EQ(refused.size(), 6u);
  for (const std::string& e : refused) EXPECT_NE(e.find("was taken over"), std::string::npos) << e;

  // The new node's run writes on; the match is as the take-over read it, plus that.
  new_node->add_action("m1", kRun + 1, 1, R"({"type":"take"})", 203);
  new_node->flush();
  EXPECT_EQ(new_node->writer_stats().errors, 0u);
  const auto m = new_node->match("m1", true);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->ended_at);
  ASSERT_EQ(m->actions.size(), 3u);
  EXPECT_EQ(m->actions[1].seq, 2);
  EXPECT_EQ(m->actions[2].seq, kRun + 1);
  ASSERT_EQ(m->hands.size(), 1u);
  EXPECT_FALSE(m->hands[0].last_seq);
  EXPECT_EQ(m->start.seats.at(1).player, "p_b");
  EXPECT_TRUE(new_node->ratings_of("p_a").empty());

  // And the new node may end it.
  new_node->end_match("m1", 950, 0, 1001, 1, "finished");
  new_node->flush();
  EXPECT_EQ(new_node->writer_stats().errors, 0u);
  EXPECT_EQ(new_node->match("m1", false)->winner, 1);
}

TEST_F(PostgresTakeOver, ATakeOverWaitsForAWriteUnderWayAndReadsIt) {
  auto old_node = open_store(*db_);
  auto new_node = open_store(*db_);
  ASSERT_TRUE(old_node && new_node);
  start_duel(*old_node, "m1", 2);

  // A write of the old node's under way, not yet committed: a plain insert, whose foreign key
  // holds a key-share lock on the match's row, as every write of the writer does.
  pqxx::connection c(db_->url());
  pqxx::work w(c);
  const auto id = w.exec1("SELECT id FROM matches WHERE uid = 'm1'")[0].as<std::int64_t>();
  w.exec_params("INSERT INTO match_actions (match_id, seq, seat, action, at) VALUES ($1, 3, 1, $2, 103)", id,
                std::string(R"({"type":"take"})"));

  auto taking = std::async(std::launch::async, [&] { return new_node->take_over("m1"); });
  // The take-over waits on the row's lock: PostgreSQL shows it waiting.
  pqxx::connection watch(db_->url());
  bool waiting = false;
  for (int i = 0; i < 1000 && !waiting; ++i) {
    pqxx::nontransaction n(watch);
    waiting = n.exec1(
                   "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE "
                   "'SELECT id, run FROM matches WHERE uid%FOR UPDATE'")[0]
                  .as<int>() >= 1;
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(waiting);
  EXPECT_EQ(taking.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
  w.commit();

  const auto taken = taking.get();
  ASSERT_TRUE(taken);
  ASSERT_EQ(taken->match.actions.size(), 3u);
  EXPECT_EQ(taken->match.actions.back().seq, 3);
  EXPECT_EQ(taken->start_seq, kRun);
}

}  // namespace
}  // namespace atout::store
