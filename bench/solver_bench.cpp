// The double-dummy solver on fixed seeded full deals (8 tricks, four seats), per variant and
// contract mode; the counter `nodes` is the mean number of search nodes per solve.
#include <benchmark/benchmark.h>

#include <vector>

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

}  // namespace

BENCHMARK_MAIN();
