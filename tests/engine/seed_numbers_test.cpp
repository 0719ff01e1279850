// Table-driven tests of every number in the published French-family rules (the French belote,
// Belote Classic and Bazar rules): card points and orders,
// dix de der, capot, declaration values, belote, thresholds and targets.
#include <gtest/gtest.h>

#include "atout/contract.hpp"
#include "atout/declarations.hpp"
#include "atout/state.hpp"
#include "test_util.hpp"
#include "variants/french_duel.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

struct PointCase {
  Rank rank;
  int trump;
  int plain;
  const char* source;
};

// Card values, as the French belote and Bazar rules give them: A 11, 10 10, K 4, Q 3, J 2 (trump 20),
// 9 0 (trump 14), 8 and 7 nothing.
const PointCase kPoints[] = {
    {Rank::jack, 20, 2, "Bazar rules: J is worth 2"},
    {Rank::nine, 14, 0, "Bazar rules: 7, 8 and 9 are worth nothing"},
    {Rank::ace, 11, 11, "Bazar rules: card values A 11"},
    {Rank::ten, 10, 10, "Bazar rules: 10 is worth 10"},
    {Rank::king, 4, 4, "Bazar rules: K is worth 4"},
    {Rank::queen, 3, 3, "Bazar rules: Q is worth 3"},
    {Rank::eight, 0, 0, "Bazar rules: 7, 8 and 9 are worth nothing"},
    {Rank::seven, 0, 0, "Bazar rules: 7, 8 and 9 are worth nothing"},
};

TEST(SeedNumbers, FrenchCardPoints) {
  const PointTable p = french_points();
  const Trump hearts = Trump::of(Suit::hearts);
  for (const PointCase& c : kPoints) {
    EXPECT_EQ(p.value(hearts, Card(Suit::hearts, c.rank)), c.trump) << c.source;
    EXPECT_EQ(p.value(hearts, Card(Suit::spades, c.rank)), c.plain) << c.source;
  }
}

TEST(SeedNumbers, CardPointsTotal152PlusDixDeDer162) {
  // Bazar rules: "the sum value of the cards equals 152"; last four cards +10 (French belote rules: dix de der, 10 for
  // the last trick).
  const PointTable p = french_points();
  for (int s = 0; s < kSuits; ++s) EXPECT_EQ(p.sum(Trump::of(static_cast<Suit>(s)), CardSet::deck32()), 152);
  EXPECT_EQ(p.last_trick, 10);
  // Bazar rules: in height (No Trumps) the ace is 19 and the sum is still 152.
  PointTable height;
  height.no_trumps = kHeightPoints;
  EXPECT_EQ(height.value(Trump::no_trumps(), C("AS")), 19);
  EXPECT_EQ(height.sum(Trump::no_trumps(), CardSet::deck32()), 152);
}

TEST(SeedNumbers, CardOrders) {
  // Bazar rules: plain A 10 K Q J 9 8 7; trump J 9 A 10 K Q 8 7 (also the French belote rules).
  const Rank plain[] = {Rank::ace,  Rank::ten,  Rank::king,  Rank::queen,
                        Rank::jack, Rank::nine, Rank::eight, Rank::seven};
  const Rank trump[] = {Rank::jack, Rank::nine,  Rank::ace,   Rank::ten,
                        Rank::king, Rank::queen, Rank::eight, Rank::seven};
  const Trump t = Trump::of(Suit::hearts);
  for (int i = 0; i + 1 < kRanks; ++i) {
    EXPECT_GT(strength(t, Card(Suit::spades, plain[i])), strength(t, Card(Suit::spades, plain[i + 1])));
    EXPECT_GT(strength(t, Card(Suit::hearts, trump[i])), strength(t, Card(Suit::hearts, trump[i + 1])));
  }
  // Bazar rules: any trump beats any plain card.
  EXPECT_TRUE(beats(C("7H"), C("AS"), t));
  EXPECT_FALSE(beats(C("AS"), C("7H"), t));
}

struct DeclCase {
  std::vector<const char*> cards;
  ComboKind kind;
  int points;
  const char* source;
};

