// The seeded random-game harness (see sim_harness.hpp).
#include "sim_harness.hpp"

#include <algorithm>
#include <memory>

namespace atout::sim {

void run_random_sim(const SimCase& c, const Oracle& oracle) { run_random_sim(c, oracle, Policy()); }

void run_random_sim(const SimCase& c, const Oracle& oracle, const Policy& choose) {
  Record header;
  header.variant = c.variant;
  if (!c.options_json.empty()) {
    auto parsed = protocol::parse_options(nlohmann::json::parse(c.options_json));
    ASSERT_TRUE(parsed.value) << parsed.error;
    header.options = *parsed.value;
  }
  Rng policy(Seed{0xA70u, static_cast<std::uint64_t>(c.shard)});
  std::vector<Action> legal;
  for (int g = 0; g < c.games; ++g) {
    header.deal.seed = Seed{static_cast<std::uint64_t>(c.shard), static_cast<std::uint64_t>(g)};
    header.first_dealer = static_cast<Seat>(g % 2);
    CreateResult created = create_state(header);
    ASSERT_TRUE(created.state) << created.error->message;
    State& s = *created.state;
    InvariantChecker checker(s, g < 25);
    const std::size_t midpoint = policy.below(120);
    std::unique_ptr<State> twin;
    for (std::size_t step = 0;; ++step) {
      const std::string failure = checker.step_checks();
      ASSERT_TRUE(failure.empty()) << failure;
      if (s.is_terminal()) break;
      s.legal_actions(legal);
      // A Policy argument wins over the case's Chooser; neither: uniform.
      const std::size_t pick = choose     ? choose(s, legal, policy)
                               : c.choose ? c.choose(legal, policy)
                                          : policy.below(static_cast<std::uint32_t>(legal.size()));
      const Action a = legal[pick];
      if (step == midpoint) {
        // A clone follows the same actions and must stay identical.
        twin = s.clone();
        // Replaying the record so far reproduces the state.
        ReplayResult rr = replay(s.record());
        ASSERT_EQ(rr.refusal, Refusal::none);
        ASSERT_EQ(observations_json(*rr.state), observations_json(s));
      }
      ASSERT_EQ(s.apply(a), Refusal::none) << to_string(a);
      if (twin) {
        ASSERT_EQ(twin->apply(a), Refusal::none);
      }
    }
    ReplayResult rr = replay(s.record());
    ASSERT_EQ(rr.refusal, Refusal::none);
    ASSERT_EQ(observations_json(*rr.state), observations_json(s));
    ASSERT_EQ(protocol::to_json(rr.state->hand_results().back()), protocol::to_json(s.hand_results().back()));
    if (twin) {
      ASSERT_EQ(observations_json(*twin), observations_json(s));
    }
    checker.deals().resize(s.hand_results().size());
    oracle(s, checker.deals());
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace atout::sim
