// What one player can make of the lobby, and what reading it costs: the bound on unstarted tables a
// player owns, the expiry of empty tables (on a fake clock), listings paged and filtered from a
// shared snapshot and charged to the connection's credits, and HTTP reads limited by address.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lobby_harness.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr auto kTtl = std::chrono::milliseconds(10min);

class LobbyBoundsTest : public LobbyHarness {
 protected:
  LobbyBoundsTest() { ctx_->lobby->use_limits(LobbyLimits{2, kTtl}); }
};

TEST_F(LobbyBoundsTest, APlayerOwnsAtMostTheBoundOfUnstartedTables) {
  auto ann = player("ann");
  const std::string a = create(*ann);
  const std::string b = create(*ann);
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  std::string error;
  EXPECT_EQ(create(*ann, "duel", &error), "");
  EXPECT_EQ(error, "too_many_tables");
  // The bound is per player: another one creates freely.
  auto bob = player("bob");
  EXPECT_FALSE(create(*bob).empty());

  // A table that has started no longer counts against its owner.
  EXPECT_EQ(reply(*ann, {{"type", "sit"}, {"table_id", a}, {"seat", 0}})["type"], "seated");
  EXPECT_EQ(reply(*bob, {{"type", "sit"}, {"table_id", a}, {"seat", 1}})["type"], "seated");
  const std::string c = create(*ann);
  EXPECT_FALSE(c.empty());
  error.clear();
  EXPECT_EQ(create(*ann, "duel", &error), "");
  EXPECT_EQ(error, "too_many_tables");

  // Nor does one its owner left (an empty table then closes).
  EXPECT_EQ(reply(*ann, {{"type", "leave"}, {"table_id", b}})["type"], "ok");
  EXPECT_FALSE(create(*ann).empty());

  error.clear();
  EXPECT_EQ(create(*ann, "duel", &error), "");
  EXPECT_EQ(error, "too_many_tables");
}

// A burst of creations that runs ahead of the store's reservation of table numbers waits for the
// next block, in the order the creations came, rather than failing; a reservation that fails is
// answered with an error to those waiting.
TEST_F(LobbyBoundsTest, CreationsWaitForTheStoresNextBlockOfTableNumbers) {
  std::vector<std::function<void(std::optional<std::uint64_t>)>> asked;
  ctx_->lobby->use_table_numbers(1, [&](std::uint64_t count, std::function<void(std::optional<std::uint64_t>)> done) {
    EXPECT_EQ(count, TableNumbers::kBlock);
    asked.push_back(std::move(done));
  });
  ctx_->lobby->use_limits(LobbyLimits{0, kTtl});
  std::vector<std::shared_ptr<RecordingConnection>> players;
  // Twenty players, so that none runs out of message credits.
  for (int p = 0; p < 20; ++p) players.push_back(player("p" + std::to_string(p)));
  for (std::uint64_t i = 0; i < TableNumbers::kBlock; ++i)
    ASSERT_EQ(create(*players[i % 20]), "t" + std::to_string(i + 1));
  ASSERT_EQ(asked.size(), 1u);  // at halfway

  // The block is used up and the store has not answered: three creations wait, unanswered.
  for (int p = 0; p < 3; ++p)
    EXPECT_EQ(reply(*players[p], {{"type", "create_table"}, {"variant", "duel"}})["type"], "none");
  asked[0](5001);
  run();
  for (int p = 0; p < 3; ++p) {
    const auto got = players[p]->take();
    ASSERT_EQ(got.size(), 1u) << p;
    EXPECT_EQ(got[0]["type"], "table_created") << got[0];
    EXPECT_EQ(got[0]["table"]["table_id"], "t" + std::to_string(5001 + p)) << got[0];
  }
  EXPECT_EQ(create(*players[3]), "t5004");

  // Used up again, and this time the store fails: those waiting hear so, and a later creation
  // asks the store again.
  for (std::uint64_t i = 4; i < TableNumbers::kBlock; ++i)
    ASSERT_EQ(create(*players[i % 20]), "t" + std::to_string(5000 + i + 1));
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(reply(*players[0], {{"type", "create_table"}, {"variant", "duel"}})["type"], "none");
  asked[1](std::nullopt);
  run();
  const auto told = players[0]->take();
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0]["type"], "error");
  EXPECT_EQ(told[0]["code"], "internal_error");
  EXPECT_EQ(reply(*players[1], {{"type", "create_table"}, {"variant", "duel"}})["type"], "none");
  ASSERT_EQ(asked.size(), 3u);
  asked[2](9001);
  run();
  const auto made = players[1]->take();
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]["table"]["table_id"], "t9001");
}

