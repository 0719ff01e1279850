// The seeded random-game harness every variant's simulation test uses (after OpenSpiel's
// RandomSimTest): at every step, the invariants of tests/support/invariants.hpp (cards conserved,
// legal actions non-empty exactly until the end, no observation showing a card its seat may not
// see); mid-match, a clone and a replay of the record reproduce the state; at the end, the
// variant's own scoring oracle runs.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"
#include "invariants.hpp"

namespace atout::sim {

// Picks the index of the action to take among `legal` (never empty).
using Chooser = std::size_t (*)(const std::vector<Action>& legal, Rng& rng);

struct SimCase {
  std::string variant;
  int shard = 0;
  int games = 0;
  std::string options_json;  // table options, as JSON; empty for the defaults
  // The policy; nullptr is uniform over the legal actions. A variant whose uniform play never
  // reaches some outcome (e.g. a low contract in an auction) can bias it.
  Chooser choose = nullptr;
};

inline void PrintTo(const SimCase& c, std::ostream* os) { *os << c.variant << "/" << c.shard; }

// Checks a finished match: `deals` is indexed by hand number (deals nobody played stay default).
using Oracle = std::function<void(const State&, const std::vector<DealFacts>&)>;

// Picks the index in `legal` of the action to take, from the policy generator `rng`.
using Policy = std::function<std::size_t(const State&, const std::vector<Action>& legal, Rng& rng)>;

// Runs `c.games` matches of `c.variant` with a seeded uniform random policy and `oracle` on each.
void run_random_sim(const SimCase& c, const Oracle& oracle);
// The same with another random policy (for variants where a uniform choice rarely reaches some
// outcomes, e.g. auctions with dozens of bids and one pass).
void run_random_sim(const SimCase& c, const Oracle& oracle, const Policy& policy);

}  // namespace atout::sim
