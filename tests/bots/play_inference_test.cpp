// Reading cards from play: the true deal explains every card a rules bot played, and not every
// card a random player played.
#include "atout/bots/play_inference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "atout/bots/bot.hpp"
#include "atout/bots/worlds.hpp"
#include "match_driver.hpp"

namespace atout::bots {
namespace {

struct Counts {
  int positions = 0;    // play decisions at which the true deal was weighed
  int with_misses = 0;  // ... at which it left some play unexplained
};

// Plays `matches` whole matches of `variant` with every seat at `level`, under each of the option
// sets the simulation tests use; before each card, weighs the true deal against the view of the
// seat to play.
Counts weigh_true_deals(const std::string& variant, Level level, int matches) {
  Counts counts;
  testing::play_bot_matches(variant, level, matches, "inference",
                            [&](const State& state, const Observation& view, const Options& options) {
                              if (view.phase != Phase::playing || !view.contract) return;
                              const PlayInference inference(view, options);
                              const World truth = world_of(state);
                              const int all = inference.misses(truth, 1000);
                              // The limit stops the count and never changes it below the limit.
                              for (int limit : {0, 1, 2, 3})
                                EXPECT_EQ(inference.misses(truth, limit), std::min(all, limit));
                              ++counts.positions;
                              if (all > 0) ++counts.with_misses;
                            });
  return counts;
}

class PlayInferenceTest : public ::testing::TestWithParam<std::string> {};

// Every card a rules bot played is the one the rules bot would play in the true deal: the view
// rebuilt for that moment (the seat's hand then, the tricks then) is the one it had.
TEST_P(PlayInferenceTest, TheTrueDealExplainsEveryCardOfRulesBots) {
  const Counts counts = weigh_true_deals(GetParam(), Level::rules, 8);
  EXPECT_GT(counts.positions, 200);
  EXPECT_EQ(counts.with_misses, 0) << "of " << counts.positions << " positions";
}

// Random players are not rules bots: the true deal leaves some of their cards unexplained, so the
// count could fail the test above.
TEST_P(PlayInferenceTest, TheTrueDealLeavesSomeCardsOfRandomPlayersUnexplained) {
  const Counts counts = weigh_true_deals(GetParam(), Level::random, 8);
  EXPECT_GT(counts.positions, 200);
  EXPECT_GT(counts.with_misses, counts.positions / 4) << "of " << counts.positions << " positions";
}

INSTANTIATE_TEST_SUITE_P(Variants, PlayInferenceTest, ::testing::ValuesIn(testing::variant_ids()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace atout::bots
