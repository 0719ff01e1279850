// Small helpers shared by the engine tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "atout/action.hpp"
#include "atout/card.hpp"
#include "atout/trick.hpp"

namespace atout::test {

inline Card C(const char* text) {
  const auto c = parse_card(text);
  EXPECT_TRUE(c.has_value()) << text;
  return c.value_or(Card());
}

inline CardSet S(std::initializer_list<const char*> cards) {
  CardSet s;
  for (const char* c : cards) s.insert(C(c));
  return s;
}

inline Trick make_trick(Seat leader, std::initializer_list<const char*> cards, Trump t) {
  Trick tr;
  tr.leader = leader;
  for (const char* c : cards) tr.add(C(c), t);
  return tr;
}

// The legal actions an auction offers now; `seat` only for auctions whose offers depend on who speaks.
template <class Auction, class... S>
std::vector<Action> auction_legal(const Auction& a, S... seat) {
  std::vector<Action> out;
  a.legal(seat..., out);
  return out;
}

// Whether the auction offers `x` now (to `seat`, for auctions that need it).
template <class Auction, class... S>
bool auction_offers(const Auction& a, const Action& x, S... seat) {
  const std::vector<Action> l = auction_legal(a, seat...);
  return std::find(l.begin(), l.end(), x) != l.end();
}

}  // namespace atout::test
