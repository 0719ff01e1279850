// Small helpers shared by the engine tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace atout::test
