// The crash test: the real atout-server is killed with SIGKILL in the middle of several matches,
// restarted on the same database, and its players resume with their tokens and finish.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "atout/server/seat_view.hpp"
#include "atout/store/rating.hpp"
#include "child_process.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// The documented bound (docs/operations.md) is far shorter; this only keeps a broken build from
// hanging the test.
constexpr auto kCommitWait = 10s;

std::vector<std::string> server_args(const std::string& db) {
  return {ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--threads", "2", "--db", db};
}

// Waits until the database holds `count` actions of the match (read beside the running server).
bool committed(const std::string& db, const std::string& match_id, std::int64_t count) {
  return eventually([&] { return stored_action_count(db, match_id) == count; }, kCommitWait);
}

// Waits until the database records the match as finished: its end is written after its last
// action, in the same batch or a later one.
bool ended(const std::string& db, const std::string& match_id) {
  return eventually([&] { return end_reason(db, match_id) == "finished"; }, kCommitWait);
}

json get(unsigned short port, const std::string& target) {
  const HttpReply r = http_get(port, target);
  EXPECT_EQ(r.status, 200u) << target << ": " << r.body;
  return json::parse(r.body, nullptr, false);
}

// The ratings a fresh group of players must have after one rated match: every player starts at
// the model's defaults, so the store's own rating function gives the expected values.
void expect_ratings(unsigned short port, const TableRun& t) {
  ASSERT_TRUE(t.result.has_value());
  const int winner = (*t.result)["winner"];
  std::vector<std::vector<store::Rating>> teams(2);
  for (std::size_t s = 0; s < t.seats.size(); ++s) teams[s % 2].push_back(store::Rating{});
  const auto expected = store::rate(teams, {winner == 0 ? 1 : 2, winner == 1 ? 1 : 2});
  for (std::size_t s = 0; s < t.seats.size(); ++s) {
    const json profile = get(port, "/api/players/" + t.seats[s].player_id);
    ASSERT_EQ(profile["ratings"].size(), 1u) << profile;
    const json& r = profile["ratings"][0];
    EXPECT_EQ(r["ladder"], t.variant);
    EXPECT_EQ(r["matches"], 1);
    const store::Rating& want = expected[s % 2][s / 2];
    EXPECT_NEAR(r["mu"].get<double>(), want.mu, 1e-9) << t.variant << " seat " << s;
    EXPECT_NEAR(r["sigma"].get<double>(), want.sigma, 1e-9) << t.variant << " seat " << s;
    EXPECT_NEAR(r["ordinal"].get<double>(), want.ordinal(), 1e-9);
  }
}

// The stored replay of a finished table: its actions are exactly the acknowledged ones, its score
// is the one the players saw, and `atout replay` agrees.
void expect_replay(unsigned short port, const TableRun& t) {
  ASSERT_TRUE(t.result.has_value());
  const json replay = get(port, "/api/matches/" + t.match_id + "/replay");
  EXPECT_EQ(replay["type"], "replay");
  EXPECT_EQ(replay["end_reason"], "finished");
  EXPECT_EQ(replay["match_score"], (*t.result)["match_score"]);
  EXPECT_EQ(replay["winner"], (*t.result)["winner"]);
  ASSERT_EQ(replay["actions"].size(), t.sent.size()) << t.variant;
  for (std::size_t i = 0; i < t.sent.size(); ++i) EXPECT_EQ(replay["actions"][i], t.sent[i]) << t.variant << " " << i;
  const json checked = run_atout_replay(replay);
  ASSERT_FALSE(checked.contains("error")) << checked;
  EXPECT_EQ(checked["complete"], true);
  EXPECT_EQ(checked["match_score"], replay["match_score"]);
  EXPECT_EQ(checked["winner"], replay["winner"]);
}

TEST(PersistLoopback, KilledServerLosesNoAcknowledgedActionAndMatchesFinishAfterRestart) {
  TempDir dir;
  const std::string db = dir.file("data/atout.db");  // the directory is created by the server
  MessageLog log;
  Rng rng(Seed{0xC4A5u, 1});

  auto first = std::make_unique<ChildProcess>(server_args(db));
  const unsigned short port1 = first->wait_for_port(60s);
  ASSERT_NE(port1, 0) << first->output();

  // Three tables played part way (one private), and one played to its end before the crash.
  std::vector<TableRun> tables;
  tables.push_back(open_table(port1, "french", {{"target", 501}}, false, "fr", &log));
  tables.push_back(open_table(port1, "bazar", {{"target", 51}}, true, "bz", &log));
  tables.push_back(open_table(port1, "duel", json::object(), false, "du", &log));
  TableRun done = open_table(port1, "simple", json::object(), false, "si", &log);
  for (const TableRun& t : tables) ASSERT_FALSE(t.table_id.empty());
  ASSERT_FALSE(done.table_id.empty());
  const int part_way[] = {45, 30, 20};  // french passes a hand's end: a revealed seed is stored
  for (std::size_t i = 0; i < tables.size(); ++i)
    for (int n = 0; n < part_way[i] && !tables[i].result; ++n) ASSERT_TRUE(step(tables[i], rng));
  while (!done.result) ASSERT_TRUE(step(done, rng));
  for (const TableRun& t : tables) ASSERT_FALSE(t.result) << t.variant << " ended too soon for this test";

  // Every acknowledged action reaches the database within the writer's bound.
  for (const TableRun& t : tables)
    ASSERT_TRUE(committed(db, t.match_id, static_cast<std::int64_t>(t.sent.size())))
        << t.variant << ": " << stored_action_count(db, t.match_id) << " of " << t.sent.size() << " stored";
  ASSERT_TRUE(committed(db, done.match_id, static_cast<std::int64_t>(done.sent.size())));
  // The finished match's end too, so that recovery has nothing to finish (a crash between a last
  // action and its match's end is persist_recovery_test's case).
  ASSERT_TRUE(ended(db, done.match_id));
  const std::uint64_t french_seq = tables[0].seq;
  const std::vector<json> french_before = tables[0].last;
  // One more action, acknowledged, and the crash right after it: it may or may not be kept.
  ASSERT_TRUE(step(tables[0], rng));
  std::vector<std::vector<json>> seen;  // what each seat saw last before the crash
  for (const TableRun& t : tables) seen.push_back(t.last);
  first->kill9();
  first.reset();

  auto second = std::make_unique<ChildProcess>(server_args(db));
  const unsigned short port2 = second->wait_for_port(60s);
  ASSERT_NE(port2, 0) << second->output();
  EXPECT_NE(second->output().find("recovery: 3 table(s) restored, 0 match(es) found finished, 0 aborted"),
            std::string::npos)
      << second->output();

  for (TableRun& t : tables) ASSERT_TRUE(resume(t, port2, &log)) << t.variant;
  // The last action before the crash came back or is gone; nothing before it is.
  const std::int64_t french_kept = stored_action_count(db, tables[0].match_id);
  ASSERT_TRUE(french_kept == static_cast<std::int64_t>(french_seq) - 1 ||
              french_kept == static_cast<std::int64_t>(french_seq))
      << french_kept << " actions kept, " << french_seq << " was the last seq seen before the last action";
  if (french_kept == static_cast<std::int64_t>(french_seq) - 1) {
    tables[0].sent.pop_back();
    seen[0] = french_before;
  }
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const TableRun& t = tables[i];
    // A rebuilt table numbers its events from the next multiple of 2^32: no seq it sent before the
    // crash is used again.
    EXPECT_EQ(t.seq, SeatView::kSeqsPerRun) << t.variant;
    // Each seat sees exactly what it saw before the crash: its cards, the bids, the trick, the turn.
    for (std::size_t s = 0; s < t.seats.size(); ++s)
      EXPECT_EQ(t.last[s]["observation"], seen[i][s]["observation"]) << t.variant << " seat " << s;
  }
  // A table created now does not take a restored table's id.
  TestClient fresh(port2, &log);
  fresh.hello("fresh");
  const json created = fresh.request({{"type", "create_table"}, {"variant", "duel"}});
  for (const TableRun& t : tables) EXPECT_NE(created["table"]["table_id"], t.table_id);

  for (TableRun& t : tables)
    while (!t.result) ASSERT_TRUE(step(t, rng)) << t.variant;
  for (const TableRun& t : tables) ASSERT_TRUE(committed(db, t.match_id, static_cast<std::int64_t>(t.sent.size())));
  // The end of a match is written after its last action: wait for it before reading.
  for (const TableRun& t : tables) ASSERT_TRUE(ended(db, t.match_id)) << t.variant;

  for (const TableRun& t : tables) {
    expect_replay(port2, t);
    expect_ratings(port2, t);
  }
  // The match that ended before the crash is whole, and rated once.
  expect_replay(port2, done);
  expect_ratings(port2, done);
  EXPECT_TRUE(log.validate());
  second->kill9();
}

