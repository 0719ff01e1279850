// The double-dummy solver on fixed seeded full deals (8 tricks, four seats), per variant and
// contract mode; the counter `nodes` is the mean number of search nodes per solve.
#include <benchmark/benchmark.h>

#include <vector>

#include "atout/bots/analysis.hpp"
#include "atout/bots/solver.hpp"
#include "bots/positions.hpp"

namespace {

using namespace atout;

std::vector<bots::Position> deals(const char* variant, Trump trump, int n) {
  const Options options = bots::testing::options_of(variant);
  Rng rng(Seed{0xbe4c, static_cast<std::uint64_t>(trump.mode)});
  std::vector<bots::Position> out;
  for (int i = 0; i < n; ++i) out.push_back(bots::testing::random_deal(variant, options, rng, trump));
  return out;
}

void solve(benchmark::State& st, const char* variant, Trump trump, bool every_card) {
  const std::vector<bots::Position> ps = deals(variant, trump, 64);
  bots::Solver solver;
  std::size_t i = 0;
  double nodes = 0;
  for (auto _ : st) {
    const bots::Position& p = ps[i++ % ps.size()];
    if (every_card) {
      benchmark::DoNotOptimize(solver.solve(p));
    } else {
      benchmark::DoNotOptimize(solver.value(p));
    }
    nodes += static_cast<double>(solver.nodes());
  }
  st.counters["nodes"] = benchmark::Counter(nodes / static_cast<double>(st.iterations()));
}

BENCHMARK_CAPTURE(solve, french_suit, "french", Trump::of(Suit::hearts), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, coinche_suit, "coinche", Trump::of(Suit::hearts), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, coinche_no_trumps, "coinche", Trump::no_trumps(), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, coinche_all_trumps, "coinche", Trump::all_trumps(), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, belot_suit, "belot", Trump::of(Suit::hearts), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, belot_no_trumps, "belot", Trump::no_trumps(), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, belot_all_trumps, "belot", Trump::all_trumps(), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, bazar_suit, "bazar", Trump::of(Suit::hearts), false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, bazar_no_trumps, "bazar", Trump::no_trumps(), false)->Unit(benchmark::kMillisecond);
// The value of every first card, as a bot choosing its lead needs.
BENCHMARK_CAPTURE(solve, coinche_suit_every_card, "coinche", Trump::of(Suit::hearts), true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, coinche_no_trumps_every_card, "coinche", Trump::no_trumps(), true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(solve, coinche_all_trumps_every_card, "coinche", Trump::all_trumps(), true)
    ->Unit(benchmark::kMillisecond);

// Records of one deal with a contract each, played at random (cards preferred over concessions),
// for the analysis of every card of a deal, as a replay page asks for it.
std::vector<Record> played_deals(const char* variant, int n) {
  std::vector<Record> out;
  Rng rng(Seed{0xa4a1, 0x75e});
  for (std::uint64_t m = 0; static_cast<int>(out.size()) < n; ++m) {
    Record header;
    header.variant = variant;
    header.deal.seed = Seed{0xdea1, m};
    auto state = create_state(header).state;
    while (!state->is_terminal() && state->hand_results().empty()) {
      std::vector<Action> legal = state->legal_actions();
      std::vector<Action> cards;
      for (const Action& a : legal)
        if (a.type == ActionType::play) cards.push_back(a);
      const std::vector<Action>& pool = cards.empty() ? legal : cards;
      state->apply(pool[rng.below(static_cast<std::uint32_t>(pool.size()))]);
    }
    if (!state->hand_results().empty() && state->hand_results().front().contract) out.push_back(state->record());
  }
  return out;
}

void analyse(benchmark::State& st, const char* variant) {
  const std::vector<Record> records = played_deals(variant, 16);
  bots::Solver solver;
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(bots::analyse_deal(records[i++ % records.size()], 0, solver));
}

// Every card of one deal, as the replay page's analysis does it.
BENCHMARK_CAPTURE(analyse, french_deal, "french")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyse, coinche_deal, "coinche")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(analyse, belot_deal, "belot")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
