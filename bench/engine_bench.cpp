// Engine speed: random play-phase hands per second, and legal-move generation cost.
#include <benchmark/benchmark.h>

#include <vector>

#include "atout/play.hpp"
#include "atout/rng.hpp"

namespace {
using namespace atout;

// Deals a shuffled deck into four hands of eight under a random trump suit.
PlayPhase random_french_play(Rng& rng) {
  std::vector<Card> deck;
  for (Card c : CardSet::deck32()) deck.push_back(c);
  shuffle(deck, rng);
  PlayPhase p;
  p.trump = Trump::of(static_cast<Suit>(rng.below(4)));
  for (int i = 0; i < 32; ++i) p.hands[static_cast<std::size_t>(i / 8)].insert(deck[static_cast<std::size_t>(i)]);
  p.tricks_total = 8;
  p.start(0);
  return p;
}

void BM_FrenchRandomPlayHand(benchmark::State& state) {
  Rng rng(Seed{1, 2});
  std::vector<PlayPhase> starts;
  for (int i = 0; i < 1024; ++i) starts.push_back(random_french_play(rng));
  std::size_t k = 0;
  for (auto _ : state) {
    PlayPhase p = starts[k++ & 1023];
    while (!p.done()) {
      const CardSet legal = p.legal();
      p.play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))));
    }
    benchmark::DoNotOptimize(p.won);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["hands_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FrenchRandomPlayHand);

void BM_LegalPlays(benchmark::State& state) {
  Rng rng(Seed{3, 4});
  std::vector<PlayPhase> positions;
  // Positions from random play at every trick size, so the mix covers leads, follows and trumps.
  for (int i = 0; i < 512; ++i) {
    PlayPhase p = random_french_play(rng);
    const int steps = static_cast<int>(rng.below(31));
    for (int s = 0; s < steps; ++s) {
      const CardSet legal = p.legal();
      p.play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))));
    }
    positions.push_back(p);
  }
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(positions[k++ & 511].legal());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LegalPlays);

// The baseline in the same run: the shuffle and deal alone.
void BM_ShuffleDeal(benchmark::State& state) {
  Rng rng(Seed{5, 6});
  for (auto _ : state) benchmark::DoNotOptimize(random_french_play(rng));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ShuffleDeal);

}  // namespace

BENCHMARK_MAIN();
