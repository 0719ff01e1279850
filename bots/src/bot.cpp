// The bots' entry point: dispatch by level.
#include "atout/bots/bot.hpp"

#include <array>
#include <stdexcept>

#include "atout/fallback.hpp"
#include "atout/rng.hpp"
#include "levels.hpp"

namespace atout::bots {

namespace {

constexpr std::array<std::string_view, 3> kLevelNames{"random", "rules", "sampling"};

Decision decide_random(const Observation& view, std::uint64_t seed) {
  Rng rng(Seed{seed, 0x9e3779b97f4a7c15ULL});
  const auto pick = rng.below(static_cast<std::uint32_t>(view.legal.size()));
  return {view.legal[pick], "uniform over the legal actions"};
}

}  // namespace

std::string to_string(Level level) { return std::string(kLevelNames.at(static_cast<std::size_t>(level))); }

std::optional<Level> parse_level(std::string_view text) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (kLevelNames[i] == text) return static_cast<Level>(i);
  }
  return std::nullopt;
}

Decision decide(const Request& request) {
  if (request.view == nullptr || request.view->legal.empty()) {
    throw std::invalid_argument("bots::decide: a view with legal actions is required");
  }
  const Observation& view = *request.view;
  switch (request.level) {
    case Level::random:
      return decide_random(view, request.seed);
    case Level::rules:
    case Level::sampling:
      // Both read the variant's rules from the options; without them, the cautious stand-in.
      if (request.options == nullptr) return {fallback_action(view), "no options: cautious stand-in"};
      return request.level == Level::rules ? decide_rules(view, *request.options) : decide_sampling(request);
  }
  return {fallback_action(view), "cautious stand-in"};
}

}  // namespace atout::bots
