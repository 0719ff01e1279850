// The SQLite store's append-ordered action log: live actions are appended in the order they are
// accepted, ended matches move into match_actions in gathered passes (every kMovePassEvery ended
// matches, and when the store opens and closes), and every read sees a match's actions whole,
// wherever they are: before, during and after a pass, and across the upgrade from the layout
// without a log.
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

MatchStart match_of(const std::string& uid) {
  MatchStart m;
  m.uid = uid;
  m.table_id = "t_" + uid;
  m.variant = "duel";
  m.options_json = "{}";
  m.started_at = 1;
  m.seats = {{0, 0, "p_a", ""}, {1, 1, "p_b", ""}};
  return m;
}

std::unique_ptr<Store> open_store(const TestDb& db, std::vector<std::string>* errors = nullptr) {
  std::string error;
  auto s = Store::open(db.url(), {}, error);
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

TEST(ActionLog, LiveActionsAreAppendedToTheLogAndEndedMatchesMoveOutInOnePass) {
  TestDb db(Backend::sqlite);
  auto s = open_store(db);
  ASSERT_TRUE(s);
  // Interleaved, as a thousand tables write them: each batch appends to the log's end.
  const int matches = SqliteStore::kMovePassEvery + 2;
  for (int m = 0; m < matches; ++m) s->begin_match(match_of("m" + std::to_string(m)));
  for (std::int64_t round = 0; round < 5; ++round)
    for (int m = 0; m < matches; ++m) play(*s, "m" + std::to_string(m), round * 2, round * 2 + 2);
  s->flush();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), matches * 10);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 0);
  // The log's ids follow the order of acceptance.
  EXPECT_EQ(db.query("SELECT action FROM action_log ORDER BY id LIMIT 1 OFFSET 2"), action_of("m1", 0));

  // One match short of a pass: the ended matches stay in the log and read whole from it.
  for (int m = 0; m + 1 < SqliteStore::kMovePassEvery; ++m)
    s->end_match("m" + std::to_string(m), 100, 1, 0, 0, "finished");
  s->flush();
  auto* sqlite = dynamic_cast<SqliteStore*>(s.get());
  ASSERT_NE(sqlite, nullptr);
  const std::uint64_t passes = sqlite->move_passes();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 0);
  expect_whole(*s, "m0", 10);
  EXPECT_EQ(s->match_over("m0"), true);

  // The kMovePassEvery-th end moves every ended match at once and leaves the live ones.
  s->end_match("m" + std::to_string(SqliteStore::kMovePassEvery - 1), 100, 1, 0, 0, "finished");
  s->flush();
  EXPECT_EQ(sqlite->move_passes(), passes + 1);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), SqliteStore::kMovePassEvery * 10);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 2 * 10);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM matches WHERE log_from IS NOT NULL"), 2);
  for (int m = 0; m < matches; ++m) expect_whole(*s, "m" + std::to_string(m), 10);

  // The live matches go on appending, and recovery reads them whole in one pass over the log.
  play(*s, "m" + std::to_string(matches - 1), 10, 13);
  s->flush();
  const auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0].actions.size(), 10u);
  EXPECT_EQ(unfinished[1].actions.size(), 13u);
  EXPECT_EQ(s->match_over("m" + std::to_string(matches - 1)), false);
  EXPECT_EQ(s->match_over("nobody"), std::nullopt);
}

TEST(ActionLog, ClosingAndOpeningTheStoreMoveWhatEndedSinceTheLastPass) {
  TestDb db(Backend::sqlite);
  {
    auto s = open_store(db);
    ASSERT_TRUE(s);
    for (const char* uid : {"a", "b", "c"}) {
      s->begin_match(match_of(uid));
      play(*s, uid, 0, 7);
    }
    s->end_match("a", 100, 1, 0, 0, "finished");
    s->end_match("b", 100, 0, 1, 1, "abandoned");
  }
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 14);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 7);

  // As after a crash: an ended match whose actions are still in the log (its end was committed,
  // the pass never ran). Opening the store moves it before anything reads it.
  ASSERT_FALSE(db.exec("UPDATE matches SET ended_at = 200, end_reason = 'finished' WHERE uid = 'c'"));
  auto s = open_store(db);
  ASSERT_TRUE(s);
  s->flush();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM matches WHERE log_from IS NOT NULL"), 0);
  for (const char* uid : {"a", "b", "c"}) expect_whole(*s, uid, 7);
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
  auto s = Store::open(db.url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->on_write_error([&](const std::string& e) { errors.push_back(e); });
  EXPECT_EQ(s->schema_version(), latest_version());
  play(*s, "old_live", 4, 9);
  s->flush();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 5);
  expect_whole(*s, "old_live", 9);
  expect_whole(*s, "old_done", 4);
  const auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].actions.size(), 9u);
  s->end_match("old_live", 10, 1, 0, 0, "finished");
  s.reset();  // closing moves it
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 13);
}

TEST(ActionLog, ASeqWrittenTwiceIsRefusedAtOnceAndOneFoundByAPassKeepsItsFirstWrite) {
  TestDb db(Backend::sqlite);
  std::vector<std::string> errors;
  auto s = open_store(db, &errors);
  ASSERT_TRUE(s);
  s->begin_match(match_of("m"));
  play(*s, "m", 0, 3);
  s->add_action("m", 1, 1, R"({"type":"again"})", 9);  // not after seq 2: refused, nothing written
  s->flush();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("refused"), std::string::npos) << errors[0];
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 3);

  // A second write that the writer could not see (say, from a process before a restart), put in
  // the log by hand: reads and the pass keep the first write and say so.
  ASSERT_FALSE(
      db.exec("INSERT INTO action_log (match_id, seq, seat, action, at) SELECT id, 1, 0, '{\"type\":\"later\"}', 9 "
              "FROM matches WHERE uid = 'm'"));
  expect_whole(*s, "m", 3);
  s->end_match("m", 10, 1, 0, 0, "finished");
  s.reset();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[1].find("first write of each was kept"), std::string::npos) << errors[1];
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(db.query("SELECT action FROM match_actions WHERE seq = 1"), action_of("m", 1));
}

TEST(ActionLog, APassThatFailsLeavesEveryRowWhereItWasForTheNextOne) {
  TestDb db(Backend::sqlite);
  std::vector<std::string> errors;
  auto s = open_store(db, &errors);
  ASSERT_TRUE(s);
  s->begin_match(match_of("m"));
  play(*s, "m", 0, 6);
  s->flush();
  // A trigger makes the fourth move fail half-way through the pass.
  ASSERT_FALSE(
      db.exec("CREATE TRIGGER refuse_third AFTER INSERT ON match_actions WHEN NEW.seq = 3 "
              "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
  s->end_match("m", 10, 1, 0, 0, "finished");
  dynamic_cast<SqliteStore&>(*s).move_ended_matches();
  s->flush();
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find("refused by the test"), std::string::npos) << errors.back();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 6);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 0);
  expect_whole(*s, "m", 6);

  ASSERT_FALSE(db.exec("DROP TRIGGER refuse_third"));
  s.reset();
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM action_log"), 0);
  EXPECT_EQ(count_of(db, "SELECT COUNT(*) FROM match_actions"), 6);
}

}  // namespace
}  // namespace atout::store
