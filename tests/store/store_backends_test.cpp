// The store's behaviour through its interface, on both backends (SQLite, and PostgreSQL when
// ATOUT_TEST_PG_URL names a server): players, matches, hands, ratings, id blocks, backups, and
// two stores on one database ending matches of the same player at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "atout/store/pg_store.hpp"
#include "atout/store/rating.hpp"
#include "atout/store/store.hpp"
#include "test_db.hpp"

namespace atout::store {
namespace {

using test::Backend;
using test::TestDb;

using StoreBackend = test::OnEachBackend;

std::string hash_of(char c) { return std::string(32, c); }

MatchStart two_player_match(const std::string& uid, const std::string& a, const std::string& b, bool rated) {
  MatchStart m;
  m.uid = uid;
  m.table_id = "t_" + uid;
  m.variant = "duel";
  m.options_json = "{}";
  m.first_dealer = 0;
  m.rated = rated;
  m.started_at = 1000;
  m.seats = {{0, 0, a, ""}, {1, 1, b, ""}};
  return m;
}

TEST_P(StoreBackend, PlayersAreFoundByTokenHashOnly) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_ann", "Ann", hash_of('a'), 10);
  s->touch_player("p_ann", 20);
  s->flush();
  auto p = s->player_by_token_hash(hash_of('a'));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->id, "p_ann");
  EXPECT_EQ(p->name, "Ann");
  EXPECT_EQ(p->created_at, 10);
  EXPECT_EQ(p->last_seen, 20);
  EXPECT_FALSE(s->player_by_token_hash(hash_of('b')));
  EXPECT_FALSE(s->player("p_nobody"));
}

TEST_P(StoreBackend, MatchLifecycleHidesUnrevealedSeedsAndRates) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->begin_match(two_player_match("m1", "p_a", "p_b", true));
  s->begin_hand("m1", HandRow{0, 0, "c0", "00ff", false, 0, std::nullopt, ""});
  s->add_action("m1", 0, 1, R"({"type":"pass"})", 5);
  s->add_action("m1", 1, 0, R"({"type":"take"})", 6);
  s->end_hand("m1", 0, 1, R"({"outcome":"made"})");
  s->begin_hand("m1", HandRow{1, 1, "c1", "11ee", false, 2, std::nullopt, ""});
  s->add_action("m1", 2, 0, R"({"type":"pass"})", 7);
  s->flush();

  auto unfinished = s->unfinished_matches();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].actions.size(), 3u);
  ASSERT_EQ(unfinished[0].hands.size(), 2u);
  EXPECT_EQ(unfinished[0].hands[1].seed, "11ee");  // recovery needs the live hand's seed

  auto pub = s->match("m1", false);
  ASSERT_TRUE(pub);
  EXPECT_EQ(pub->hands[0].seed, "00ff");
  EXPECT_TRUE(pub->hands[0].revealed);
  EXPECT_EQ(pub->hands[1].seed, "");  // not revealed: never leaves the store
  EXPECT_EQ(pub->start.seats.size(), 2u);
  EXPECT_EQ(pub->start.seats[1].name, "B");

  s->end_match("m1", 2000, 1001, 300, 0, "finished");
  s->end_match("m1", 3000, 0, 0, 1, "finished");  // a second end changes nothing and rates nothing
  s->flush();
  EXPECT_TRUE(s->unfinished_matches().empty());
  auto done = s->match("m1", false);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->end_reason, "finished");
  EXPECT_EQ(done->winner, 0);
  EXPECT_EQ(done->ended_at, 2000);

  const auto ra = s->ratings_of("p_a");
  ASSERT_EQ(ra.size(), 1u);
  EXPECT_EQ(ra[0].ladder, "duel");
  EXPECT_NEAR(ra[0].mu, 27.635389493140497, 1e-9);  // the 1v1 vector: ratings start at the defaults
  EXPECT_NEAR(ra[0].ordinal, 27.635389493140497 - 3 * 8.06590141354368, 1e-9);
  EXPECT_EQ(ra[0].matches, 1);
  const auto rb = s->ratings_of("p_b");
  ASSERT_EQ(rb.size(), 1u);
  EXPECT_NEAR(rb[0].mu, 22.364610506859503, 1e-9);

  const auto h = s->history("p_b", 0, 10);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].uid, "m1");
  EXPECT_EQ(h[0].seat, 1);
  EXPECT_EQ(h[0].winner, 0);
}