// An action acknowledged but not yet committed is lost in a crash. A player who resumes from the
// seq it saw (the lost event's) must not be left on that position: it gets a snapshot of the true
// one, with the true legal actions, and the match plays on from there without reusing the seq.
TEST(PersistLoopback, AResumeFromAnEventTheCrashLostEndsOnTheTruePosition) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  Rng rng(Seed{0x1057u, 3});
  // A long commit window keeps the last action out of the database when the server is killed.
  std::vector<std::string> slow = server_args(db);
  slow.insert(slow.end(), {"--commit-window-ms", "5000"});
  auto first = std::make_unique<ChildProcess>(slow);
  const unsigned short port1 = first->wait_for_port(60s);
  ASSERT_NE(port1, 0) << first->output();
  TableRun t = open_table(port1, "duel", json::object(), false, "lost", &log);
  ASSERT_FALSE(t.table_id.empty());
  for (int n = 0; n < 6; ++n) ASSERT_TRUE(step(t, rng));
  ASSERT_TRUE(committed(db, t.match_id, static_cast<std::int64_t>(t.sent.size())));
  const std::vector<json> before = t.last;  // each seat's true view, which the crash will restore
  const std::uint64_t kept_seq = t.seq;
  ASSERT_TRUE(step(t, rng));  // acknowledged and seen by both seats, but still in the window
  const std::uint64_t lost_seq = t.seq;
  ASSERT_EQ(stored_action_count(db, t.match_id), static_cast<std::int64_t>(t.sent.size()) - 1);
  first->kill9();
  first.reset();
  t.sent.pop_back();

  auto second = std::make_unique<ChildProcess>(server_args(db));
  const unsigned short port2 = second->wait_for_port(60s);
  ASSERT_NE(port2, 0) << second->output();
  ASSERT_EQ(stored_action_count(db, t.match_id), static_cast<std::int64_t>(t.sent.size()));
  // Seat 0 resumes from the lost event, seat 1 from the last kept one: both end on the truth.
  const std::uint64_t from[] = {lost_seq, kept_seq};
  for (std::size_t s = 0; s < t.seats.size(); ++s) {
    SeatPlayer& p = t.seats[s];
    p.client = std::make_unique<TestClient>(port2, &log);
    const json w = p.client->request({{"type", "hello"},
                                      {"protocol", 1},
                                      {"token", p.token},
                                      {"resume", json::array({{{"table_id", t.table_id}, {"last_seq", from[s]}}})}});
    ASSERT_EQ(w["type"], "welcome") << w;
    ASSERT_EQ(w["seats"].size(), 1u) << w;
    const json seated = p.client->wait_for("seated");
    EXPECT_EQ(seated["resumed"], true) << seated;
    const json e = p.client->wait_for("event");
    EXPECT_EQ(e["kind"], "snapshot") << "seat " << s << ": " << e;
    EXPECT_EQ(e["seq"], SeatView::kSeqsPerRun) << e;
    EXPECT_EQ(e["observation"], before[s]["observation"]) << "seat " << s;
    EXPECT_TRUE(p.client->no_events()) << "seat " << s << " got more than the snapshot";
    t.last[s] = e;
  }
  t.seq = SeatView::kSeqsPerRun;
  // The lost action's turn is played again, under a new seq, and the match goes on to its end.
  while (!t.result) ASSERT_TRUE(step(t, rng));
  EXPECT_GT(t.seq, lost_seq);
  ASSERT_TRUE(ended(db, t.match_id));
  expect_replay(port2, t);
  EXPECT_TRUE(log.validate());
  second->kill9();
}