// The creations waiting for table numbers are bounded: past Lobby::kMaxWaitingCreates, one more is
// refused at once (internal_error: try again) instead of joining an ever longer queue, and those
// waiting are still made, first come first, when the numbers arrive.
TEST_F(LobbyBoundsTest, BeyondTheBoundOnWaitingCreationsOneMoreIsRefusedAtOnce) {
  std::vector<std::function<void(std::optional<std::uint64_t>)>> asked;
  ctx_->lobby->use_table_numbers(1, [&](std::uint64_t, std::function<void(std::optional<std::uint64_t>)> done) {
    asked.push_back(std::move(done));
  });
  ctx_->lobby->use_limits(LobbyLimits{0, kTtl});
  // Enough players that none runs out of message credits (200 each, and the clock stands still).
  std::vector<std::shared_ptr<RecordingConnection>> players;
  for (int p = 0; p < 60; ++p) players.push_back(player("p" + std::to_string(p)));
  std::size_t next = 0;
  auto someone = [&]() -> RecordingConnection& { return *players[next++ % players.size()]; };
  for (std::uint64_t i = 0; i < TableNumbers::kBlock; ++i) ASSERT_EQ(create(someone()), "t" + std::to_string(i + 1));
  ASSERT_EQ(asked.size(), 1u);
  RecordingConnection& first = someone();
  EXPECT_EQ(reply(first, {{"type", "create_table"}, {"variant", "duel"}})["type"], "none");
  for (std::size_t i = 1; i < Lobby::kMaxWaitingCreates; ++i)
    ASSERT_EQ(reply(someone(), {{"type", "create_table"}, {"variant", "duel"}})["type"], "none") << i;
  const json refused = reply(someone(), {{"type", "create_table"}, {"variant", "duel"}});
  EXPECT_EQ(refused["type"], "error") << refused;
  EXPECT_EQ(refused["code"], "internal_error") << refused;
  EXPECT_NE(refused["message"].get<std::string>().find("try again"), std::string::npos) << refused;
  // The numbers come: the first creation that waited is made with the first of them.
  asked[0](20001);
  run();
  const auto made = first.take();
  ASSERT_FALSE(made.empty());
  EXPECT_EQ(made[0]["type"], "table_created") << made[0];
  EXPECT_EQ(made[0]["table"]["table_id"], "t20001") << made[0];
}

TEST_F(LobbyBoundsTest, AnEmptyTableClosesAfterTheTtlAndItsOwnerIsTold) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  auto watcher = player("watcher");
  EXPECT_EQ(reply(*watcher, {{"type", "subscribe_lobby"}})["type"], "tables");

  advance(kTtl - 1ms);
  EXPECT_EQ(ids(list(*ann)), std::vector<std::string>{id});

  advance(1ms);
  EXPECT_TRUE(ids(list(*ann)).empty());
  EXPECT_EQ(list(*ann)["total"], 0);
  // The owner is told, though it never subscribed to the lobby; so is the subscriber.
  EXPECT_TRUE(heard_removed(*ann, id));
  EXPECT_TRUE(heard_removed(*watcher, id));
  EXPECT_EQ(code(reply(*ann, {{"type", "sit"}, {"table_id", id}})), "unknown_table");
}

