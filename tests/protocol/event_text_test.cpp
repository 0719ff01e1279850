// serialize(Event) writes straight to text (protocol/src/event_text.cpp) and must give the very
// bytes the nlohmann form gives, escapes and bad UTF-8 included. Every observation of seeded random
// matches is compared in event_text_sim_test.cpp; this file holds the cases a random match never
// makes.
#include <gtest/gtest.h>

#include "atout/protocol/messages.hpp"

namespace atout::protocol {
namespace {

std::string tree_text(const Event& e) { return to_json(e).dump(-1, ' ', false, json::error_handler_t::replace); }

TEST(EventText, StringsNeedingEscapesMatchTheTree) {
  Record header;
  header.variant = "french";
  header.deal.seed = Seed{1, 2};
  CreateResult created = create_state(header);
  ASSERT_TRUE(created.state);
  for (const std::string& id : {std::string("quote\"back\\slash"), std::string("tab\tnl\n\x01"),
                                std::string("caf\xC3\xA9"), std::string("bad\xFF\xFEutf8"), std::string()}) {
    Event e;
    e.table_id = id;
    e.observation = created.state->observation(0);
    e.deal = DealCommitment{id, 0, id};
    e.id = id;  // a request id is echoed as the client sent it, escapes and all
    EXPECT_EQ(serialize(e), tree_text(e)) << id;
    // And the text parses back to the same table id as the tree gives.
    EXPECT_EQ(json::parse(serialize(e))["table_id"], json::parse(tree_text(e))["table_id"]);
  }
}

}  // namespace
}  // namespace atout::protocol