TEST(SeedNumbers, FrenchDeclarationValues) {
  const DeclarationRules rules = french_declarations(true);
  const Trump t = Trump::of(Suit::clubs);
  const DeclCase cases[] = {
      {{"7H", "8H", "9H"}, ComboKind::tierce, 20, "Belote Classic rules: a tierce is 20"},
      {{"TH", "JH", "QH", "KH"}, ComboKind::quarte, 50, "Belote Classic rules: a sequence of four is 50"},
      {{"9S", "TS", "JS", "QS", "KS"}, ComboKind::quint, 100, "Belote Classic rules: a quint is 100"},
      {{"JC", "JD", "JH", "JS"}, ComboKind::carre, 200, "Belote Classic rules: four jacks are 200"},
      {{"9C", "9D", "9H", "9S"}, ComboKind::carre, 150, "Belote Classic rules: four nines are 150"},
      {{"AC", "AD", "AH", "AS"},
       ComboKind::carre,
       100,
       "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"TC", "TD", "TH", "TS"},
       ComboKind::carre,
       100,
       "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"KC", "KD", "KH", "KS"},
       ComboKind::carre,
       100,
       "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"QC", "QD", "QH", "QS"},
       ComboKind::carre,
       100,
       "Belote Classic rules: four aces, tens, kings or queens are 100"},
  };
  for (const DeclCase& c : cases) {
    CardSet hand;
    for (const char* x : c.cards) hand.insert(C(x));
    const auto best = best_combos(hand, t, rules);
    ASSERT_EQ(best.size(), 1u) << c.source;
    EXPECT_EQ(best[0].kind, c.kind) << c.source;
    EXPECT_EQ(best[0].points, c.points) << c.source;
  }
  // Carrés of eights and sevens are not combinations in French belote (the Belote Classic rules list carrés of J, 9, A,
  // 10, K and Q only).
  EXPECT_TRUE(best_combos(S({"8C", "8D", "8H", "8S"}), t, rules).empty());
  EXPECT_TRUE(best_combos(S({"7C", "7D", "7H", "7S"}), t, rules).empty());
  EXPECT_EQ(rules.belote_points,
            20);  // French belote rules: belote and rebelote, 20; Belote Classic rules: belote-rebelote is 20
}

struct ThresholdCase {
  int taker_cards;
  int defence_cards;
  Outcome outcome;
  int taker_score;
  int defence_score;
  const char* source;
};

TEST(SeedNumbers, ContractThresholds) {
  // Belote Classic rules: 82 of 162 fulfils; 81 each is a tie (the French belote rules' "at least 81" is
  // read as our rule decides: more than the defence), and the tie is a litige.
  const ThresholdCase cases[] = {
      {72 + 10, 80, Outcome::made, 82, 80, "Belote Classic rules: 82 needed"},
      {71 + 10, 81, Outcome::tie_held, 0, 81, "rule: tie is litige by default"},
      {70 + 10, 82, Outcome::failed, 0, 162, "French belote rules: the opponents score 162"},
  };
  for (const ThresholdCase& c : cases) {
    HandResult r;
    r.teams[1].card_points = c.taker_cards - 10;
    r.teams[1].last_trick = 10;
    r.teams[0].card_points = c.defence_cards;
    int held = 0;
    score_french(r, 1, FrenchScoring{}, held);
    EXPECT_EQ(r.outcome, c.outcome) << c.source;
    EXPECT_EQ(r.teams[1].score, c.taker_score) << c.source;
    EXPECT_EQ(r.teams[0].score, c.defence_score) << c.source;
  }
}

TEST(SeedNumbers, CapotValues) {
  // French belote and Bazar rules: capot 250; Belote Classic rules: 162 + 90 = 252.
  for (int value : {250, 252}) {
    HandResult r;
    r.teams[0].card_points = 152;
    r.teams[0].last_trick = 10;
    r.teams[0].tricks = 8;
    r.capot = true;
    r.capot_team = 0;
    int held = 0;
    score_french(r, 0, FrenchScoring{value, false}, held);
    EXPECT_EQ(r.teams[0].score, value);
    EXPECT_EQ(r.teams[1].score, 0);
  }
}

TEST(SeedNumbers, TargetsAndOptionValues) {
  // Bazar rules: the first team to 501 wins; Belote Classic rules: targets 501, 701 or 1001.
  const VariantInfo* f = find_variant("french");
  ASSERT_NE(f, nullptr);
  for (const OptionSpec& o : f->options) {
    if (o.name == "target") {
      EXPECT_EQ(o.allowed_integers, (std::vector<int>{501, 701, 1001}));
    }
    if (o.name == "capot") {
      EXPECT_EQ(o.allowed_integers, (std::vector<int>{250, 252}));
    }
  }
  for (int target : {501, 701, 1001}) {
    EXPECT_FALSE(target_winner({target - 1, 0}, target).has_value());
    EXPECT_EQ(target_winner({target, 0}, target), 0);
    EXPECT_EQ(target_winner({target - 1, target + 5}, target), 1);
    EXPECT_EQ(target_winner({target + 9, target + 5}, target), 0);  // both past: the higher
    EXPECT_FALSE(target_winner({target + 5, target + 5}, target).has_value());
  }
  // Bazar rules: head-to-head to 101, i.e. 1001 card points (docs/rules/duel.md).
  const VariantInfo* d = find_variant("duel");
  ASSERT_NE(d, nullptr);
  for (const OptionSpec& o : d->options) {
    if (o.name == "target") {
      EXPECT_EQ(std::get<int>(o.default_value), 1001);
    }
  }
}

}  // namespace
}  // namespace atout
