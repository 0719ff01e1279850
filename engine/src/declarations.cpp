// Finding, choosing and comparing declarations.
#include "atout/declarations.hpp"

#include <algorithm>

namespace atout {

std::string to_string(ComboKind k) {
  switch (k) {
    case ComboKind::tierce:
      return "tierce";
    case ComboKind::quarte:
      return "quarte";
    case ComboKind::quint:
      return "quint";
    case ComboKind::carre:
      return "carre";
  }
  return "?";
}

std::vector<Combo> find_combos(CardSet hand, Trump t, const DeclarationRules& rules) {
  std::vector<Combo> out;
  if (!rules.enabled) return out;
  if (rules.none_in_no_trumps && t.mode == Mode::no_trumps) return out;
  for (int s = 0; s < kSuits; ++s) {
    const auto suit = static_cast<Suit>(s);
    const std::uint32_t bits = hand.suit_bits(suit);
    for (int len = 3; len <= 5; ++len) {
      const std::uint32_t run = (1u << len) - 1;
      for (int start = 0; start + len <= kRanks; ++start) {
        if ((bits & (run << start)) != (run << start)) continue;
        Combo c;
        c.kind = static_cast<ComboKind>(len - 3);
        c.cards = CardSet((run << start) << (s * 8));
        c.suit = suit;
        c.top = static_cast<Rank>(start + len - 1);
        c.points = rules.sequence_points[static_cast<std::size_t>(len - 3)];
        out.push_back(c);
      }
    }
  }
  const bool nt = t.mode == Mode::no_trumps;
  for (int r = 0; r < kRanks; ++r) {
    if (!((rules.carre_ranks >> r) & 1u)) continue;
    const CardSet four = CardSet::rank_mask(static_cast<Rank>(r));
    if ((hand & four) != four) continue;
    Combo c;
    c.kind = ComboKind::carre;
    c.cards = four;
    c.top = static_cast<Rank>(r);
    c.points = nt ? rules.carre_points_no_trumps[static_cast<std::size_t>(r)]
                  : rules.carre_points[static_cast<std::size_t>(r)];
    out.push_back(c);
  }
  return out;
}

std::uint32_t combo_strength(const Combo& c, Trump t, const DeclarationRules& rules) {
  const auto r = static_cast<std::size_t>(c.top);
  if (c.kind == ComboKind::carre) {
    const auto& order = t.mode == Mode::no_trumps ? rules.carre_order_no_trumps : rules.carre_order;
    return (1u << 20) | (static_cast<std::uint32_t>(order[r]) << 8);
  }
  const auto len = static_cast<std::uint32_t>(c.kind) + 3;
  return (len << 12) | (static_cast<std::uint32_t>(r) << 4) | (t.is_trump_suit(c.suit) ? 1u : 0u);
}

namespace {
struct Search {
  const std::vector<Combo>& all;
  Trump t;
  const DeclarationRules& rules;
  std::vector<int> chosen, best;
  int best_points = -1;
  std::uint32_t best_top = 0;

  void run(std::size_t from, CardSet used, int points, std::uint32_t top) {
    if (points > best_points || (points == best_points && top > best_top)) {
      best_points = points;
      best_top = top;
      best = chosen;
    }
    for (std::size_t i = from; i < all.size(); ++i) {
      if (!(all[i].cards & used).empty()) continue;
      chosen.push_back(static_cast<int>(i));
      run(i + 1, used | all[i].cards, points + all[i].points, std::max(top, combo_strength(all[i], t, rules)));
      chosen.pop_back();
    }
  }
};
}  // namespace

std::vector<Combo> best_combos(CardSet hand, Trump t, const DeclarationRules& rules) {
  const std::vector<Combo> all = find_combos(hand, t, rules);
  if (all.empty()) return {};
  Search search{all, t, rules, {}, {}};
  search.run(0, CardSet(), 0, 0);
  std::vector<Combo> out;
  for (int i : search.best) out.push_back(all[static_cast<std::size_t>(i)]);
  return out;
}

std::optional<int> declaration_winner(const std::vector<std::vector<Combo>>& by_seat, const std::vector<Seat>& order,
                                      Trump t, const DeclarationRules& rules) {
  std::uint32_t top = 0;
  std::vector<Seat> leaders;  // seats holding the strongest combination, in showing order
  for (Seat s : order) {
    std::uint32_t mine = 0;
    for (const Combo& c : by_seat[static_cast<std::size_t>(s)]) mine = std::max(mine, combo_strength(c, t, rules) + 1);
    if (mine == 0) continue;
    if (mine > top) {
      top = mine;
      leaders.assign(1, s);
    } else if (mine == top) {
      leaders.push_back(s);
    }
  }
  if (leaders.empty()) return std::nullopt;
  const int team = leaders.front() % 2;
  const bool one_team = std::all_of(leaders.begin(), leaders.end(), [&](Seat s) { return s % 2 == team; });
  if (one_team || rules.equal_first_wins) return team;
  return std::nullopt;
}

std::optional<Seat> belote_holder(const std::vector<CardSet>& hands, Trump t) {
  if (t.mode != Mode::suit) return std::nullopt;
  CardSet kq;
  kq.insert(Card(t.suit, Rank::king));
  kq.insert(Card(t.suit, Rank::queen));
  for (std::size_t s = 0; s < hands.size(); ++s)
    if ((hands[s] & kq) == kq) return static_cast<Seat>(s);
  return std::nullopt;
}

}  // namespace atout
