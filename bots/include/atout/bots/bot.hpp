// The built-in bots: one entry point that turns a seat's observation into a legal action.
//
// A bot sees exactly what its seat sees (the engine's Observation for that seat) and nothing else,
// so a bot at a table can never use a card its seat may not see. Given the same observation,
// options, level, seed and budget, a bot always chooses the same action.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "atout/action.hpp"
#include "atout/state.hpp"

namespace atout::bots {

// How strongly a bot plays.
enum class Level : std::uint8_t {
  random,    // uniform over the legal actions
  rules,     // hand-written heuristics from belote practice
  sampling,  // samples deals consistent with its view and solves each double-dummy
};

std::string to_string(Level level);  // "random", "rules", "sampling"
std::optional<Level> parse_level(std::string_view text);

// How much a decision may cost. `worlds` > 0 fixes the number of sampled deals (reproducible for
// tests); otherwise the bot samples while a world should still end within `time`, gives up a world
// still unsolved when `time` is spent, and decides as the rules bot if it solved none.
struct Budget {
  int worlds = 0;
  std::chrono::milliseconds time{300};

  // Under the time budget, whether a piece of work that may take `slowest` (the longest such piece
  // so far) should still end in time when started `elapsed` into the decision.
  bool fits(std::chrono::steady_clock::duration elapsed, std::chrono::steady_clock::duration slowest) const {
    return elapsed + slowest < time;
  }
};

// Everything a bot is given for one decision.
struct Request {
  Level level = Level::rules;
  const Observation* view = nullptr;  // the seat's own view; `view->legal` must not be empty
  const Options* options = nullptr;   // the match's options, complete (normalise_options)
  std::uint64_t seed = 0;             // the bot's randomness for this decision
  Budget budget{};
};

struct Decision {
  Action action;
  std::string reason;  // one line a person can read: why this action
};

// One of `request.view->legal`.
Decision decide(const Request& request);

}  // namespace atout::bots
