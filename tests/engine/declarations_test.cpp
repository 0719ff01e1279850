// Declarations: detection, the best non-overlapping set, comparison between teams, belote.
#include "atout/declarations.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"
#include "variants/french_duel.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

const Trump kClubs = Trump::of(Suit::clubs);

int total(const std::vector<Combo>& v) {
  int t = 0;
  for (const Combo& c : v) t += c.points;
  return t;
}

TEST(Declarations, OverlappingSequencesCountOnce) {
  // Bazar rules: {7H 8H 9H 10H} holds one 50 and two tierces, only one counts.
  const auto best = best_combos(S({"7H", "8H", "9H", "TH"}), kClubs, french_declarations(true));
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].kind, ComboKind::quarte);
  EXPECT_EQ(best[0].points, 50);
}

TEST(Declarations, DisjointTiercesBothCount) {
  // Bazar rules: {8H 9H 10H 10C JC QC} holds two tierces that do not cross.
  const auto best = best_combos(S({"8H", "9H", "TH", "TC", "JC", "QC"}), kClubs, french_declarations(true));
  EXPECT_EQ(best.size(), 2u);
  EXPECT_EQ(total(best), 40);
}

TEST(Declarations, EightLongRunIsQuintPlusTierce) {
  // Bulgarian Belot rules: a sequence of eight is one of five and one of three.
  const auto best = best_combos(CardSet::suit_mask(Suit::spades), kClubs, french_declarations(true));
  EXPECT_EQ(total(best), 120);
}

TEST(Declarations, CarreAndSequenceMayNotShareCards) {
  // Bazar rules: combinations count only when they do not cross. Four jacks (200) beat
  // the tierce 9-10-J of hearts that would need the jack of hearts.
  const auto best = best_combos(S({"JC", "JD", "JH", "JS", "9H", "TH"}), kClubs, french_declarations(true));
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].points, 200);
}

TEST(Declarations, DisabledFindsNothing) {
  // Belote Classic rules: play with or without declarations.
  EXPECT_TRUE(best_combos(S({"JC", "JD", "JH", "JS"}), kClubs, french_declarations(false)).empty());
}

std::optional<int> winner_of(std::vector<std::vector<const char*>> seats, Trump t = kClubs) {
  const DeclarationRules rules = french_declarations(true);
  std::vector<std::vector<Combo>> by_seat;
  for (const auto& s : seats) {
    CardSet h;
    for (const char* c : s) h.insert(C(c));
    by_seat.push_back(best_combos(h, t, rules));
  }
  return declaration_winner(by_seat, {0, 1, 2, 3}, t, rules);
}

TEST(Declarations, TeamComparison) {
  // Bazar rules: 4 of a kind > 100 > 50 > tierce; then height.
  EXPECT_EQ(winner_of({{}, {"QC", "QD", "QH", "QS"}, {"9S", "TS", "JS", "QS", "KS"}, {}}), 1);
  EXPECT_EQ(winner_of({{"7H", "8H", "9H", "TH"}, {"TS", "JS", "QS"}, {}, {}}), 0);
  EXPECT_EQ(winner_of({{"7H", "8H", "9H"}, {"QS", "KS", "AS"}, {}, {}}), 1);
  // Carré order J > 9 > A > 10 > K > Q (the Belote Classic rules' carré values, then height).
  EXPECT_EQ(winner_of({{"9C", "9D", "9H", "9S"}, {"JC", "JD", "JH", "JS"}, {}, {}}), 1);
  EXPECT_EQ(winner_of({{"AC", "AD", "AH", "AS"}, {"9C", "9D", "9H", "9S"}, {}, {}}), 1);
  EXPECT_EQ(winner_of({{"AC", "AD", "AH", "AS"}, {"TC", "TD", "TH", "TS"}, {}, {}}), 0);
  EXPECT_EQ(winner_of({{"QC", "QD", "QH", "QS"}, {"KC", "KD", "KH", "KS"}, {}, {}}), 1);
  // Bazar rules: equal height, the trump sequence wins ...
  EXPECT_EQ(winner_of({{"7H", "8H", "9H"}, {"7C", "8C", "9C"}, {}, {}}), 1);
  // ... and with neither in trumps, the first to show (play order from the leader) wins.
  EXPECT_EQ(winner_of({{"7H", "8H", "9H"}, {"7S", "8S", "9S"}, {}, {}}), 0);
  EXPECT_FALSE(winner_of({{}, {}, {}, {}}).has_value());
}

TEST(Declarations, EqualTieCanScoreNothing) {
  DeclarationRules rules = french_declarations(true);
  rules.equal_first_wins = false;
  std::vector<std::vector<Combo>> by_seat = {
      best_combos(S({"7H", "8H", "9H"}), kClubs, rules), best_combos(S({"7S", "8S", "9S"}), kClubs, rules), {}, {}};
  EXPECT_FALSE(declaration_winner(by_seat, {0, 1, 2, 3}, kClubs, rules).has_value());
}

TEST(Declarations, BeloteHolder) {
  // French belote rules: king and queen of trumps in one hand.
  EXPECT_EQ(belote_holder({S({"7S"}), S({"KC", "QC"}), S({}), S({})}, kClubs), Seat{1});
  EXPECT_FALSE(belote_holder({S({"KC"}), S({"QC"}), S({}), S({})}, kClubs).has_value());
  EXPECT_FALSE(belote_holder({S({"KH", "QH"}), S({}), S({}), S({})}, kClubs).has_value());
}

}  // namespace
}  // namespace atout