// Ids are unique for the life of the database: blocks never overlap, across reopenings too.
TEST_P(StoreBackend, ReservedIdBlocksNeverOverlapAcrossReopenings) {
  std::string error;
  std::uint64_t end_of_first_life = 0;
  {
    auto s = Store::open(db_->url(), {}, error);
    ASSERT_TRUE(s) << error;
    const auto a = s->reserve_ids("table", 100);
    const auto b = s->reserve_ids("table", 5);
    const auto other = s->reserve_ids("other", 3);
    ASSERT_TRUE(a && b && other);
    EXPECT_EQ(*a, 1u);  // a new database starts at 1
    EXPECT_EQ(*b, *a + 100);
    EXPECT_EQ(*other, 1u);  // each kind counts on its own
    end_of_first_life = *b + 5;
  }
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  const auto c = s->reserve_ids("table", 10);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, end_of_first_life);
}

// A private match still being played is listed only to its players; once over, to anyone.
TEST_P(StoreBackend, APrivateMatchInProgressIsInItsPlayersHistoryOnlyForThem) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->add_player("p_c", "C", hash_of('c'), 1);
  MatchStart secret = two_player_match("m_private", "p_a", "p_b", false);
  secret.is_private = true;
  s->begin_match(secret);
  s->begin_match(two_player_match("m_public", "p_a", "p_b", false));
  s->flush();
  auto uids = [&](const std::string& viewer) {
    std::vector<std::string> out;
    for (const MatchSummary& m : s->history("p_a", 0, 10, viewer)) out.push_back(m.uid);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(uids("p_a"), (std::vector<std::string>{"m_private", "m_public"}));
  EXPECT_EQ(uids("p_b"), (std::vector<std::string>{"m_private", "m_public"}));  // the other player
  EXPECT_EQ(uids("p_c"), (std::vector<std::string>{"m_public"}));
  EXPECT_EQ(uids(""), (std::vector<std::string>{"m_public"}));
  s->end_match("m_private", 2000, 1001, 0, 0, "finished");
  s->flush();
  EXPECT_EQ(uids("p_c"), (std::vector<std::string>{"m_private", "m_public"}));
}

TEST_P(StoreBackend, AbortedAndUnratedMatchesLeaveRatingsAlone) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->begin_match(two_player_match("m1", "p_a", "p_b", false));
  s->end_match("m1", 10, 1001, 0, 0, "finished");
  s->begin_match(two_player_match("m2", "p_a", "p_b", true));
  s->end_match("m2", 10, std::nullopt, std::nullopt, std::nullopt, "aborted");
  s->begin_match(two_player_match("m3", "p_a", "p_b", true));
  s->end_match("m3", 10, std::nullopt, std::nullopt, 1, "abandoned");  // p_a left: a loss
  s->flush();
  const auto ra = s->ratings_of("p_a");
  ASSERT_EQ(ra.size(), 1u);
  EXPECT_EQ(ra[0].matches, 1);
  EXPECT_NEAR(ra[0].mu, 22.364610506859503, 1e-9);
  // Only the match that changed ratings has a place in their order.
  EXPECT_EQ(db_->query("SELECT COUNT(*) FROM matches WHERE rated_seq IS NOT NULL"), "1");
  EXPECT_EQ(db_->query("SELECT uid FROM matches WHERE rated_seq = 1"), "m3");
}

