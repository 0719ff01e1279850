// The solver's run keys on their own: over random deals, every set of cards left in every suit,
// against what a key must be (the same count, the same hands in the same order within each run,
// one key for each such pattern, and the smallest set that has it).
#include "run_keys.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "atout/rng.hpp"

namespace atout::bots {
namespace {

using solver_detail::RunKeys;

// The hands of `sub`'s cards within `run`, from the strongest down (`holder` by suit bit).
std::vector<int> holders_of(std::uint32_t sub, std::uint32_t run, const std::array<int, 8>& holder) {
  std::vector<int> out;
  for (int b = 7; b >= 0; --b)
    if (((sub & run) >> b) & 1u) out.push_back(holder[static_cast<std::size_t>(b)]);
  return out;
}

// A suit's points by strength, weakest first: most suits' (7, 8 and 9 worth nothing), and one with
// two runs (three cards worth 0, then three worth 5) and a card between them worth 2.
constexpr std::array<int, 8> kPlain = {0, 0, 0, 2, 3, 4, 10, 11};
constexpr std::array<int, 8> kTwoRuns = {0, 0, 0, 2, 5, 5, 5, 9};

TEST(RunKeys, EverySetIsKeyedByTheSmallestSetOfItsPattern) {
  Rng rng(Seed{0x4b45, 1});
  for (int deal = 0; deal < 400; ++deal) {
    const int players = deal % 2 == 0 ? 4 : 2;
    // Each card in a random hand, or (one time in four) in none: played before, or not dealt.
    std::array<std::uint32_t, 4> hands{};
    for (int c = 0; c < 32; ++c) {
      const auto r = rng.below(static_cast<std::uint32_t>(players) * 4 / 3 + 1);
      if (r < static_cast<std::uint32_t>(players)) hands[r] |= 1u << c;
    }
    std::array<int, 32> points{};
    for (int c = 0; c < 32; ++c) points[static_cast<std::size_t>(c)] = (c / 8 == 1 ? kTwoRuns : kPlain)[c % 8];
    RunKeys keys;
    keys.build(hands, points, true);
    for (int suit = 0; suit < 4; ++suit) {
      const int shift = suit * 8;
      std::array<int, 8> holder{};
      std::uint32_t live = 0;
      for (int s = 0; s < players; ++s)
        for (int b = 0; b < 8; ++b)
          if ((hands[static_cast<std::size_t>(s)] >> (shift + b)) & 1u) {
            holder[static_cast<std::size_t>(b)] = s;
            live |= 1u << b;
          }
      // The runs, by their definition: live cards in order of strength, each group of consecutive
      // ones worth the same points, of three cards or more.
      std::vector<int> in_order;
      for (int b = 0; b < 8; ++b)
        if ((live >> b) & 1u) in_order.push_back(b);
      std::vector<std::uint32_t> runs;
      for (std::size_t i = 0; i < in_order.size();) {
        std::size_t j = i;
        std::uint32_t run = 0;
        while (j < in_order.size() && points[static_cast<std::size_t>(shift + in_order[j])] ==
                                          points[static_cast<std::size_t>(shift + in_order[i])])
          run |= 1u << in_order[j++];
        if (std::popcount(run) >= RunKeys::kMinRun) runs.push_back(run);
        i = j;
      }
      const std::uint32_t in_runs = std::accumulate(runs.begin(), runs.end(), 0u, [](auto a, auto r) { return a | r; });
      std::map<std::vector<std::vector<int>>, std::uint32_t> key_of_pattern;
      // Every set of the live cards (cards in no hand are never in a key).
      for (std::uint32_t sub = live;; sub = (sub - 1) & live) {
        const std::uint32_t key = (keys.of(sub << shift) >> shift) & 0xFFu;
        ASSERT_EQ(key & ~live, 0u) << "a card in no hand, deal " << deal;
        ASSERT_EQ(key & ~in_runs, sub & ~in_runs) << "a card outside the runs moved, deal " << deal;
        ASSERT_LE(key, sub);
        std::vector<std::vector<int>> pattern;
        for (std::uint32_t run : runs) {
          ASSERT_EQ(holders_of(key, run, holder), holders_of(sub, run, holder)) << "deal " << deal << " suit " << suit;
          pattern.push_back(holders_of(sub, run, holder));
        }
        pattern.push_back({static_cast<int>(sub & ~in_runs)});
        const auto [it, fresh] = key_of_pattern.emplace(pattern, key);
        ASSERT_EQ(it->second, key) << "two keys for one pattern, deal " << deal;
        if (sub == 0) break;
      }
      // One key a pattern, and a different key for each pattern.
      std::vector<std::uint32_t> distinct;
      for (const auto& [pattern, key] : key_of_pattern) distinct.push_back(key);
      std::sort(distinct.begin(), distinct.end());
      EXPECT_EQ(std::adjacent_find(distinct.begin(), distinct.end()), distinct.end()) << "deal " << deal;
    }
  }
}

// Seat 0 holds the seven and nine of every suit, seat 1 the eight: the nine alone is keyed as the
// seven alone. Turned off, or with the eights gone (two cards of equal points are no run), every card
// is keyed as it is, even after a solve whose keys had runs.
TEST(RunKeys, TheNineAloneIsKeyedAsTheSevenAlone) {
  std::array<int, 32> points{};
  for (int c = 0; c < 32; ++c) points[static_cast<std::size_t>(c)] = kPlain[static_cast<std::size_t>(c % 8)];
  constexpr std::uint32_t kSevens = 0x01010101u, kEights = 0x02020202u, kNines = 0x04040404u;
  const std::array<std::uint32_t, 4> hands = {kSevens | kNines, kEights, 0u, 0xF8F8F8F8u};
  RunKeys keys;
  keys.build(hands, points, true);
  EXPECT_EQ(keys.of(kNines), kSevens);
  EXPECT_EQ(keys.of(kNines | kEights), kNines | kEights);  // the eight between: another position
  EXPECT_EQ(keys.of(kNines | 0x80808080u), kSevens | 0x80808080u);
  keys.build(hands, points, false);
  for (std::uint32_t cards : {kNines, 0xFFFFFFFFu, kSevens | kEights}) EXPECT_EQ(keys.of(cards), cards);
  keys.build(hands, points, true);
  const std::array<std::uint32_t, 4> no_eights = {kSevens | kNines, 0u, 0u, 0xF8F8F8F8u};
  keys.build(no_eights, points, true);
  EXPECT_EQ(keys.of(kNines), kNines);
}

}  // namespace
}  // namespace atout::bots
