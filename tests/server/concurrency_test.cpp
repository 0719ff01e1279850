// Many tables at once on two I/O threads: every match completes, the lobby keeps up, and every
// message still fits the schema. Run under ThreadSanitizer by scripts/test.sh.
#include <gtest/gtest.h>

#include <thread>

#include "atout/state.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

constexpr int kPlayerThreads = 6;
constexpr int kMatchesPerThread = 2;

TEST(Concurrency, ManyTablesPlayAtOnceOnTwoThreads) {
  LiveServer server(2);
  MessageLog log;
  TestClient lobby_watcher(server.port(), &log);
  lobby_watcher.hello("watcher");
  ASSERT_EQ(lobby_watcher.request({{"type", "subscribe_lobby"}})["type"], "tables");

  std::vector<std::vector<MatchSummary>> results(kPlayerThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kPlayerThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int m = 0; m < kMatchesPerThread; ++m) {
        const VariantInfo& v = variants()[static_cast<std::size_t>(t + m) % variants().size()];
        results[static_cast<std::size_t>(t)].push_back(
            play_match(server.port(), v.id, &log, static_cast<std::uint64_t>(t * 100 + m)));
      }
    });
  }
  // Meanwhile, HTTP readers see the lobby change under them.
  for (int i = 0; i < 20; ++i) {
    const HttpReply r = http_get(server.port(), "/api/tables");
    EXPECT_EQ(r.status, 200u);
    EXPECT_TRUE(json::parse(r.body)["tables"].is_array());
  }
  for (auto& th : threads) th.join();

  std::set<std::string> tables;
  for (const auto& per_thread : results) {
    ASSERT_EQ(per_thread.size(), static_cast<std::size_t>(kMatchesPerThread));
    for (const MatchSummary& m : per_thread) {
      EXPECT_FALSE(m.match_result.is_null()) << m.table_id;
      EXPECT_TRUE(tables.insert(m.table_id).second) << "table id reused: " << m.table_id;
    }
  }
  // Every table closed once its players went, and the subscriber heard of each.
  std::set<std::string> removed;
  while (removed.size() < tables.size()) {
    const json m = lobby_watcher.wait_for("lobby_remove");
    if (m["type"] != "lobby_remove") break;
    removed.insert(m["table_id"].get<std::string>());
  }
  EXPECT_EQ(removed, tables);
  EXPECT_TRUE(json::parse(http_get(server.port(), "/api/tables").body)["tables"].empty());
  EXPECT_TRUE(log.validate());
}

}  // namespace
}  // namespace atout::server::testing