// A server bot as a person's partner and both opponents is rated once, as an opponent (the side
// where it holds more seats); in both seats of one side, once; one seat on each side, not at all.
// (Each seat upserted its own update before, so the last seat written won.)
TEST_P(StoreBackend, AServerBotInSeveralSeatsIsRatedOnceWithItsLargerSide) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->add_player("bot_x", "bot", hash_of('x'), 1);
  auto four = [](const std::string& uid, std::array<const char*, 4> players) {
    MatchStart m = two_player_match(uid, players[0], players[1], true);
    m.variant = "french";
    m.seats.clear();
    for (int seat = 0; seat < 4; ++seat)
      m.seats.push_back({seat, seat % 2, players[static_cast<std::size_t>(seat)], ""});
    return m;
  };
  s->begin_match(four("m4", {"p_a", "bot_x", "bot_x", "bot_x"}));
  s->end_match("m4", 10, 1001, 400, 0, "finished");  // p_a's side wins
  s->flush();
  const auto ra = s->ratings_of("p_a");
  ASSERT_EQ(ra.size(), 1u);
  EXPECT_GT(ra[0].mu, 25.0) << "p_a's side won";
  auto bot = s->ratings_of("bot_x");
  ASSERT_EQ(bot.size(), 1u);
  EXPECT_EQ(bot[0].matches, 1);
  EXPECT_LT(bot[0].mu, 25.0) << "rated as the opponents, who lost";
  s->begin_match(four("m5", {"p_b", "bot_x", "p_b", "bot_x"}));
  s->end_match("m5", 20, 400, 1001, 1, "finished");
  s->flush();
  bot = s->ratings_of("bot_x");
  ASSERT_EQ(bot.size(), 1u);
  EXPECT_EQ(bot[0].matches, 2) << "once for its two seats";
  const double after_m5 = bot[0].mu;
  s->begin_match(four("m6", {"p_a", "bot_x", "bot_x", "p_b"}));
  s->end_match("m6", 30, 1001, 400, 0, "finished");
  s->flush();
  bot = s->ratings_of("bot_x");
  ASSERT_EQ(bot.size(), 1u);
  EXPECT_EQ(bot[0].matches, 2) << "one seat on each side: not rated";
  EXPECT_EQ(bot[0].mu, after_m5);
  EXPECT_EQ(s->ratings_of("p_b")[0].matches, 2);
}

// Matches that end in the same millisecond are numbered in the order their ratings were written.
TEST_P(StoreBackend, RatingsAreNumberedInTheOrderTheyWereWritten) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  for (const char* uid : {"m_z", "m_y", "m_x"}) s->begin_match(two_player_match(uid, "p_a", "p_b", true));
  s->flush();
  s->end_match("m_y", 50, 1001, 0, 0, "finished");
  s->flush();
  s->end_match("m_x", 50, 1001, 0, 0, "finished");  // same batch, same millisecond
  s->end_match("m_z", 50, 0, 1001, 1, "finished");
  s->flush();
  EXPECT_EQ(db_->query("SELECT uid FROM matches WHERE rated_seq = 1"), "m_y");
  EXPECT_EQ(db_->query("SELECT uid FROM matches WHERE rated_seq = 2"), "m_x");
  EXPECT_EQ(db_->query("SELECT uid FROM matches WHERE rated_seq = 3"), "m_z");
  EXPECT_EQ(db_->query("SELECT MAX(rated_seq) FROM matches"), "3");
}

TEST_P(StoreBackend, LeaderboardPagesBestFirst) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  for (char c = 'a'; c <= 'f'; ++c) s->add_player(std::string("p_") + c, std::string(1, c), hash_of(c), 1);
  // a beats b, c beats d, e beats f: the three winners share the top.
  int n = 0;
  for (const char* pair : {"ab", "cd", "ef"}) {
    const std::string uid = "m" + std::to_string(n++);
    s->begin_match(two_player_match(uid, std::string("p_") + pair[0], std::string("p_") + pair[1], true));
    s->end_match(uid, 10, 1001, 0, 0, "finished");
  }
  s->flush();
  int total = 0;
  const auto first = s->leaderboard("duel", 0, 4, total);
  EXPECT_EQ(total, 6);
  ASSERT_EQ(first.size(), 4u);
  for (std::size_t i = 0; i + 1 < first.size(); ++i) EXPECT_GE(first[i].ordinal, first[i + 1].ordinal);
  EXPECT_EQ(first[0].player, "p_a");  // ties break by id
  const auto second = s->leaderboard("duel", 4, 4, total);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].player, "p_f");
  EXPECT_TRUE(s->leaderboard("french", 0, 10, total).empty());
  EXPECT_EQ(total, 0);
}