// Table ids are never given twice, whatever happened to their tables: ids of tables that were
// never played (so never stored), then lost in a crash, are not given to new tables.
TEST(PersistLoopback, TableIdsAreNeverReusedAfterARestart) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  MessageLog log;
  std::set<std::string> ids;
  for (int life = 0; life < 3; ++life) {
    auto server = std::make_unique<ChildProcess>(server_args(db));
    const unsigned short port = server->wait_for_port(60s);
    ASSERT_NE(port, 0) << server->output();
    TestClient c(port, &log);
    c.hello("maker");
    for (int i = 0; i < 3; ++i) {
      const json created = c.request({{"type", "create_table"}, {"variant", "french"}});
      ASSERT_EQ(created["type"], "table_created") << created;
      const std::string id = created["table"]["table_id"];
      EXPECT_TRUE(ids.insert(id).second) << id << " was given twice (life " << life << ")";
    }
    // A spectator of an old table is told it is gone, never shown another table under its id.
    if (life > 0) {
      const json watch = c.request({{"type", "spectate"}, {"table_id", "t1"}});
      EXPECT_EQ(watch["type"], "error") << watch;
      EXPECT_EQ(watch["code"], "unknown_table") << watch;
    }
    server->kill9();
  }
  EXPECT_EQ(ids.size(), 9u);
}

}  // namespace
}  // namespace atout::server::testing
