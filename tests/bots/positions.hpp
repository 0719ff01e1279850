// Random play-phase positions and the reference searches the solver is checked against.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "atout/bots/solver.hpp"
#include "atout/play.hpp"
#include "atout/rng.hpp"

namespace atout::bots::testing {

// The variant's default options with `overrides` applied (a JSON-free literal list).
Options options_of(const std::string& variant, const Options& overrides = {});

// The contracts a variant can be played in.
std::vector<Trump> trumps_of(const std::string& variant);

// A random deal of `variant` under a random contract, played at random (by the engine's legal
// plays) until at most `max_tricks` tricks are left (a random number from 1 to max_tricks; it may
// stop in the middle of a trick).
Position random_position(const std::string& variant, const Options& options, Rng& rng, int max_tricks);

// A whole fresh deal (nothing played yet), the first lead by a random seat; the contract is random
// among the variant's unless `trump` is given.
Position random_deal(const std::string& variant, const Options& options, Rng& rng,
                     std::optional<Trump> trump = std::nullopt);

// The engine's play phase for `p` (hands, trick, current seat), to play on with the engine's rules.
PlayPhase engine_play(const Position& p);

// Plain minimax on the engine's play phase: every legal card, no pruning. Returns the final points
// of the declaring side as the variant scores them.
int minimax(const Position& p);
// The value of every legal card by minimax.
std::vector<CardValue> minimax_cards(const Position& p);

}  // namespace atout::bots::testing
