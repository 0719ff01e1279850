// Whole matches of every variant over real WebSocket connections, with every message checked
// against protocol/schema.
#include <gtest/gtest.h>

#include "atout/state.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

class Loopback : public ::testing::TestWithParam<std::string> {};

TEST_P(Loopback, PlaysAWholeMatchAndEveryMessageFitsTheSchema) {
  LiveServer server;
  MessageLog log;
  const MatchSummary m = play_match(server.port(), GetParam(), &log, 1);
  EXPECT_GT(m.actions, 0);
  EXPECT_GT(m.hand_results, 0);
  // The lobby, the variant list and the replies of a finished table are messages too.
  TestClient c(server.port(), &log);
  c.hello("checker");
  EXPECT_EQ(c.request({{"type", "list_variants"}})["type"], "variants");
  EXPECT_EQ(c.request({{"type", "list_tables"}})["type"], "tables");
  EXPECT_TRUE(log.validate());
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Loopback, ::testing::ValuesIn([] {
                           std::vector<std::string> ids;
                           for (const VariantInfo& v : variants()) ids.push_back(v.id);
                           return ids;
                         }()),
                         [](const auto& p) { return p.param; });

TEST(Loopback, TheSchemaCheckRejectsAMessageThatBreaksIt) {
  // The validator must be able to fail, or the tests above prove nothing.
  MessageLog log;
  log.add('S', R"({"type":"seated","table_id":"t1","seat":7,"resumed":false})");
  EXPECT_FALSE(log.validate_now());
  MessageLog unknown;
  unknown.add('S', R"({"type":"surprise"})");
  EXPECT_FALSE(unknown.validate_now());
  MessageLog good;
  good.add('S', R"({"type":"seated","table_id":"t1","seat":1,"resumed":false})");
  good.add('C', R"({"type":"sit","table_id":"t1"})");
  EXPECT_TRUE(good.validate_now());
}

}  // namespace
}  // namespace atout::server::testing
