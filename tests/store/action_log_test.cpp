// The SQLite store's append-ordered action log: live actions are appended in the order they are
// accepted; passes (every so many rows appended) copy the rows older than the newest few into
// match_actions and drop them from the log; and every read sees a match's actions whole, wherever
// they are: before, during and after a pass, and across the upgrade from the layout without a log.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atout/store/migrations.hpp"
#include "atout/store/sqlite_store.hpp"
#include "test_db.hpp"

namespace atout::store {
namespace {

using test::Backend;
using test::TestDb;

std::string action_of(const std::string& uid, std::int64_t seq) {
  return R"({"type":"play","m":")" + uid + R"(","n":)" + std::to_string(seq) + "}";
}

std::unique_ptr<Store> open_store(const TestDb& db, std::vector<std::string>* errors = nullptr,
                                  const OpenOptions& options = {}) {
  std::string error;
  auto s = Store::open(db.url(), options, error);
  EXPECT_TRUE(s) << error;
  if (s && errors) s->on_write_error([errors](const std::string& e) { errors->push_back(e); });
  if (s) {
    s->add_player("p_a", "A", std::string(32, 'a'), 1);
    s->add_player("p_b", "B", std::string(32, 'b'), 1);
  }
  return s;
}

// Checks that `uid` reads back with exactly seqs 0..count-1 and their actions.
void expect_whole(Store& s, const std::string& uid, std::int64_t count) {
  const auto m = s.match(uid, true);
  ASSERT_TRUE(m) << uid;
  ASSERT_EQ(static_cast<std::int64_t>(m->actions.size()), count) << uid;
  for (std::int64_t q = 0; q < count; ++q) {
    const ActionRow& a = m->actions[static_cast<std::size_t>(q)];
    EXPECT_EQ(a.seq, q) << uid;
    EXPECT_EQ(a.seat, static_cast<int>(q % 2)) << uid;
    EXPECT_EQ(a.action_json, action_of(uid, q)) << uid;
  }
}

void play(Store& s, const std::string& uid, std::int64_t from, std::int64_t to) {
  for (std::int64_t q = from; q < to; ++q) s.add_action(uid, q, static_cast<int>(q % 2), action_of(uid, q), q);
}

std::int64_t count_of(const TestDb& db, const std::string& sql) { return std::stoll(db.query(sql)); }

// A pass after every `pass` rows appended, keeping the newest `keep` rows in the log.
OpenOptions window(std::int64_t pass, std::int64_t keep) {
  OpenOptions o;
  o.log_pass_rows = pass;
  o.log_keep_rows = keep;
  return o;
}

TEST(ActionLog, ActionsAreAppendedInOrderAndAPassCopiesAllButTheNewestRowsOut) {
  TestDb db(Backend::sqlite);
  auto s = open_store(db, nullptr, window(40, 30));
  ASSERT_TRUE(s);
  auto& sqlite = dynamic_cast<SqliteStore&>(*s);
  // Interleaved, as many tables write them: each batch appends to the log's end.
  for (const char* uid : {"a", "b", "c"}) s->begin_match(test::duel_match(uid));
  for (std::int64_t round = 0; round < 13; ++round)
    for (const char* uid : {"a", "b", "c"}) play(*s, uid, round, round + 1);
  s->flush();
  EXPECT_EQ(sqlite.log_passes(), 0u);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 39);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 0);
  // The log's ids follow the order of acceptance.
  EXPECT_EQ(db.query("SELECT action FROM action_log ORDER BY id LIMIT 1 OFFSET 4"), action_of("b", 1));
  s->end_match("a", 100, 1, 0, 0, "finished");
  s->flush();
  expect_whole(*s, "a", 13);  // read from the log alone
  EXPECT_EQ(s->match_over("a"), true);

