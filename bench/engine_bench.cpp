// Engine speed: random play-phase hands per second, and legal-move generation cost.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "atout/play.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

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

// Play-phase starts of real deals of `variant`: a seeded match is driven with random legal actions
// up to the first card of each hand, and the hands, trump and the variant's play rules are taken
// from there. Declaration actions are skipped (they are not plays).
std::vector<PlayPhase> variant_starts(const VariantInfo& info, std::size_t count) {
  std::vector<PlayPhase> out;
  Rng policy(Seed{7, 8});
  Options options;
  normalise_options(info, options);
  const PlayRules rules = info.play_rules(options);
  std::vector<Action> legal;
  for (std::uint64_t m = 0; out.size() < count; ++m) {
    Record header;
    header.variant = info.id;
    header.deal.seed = Seed{9, m};
    auto state = create_state(header).state;
    int last_hand = -1;
    while (!state->is_terminal() && out.size() < count) {
      const Observation pub = state->observation(kNoSeat);
      if (pub.phase == Phase::playing && pub.hand != last_hand && pub.tricks.empty() && pub.trick.count == 0) {
        last_hand = pub.hand;
        PlayPhase p;
        p.trump = pub.contract->trump;
        p.rules = rules;
        const auto hands = state->hands();
        for (std::size_t i = 0; i < hands.size(); ++i) p.hands[i] = hands[i];
        p.tricks_total = hands[0].size();
        p.start(pub.current);
        out.push_back(p);
      }
      state->legal_actions(legal);
      state->apply(legal[policy.below(static_cast<std::uint32_t>(legal.size()))]);
    }
  }
  return out;
}

// Random play-phase hands of one variant, on the same PlayPhase its state machine uses.
void BM_VariantPlayHand(benchmark::State& state, const VariantInfo* info) {
  const std::vector<PlayPhase> starts = variant_starts(*info, 1024);
  Rng rng(Seed{1, 2});
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

// Whole hands through the State API (deal, bidding, declarations, play, scoring), for scale.
void BM_VariantStateHand(benchmark::State& state, const VariantInfo* info) {
  Rng policy(Seed{3, 4});
  std::vector<Action> legal;
  std::uint64_t m = 0;
  std::int64_t hands = 0;
  std::unique_ptr<State> s;
  for (auto _ : state) {
    if (!s || s->is_terminal()) {
      Record header;
      header.variant = info->id;
      header.deal.seed = Seed{11, m++};
      s = create_state(header).state;
    }
    const std::size_t before = s->hand_results().size();
    while (!s->is_terminal() && s->hand_results().size() == before) {
      s->legal_actions(legal);
      s->apply(legal[policy.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    ++hands;
  }
  state.SetItemsProcessed(hands);
  state.counters["hands_per_s"] = benchmark::Counter(static_cast<double>(hands), benchmark::Counter::kIsRate);
}

}  // namespace

int main(int argc, char** argv) {
  for (const VariantInfo& v : variants()) {
    benchmark::RegisterBenchmark(("BM_VariantPlayHand/" + v.id).c_str(), BM_VariantPlayHand, &v);
    benchmark::RegisterBenchmark(("BM_VariantStateHand/" + v.id).c_str(), BM_VariantStateHand, &v);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
