// Consistent worlds in random matches of every variant: the true deal always fits its view, and
// every sampled deal fits it too, checked by replaying the hand on the rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atout/bots/worlds.hpp"
#include "match_driver.hpp"

namespace atout::bots {
namespace {

using testing::MatchCase;

class WorldsSim : public ::testing::TestWithParam<MatchCase> {};

TEST_P(WorldsSim, SampledWorldsFitEveryView) {
  const MatchCase& c = GetParam();
  testing::RandomMatch match(c, "worlds");
  Rng rng(testing::seed_of("worlds-pick", c));
  int positions = 0, worlds = 0, misses = 0, with_voids = 0, with_predicates = 0, in_play = 0;
  for (int steps = 0; positions < c.count && steps < 400000; ++steps) {
    const State& state = match.state();
    if (rng.below(3) == 0) {
      const auto seat = static_cast<Seat>(rng.below(static_cast<std::uint32_t>(state.players())));
      const Observation view = state.observation(seat);
      const Options& options = state.record().options;
      const WorldSampler sampler(view, options);
      ASSERT_TRUE(sampler.valid()) << match.describe(seat);
      const World truth = world_of(state);
      const auto truth_error = inconsistency(truth, view, options);
      ASSERT_FALSE(truth_error) << *truth_error << "\n" << match.describe(seat);
      for (int s = 0; s < state.players(); ++s) {
        const CardSet held = truth.hands[static_cast<std::size_t>(s)];
        ASSERT_TRUE((held & sampler.forbidden(static_cast<Seat>(s))).empty()) << match.describe(seat);
        ASSERT_EQ(held & sampler.required(static_cast<Seat>(s)), sampler.required(static_cast<Seat>(s)));
        if (s != seat && !sampler.forbidden(static_cast<Seat>(s)).empty()) ++with_voids;
      }
      for (const DeclarationView& d : view.declarations) with_predicates += d.shown ? 0 : 1;
      if (view.phase == Phase::playing) ++in_play;
      for (int k = 0; k < 3; ++k) {
        const std::optional<World> w = sampler.sample(rng);
        if (!w) {
          ++misses;
          continue;
        }
        ++worlds;
        const auto error = inconsistency(*w, view, options);
        ASSERT_FALSE(error) << *error << "\n" << match.describe(seat);
      }
      ++positions;
    }
    match.step(rng);
  }
  RecordProperty("summary", std::to_string(positions) + " positions, " + std::to_string(in_play) + " in play, " +
                                std::to_string(worlds) + " worlds, " + std::to_string(misses) + " misses, " +
                                std::to_string(with_voids) + " with voids, " + std::to_string(with_predicates) +
                                " announcements");
  EXPECT_GE(positions, c.count);
  // Rejection gives up rarely: announced sequences are all the sampler has to guess.
  EXPECT_LE(misses * 200, worlds) << misses << " draws gave up";
  // The positions met voids and announcements, so the constraints were exercised.
  EXPECT_GT(in_play, positions / 3);
  EXPECT_GT(with_voids, positions / 20);
  if (c.overrides.count("declare")) {
    EXPECT_GT(with_predicates, 0);
  }
}

// Per variant 200 + 3 x 3,000 positions, three sampled worlds each; shard 0 runs under the
// sanitizers.
std::vector<MatchCase> worlds_cases() {
  std::vector<MatchCase> out;
  for (const std::string& v : testing::variant_ids())
    for (int shard = 0; shard < 4; ++shard)
      out.push_back({v, shard, shard == 0 ? 200 : 3000, testing::overrides_for(v, shard)});
  return out;
}
INSTANTIATE_TEST_SUITE_P(Variants, WorldsSim, ::testing::ValuesIn(worlds_cases()), testing::case_name);

}  // namespace
}  // namespace atout::bots
