// The bots in whole matches of every variant: every decision is one of the seat's legal actions.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "atout/bots/bot.hpp"
#include "match_driver.hpp"

namespace atout::bots {
namespace {

using testing::MatchCase;

struct LevelCase {
  MatchCase match;
  Level even = Level::rules;  // seats 0 and 2 (or seat 0 of two)
  Level odd = Level::rules;   // seats 1 and 3 (or seat 1 of two)
  int worlds = 0;             // the sampling bot's fixed budget
};

void PrintTo(const LevelCase& c, std::ostream* os) {
  *os << c.match.variant << "/" << to_string(c.even) << "-" << to_string(c.odd) << "/" << c.match.shard;
}
std::string level_case_name(const ::testing::TestParamInfo<LevelCase>& p) {
  return p.param.match.variant + "_" + to_string(p.param.even) + "_" + to_string(p.param.odd) + "_" +
         std::to_string(p.param.match.shard);
}

// Plays `c.match.count` whole matches; returns the matches each side won.
std::array<int, 2> play_matches(const LevelCase& c) {
  Record header;
  header.variant = c.match.variant;
  header.options = c.match.overrides;
  header.deal.seed = testing::seed_of("bots/" + to_string(c.even) + "-" + to_string(c.odd), c.match);
  std::array<int, 2> won{};
  std::uint64_t decision = 0;
  for (int m = 0; m < c.match.count; ++m) {
    auto created = create_state(header);
    EXPECT_FALSE(created.error);
    if (created.error) return won;
    std::unique_ptr<State> state = std::move(created.state);
    const Options& options = state->record().options;
    int steps = 0;
    for (; !state->is_terminal() && steps < 20000; ++steps) {
      const Seat seat = state->current_player();
      const Observation view = state->observation(seat);
      Request request;
      request.level = seat % 2 == 0 ? c.even : c.odd;
      request.view = &view;
      request.options = &options;
      request.seed = ++decision;
      request.budget.worlds = c.worlds;
      const Decision d = decide(request);
      EXPECT_NE(std::find(view.legal.begin(), view.legal.end(), d.action), view.legal.end())
          << to_string(request.level) << " chose " << to_string(d.action) << " (" << d.reason << ")";
      EXPECT_FALSE(d.reason.empty());
      // Only the random level ever concedes: the others never give tricks away.
      if (request.level != Level::random) {
        EXPECT_NE(d.action.type, ActionType::concede) << d.reason;
      }
      const Refusal r = state->apply(seat, d.action);
      EXPECT_EQ(r, Refusal::none) << to_string(d.action);
      if (r != Refusal::none) return won;
    }
    EXPECT_TRUE(state->is_terminal()) << "a match of " << steps << " steps did not end";
    if (const auto w = state->winner()) ++won[static_cast<std::size_t>(*w)];
    header.deal.seed = Seed{header.deal.seed->hi, header.deal.seed->lo + 1000003};
  }
  return won;
}

class BotSim : public ::testing::TestWithParam<LevelCase> {};

TEST_P(BotSim, EveryDecisionIsLegalInWholeMatches) {
  const LevelCase& c = GetParam();
  const std::array<int, 2> won = play_matches(c);
  RecordProperty("won", std::to_string(won[0]) + "-" + std::to_string(won[1]));
  EXPECT_EQ(won[0] + won[1], c.match.count) << "every match has a winner";
}

// Random and rules: per variant and level 10 + 3 x 330 = 1,000 matches (shard 0, the small one,
// runs under the sanitizers). Sampling (two worlds a card) against rules: 2 matches per variant.
std::vector<LevelCase> bot_cases() {
  std::vector<LevelCase> out;
  for (const std::string& v : testing::variant_ids()) {
    for (Level level : {Level::random, Level::rules})
      for (int shard = 0; shard < 4; ++shard)
        out.push_back({{v, shard, shard == 0 ? 10 : 330, testing::overrides_for(v, shard)}, level, level, 0});
    out.push_back({{v, 0, 1, testing::overrides_for(v, 1)}, Level::sampling, Level::rules, 2});
    out.push_back({{v, 1, 1, testing::overrides_for(v, 2)}, Level::rules, Level::sampling, 2});
  }
  return out;
}
INSTANTIATE_TEST_SUITE_P(Levels, BotSim, ::testing::ValuesIn(bot_cases()), level_case_name);

}  // namespace
}  // namespace atout::bots