TEST_P(StoreBackend, OnlineBackupIsACompleteDatabaseAndNeverOverwrites) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->flush();
  const std::string target = db_->file("backup.db");
  ASSERT_FALSE(s->backup(target));
  auto again = s->backup(target);
  ASSERT_TRUE(again);
  EXPECT_NE(again->find("already exists"), std::string::npos);
  if (GetParam() == Backend::sqlite) {
    auto copy = Store::open(target, {}, error);
    ASSERT_TRUE(copy) << error;
    EXPECT_TRUE(copy->player("p_a"));
    EXPECT_EQ(copy->schema_version(), latest_version());
    return;
  }
  // pg_dump's custom format, which pg_restore reads: it lists the store's tables and their rows.
  std::ifstream in(target, std::ios::binary);
  char magic[5] = {};
  in.read(magic, 5);
  EXPECT_EQ(std::string(magic, 5), "PGDMP");
  std::string listing;
  FILE* p = ::popen(("pg_restore --list " + target).c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) listing.append(buf, n);
  EXPECT_EQ(::pclose(p), 0);
  EXPECT_NE(listing.find("TABLE DATA"), std::string::npos) << listing;
  EXPECT_NE(listing.find(" players "), std::string::npos) << listing;
  EXPECT_NE(listing.find(" match_actions "), std::string::npos) << listing;
}

TEST_P(StoreBackend, ABackupToAnUnwritablePlaceIsAnError) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  auto e = s->backup(db_->file("no/such/dir/backup.db"));
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->empty());
}

// Writes for a match the store does not know are refused one by one; the rest of their batch
// commits (on PostgreSQL, a failed statement would otherwise abort the whole transaction).
TEST_P(StoreBackend, AFailedWriteDoesNotUndoTheRestOfItsBatch) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  std::vector<std::string> errors;
  s->on_write_error([&](const std::string& e) { errors.push_back(e); });
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->add_player("p_dup", "Dup", hash_of('a'), 1);  // the same token hash: refused by the database
  s->add_action("m_nowhere", 0, 0, "{}", 1);       // refused by the store: no such match
  s->begin_match(two_player_match("m1", "p_a", "p_b", false));
  s->add_action("m1", 0, 0, R"({"type":"pass"})", 2);
  s->flush();
  EXPECT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_TRUE(s->player("p_a"));
  EXPECT_TRUE(s->player("p_b"));
  EXPECT_FALSE(s->player("p_dup"));
  auto m = s->match("m1", false);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->actions.size(), 1u);
  EXPECT_EQ(s->writer_stats().errors, 2u);
}

// Actions of many matches, interleaved as live tables post them, come back per match in order and
// byte for byte, whatever characters their JSON holds (PostgreSQL writes a batch's actions in one
// multi-row insert: the quoting of its array literals is on trial here).
TEST_P(StoreBackend, InterleavedActionsOfManyMatchesComeBackExactlyAndInOrder) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  constexpr int kMatches = 40;
  constexpr int kRounds = 6;
  for (int m = 0; m < kMatches; ++m) s->begin_match(two_player_match("m" + std::to_string(m), "p_a", "p_b", false));
  const auto action = [](int m, int r) {
    return R"({"type":"say","text":"a \"quote\", a back\\slash, {braces}, commas, é ♠ )" + std::to_string(m) + "/" +
           std::to_string(r) + R"("})";
  };
  for (int r = 0; r < kRounds; ++r)
    for (int m = 0; m < kMatches; ++m) s->add_action("m" + std::to_string(m), r, (m + r) % 2, action(m, r), 10 + r);
  s->flush();
  EXPECT_EQ(s->writer_stats().errors, 0u);
  for (int m = 0; m < kMatches; ++m) {
    auto row = s->match("m" + std::to_string(m), false);
    ASSERT_TRUE(row) << m;
    ASSERT_EQ(row->actions.size(), static_cast<std::size_t>(kRounds)) << m;
    for (int r = 0; r < kRounds; ++r) {
      EXPECT_EQ(row->actions[static_cast<std::size_t>(r)].seq, r);
      EXPECT_EQ(row->actions[static_cast<std::size_t>(r)].seat, (m + r) % 2);
      EXPECT_EQ(row->actions[static_cast<std::size_t>(r)].action_json, action(m, r));
    }
  }
  if (GetParam() == Backend::postgres) {
    // One statement wrote them, not one per action.
    const WriterStats w = s->writer_stats();
    EXPECT_GE(w.appended_actions, static_cast<std::uint64_t>(kMatches * kRounds));
    EXPECT_LE(w.appends, w.batches);
  }
}