TEST_F(LobbyBoundsTest, TheOwnerHearsItsTableExpire) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  EXPECT_FALSE(heard_removed(*ann, id));
  advance(kTtl);
  EXPECT_TRUE(heard_removed(*ann, id));
  // Expired tables no longer count against the bound.
  EXPECT_FALSE(create(*ann).empty());
  EXPECT_FALSE(create(*ann).empty());
}

TEST_F(LobbyBoundsTest, ATableSomeoneSitsAtOrWatchesDoesNotExpire) {
  auto ann = player("ann");
  const std::string seated = create(*ann);
  const std::string watched = create(*ann);
  auto bob = player("bob");
  auto carl = player("carl");
  EXPECT_EQ(reply(*bob, {{"type", "sit"}, {"table_id", seated}, {"seat", 0}})["type"], "seated");
  EXPECT_EQ(reply(*carl, {{"type", "spectate"}, {"table_id", watched}})["type"], "watching");

  advance(kTtl + 1min);
  const std::vector<std::string> both{seated, watched};
  EXPECT_EQ(ids(list(*ann)), both);

  // Once bob leaves, the table is empty again and its time starts from then.
  EXPECT_EQ(reply(*bob, {{"type", "leave"}, {"table_id", seated}})["type"], "ok");
  advance(kTtl - 1ms);
  EXPECT_EQ(ids(list(*ann)), both);
  EXPECT_FALSE(heard_removed(*ann, seated));
  advance(1ms);
  EXPECT_EQ(ids(list(*ann)), std::vector<std::string>{watched});
  EXPECT_TRUE(heard_removed(*ann, seated));
  EXPECT_FALSE(heard_removed(*ann, watched));
}

TEST_F(LobbyBoundsTest, ListTablesPagesAndFilters) {
  ctx_->lobby->use_limits(LobbyLimits{0, kTtl});
  const VariantInfo* duel = find_variant("duel");
  ASSERT_NE(duel, nullptr);
  const VariantInfo* other = nullptr;
  for (const VariantInfo& v : variants())
    if (v.players != duel->players) other = &v;
  ASSERT_NE(other, nullptr) << "a variant with another number of seats";

  auto ann = player("ann");
  std::vector<std::string> made;
  for (int i = 0; i < 3; ++i) made.push_back(create(*ann, "duel"));
  for (int i = 0; i < 2; ++i) made.push_back(create(*ann, other->id));
  auto bob = player("bob");
  EXPECT_EQ(reply(*bob, {{"type", "sit"}, {"table_id", made[0]}, {"seat", 0}})["type"], "seated");

  const json all = list(*ann);
  EXPECT_EQ(ids(all), made);
  EXPECT_EQ(all["total"], 5);
  EXPECT_EQ(all["offset"], 0);
  EXPECT_EQ(all["limit"], protocol::Page::kDefaultLimit);

  const json first = list(*ann, {{"limit", 2}});
  EXPECT_EQ(ids(first), (std::vector<std::string>{made[0], made[1]}));
  EXPECT_EQ(first["total"], 5);
  const json last = list(*ann, {{"offset", 4}, {"limit", 2}});
  EXPECT_EQ(ids(last), std::vector<std::string>{made[4]});
  EXPECT_EQ(last["total"], 5);
  const json past = list(*ann, {{"offset", 10}});
  EXPECT_TRUE(past["tables"].empty());
  EXPECT_EQ(past["total"], 5);

  const json duels = list(*ann, {{"variant", "duel"}, {"limit", 2}, {"offset", 1}});
  EXPECT_EQ(ids(duels), (std::vector<std::string>{made[1], made[2]}));
  EXPECT_EQ(duels["total"], 3);
  EXPECT_EQ(list(*ann, {{"status", "waiting"}})["total"], 5);
  EXPECT_EQ(list(*ann, {{"status", "playing"}})["total"], 0);
  // Every seat of every table is free but one of made[0]'s.
  const json roomy = list(*ann, {{"min_free", duel->players}});
  std::vector<std::string> expect_roomy{made[1], made[2]};
  if (other->players >= duel->players) expect_roomy.insert(expect_roomy.end(), {made[3], made[4]});
  EXPECT_EQ(ids(roomy), expect_roomy);
  EXPECT_EQ(roomy["total"], static_cast<int>(expect_roomy.size()));
  EXPECT_EQ(list(*ann, {{"min_free", protocol::ListTables::kMaxFreeSeats}})["total"], 0);
  // Filters combine.
  EXPECT_EQ(ids(list(*ann, {{"variant", "duel"}, {"min_free", duel->players}})),
            (std::vector<std::string>{made[1], made[2]}));
}