  // The 40th row starts a pass: rows 1 to 10 (the oldest, below the newest 30) move out, "a"'s
  // and the live matches' alike.
  play(*s, "b", 13, 14);
  s->flush();
  EXPECT_EQ(sqlite.log_passes(), 1u);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 10);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 30);
  EXPECT_EQ(count_of(db, "SELECT MIN(id) FROM action_log"), 11);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM matches WHERE log_from = 11"), 3);
  expect_whole(*s, "a", 13);
  expect_whole(*s, "b", 14);
  expect_whole(*s, "c", 13);
  auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0].actions.size(), 14u);
  EXPECT_EQ(unfinished[1].actions.size(), 13u);

  // Once the window passes "a"'s last row, "a" leaves the log for good.
  for (std::int64_t round = 14; round < 54; ++round) play(*s, "b", round, round + 1);
  s->flush();
  EXPECT_EQ(sqlite.log_passes(), 2u);
  EXPECT_EQ(db.query("SELECT log_from IS NULL FROM matches WHERE uid = 'a'"), "1");
  EXPECT_EQ(count_of(db,
                     "SELECT COUNT(*) FROM match_actions a JOIN matches m ON m.id = a.match_id "
                     "WHERE m.uid = 'a'"),
            13);
  expect_whole(*s, "a", 13);
  expect_whole(*s, "b", 54);
  expect_whole(*s, "c", 13);
  unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0].actions.size(), 54u);
  EXPECT_EQ(s->match_over("b"), false);
  EXPECT_EQ(s->match_over("nobody"), std::nullopt);
}

TEST(ActionLog, ManyMatchesThroughManyPassesReadWholeAtEveryStep) {
  TestDb db(Backend::sqlite);
  auto s = open_store(db, nullptr, window(7, 11));
  ASSERT_TRUE(s);
  // A slow match plays now and then while match after match begins, plays and ends.
  s->begin_match(test::duel_match("slow"));
  std::int64_t slow = 0;
  for (int k = 0; k < 30; ++k) {
    const std::string uid = "q" + std::to_string(k);
    s->begin_match(test::duel_match(uid));
    play(*s, uid, 0, 1 + k % 9);
    if (k % 3 == 0) s->end_match(uid, 100 + k, 1, 0, 0, "finished");
    play(*s, "slow", slow, slow + 2);
    slow += 2;
    s->flush();
    for (int j = 0; j <= k; ++j) expect_whole(*s, "q" + std::to_string(j), 1 + j % 9);
    expect_whole(*s, "slow", slow);
    EXPECT_LE(count_of(db, "SELECT COUNT(*) FROM action_log"), 11 + 7);
  }
  const auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 21u);  // "slow" and the 20 not ended
  EXPECT_EQ(unfinished[0].start.uid, "slow");
  EXPECT_EQ(static_cast<std::int64_t>(unfinished[0].actions.size()), slow);
  for (const MatchRow& m : unfinished)
    for (std::size_t i = 0; i < m.actions.size(); ++i) EXPECT_EQ(m.actions[i].seq, static_cast<std::int64_t>(i));
}