// An action the database refuses (a sequence number the match already has) in the middle of a
// batch is dropped alone: the actions before and after it, of its match and of others, are written
// (on PostgreSQL, the batch's multi-row insert fails and the batch runs again row by row).
TEST_P(StoreBackend, ARefusedActionInABatchIsDroppedAloneAndTheOthersAreWritten) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  std::vector<std::string> errors;
  s->on_write_error([&](const std::string& e) { errors.push_back(e); });
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->begin_match(two_player_match("m1", "p_a", "p_b", false));
  s->begin_match(two_player_match("m2", "p_a", "p_b", false));
  s->add_action("m1", 0, 0, R"({"n":"first"})", 2);
  s->add_action("m2", 0, 1, R"({"n":"other"})", 2);
  s->add_action("m1", 0, 1, R"({"n":"duplicate"})", 3);  // seq 0 again: refused by the database
  s->add_action("m_gone", 0, 0, "{}", 3);                // no such match: refused by the store
  s->add_action("m1", 1, 1, R"({"n":"second"})", 4);
  s->add_action("m2", 1, 0, R"({"n":"other 2"})", 4);
  s->flush();
  EXPECT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_EQ(s->writer_stats().errors, 2u);
  auto m1 = s->match("m1", false);
  ASSERT_TRUE(m1);
  ASSERT_EQ(m1->actions.size(), 2u);
  EXPECT_EQ(m1->actions[0].action_json, R"({"n":"first"})");
  EXPECT_EQ(m1->actions[1].action_json, R"({"n":"second"})");
  auto m2 = s->match("m2", false);
  ASSERT_TRUE(m2);
  ASSERT_EQ(m2->actions.size(), 2u);
  EXPECT_EQ(m2->actions[1].action_json, R"({"n":"other 2"})");

  // The writer goes on appending in one statement after such a batch.
  s->add_action("m1", 2, 0, R"({"n":"third"})", 5);
  s->add_action("m2", 2, 1, R"({"n":"other 3"})", 5);
  s->flush();
  EXPECT_EQ(s->writer_stats().errors, 2u);
  EXPECT_EQ(s->match("m1", false)->actions.size(), 3u);
  EXPECT_EQ(s->match("m2", false)->actions.size(), 3u);
}

TEST_P(StoreBackend, ASeatTakenOverNamesItsNewPlayerAndAnUnknownOneChangesNothing) {
  std::string error;
  auto s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  s->add_player("p_a", "A", hash_of('a'), 1);
  s->add_player("p_b", "B", hash_of('b'), 1);
  s->add_player("p_c", "C", hash_of('c'), 1);
  s->begin_match(two_player_match("m1", "p_a", "p_b", false));
  s->change_seat("m1", 1, "p_c");
  s->change_seat("m1", 0, "p_nobody");
  s->flush();
  auto m = s->match("m1", false);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->start.seats.size(), 2u);
  EXPECT_EQ(m->start.seats[0].player, "p_a");
  EXPECT_EQ(m->start.seats[1].player, "p_c");
}