TEST_F(LobbyBoundsTest, TheCachedFirstPageIsTheSameAsAFilteredOne) {
  ctx_->lobby->use_limits(LobbyLimits{0, kTtl});
  auto ann = player("ann");
  std::vector<std::string> made;
  for (int i = 0; i < protocol::Page::kDefaultLimit + 5; ++i) made.push_back(create(*ann));
  const json cached = list(*ann);
  const json filtered = list(*ann, {{"status", "waiting"}, {"limit", protocol::Page::kDefaultLimit}});
  EXPECT_EQ(cached["total"], protocol::Page::kDefaultLimit + 5);
  EXPECT_EQ(ids(cached), std::vector<std::string>(made.begin(), made.begin() + protocol::Page::kDefaultLimit));
  EXPECT_EQ(cached["tables"], filtered["tables"]);
  EXPECT_EQ(ids(list(*ann, {{"offset", protocol::Page::kDefaultLimit}})),
            std::vector<std::string>(made.begin() + protocol::Page::kDefaultLimit, made.end()));
  // A subscriber starts from the largest first page.
  EXPECT_EQ(reply(*ann, {{"type", "subscribe_lobby"}})["tables"].size(), made.size());
}

TEST_F(LobbyBoundsTest, BadFiltersAreRefusedWithTheirField) {
  auto ann = player("ann");
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"({"status":"bogus"})", "status"}, {R"({"status":1})", "status"},       {R"({"variant":"whist"})", "variant"},
      {R"({"variant":5})", "variant"},     {R"({"variant":""})", "variant"},    {R"({"limit":0})", "limit"},
      {R"({"limit":101})", "limit"},       {R"({"limit":"20"})", "limit"},      {R"({"offset":-1})", "offset"},
      {R"({"offset":1.5})", "offset"},     {R"({"min_free":-1})", "min_free"},  {R"({"min_free":9})", "min_free"},
      {R"({"min_free":"2"})", "min_free"}, {R"({"offset":1000001})", "offset"},
  };

  for (const auto& [text, name] : bad) {
    const json filters = json::parse(text);
    const json r = list(*ann, filters);
    EXPECT_EQ(code(r), "invalid_field") << filters << " gave " << r;
    EXPECT_EQ(field(r), name) << filters << " gave " << r;
  }
}

TEST_F(LobbyBoundsTest, ListingsAreChargedToTheConnectionsCredits) {
  ctx_->limits.msg_burst = 30;
  ctx_->limits.msg_rate = 10;
  auto ann = player("ann");
  // A page of up to 100 tables costs 10 credits: three fit in 30, the fourth does not.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(list(*ann, {{"limit", 100}})["type"], "tables") << i;
  const json refused = list(*ann, {{"limit", 100}});
  EXPECT_EQ(code(refused), "too_fast") << refused;
  EXPECT_NE(refused["message"].get<std::string>().find("wait"), std::string::npos);
  // Subscribing sends the largest page, and costs as much.
  EXPECT_EQ(code(reply(*ann, {{"type", "subscribe_lobby"}})), "too_fast");
  // A second later 10 credits are back: one large page, or ten small ones.
  now_ += 1s;
  EXPECT_EQ(list(*ann, {{"limit", 100}})["type"], "tables");
  EXPECT_EQ(code(list(*ann, {{"limit", 10}})), "too_fast");
  now_ += 1s;
  for (int i = 0; i < 10; ++i) EXPECT_EQ(list(*ann, {{"limit", 10}})["type"], "tables") << i;
  EXPECT_EQ(code(list(*ann, {{"limit", 10}})), "too_fast");
  // Each connection pays for its own.
  auto bob = player("bob");
  EXPECT_EQ(list(*bob, {{"limit", 100}})["type"], "tables");
}

