// The query-string reader shared by the HTTP routes that take a query (/api/tables and the archive).
#include "atout/server/query_fields.hpp"

#include <gtest/gtest.h>

namespace atout::server {
namespace {

TEST(QueryFields, NumbersAsNumbersAndTextAsText) {
  nlohmann::json r = nlohmann::json::object();
  add_query_fields("offset=20&limit=5&variant=coinche&status=waiting", {"offset", "limit"}, {"variant", "status"}, r);
  EXPECT_EQ(r, (nlohmann::json{{"offset", 20}, {"limit", 5}, {"variant", "coinche"}, {"status", "waiting"}}));
}

TEST(QueryFields, ABadNumberStaysAStringSoTheProtocolNamesTheField) {
  nlohmann::json r = nlohmann::json::object();
  add_query_fields("offset=12x&limit=&min_free=-1", {"offset", "limit", "min_free"}, {}, r);
  EXPECT_EQ(r["offset"], "12x");
  EXPECT_EQ(r["limit"], "");
  EXPECT_EQ(r["min_free"], -1);
}

TEST(QueryFields, UnnamedKeysAreIgnoredAndAKeyWithoutValueIsEmpty) {
  nlohmann::json r = nlohmann::json::object();
  add_query_fields("type=stand&variant&&=3&offset", {"offset"}, {"variant"}, r);
  EXPECT_EQ(r, (nlohmann::json{{"variant", ""}, {"offset", ""}}));
}

TEST(QueryFields, LongTextIsCut) {
  nlohmann::json r = nlohmann::json::object();
  add_query_fields("variant=" + std::string(500, 'a'), {}, {"variant"}, r, 32);
  EXPECT_EQ(r["variant"].get<std::string>().size(), 32u);
}

TEST(QueryFields, AnEmptyQueryAddsNothing) {
  nlohmann::json r = nlohmann::json::object();
  add_query_fields("", {"offset"}, {"variant"}, r);
  EXPECT_TRUE(r.empty());
}

}  // namespace
}  // namespace atout::server