TEST(ActionLog, AnUnfinishedMatchFromBeforeTheLogKeepsItsOldActionsAndAppendsTheRest) {
  TestDb db(Backend::sqlite);
  {
    // The layout before the log: actions keyed by (match, seq) in match_actions.
    OpenOptions old;
    old.migrate_to = 6;
    Opened o = open_database(db.url(), old);
    ASSERT_FALSE(o.error) << *o.error;
    ASSERT_EQ(o.version_after, 6);
    std::string sql =
        "INSERT INTO players (public_id, name, token_hash, created_at, last_seen) VALUES "
        "('p_a', 'A', randomblob(32), 1, 1), ('p_b', 'B', randomblob(32), 1, 1);"
        "INSERT INTO matches (uid, table_id, variant, options, first_dealer, started_at) VALUES "
        "('old_live', 't1', 'duel', '{}', 0, 1), ('old_done', 't2', 'duel', '{}', 0, 1);"
        "UPDATE matches SET ended_at = 5, end_reason = 'finished' WHERE uid = 'old_done';";
    for (const char* uid : {"old_live", "old_done"})
      for (int q = 0; q < 4; ++q)
        sql += "INSERT INTO match_actions (match_id, seq, seat, action, at) SELECT id, " + std::to_string(q) + ", " +
               std::to_string(q % 2) + ", '" + action_of(uid, q) + "', 2 FROM matches WHERE uid = '" + uid + "';";
    ASSERT_FALSE(o.db.exec(sql));
  }
  std::vector<std::string> errors;
  std::string error;
  auto s = Store::open(db.url(), window(2, 1), error);
  ASSERT_TRUE(s) << error;
  s->on_write_error([&](const std::string& e) { errors.push_back(e); });
  EXPECT_EQ(s->schema_version(), latest_version());
  EXPECT_EQ(db.query("SELECT log_from FROM matches WHERE uid = 'old_live'"), "1");
  EXPECT_EQ(db.query("SELECT log_from IS NULL FROM matches WHERE uid = 'old_done'"), "1");
  for (std::int64_t q = 4; q < 9; ++q) {
    play(*s, "old_live", q, q + 1);
    s->flush();
    expect_whole(*s, "old_live", q + 1);
  }
  // Two passes copied seqs 4, then 5 and 6, beside the four stored before the upgrade.
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 2);
  expect_whole(*s, "old_done", 4);
  const auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].actions.size(), 9u);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 11);
}

TEST(ActionLog, ASeqWrittenTwiceIsRefusedAtOnceAndOneFoundByAPassKeepsItsFirstWrite) {
  TestDb db(Backend::sqlite);
  std::vector<std::string> errors;
  auto s = open_store(db, &errors, window(1000, 0));  // passes only when the test asks
  ASSERT_TRUE(s);
  auto& sqlite = dynamic_cast<SqliteStore&>(*s);
  s->begin_match(test::duel_match("m"));
  play(*s, "m", 0, 3);
  s->add_action("m", 1, 1, R"({"type":"again"})", 9);  // not after seq 2: refused, nothing written
  s->flush();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("refused"), std::string::npos) << errors[0];
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 3);
  sqlite.compact_log();
  s->flush();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);

  // A second write that the writer could not see (say, from a process before a restart), put in
  // the log by hand: reads and the pass keep the first write and say so.
  ASSERT_FALSE(
      db.exec("INSERT INTO action_log (match_id, seq, seat, action, at) SELECT id, 1, 0, '{\"type\":\"later\"}', 9 "
              "FROM matches WHERE uid = 'm'"));
  expect_whole(*s, "m", 3);
  s->end_match("m", 10, 1, 0, 0, "finished");
  sqlite.compact_log();
  s->flush();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[1].find("first write of each was kept"), std::string::npos) << errors[1];
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(db.query("SELECT action FROM match_actions WHERE seq = 1"), action_of("m", 1));
}

TEST(ActionLog, APassThatFailsLeavesEveryRowWhereItWasForTheNextOne) {
  TestDb db(Backend::sqlite);
  std::vector<std::string> errors;
  auto s = open_store(db, &errors, window(1000, 0));  // passes only when the test asks
  ASSERT_TRUE(s);
  s->begin_match(test::duel_match("m"));
  play(*s, "m", 0, 6);
  s->flush();
  // A trigger makes the fourth move fail half-way through the pass.
  ASSERT_FALSE(
      db.exec("CREATE TRIGGER refuse_third AFTER INSERT ON match_actions WHEN NEW.seq = 3 "
              "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
  s->end_match("m", 10, 1, 0, 0, "finished");
  dynamic_cast<SqliteStore&>(*s).compact_log();
  s->flush();
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find("refused by the test"), std::string::npos) << errors.back();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 6);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 0);
  expect_whole(*s, "m", 6);

  ASSERT_FALSE(db.exec("DROP TRIGGER refuse_third"));
  dynamic_cast<SqliteStore&>(*s).compact_log();
  s->flush();
  expect_whole(*s, "m", 6);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 6);
}

}  // namespace
}  // namespace atout::store
