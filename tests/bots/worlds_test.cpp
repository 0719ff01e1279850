// Consistent worlds on positions small enough to list every deal: exact counts, a chi-square test
// of uniformity, and deals that break one constraint judged inconsistent.
#include "atout/bots/worlds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "match_driver.hpp"

namespace atout::bots {
namespace {

using testing::MatchCase;
using testing::RandomMatch;

// Every deal of the sampler's unknown cards to the places that still have room (the seats other
// than the viewer, and the rest), with the required cards in place; kept when the checker accepts.
std::vector<World> all_worlds(const Observation& view, const Options& options, const WorldSampler& sampler) {
  World base;
  const int players = view.players;
  std::array<int, 5> room{};
  CardSet placed;
  for (int s = 0; s < players; ++s) {
    const auto i = static_cast<std::size_t>(s);
    base.hands[i] = s == view.seat ? view.own : sampler.required(static_cast<Seat>(s));
    room[i] = view.hand_sizes[i] - base.hands[i].size();
    placed |= base.hands[i];
  }
  CardSet played = view.trick.as_set();
  for (const Trick& t : view.tricks) played |= t.as_set();
  const CardSet deck = find_variant(view.variant)->deck_size == 24 ? CardSet::deck24() : CardSet::deck32();
  const CardSet unknown = sampler.unknown();
  base.rest = deck - placed - played - unknown;
  std::vector<Card> cards;
  for (Card c : unknown) cards.push_back(c);
  room[4] = static_cast<int>(cards.size());
  for (int s = 0; s < players; ++s) room[4] -= room[static_cast<std::size_t>(s)];
  std::vector<World> out;
  World w = base;
  auto place = [&](auto&& self, std::size_t k) -> void {
    if (k == cards.size()) {
      if (!inconsistency(w, view, options)) out.push_back(w);
      return;
    }
    for (std::size_t p = 0; p < 5; ++p) {
      if (room[p] == 0 || (p < 4 && static_cast<int>(p) == view.seat)) continue;
      CardSet& to = p == 4 ? w.rest : w.hands[p];
      --room[p];
      to.insert(cards[k]);
      self(self, k + 1);
      to.erase(cards[k]);
      ++room[p];
    }
  };
  place(place, 0);
  return out;
}

// The chi-square statistic of `counts` against equal expectation.
double chi_square(const std::vector<int>& counts, int draws) {
  const double e = static_cast<double>(draws) / static_cast<double>(counts.size());
  double stat = 0;
  for (int c : counts) stat += (c - e) * (c - e) / e;
  return stat;
}

// The upper 0.1% point of chi-square with `df` degrees of freedom (Wilson and Hilferty).
double chi_square_critical(int df) {
  const double d = df, z = 3.0902;
  const double a = 1 - 2 / (9 * d) + z * std::sqrt(2 / (9 * d));
  return d * a * a * a;
}

struct Small {
  std::unique_ptr<State> state;
  Observation view;
  std::vector<World> worlds;
};

// A late position of `variant` where between 12 and 400 deals fit and the constraints exclude
// some: at most nine unknown cards.
Small find_small(const std::string& variant, std::uint64_t salt) {
  MatchCase c{variant, static_cast<int>(salt), 0, {}};
  RandomMatch match(c, "small");
  Rng rng(Seed{salt, 7});
  for (int steps = 0; steps < 200000; ++steps) {
    match.step(rng);
    const State& s = match.state();
    if (s.phase() != Phase::playing) continue;
    const auto seat = static_cast<Seat>(rng.below(static_cast<std::uint32_t>(s.players())));
    Observation view = s.observation(seat);
    const WorldSampler sampler(view, s.record().options);
    if (!sampler.valid() || sampler.unknown().size() > 9 || sampler.unknown().size() < 4) continue;
    bool constrained = false;
    for (int k = 0; k < s.players(); ++k) constrained = constrained || !sampler.forbidden(static_cast<Seat>(k)).empty();
    if (!constrained || sampler.count() < 12 || sampler.count() > 400) continue;
    std::vector<World> worlds = all_worlds(view, s.record().options, sampler);
    return {s.clone(), std::move(view), std::move(worlds)};
  }
  return {};
}

std::string key(const World& w) {
  std::string k;
  for (CardSet h : w.hands) k += std::to_string(h.bits()) + ",";
  return k + std::to_string(w.rest.bits());
}

class WorldsUniform : public ::testing::TestWithParam<std::string> {};

TEST_P(WorldsUniform, EveryDealIsCountedAndDrawnEquallyOften) {
  for (std::uint64_t salt = 1; salt <= 3; ++salt) {
    Small small = find_small(GetParam(), salt);
    ASSERT_TRUE(small.state) << "no small position found";
    const Options& options = small.state->record().options;
    const WorldSampler sampler(small.view, options);
    // The per-seat constraints are exact: the checker, replaying the rules, accepts as many deals
    // (fewer where an announced sequence is left to rejection).
    if (sampler.rejects()) {
      ASSERT_LE(static_cast<double>(small.worlds.size()), sampler.count());
    } else {
      ASSERT_EQ(static_cast<double>(small.worlds.size()), sampler.count());
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < small.worlds.size(); ++i) index[key(small.worlds[i])] = i;
    ASSERT_TRUE(index.count(key(world_of(*small.state))));

    const int per_world = 60;
    const int draws = per_world * static_cast<int>(small.worlds.size());
    std::vector<int> counts(small.worlds.size(), 0), biased(small.worlds.size(), 0);
    Rng rng(Seed{salt, 11});
    for (int k = 0; k < draws; ++k) {
      const std::optional<World> w = sampler.sample(rng);
      ASSERT_TRUE(w);
      const auto at = index.find(key(*w));
      ASSERT_NE(at, index.end()) << "a sampled deal the checker rejects";
      ++counts[at->second];
      // The same draws with one deal favoured a little, which the test must notice.
      ++biased[k % 8 == 0 ? 0 : at->second];
    }
    const int df = static_cast<int>(small.worlds.size()) - 1;
    EXPECT_LT(chi_square(counts, draws), chi_square_critical(df)) << small.worlds.size() << " deals";
    EXPECT_GT(chi_square(biased, draws), chi_square_critical(df)) << "the test cannot see a bias";
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, WorldsUniform, ::testing::Values("french", "coinche", "bazar", "belot"));

TEST(Worlds, BreakingAConstraintIsInconsistent) {
  MatchCase c{"french", 5, 0, {}};
  RandomMatch match(c, "break");
  Rng rng(Seed{5, 5});
  int broken = 0;
  for (int steps = 0; steps < 20000 && broken < 200; ++steps) {
    match.step(rng);
    const State& s = match.state();
    if (s.phase() != Phase::playing) continue;
    const auto seat = static_cast<Seat>(rng.below(4));
    const Observation view = s.observation(seat);
    const WorldSampler sampler(view, s.record().options);
    const World truth = world_of(s);
    for (int a = 0; a < 4; ++a) {
      if (a == seat) continue;
      for (Card x : sampler.forbidden(static_cast<Seat>(a))) {
        // Move the forbidden card into seat a's hand, in exchange for one of its cards.
        int holder = -1;
        for (int b = 0; b < 4; ++b)
          if (b != seat && truth.hands[static_cast<std::size_t>(b)].contains(x)) holder = b;
        if (holder < 0 || truth.hands[static_cast<std::size_t>(a)].empty()) continue;
        World w = truth;
        const Card y = w.hands[static_cast<std::size_t>(a)].first();
        w.hands[static_cast<std::size_t>(a)].erase(y);
        w.hands[static_cast<std::size_t>(a)].insert(x);
        w.hands[static_cast<std::size_t>(holder)].erase(x);
        w.hands[static_cast<std::size_t>(holder)].insert(y);
        EXPECT_TRUE(inconsistency(w, view, s.record().options)) << match.describe(seat);
        ++broken;
      }
    }
  }
  EXPECT_GT(broken, 50);
}

TEST(Worlds, ViewsThatBreakTheRulesAreRefused) {
  MatchCase c{"french", 6, 0, {}};
  RandomMatch match(c, "refuse");
  Rng rng(Seed{6, 6});
  while (match.state().phase() != Phase::playing || match.state().observation(0).tricks.size() < 2) match.step(rng);
  Observation view = match.state().observation(0);
  const Options& options = match.state().record().options;
  World truth = world_of(match.state());
  ASSERT_FALSE(inconsistency(truth, view, options));
  // A hand of the wrong size, the seat's own cards moved, a played card still held.
  World w = truth;
  w.rest.insert(w.hands[1].first());
  w.hands[1].erase(w.hands[1].first());
  EXPECT_TRUE(inconsistency(w, view, options));
  w = truth;
  std::swap(w.hands[0], w.hands[2]);
  EXPECT_TRUE(inconsistency(w, view, options));
  w = truth;
  w.hands[3].insert(view.tricks[0].cards[0]);
  EXPECT_TRUE(inconsistency(w, view, options));
  // A view whose hand sizes cannot be met has no worlds.
  Observation bad = view;
  bad.hand_sizes[1] += 1;
  const WorldSampler sampler(bad, options);
  EXPECT_FALSE(sampler.valid());
  Rng r(Seed{1, 1});
  EXPECT_FALSE(sampler.sample(r));
}

}  // namespace
}  // namespace atout::bots