// Two servers on one database end matches of the same player at the same moment: each rating
// update reads what the other committed, so the player's match count is the number of matches.
TEST_P(StoreBackend, TwoStoresRatingOnePlayerAtOnceLoseNoUpdate) {
  std::string error;
  auto a = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(a) << error;
  auto b = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(b) << error;
  a->add_player("p_star", "Star", hash_of('s'), 1);
  a->add_player("p_a", "A", hash_of('a'), 1);
  a->flush();
  b->add_player("p_b", "B", hash_of('b'), 1);
  b->flush();
  constexpr int kMatches = 30;
  for (int i = 0; i < kMatches; ++i) {
    a->begin_match(two_player_match("ma" + std::to_string(i), "p_star", "p_a", true));
    b->begin_match(two_player_match("mb" + std::to_string(i), "p_b", "p_star", true));
  }
  a->flush();
  b->flush();
  auto end_all = [](Store& s, const std::string& prefix) {
    for (int i = 0; i < kMatches; ++i) {
      s.end_match(prefix + std::to_string(i), 10 + i, 1001, 0, 0, "finished");
      if (i % 3 == 0) s.flush();  // small batches, many commits: many chances to interleave
    }
    s.flush();
  };
  std::thread ta(end_all, std::ref(*a), "ma");
  std::thread tb(end_all, std::ref(*b), "mb");
  ta.join();
  tb.join();
  EXPECT_EQ(a->writer_stats().errors, 0u);
  EXPECT_EQ(b->writer_stats().errors, 0u);
  const auto star = a->ratings_of("p_star");
  ASSERT_EQ(star.size(), 1u);
  EXPECT_EQ(star[0].matches, 2 * kMatches);
  const auto pa = b->ratings_of("p_a");
  ASSERT_EQ(pa.size(), 1u);
  EXPECT_EQ(pa[0].matches, kMatches);
  EXPECT_EQ(a->ratings_of("p_b").at(0).matches, kMatches);

  // Replaying the matches in the order the stores numbered them gives the ratings they wrote (the
  // end times cannot say it: the two stores end matches with the same times).
  // PostgreSQL's sequence skips the numbers of a batch run again after a deadlock: the order
  // counts, not the numbers.
  const std::string order =
      db_->query(GetParam() == Backend::sqlite
                     ? "SELECT group_concat(uid, ' ') FROM (SELECT uid FROM matches WHERE rated_seq IS NOT NULL ORDER "
                       "BY rated_seq)"
                     : "SELECT string_agg(uid, ' ' ORDER BY rated_seq) FROM matches WHERE rated_seq IS NOT NULL");
  std::istringstream uids(order);
  std::map<std::string, Rating> replayed;
  int n = 0;
  for (std::string uid; uids >> uid; ++n) {
    const bool from_a = uid[1] == 'a';
    const std::string winner = from_a ? "p_star" : "p_b", loser = from_a ? "p_a" : "p_star";
    const auto after = rate({{replayed[winner]}, {replayed[loser]}}, {1, 2});
    replayed[winner] = after[0][0];
    replayed[loser] = after[1][0];
  }
  EXPECT_EQ(n, 2 * kMatches);
  for (const auto& [player, r] : replayed) {
    const auto stored = a->ratings_of(player).at(0);
    EXPECT_NEAR(stored.mu, r.mu, 1e-9) << player;
    EXPECT_NEAR(stored.sigma, r.sigma, 1e-9) << player;
  }
}

// A database that a newer server migrated is refused before anything is written.
TEST_P(StoreBackend, ANewerSchemaIsRefusedAndLeftAlone) {
  std::string error;
  {
    auto s = Store::open(db_->url(), {}, error);
    ASSERT_TRUE(s) << error;
  }
  const int newer = latest_version() + 1;
  ASSERT_FALSE(db_->exec(GetParam() == Backend::sqlite
                             ? "PRAGMA user_version = " + std::to_string(newer)
                             : "UPDATE atout_schema_version SET version = " + std::to_string(newer)));
  auto s = Store::open(db_->url(), {}, error);
  EXPECT_FALSE(s);
  EXPECT_NE(error.find("newer than this server"), std::string::npos) << error;
  EXPECT_EQ(
      db_->query(GetParam() == Backend::sqlite ? "PRAGMA user_version" : "SELECT version FROM atout_schema_version"),
      std::to_string(newer));
}

