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
  EXPECT_EQ(patch, json::parse(R"({"observation":{"current":2,"hand-":[0]},"turn_ms_left":29000})"));
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
  // An array that was empty is sent whole; one that shrank, as what it lost.
  EXPECT_EQ(patch,
            json::parse(R"({"o":{"tricks+":[{"l":2}],"bids":[{"t":"pass"}],"hand-":[1],"trick+":["8H","9H"]}})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
  // An append to nothing, or to something that is not an array, is refused.
  EXPECT_FALSE(apply_view_delta(before, json::parse(R"({"o":{"missing+":[1]}})")).has_value());
  EXPECT_FALSE(apply_view_delta(json::parse(R"({"a":{"b":1}})"), json::parse(R"({"a+":[1]})")).has_value());
  EXPECT_FALSE(apply_view_delta(json::parse(R"({"a":[1]})"), json::parse(R"({"a+":2})")).has_value());
}

TEST(ViewDelta, AnArrayThatLostElementsSendsTheirIndices) {
  const json before = json::parse(R"({"hand":["JS","9S","AH","7D","TC","KH","QD","8C"],"s":[8,8]})");
  const json after = json::parse(R"({"hand":["9S","AH","7D","KH","QD"],"s":[7,8]})");
  const json patch = view_delta(before, after);
  EXPECT_EQ(patch, json::parse(R"({"hand-":[0,4,7],"s":[7,8]})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
  // Down to nothing, the plain form is shorter.
  EXPECT_EQ(view_delta(json::parse(R"({"a":[1,2,3]})"), json::parse(R"({"a":[]})")), json::parse(R"({"a":[]})"));
  // Indices out of order, repeated, out of range or not indices, and removals from no array, are refused.
  for (const char* bad : {R"({"hand-":[3,1]})", R"({"hand-":[2,2]})", R"({"hand-":[8]})", R"({"hand-":[-1]})",
                          R"({"hand-":["0"]})", R"({"hand-":2})", R"({"s-":[0],"x-":[0]})", R"({"none-":[0]})"})
    EXPECT_FALSE(apply_view_delta(before, json::parse(bad)).has_value()) << bad;
}

TEST(ViewDelta, AnArrayOfObjectsMayComeAsATable) {
  const json before = json::parse(R"({"o":{"legal":[]}})");
  const json after = json::parse(R"({"o":{"legal":[{"type":"pass"},{"type":"bid","trump":"S","value":80},
    {"type":"bid","trump":"H","value":80},{"type":"bid","trump":"D","value":90}]}})");
  const json patch = view_delta(before, after);
  EXPECT_EQ(patch, json::parse(R"({"o":{"legal#":[["type","trump","value"],["pass",null,null],["bid","S",80],
    ["bid","H",80],["bid","D",90]]}})"));
  EXPECT_EQ(apply_view_delta(before, patch), after);
  // A new object is patched key by key from nothing, so its arrays get the short forms too.
  const json grown = json::parse(R"({"r":{"hands":[{"a":1,"b":2},{"a":3,"b":4},{"a":5,"b":6}]}})");
  const json from_nothing = view_delta(json::object(), grown);
  EXPECT_TRUE(from_nothing["r"].contains("hands#")) << from_nothing;
  EXPECT_EQ(apply_view_delta(json::object(), from_nothing), grown);
  EXPECT_EQ(apply_view_delta(json::parse(R"({"r":7})"), from_nothing), grown);
  // Malformed tables are refused: no key row, keys that are not strings, rows of the wrong length.
  for (const char* bad : {R"({"t#":[]})", R"({"t#":[1,2]})", R"({"t#":[[1],[2]]})", R"({"t#":[["a"],[1,2]]})",
                          R"({"t#":[["a"],3]})", R"({"t#":{"a":1}})"})
    EXPECT_FALSE(apply_view_delta(before, json::parse(bad)).has_value()) << bad;
  // A key row alone is an empty array.
  EXPECT_EQ(apply_view_delta(before, json::parse(R"({"t#":[["a"]]})")), json::parse(R"({"o":{"legal":[]},"t":[]})"));
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

// A view held as text, from the text of a JSON object written as dump() writes it.
ViewText text_of(const json& j) { return ViewText(std::make_shared<const std::string>(j.dump())); }

TEST(ViewDelta, ViewTextSplitsTheEventAndDropsItsFrame) {
  const ViewText v = text_of(json::parse(R"({"type":"event","table_id":"t-9","seq":12,"id":4,"kind":"action",
    "observation":{"hand":["AS","7H"],"trick":{"cards":[]}},"note":"a \"q\" [x] {y}, z","turn_ms_left":-5})"));
  ASSERT_EQ(v.top(), 4u);
  EXPECT_EQ(v.key(v.members()[0]), "kind");
  EXPECT_EQ(v.value(v.members()[0]), R"("action")");
  EXPECT_EQ(v.key(v.members()[1]), "note");
  EXPECT_EQ(v.value(v.members()[1]), R"("a \"q\" [x] {y}, z")");
  EXPECT_EQ(v.key(v.members()[2]), "observation");
  EXPECT_EQ(v.value(v.members()[2]), R"({"hand":["AS","7H"],"trick":{"cards":[]}})");
  EXPECT_EQ(v.key(v.members()[3]), "turn_ms_left");
  EXPECT_EQ(v.value(v.members()[3]), "-5");
}

TEST(ViewDelta, TheDeltaOnTextIsTheDeltaOnTrees) {
  // Each pair: a key gone, one added, a value changed, arrays grown, shrunk and replaced, an object
  // changed deep down, an object where there was none, one that did not change, escaped keys.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {R"({"a":1,"b":2})", R"({"b":3,"c":[1]})"},
      {R"({"o":{"hand":["AS","KS","7H"],"tricks":[[1]],"n":1}})",
       R"({"o":{"hand":["AS","7H"],"tricks":[[1],[2]],"n":1}})"},
      {R"({"o":{"legal":[{"type":"card","card":"AS"}]}})",
       R"({"o":{"legal":[{"type":"card","card":"KS"},{"type":"card","card":"7H"}]}})"},
      {R"({"o":{"deep":{"deeper":{"x":1,"y":[1,2]}}},"same":{"k":[1]}})",
       R"({"o":{"deep":{"deeper":{"x":1,"y":[1,2,3]}}},"same":{"k":[1]}})"},
      {R"({"o":5,"p":{"q":1}})", R"({"o":{"r":[1,2]},"p":{}})"},
      {R"({"o":{"a":1}})", R"({"o":{}})"},
      {R"({"e\"k":1,"f\\":{"g":2}})", R"({"e\"k":2,"f\\":{"g":3}})"},
      {R"({"s":"x"})", R"({"s":"x"})"},
      // Arrays as a table of objects, and indices removed; keys whose suffixed form sorts among others.
      {R"({"l":[1]})",
       R"({"l":[{"type":"card","card":"AS"},{"type":"card","card":"KS"},{"type":"card","card":"7H"}]})"},
      {R"({"h":["AS","KS","QS","JS","TS","9S","8S"]})", R"({"h":["AS","8S"]})"},
      {R"({"h":[1,2],"h_n":1,"i":0})", R"({"h":[1,2,3],"h_n":2,"i":1})"},
      {R"({"a":{"x":1},"b":null})", R"({"b":"\u00e9\n"})"},
  };
  for (const auto& [before, after] : pairs) {
    const json b = json::parse(before), a = json::parse(after);
    EXPECT_EQ(view_delta(text_of(b), text_of(a)), view_delta(b, a)) << before << " -> " << after;
    EXPECT_EQ(apply_view_delta(b, view_delta(text_of(b), text_of(a))), a) << before << " -> " << after;
    // The message the server sends, written on text, byte for byte the tree's (with and without an
    // id, with the base just before and further back).
    for (const RequestId& id : {RequestId{}, RequestId{std::int64_t{-7}}, RequestId{std::string("a\"1")}})
      for (const std::uint64_t base : {std::uint64_t{11}, std::uint64_t{4}})
        EXPECT_EQ(serialize_delta(text_of(b), text_of(a), "t-\"9", 12, base, id),
                  serialize(Delta{"t-\"9", 12, base, view_delta(b, a), id}))
            << before << " -> " << after;
  }
  // The first event of a table has nothing before it: from an empty view, every key whole.
  const json first = json::parse(R"({"kind":"start","observation":{"hand":["AS"]}})");
  EXPECT_EQ(view_delta(text_of(json::object()), text_of(first)), view_delta(json::object(), first));
}

TEST(ViewDelta, DeltaMessageCarriesThePatchBesideItsFrame) {
  const json j = json::parse(
      serialize(Delta{"t-2", 8, 7, json{{"turn_ms_left", 5}, {"observation", {{"current", 1}}}}, std::string("a1")}));
  EXPECT_EQ(j, json::parse(R"({"type":"delta","table_id":"t-2","turn_ms_left":5,"observation":{"current":1},
    "id":"a1"})"));  // seq and base left out: base is seq - 1
  EXPECT_FALSE(json::parse(serialize(Delta{"t-2", 8, 7, json::object(), {}})).contains("id"));
  // Any other base is given with seq (after a replay, the base may be any earlier event).
  const json later = json::parse(serialize(Delta{"t-2", 8, 5, json::object(), {}}));
  EXPECT_EQ(later.at("seq"), 8);
  EXPECT_EQ(later.at("base"), 5);
  EXPECT_EQ(json::parse(serialize(Delta{"t-2", 8, 9, json::object(), {}})).at("base"), 9);
}

const json kHeld = json::parse(R"({"type":"event","table_id":"t-2","seq":7,"id":"a0","kind":"action",
  "observation":{"current":1,"hand":["AS","KS"]},"turn_ms_left":30000})");

TEST(ViewDelta, RebuildsTheEventAfterTheOneHeld) {
  const auto e = rebuild_event(kHeld, json::parse(R"({"type":"delta","table_id":"t-2",
    "observation":{"current":2,"hand-":[0]},"turn_ms_left":null})"));
  ASSERT_TRUE(e.has_value());
  // The held event's id was its own: only the delta's id is carried over.
  EXPECT_EQ(*e, json::parse(R"({"type":"event","table_id":"t-2","seq":8,"kind":"action",
    "observation":{"current":2,"hand":["KS"]}})"));
  const auto with_id = rebuild_event(*e, json::parse(R"({"type":"delta","table_id":"t-2","id":3,"kind":"x"})"));
  ASSERT_TRUE(with_id.has_value());
  EXPECT_EQ(with_id->at("seq"), 9);
  EXPECT_EQ(with_id->at("id"), 3);
  EXPECT_EQ(with_id->at("kind"), "x");
}

TEST(ViewDelta, RebuildsWithAnExplicitBaseOnlyWhenItIsTheOneHeld) {
  const auto e = rebuild_event(kHeld, json::parse(R"({"type":"delta","table_id":"t-2","seq":12,"base":7})"));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->at("seq"), 12);
  EXPECT_EQ(e->at("observation"), kHeld.at("observation"));
  for (const char* other : {
           R"({"type":"delta","table_id":"t-2","seq":12,"base":6})",  // another base
           R"({"type":"delta","table_id":"t-2","seq":12})",           // seq without base
           R"({"type":"delta","table_id":"t-2","base":7})",           // base without seq
           R"({"type":"delta","table_id":"t-2","seq":-1,"base":7})",  // no seq
           R"({"type":"delta","table_id":"t-2","seq":"8","base":7})",
       })
    EXPECT_FALSE(rebuild_event(kHeld, json::parse(other)).has_value()) << other;
}

TEST(ViewDelta, RefusesToRebuildWhatDoesNotFit) {
  for (const char* bad : {
           R"({"type":"delta","table_id":"t-3"})",                              // another table
           R"({"type":"delta"})",                                               // no table
           R"({"type":"event","table_id":"t-2"})",                              // not a delta
           R"({"type":"delta","table_id":"t-2","observation":{"hand-":[5]}})",  // patch does not fit
           R"({"type":"delta","table_id":"t-2","kind+":[1]})",
           R"([1])",
       })
    EXPECT_FALSE(rebuild_event(kHeld, json::parse(bad)).has_value()) << bad;
  // Nothing held (a connection's first message at a table must be a whole event), or no seq.
  const json ok = json::parse(R"({"type":"delta","table_id":"t-2"})");
  EXPECT_FALSE(rebuild_event(json(), ok).has_value());
  json no_seq = kHeld;
  no_seq.erase("seq");
  EXPECT_FALSE(rebuild_event(no_seq, ok).has_value());
}

}  // namespace
}  // namespace atout::protocol