TEST_F(LobbyBoundsTest, ReadersShareOneSnapshotUntilATableChanges) {
  auto ann = player("ann");
  const auto before = ctx_->lobby->snapshot();
  EXPECT_EQ(ctx_->lobby->snapshot(), before);
  const std::string id = create(*ann);
  const auto after = ctx_->lobby->snapshot();
  EXPECT_NE(after, before);
  // A reader holding the old snapshot keeps what it saw.
  EXPECT_TRUE(before->rows.empty());
  ASSERT_EQ(after->rows.size(), 1u);
  EXPECT_EQ(json::parse(after->rows[0]->text)["table_id"], id);
  EXPECT_EQ(ctx_->lobby->snapshot(), after);
}

// ---- HTTP ----------------------------------------------------------------------------------------

TEST(LobbyHttpTest, ApiTablesPagesFiltersAndRefusesBadQueries) {
  LiveServer server;
  TestClient ann(server.port(), nullptr);
  ann.hello("ann");
  std::vector<std::string> made;
  for (int i = 0; i < 3; ++i)
    made.push_back(
        ann.request({{"type", "create_table"}, {"variant", "duel"}})["table"]["table_id"].get<std::string>());

  const json page = json::parse(http_get(server.port(), "/api/tables?limit=2&offset=1").body);
  EXPECT_EQ(page["total"], 3);
  EXPECT_EQ(page["offset"], 1);
  ASSERT_EQ(page["tables"].size(), 2u);
  EXPECT_EQ(page["tables"][0]["table_id"], made[1]);
  EXPECT_EQ(json::parse(http_get(server.port(), "/api/tables?variant=duel&status=waiting&min_free=2").body)["total"],
            3);
  EXPECT_EQ(json::parse(http_get(server.port(), "/api/tables?status=playing").body)["total"], 0);

  for (const auto& [query, name] : std::vector<std::pair<std::string, std::string>>{
           {"status=bogus", "status"}, {"limit=abc", "limit"}, {"limit=500", "limit"}, {"min_free=", "min_free"}}) {
    const HttpReply r = http_get(server.port(), "/api/tables?" + query);
    EXPECT_EQ(r.status, 400u) << query;
    const json body = json::parse(r.body);
    EXPECT_EQ(body["error"], "invalid_field") << query;
    EXPECT_EQ(body["field"], name) << query;
  }
}

TEST(LobbyHttpTest, ApiReadsAreRateLimitedByAddress) {
  Config c;
  c.http_burst = 3;
  c.http_rate = 1;
  LiveServer server(c);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(http_get(server.port(), "/api/tables").status, 200u) << i;
  const HttpReply refused = http_get(server.port(), "/api/tables");
  EXPECT_EQ(refused.status, 429u);
  EXPECT_EQ(refused.retry_after, "1");
  EXPECT_EQ(json::parse(refused.body)["error"], "too_fast");
  // The archive's API shares the budget; health and metrics do not.
  EXPECT_EQ(http_get(server.port(), "/api/leaderboard/duel").status, 429u);
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200u);
  const HttpReply metrics = http_get(server.port(), "/metrics");
  EXPECT_NE(metrics.body.find("atout_http_rate_limited_total 2"), std::string::npos);
}

}  // namespace
}  // namespace atout::server::testing
