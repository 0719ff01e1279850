// Random matches for the bots' simulation tests: cases, seeds, option sets and a random driver.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "atout/bots/bot.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace atout::bots::testing {

struct MatchCase {
  std::string variant;
  int shard = 0;
  int count = 0;
  Options overrides;
};

void PrintTo(const MatchCase& c, std::ostream* os);
std::string case_name(const ::testing::TestParamInfo<MatchCase>& p);

// Every registered variant id.
std::vector<std::string> variant_ids();
// One seed per purpose, variant and shard.
Seed seed_of(const std::string& purpose, const MatchCase& c);
// Option sets by shard, so that manual declarations and every play-rule knob are met.
Options overrides_for(const std::string& variant, int shard);

// A match played at random; a new match starts when one ends. Plays are preferred so that
// auctions get through, and offered announcements and showings are often taken.
class RandomMatch {
 public:
  RandomMatch(const MatchCase& c, const std::string& purpose);
  const State& state() const { return *state_; }
  State& mutable_state() { return *state_; }
  // Applies one random legal action (starting a new match first if this one is over).
  void step(Rng& rng);
  // Starts a new match if this one is over; returns true when it did.
  bool renew();
  // The deal as the engine holds it, and the view of `seat`, for failure messages.
  std::string describe(Seat seat) const;
  int matches() const { return matches_; }

 private:
  Record header_;
  std::unique_ptr<State> state_;
  int matches_ = 1;
};

// Plays `matches` whole matches of `variant` with every seat a bot of `level`, under each of the
// option sets the simulation tests use (match m under shard m % 4, seeded by `purpose`, the level
// and m), and calls `look` with the match and the view of the seat to act before each decision.
// A refused bot action fails the test and ends that match.
using MatchLook = std::function<void(const State& state, const Observation& view, const Options& options)>;
void play_bot_matches(const std::string& variant, Level level, int matches, const std::string& purpose,
                      const MatchLook& look);

}  // namespace atout::bots::testing
