// Reading cards from bids: the auction is rebuilt in every variant; where every seat spoke with its
// whole hand the true deal explains every bid of rules bots; elsewhere the true deal explains them
// better than worlds drawn without the bids in mind.
#include "atout/bots/bid_inference.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "atout/bots/bot.hpp"
#include "atout/bots/worlds.hpp"
#include "match_driver.hpp"

namespace atout::bots {
namespace {

struct Counts {
  int positions = 0;       // first play decisions of a hand at which the bids were read
  int unread = 0;          // ... at which the auction could not be rebuilt
  int bids = 0;            // other seats' bids read there
  int true_misses = 0;     // bids the true deal left unexplained
  int sampled_misses = 0;  // bids a world sampled from the view left unexplained
};

// Plays `matches` whole matches of `variant` with every seat at `level`, under each of the option
// sets the simulation tests use; at the first card of each hand, reads the bids in the true deal
// and in one world sampled from the view of the seat to play.
Counts weigh_bids(const std::string& variant, Level level, int matches) {
  Counts counts;
  Rng rng(Seed{7, 0});
  testing::play_bot_matches(
      variant, level, matches, "bid-inference",
      [&](const State& state, const Observation& view, const Options& options) {
        if (view.phase != Phase::playing || !view.contract || !view.tricks.empty() || view.trick.count > 0) return;
        BidInference inference(view, options);
        int others = 0;
        for (const RecordedAction& b : view.bids) others += b.seat != view.seat && BidInference::reads(b.action.type);
        ++counts.positions;
        // Every bid of another seat is read, unless the view no longer shows the card the auction
        // was about: in Simple, a trump chosen without the offered card sets it aside, and then
        // nothing is read rather than bids weighed against a wrong card.
        if (variant == "simple" && !view.turn_up) {
          EXPECT_EQ(inference.size(), 0u);
          ++counts.unread;
          return;
        }
        EXPECT_EQ(inference.size(), static_cast<std::size_t>(others)) << variant << ", hand " << view.hand;
        counts.bids += others;
        counts.true_misses += inference.misses(world_of(state));
        const WorldSampler sampler(view, options);
        if (const auto w = sampler.sample(rng)) counts.sampled_misses += inference.misses(*w);
      });
  return counts;
}

class BidInferenceTest : public ::testing::TestWithParam<std::string> {};

// Coinche and Bazar deal all eight cards before the bidding, so the hand each seat spoke with is
// the one the true deal gives it, and every bid of a rules bot is the one the rules bot makes there.
// Elsewhere some cards come after the auction and which ones is a guess, so the true deal may
// leave some bids unexplained, but fewer than a world drawn from the view alone.
TEST_P(BidInferenceTest, TheTrueDealExplainsTheBidsOfRulesBots) {
  const std::string& variant = GetParam();
  const Counts counts = weigh_bids(variant, Level::rules, 32);
  EXPECT_GT(counts.positions, 30);
  // Bids by another seat to read (at two seats, a first-round take leaves none).
  EXPECT_GT(4 * counts.bids, counts.positions - counts.unread);
  EXPECT_LT(counts.unread, counts.positions / 2) << "hands whose auction was not read";
  if (variant == "coinche" || variant == "bazar") {
    EXPECT_EQ(counts.true_misses, 0) << "of " << counts.bids << " bids";
  } else {
    EXPECT_LT(counts.true_misses, counts.sampled_misses) << "of " << counts.bids << " bids";
  }
  // A world drawn from the view alone does not explain every bid, so the counts above could fail.
  EXPECT_GT(counts.sampled_misses, 0) << "of " << counts.bids << " bids";
}

// Random bidders are not rules bots: the true deal leaves some of their bids unexplained.
TEST_P(BidInferenceTest, TheTrueDealLeavesSomeBidsOfRandomPlayersUnexplained) {
  const Counts counts = weigh_bids(GetParam(), Level::random, 8);
  EXPECT_GT(counts.true_misses, 0) << "of " << counts.bids << " bids";
}

INSTANTIATE_TEST_SUITE_P(Variants, BidInferenceTest, ::testing::ValuesIn(testing::variant_ids()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace atout::bots
