// Deltas between two views: what a patch holds, and views rebuilt from it.
#include "atout/protocol/view_delta.hpp"

#include <gtest/gtest.h>

namespace atout::protocol {
namespace {

TEST(ViewDelta, HoldsOnlyWhatChanged) {
  const json before = json::parse(R"({"kind":"action","observation":{"current":1,"hand":["AS","KS"],
    "match_score":[0,0]},"turn_ms_left":30000,"commitment":{"hash":"ab","deal_number":0}})");
  const json after = json::parse(R"({"kind":"action","observation":{"current":2,"hand":["KS"],
    "match_score":[0,0]},"turn_ms_left":29000,"commitment":{"hash":"ab","deal_number":0}})");
  const json patch = view_delta(before, after);
  EXPECT_EQ(patch, json::parse(R"({"observation":{"current":2,"hand":["KS"]},"turn_ms_left":29000})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
}

TEST(ViewDelta, RemovesWithNullAndAddsWhole) {
  const json before = json::parse(R"({"hand_result":{"seed":"01"},"last_action":{"seat":0}})");
  const json after = json::parse(R"({"match_result":{"winner":1,"hands":[]},"last_action":{"seat":0}})");
  const json patch = view_delta(before, after);
  EXPECT_EQ(patch, json::parse(R"({"hand_result":null,"match_result":{"winner":1,"hands":[]}})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
}

TEST(ViewDelta, ReplacesAValueThatChangesKind) {
  const json before = json::parse(R"({"a":{"x":1},"b":[1,2],"c":3})");
  const json after = json::parse(R"({"a":[1],"b":{"y":{}},"c":{"z":false}})");
  const json patch = view_delta(before, after);
  EXPECT_EQ(apply_view_delta(before, patch), after);
  // An unchanged view needs an empty patch, which changes nothing.
  EXPECT_EQ(view_delta(after, after), json::object());
  EXPECT_EQ(apply_view_delta(after, json::object()), after);
}

TEST(ViewDelta, AnArrayThatOnlyGrewSendsItsNewElements) {
  const json before = json::parse(R"({"o":{"tricks":[{"l":0}],"bids":[],"hand":["AS","KS"],"trick":["7H"]}})");
  const json after =
      json::parse(R"({"o":{"tricks":[{"l":0},{"l":2}],"bids":[{"t":"pass"}],"hand":["AS"],"trick":["7H","8H","9H"]}})");
  const json patch = view_delta(before, after);
  // An empty array and a shrunk one are sent whole.
  EXPECT_EQ(patch,
            json::parse(R"({"o":{"tricks+":[{"l":2}],"bids":[{"t":"pass"}],"hand":["AS"],"trick+":["8H","9H"]}})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
  // An append to nothing, or to something that is not an array, is refused.
  EXPECT_FALSE(apply_view_delta(before, json::parse(R"({"o":{"missing+":[1]}})")).has_value());
  EXPECT_FALSE(apply_view_delta(json::parse(R"({"a":{"b":1}})"), json::parse(R"({"a+":[1]})")).has_value());
  EXPECT_FALSE(apply_view_delta(json::parse(R"({"a":[1]})"), json::parse(R"({"a+":2})")).has_value());
}

TEST(ViewDelta, RefusesAPatchThatIsNotAnObject) {
  const json view = json::parse(R"({"a":1})");
  EXPECT_FALSE(apply_view_delta(view, json::array()).has_value());
  EXPECT_FALSE(apply_view_delta(view, json(3)).has_value());
  EXPECT_FALSE(apply_view_delta(view, json(nullptr)).has_value());
}

TEST(ViewDelta, EventViewDropsTheFrame) {
  Event e;
  e.table_id = "t-9";
  e.seq = 12;
  e.id = std::int64_t{4};
  e.turn_ms_left = 100;
  const json v = event_view(e);
  EXPECT_FALSE(v.contains("type"));
  EXPECT_FALSE(v.contains("table_id"));
  EXPECT_FALSE(v.contains("seq"));
  EXPECT_FALSE(v.contains("id"));
  EXPECT_EQ(v.at("turn_ms_left"), 100);
  EXPECT_EQ(v.at("kind"), "action");
  EXPECT_TRUE(v.contains("observation"));
}

TEST(ViewDelta, DeltaMessageCarriesItsBase) {
  const json j = json::parse(serialize(Delta{"t-2", 8, 7, json{{"turn_ms_left", 5}}, std::string("a1")}));
  EXPECT_EQ(j.at("type"), "delta");
  EXPECT_EQ(j.at("table_id"), "t-2");
  EXPECT_EQ(j.at("seq"), 8);
  EXPECT_EQ(j.at("base"), 7);
  EXPECT_EQ(j.at("patch"), json({{"turn_ms_left", 5}}));
  EXPECT_EQ(j.at("id"), "a1");
  EXPECT_FALSE(json::parse(serialize(Delta{"t-2", 8, 7, json::object(), {}})).contains("id"));
}

}  // namespace
}  // namespace atout::protocol