// A migration that fails leaves the database at the version before it, with none of its changes;
// once the obstacle is gone, the next start applies it.
TEST_P(StoreBackend, AFailedMigrationRollsBackWithItsVersionBump) {
  std::string error;
  OpenOptions old;
  old.migrate_to = 4;
  {
    auto s = Store::open(db_->url(), old, error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->schema_version(), 4);
  }
  // 0005 creates id_blocks and adds matches.private: a table of that name already there fails it.
  ASSERT_FALSE(db_->exec("CREATE TABLE id_blocks (x INTEGER)"));
  auto s = Store::open(db_->url(), {}, error);
  EXPECT_FALSE(s);
  EXPECT_NE(error.find("0005_unique_ids.sql"), std::string::npos) << error;
  const bool sqlite = GetParam() == Backend::sqlite;
  EXPECT_EQ(db_->query(sqlite ? "PRAGMA user_version" : "SELECT version FROM atout_schema_version"), "4");
  EXPECT_EQ(db_->query(sqlite ? "SELECT COUNT(*) FROM pragma_table_info('matches') WHERE name = 'private'"
                              : "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = "
                                "current_schema() AND table_name = 'matches' AND column_name = 'private'"),
            "0");
  ASSERT_FALSE(db_->exec("DROP TABLE id_blocks"));
  s = Store::open(db_->url(), {}, error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->schema_version(), latest_version());
  EXPECT_TRUE(s->player("bot:rules"));  // 0006 ran too
}

TEST(Migrations, BothDialectsHaveTheSameNumbersAndNames) {
  ASSERT_EQ(migrations().size(), pg_migrations().size());
  for (std::size_t i = 0; i < migrations().size(); ++i) {
    EXPECT_EQ(migrations()[i].version, pg_migrations()[i].version);
    EXPECT_STREQ(migrations()[i].name, pg_migrations()[i].name);
  }
}

TEST(Backends, TheDbValueChoosesTheBackend) {
  EXPECT_TRUE(is_postgres_url("postgres://u@h/db"));
  EXPECT_TRUE(is_postgres_url("postgresql://u:p@h:5432/db?sslmode=require"));
  EXPECT_FALSE(is_postgres_url("atout.db"));
  EXPECT_FALSE(is_postgres_url("sqlite:///var/lib/atout/atout.db"));
  EXPECT_FALSE(is_postgres_url("/data/postgres://x"));
}

TEST(Backends, AnSqliteUrlIsAFile) {
  TestDb db(Backend::sqlite);
  std::string error;
  auto s = Store::open("sqlite://" + db.url(), {}, error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(db.query("PRAGMA user_version"), std::to_string(latest_version()));
}

TEST(Backends, PasswordsStayOutOfMessages) {
  EXPECT_EQ(redact_url("postgresql://atout:s3cret@db:5432/atout"), "postgresql://atout:***@db:5432/atout");
  EXPECT_EQ(redact_url("postgres://h/db?user=a&password=s3cret&sslmode=require"),
            "postgres://h/db?user=a&password=***&sslmode=require");
  EXPECT_EQ(redact_url("postgres://atout@db/atout"), "postgres://atout@db/atout");
}

// Nothing listens on the port: a clear refusal, quickly, and no password in it.
TEST(Backends, AnUnreachableServerIsRefusedAtOpen) {
  std::string error;
  OpenOptions o;
  o.connect_timeout = std::chrono::seconds(2);
  auto s = Store::open("postgresql://atout:s3cret@127.0.0.1:1/atout", o, error);
  EXPECT_FALSE(s);
  EXPECT_NE(error.find("cannot connect to postgresql://atout:***@127.0.0.1:1/atout"), std::string::npos) << error;
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
}

class PostgresOnly : public ::testing::Test {
 protected:
  void SetUp() override { ATOUT_NEEDS_POSTGRES(); }
};

TEST_F(PostgresOnly, AWrongPasswordIsRefusedAtOpen) {
  std::string url = std::getenv("ATOUT_TEST_PG_URL");
  const auto at = url.find('@');
  const auto colon = url.rfind(':', at);
  ASSERT_NE(at, std::string::npos);
  url = url.substr(0, colon + 1) + "not-the-password" + url.substr(at);
  std::string error;
  auto s = Store::open(url, {}, error);
  EXPECT_FALSE(s);
  EXPECT_NE(error.find("password authentication failed"), std::string::npos) << error;
  EXPECT_EQ(error.find("not-the-password"), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreBackend, ::testing::Values(Backend::sqlite, Backend::postgres),
                         test::backend_name);

}  // namespace
}  // namespace atout::store
