// Declarations: sequences and carrés, the best non-overlapping set, team comparison, belote.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atout/card.hpp"
#include "atout/contract.hpp"
#include "atout/trick.hpp"

namespace atout {

enum class ComboKind : std::uint8_t { tierce, quarte, quint, carre };

struct Combo {
  ComboKind kind = ComboKind::tierce;
  CardSet cards;
  // Sequences: the suit and the top rank (the "height"). Carrés: the rank.
  Suit suit = Suit::clubs;
  Rank top = Rank::seven;
  int points = 0;
  bool operator==(const Combo&) const = default;
};

std::string to_string(ComboKind k);  // "tierce", "quarte", "quint", "carre"

// A variant's declaration table.
struct DeclarationRules {
  bool enabled = true;
  bool none_in_no_trumps = false;
  // Points of a sequence of 3, 4 and 5 cards. Longer runs split.
  std::array<int, 3> sequence_points = {20, 50, 100};
  // Carrés by rank (7 8 9 10 J Q K A), in suit contracts (and All Trumps) and in No Trumps.
  std::uint8_t carre_ranks = 0;  // bit per rank: which carrés exist at all
  std::array<int, kRanks> carre_points{};
  std::array<int, kRanks> carre_points_no_trumps{};
  // Strength of a carré by rank, higher wins; Bazar orders 8 > J > 9 > A > 10 > K > Q.
  std::array<std::uint8_t, kRanks> carre_order{};
  std::array<std::uint8_t, kRanks> carre_order_no_trumps{};
  // Equal best combinations, neither in trumps: the first to show wins or
  // neither side scores.
  bool equal_first_wins = true;
  // "First" means the first to announce, in the first trick's order of play,
  // or the first to show, in the second trick's order.
  bool ties_to_first_shown = false;
  int belote_points = 20;
};

// Every sequence (each length 3..5 at each position) and carré in `hand`.
std::vector<Combo> find_combos(CardSet hand, Trump t, const DeclarationRules& rules);

// The set of non-overlapping combinations worth the most points; ties go to the set whose best
// combination is stronger.
std::vector<Combo> best_combos(CardSet hand, Trump t, const DeclarationRules& rules);

// A comparable key for one combination: higher is stronger. Carrés beat sequences; a longer
// sequence beats a shorter one; then height; then a sequence in trumps beats one that is not.
std::uint32_t combo_strength(const Combo& c, Trump t, const DeclarationRules& rules);

// Which team's declarations count. `by_seat` holds each seat's combinations; `order` lists the
// seats in the order they show (the first trick's order of play). Returns 0 or 1, or nullopt when
// neither side scores (no combinations, or an equal tie under equal_first_wins == false).
std::optional<int> declaration_winner(const std::vector<std::vector<Combo>>& by_seat, const std::vector<Seat>& order,
                                      Trump t, const DeclarationRules& rules);

// The seat holding both king and queen of trumps, if any (suit contracts only).
std::optional<Seat> belote_holder(const std::vector<CardSet>& hands, Trump t);

}  // namespace atout
