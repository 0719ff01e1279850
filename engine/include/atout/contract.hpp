// Contract modes (a trump suit, No Trumps, All Trumps), card strength under each, and point tables.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "atout/card.hpp"

namespace atout {

enum class Mode : std::uint8_t { suit, no_trumps, all_trumps };

// What is trump in a hand. `suit` is meaningful only when mode == Mode::suit.
struct Trump {
  Mode mode = Mode::suit;
  Suit suit = Suit::clubs;

  static constexpr Trump of(Suit s) { return Trump{Mode::suit, s}; }
  static constexpr Trump no_trumps() { return Trump{Mode::no_trumps, Suit::clubs}; }
  static constexpr Trump all_trumps() { return Trump{Mode::all_trumps, Suit::clubs}; }

  constexpr bool operator==(const Trump& o) const { return mode == o.mode && (mode != Mode::suit || suit == o.suit); }
  // True when cards of `s` follow the trump order (J 9 A 10 K Q 8 7).
  constexpr bool trump_ordered(Suit s) const { return mode == Mode::all_trumps || (mode == Mode::suit && suit == s); }
  // True when `s` is the single trump suit that beats every other suit.
  constexpr bool is_trump_suit(Suit s) const { return mode == Mode::suit && suit == s; }
  constexpr CardSet trump_cards() const { return mode == Mode::suit ? CardSet::suit_mask(suit) : CardSet(); }
};

std::string to_string(Trump t);  // "hearts", "no_trumps", "all_trumps"
std::optional<Trump> parse_trump(std::string_view text);

// Strength of a rank inside its suit, 0 (weakest) to 7 (strongest).
// Plain order A 10 K Q J 9 8 7 and trump order J 9 A 10 K Q 8 7.
inline constexpr std::array<std::uint8_t, kRanks> kPlainStrength = {0, 1, 2, 6, 3, 4, 5, 7};
inline constexpr std::array<std::uint8_t, kRanks> kTrumpStrength = {0, 1, 6, 4, 7, 2, 3, 5};

constexpr int strength(Trump t, Card c) {
  return t.trump_ordered(c.suit()) ? kTrumpStrength[static_cast<int>(c.rank())]
                                   : kPlainStrength[static_cast<int>(c.rank())];
}

// The 8-bit masks of ranks (by natural rank bit) strictly stronger than rank r, per order.
struct StrongerMasks {
  std::array<std::uint8_t, kRanks> plain{};
  std::array<std::uint8_t, kRanks> trump{};
};
constexpr StrongerMasks make_stronger_masks() {
  StrongerMasks m{};
  for (int r = 0; r < kRanks; ++r) {
    for (int o = 0; o < kRanks; ++o) {
      if (kPlainStrength[o] > kPlainStrength[r]) m.plain[r] |= static_cast<std::uint8_t>(1u << o);
      if (kTrumpStrength[o] > kTrumpStrength[r]) m.trump[r] |= static_cast<std::uint8_t>(1u << o);
    }
  }
  return m;
}
inline constexpr StrongerMasks kStronger = make_stronger_masks();

// The cards of `c`'s suit that beat `c` in that suit's order under `t`.
inline CardSet stronger_in_suit(Trump t, Card c) {
  const int r = static_cast<int>(c.rank());
  const std::uint32_t m = t.trump_ordered(c.suit()) ? kStronger.trump[r] : kStronger.plain[r];
  return CardSet(m << (static_cast<int>(c.suit()) * 8));
}

// Card points for one variant: the value of each rank when its suit is trump-ordered, when it is
// plain in a suit contract, and in No Trumps (where the ace is 19).
struct PointTable {
  std::array<int, kRanks> trump{};       // rank -> points in a trump suit (and in All Trumps)
  std::array<int, kRanks> plain{};       // rank -> points in a plain suit of a suit contract
  std::array<int, kRanks> no_trumps{};   // rank -> points in No Trumps
  std::array<int, kRanks> all_trumps{};  // rank -> points in All Trumps
  int last_trick = 10;                   // dix de der

  int value(Trump t, Card c) const {
    const int r = static_cast<int>(c.rank());
    switch (t.mode) {
      case Mode::no_trumps:
        return no_trumps[r];
      case Mode::all_trumps:
        return all_trumps[r];
      case Mode::suit:
        return t.suit == c.suit() ? trump[r] : plain[r];
    }
    return 0;
  }
  int sum(Trump t, CardSet s) const {
    int total = 0;
    for (Card c : s) total += value(t, c);
    return total;
  }
};

// French values: J 20, 9 14, A 11, 10 10, K 4, Q 3 in trumps;
// A 11, 10 10, K 4, Q 3, J 2 in plain suits. Ranks are indexed 7 8 9 10 J Q K A.
inline constexpr std::array<int, kRanks> kTrumpPoints = {0, 0, 14, 10, 20, 3, 4, 11};
inline constexpr std::array<int, kRanks> kPlainPoints = {0, 0, 0, 10, 2, 3, 4, 11};
// In No Trumps ("height") the ace is worth 19.
inline constexpr std::array<int, kRanks> kHeightPoints = {0, 0, 0, 10, 2, 3, 4, 19};

}  // namespace atout
