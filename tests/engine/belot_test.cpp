// Bulgarian belot: every number of the Bulgarian Belot rules in tables, the rounding, the hand score,
// which declarations count, the play constraints, and the machine end to end on hand-built decks
// (the deal, the bid ladder, Double and Re-Double, redeals, belote, kaput, manual declarations,
// every refusal).
#include "variants/belot.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"
#include "test_util.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

// ---- Seed numbers --------------------------------------------------------------------------

struct BelotPointCase {
  Rank rank;
  int trump;  // a trump suit, and every suit in All Trumps
  int plain;  // a plain suit of a suit contract, and No Trumps
  int no_trumps;
  const char* source;
};

const BelotPointCase kBelotPoints[] = {
    {Rank::jack, 20, 2, 2, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::nine, 14, 0, 0, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::ace, 11, 11, 11, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::ten, 10, 10, 10, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::king, 4, 4, 4, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::queen, 3, 3, 3, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::eight, 0, 0, 0, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
    {Rank::seven, 0, 0, 0, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
};

TEST(BelotSeedNumbers, CardPoints) {
  const Trump hearts = Trump::of(Suit::hearts);
  for (const BelotPointCase& c : kBelotPoints) {
    EXPECT_EQ(belot_points(hearts, false).value(hearts, Card(Suit::hearts, c.rank)), c.trump) << c.source;
    EXPECT_EQ(belot_points(hearts, false).value(hearts, Card(Suit::spades, c.rank)), c.plain) << c.source;
    for (int s = 0; s < kSuits; ++s) {
      const Card card(static_cast<Suit>(s), c.rank);
      EXPECT_EQ(belot_points(Trump::all_trumps(), false).value(Trump::all_trumps(), card), c.trump) << c.source;
      EXPECT_EQ(belot_points(Trump::no_trumps(), false).value(Trump::no_trumps(), card), c.no_trumps) << c.source;
      // `no_trumps_double` (established Bulgarian play, docs/rules/belot.md).
      EXPECT_EQ(belot_points(Trump::no_trumps(), true).value(Trump::no_trumps(), card), 2 * c.no_trumps);
    }
  }
}

struct WholeCase {
  Trump trump;
  bool no_trumps_double;
  int whole;
  int tens;
  const char* source;
};

TEST(BelotSeedNumbers, HandTotalsAndLastTrick) {
  const WholeCase cases[] = {
      {Trump::all_trumps(), false, 258, 26, "Bulgarian Belot rules: 258 (26)"},
      {Trump::of(Suit::clubs), false, 162, 16, "Bulgarian Belot rules: 162 (16)"},
      {Trump::of(Suit::spades), false, 162, 16, "Bulgarian Belot rules: 162 (16)"},
      // The rules name 162 for 'Not trump', but their card values make 120 + 10 (docs/rules/belot.md).
      {Trump::no_trumps(), false, 130, 13, "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
      {Trump::no_trumps(), true, 260, 26, "option no_trumps_double"},
  };
  for (const WholeCase& c : cases) {
    EXPECT_EQ(belot_whole(c.trump, c.no_trumps_double), c.whole) << c.source;
    EXPECT_EQ(belot_whole_tens(c.whole), c.tens) << c.source;
  }
  EXPECT_EQ(belot_points(Trump::of(Suit::hearts), false).last_trick,
            10);  // Bulgarian Belot rules: the last trick is worth 10, and declarations are added
  EXPECT_EQ(belot_points(Trump::all_trumps(), false).last_trick, 10);
}

TEST(BelotSeedNumbers, CardOrders) {
  // Bulgarian Belot rules: trumps J 9 A 10 K Q 8 7; others A 10 K Q J 9 8 7; every
  // suit of All Trumps in the trump order; No Trumps in the plain order.
  const Rank trump[] = {Rank::jack, Rank::nine,  Rank::ace,   Rank::ten,
                        Rank::king, Rank::queen, Rank::eight, Rank::seven};
  const Rank plain[] = {Rank::ace,  Rank::ten,  Rank::king,  Rank::queen,
                        Rank::jack, Rank::nine, Rank::eight, Rank::seven};
  for (int i = 0; i + 1 < kRanks; ++i) {
    const Trump h = Trump::of(Suit::hearts);
    EXPECT_GT(strength(h, Card(Suit::hearts, trump[i])), strength(h, Card(Suit::hearts, trump[i + 1])));
    EXPECT_GT(strength(h, Card(Suit::clubs, plain[i])), strength(h, Card(Suit::clubs, plain[i + 1])));
    for (int s = 0; s < kSuits; ++s) {
      const auto suit = static_cast<Suit>(s);
      EXPECT_GT(strength(Trump::all_trumps(), Card(suit, trump[i])),
                strength(Trump::all_trumps(), Card(suit, trump[i + 1])));
      EXPECT_GT(strength(Trump::no_trumps(), Card(suit, plain[i])),
                strength(Trump::no_trumps(), Card(suit, plain[i + 1])));
    }
  }
  // Bulgarian Belot rules: the trump suit beats all others; in All Trumps none beats another.
  EXPECT_TRUE(beats(C("7H"), C("AS"), Trump::of(Suit::hearts)));
  EXPECT_FALSE(beats(C("JH"), C("7S"), Trump::all_trumps()));
  EXPECT_FALSE(beats(C("AH"), C("7S"), Trump::no_trumps()));
}

TEST(BelotSeedNumbers, BidLadder) {
  // Bulgarian Belot rules: Clubs lowest, then Diamonds, Hearts, Spades, No Trumps, All Trumps.
  // (One sentence of the rules reads "higher than 'Spade'"; the ladder they give puts spades highest of the suits.)
  const Trump ladder[] = {Trump::of(Suit::clubs),  Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                          Trump::of(Suit::spades), Trump::no_trumps(),        Trump::all_trumps()};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(belot_ladder_rank(ladder[i]), i);
}

struct BelotDeclCase {
  std::vector<const char*> cards;
  Trump trump;
  std::vector<int> points;  // the combinations declared for this hand
  const char* source;
};

TEST(BelotSeedNumbers, DeclarationValues) {
  const DeclarationRules rules = belot_declarations();
  const Trump h = Trump::of(Suit::hearts);
  const BelotDeclCase cases[] = {
      {{"7C", "8C", "9C"}, h, {20}, "Bulgarian Belot rules: a sequence of three, 20"},
      {{"QS", "KS", "AS"}, Trump::all_trumps(), {20}, "Bulgarian Belot rules: a sequence of three is 20"},
      {{"TD", "JD", "QD", "KD"}, h, {50}, "Bulgarian Belot rules: four, 50"},
      {{"9H", "TH", "JH", "QH", "KH"}, h, {100}, "Bulgarian Belot rules: five, 100"},
      {{"8H", "9H", "TH", "JH", "QH", "KH"}, h, {100}, "Bulgarian Belot rules: longer sequences don't count"},
      {{"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"}, h, {100, 20}, "Bulgarian Belot rules: eight is five + three"},
      {{"9C", "9D", "9H", "9S"}, h, {150}, "Bulgarian Belot rules: four nines, 150"},
      {{"JC", "JD", "JH", "JS"}, h, {200}, "Bulgarian Belot rules: four jacks, 200"},
      {{"AC", "AD", "AH", "AS"},
       h,
       {100},
       "Bulgarian Belot rules: four aces, kings, queens or tens are 100; sevens and eights nothing"},
      {{"KC", "KD", "KH", "KS"},
       Trump::all_trumps(),
       {100},
       "Bulgarian Belot rules: four aces, kings, queens or tens are 100; sevens and eights nothing"},
      {{"QC", "QD", "QH", "QS"},
       h,
       {100},
       "Bulgarian Belot rules: four aces, kings, queens or tens are 100; sevens and eights nothing"},
      {{"TC", "TD", "TH", "TS"},
       h,
       {100},
       "Bulgarian Belot rules: four aces, kings, queens or tens are 100; sevens and eights nothing"},
      {{"8C", "8D", "8H", "8S"}, h, {}, "Bulgarian Belot rules: eights are not awarded"},
      {{"7C", "7D", "7H", "7S"}, h, {}, "Bulgarian Belot rules: sevens are not awarded"},
      {{"JC", "JD", "JH", "JS"}, Trump::no_trumps(), {}, "Bulgarian Belot rules: none in No Trumps"},
      {{"9H", "TH", "JH", "QH", "KH"}, Trump::no_trumps(), {}, "Bulgarian Belot rules: no declarations in No Trumps"},
  };
  for (const BelotDeclCase& c : cases) {
    CardSet hand;
    for (const char* x : c.cards) hand.insert(C(x));
    std::vector<int> got;
    for (const Combo& combo : best_combos(hand, c.trump, rules)) got.push_back(combo.points);
    std::sort(got.begin(), got.end(), std::greater<>());
    EXPECT_EQ(got, c.points) << c.source;
  }
  EXPECT_EQ(rules.belote_points, 20);  // Bulgarian Belot rules: belote, K and Q of trumps, is 20
}

TEST(BelotSeedNumbers, KaputAndTarget) {
  EXPECT_EQ(BelotScoring{}.kaput_bonus,
            90);  // Bulgarian Belot rules: a side with no trick is kaput: 90 more to the other
  const VariantInfo* v = find_variant("belot");
  ASSERT_NE(v, nullptr);
  Options o;
  ASSERT_FALSE(normalise_options(*v, o).has_value());
  EXPECT_EQ(std::get<int>(o.at("target")), 151);  // Bulgarian Belot rules: the first side to 151 wins
  // Bulgarian Belot rules: Double, by the other side, doubles the result (x2, x4): BelotScoring.Table and
  // Belot.RedoubledKaputEndsTheMatch.
}

// ---- Rounding to tens (Bulgarian Belot rules) ---------------------------------------------------------

struct RoundCase {
  int points;
  int whole;
  int tens;
  const char* why;
};

TEST(BelotRounding, Table) {
  const RoundCase cases[] = {
      {35, 162, 3, "Bulgarian Belot rules: 35 is below the limit, rounded down to 3, not 4"},
      {135, 162, 14, "Bulgarian Belot rules: 135 is above the limit, rounded up to 14"},
      {27, 162, 2, "the other side of 135: below half, down"},
      {127, 162, 13, "the other side of 35: above half, up"},
      {162, 162, 16, "Bulgarian Belot rules: the whole hand is 16, never rounded up to 17"},
      {0, 162, 0, "a side with no card points"},
      {80, 162, 8, "below half (81), down"},
      {81, 162, 8, "exactly half: to the nearest ten"},
      {82, 162, 8, "above half, up, but 82 + 80 is 16 in all: capped at 16 - 8"},
      {86, 162, 9, "above half, up"},
      {76, 162, 7, "below half, down"},
      {152, 162, 15, "above half, 15.2 capped at 16 - 1"},
      {159, 162, 16, "above half, up"},
      {129, 258, 13, "All Trumps, exactly half (129): to the nearest, 13"},
      {128, 258, 12, "All Trumps, below half, down"},
      {130, 258, 13, "All Trumps, above half, exact"},
      {131, 258, 14, "All Trumps, above half, up"},
      {254, 258, 26, "All Trumps, 25.4 up to 26"},
      {258, 258, 26, "Bulgarian Belot rules: 258 (26)"},
      {4, 258, 0, "All Trumps, below half, down"},
      {35, 260, 3, "Bulgarian Belot rules: below half, round down in No Trumps counted double (260): 3"},
      {135, 260, 14, "Bulgarian Belot rules: above half, round up in No Trumps counted double (260): 14"},
      {35, 130, 3, "No Trumps (130 a hand): 35 below half, down"},
      {95, 130, 10, "No Trumps, above half, up"},
      {65, 130, 6, "No Trumps, exactly half: to the nearest, a 5 down"},
      {130, 130, 13, "No Trumps, the whole hand"},
      {130, 260, 13, "no_trumps_double, exactly half"},
      {134, 260, 14, "no_trumps_double, above half, up"},
      {126, 260, 12, "no_trumps_double, below half, down"},
  };
  for (const RoundCase& c : cases)
    EXPECT_EQ(belot_round_tens(c.points, c.whole), c.tens) << c.points << "/" << c.whole << ": " << c.why;
}

TEST(BelotRounding, TwoSidesNeverExceedTheWholeHand) {
  for (int whole : {162, 258, 130, 260}) {
    for (int x = 0; x <= whole; ++x) {
      const int sum = belot_round_tens(x, whole) + belot_round_tens(whole - x, whole);
      EXPECT_LE(sum, belot_whole_tens(whole)) << x << "/" << whole;
      EXPECT_GE(sum, belot_whole_tens(whole) - 2) << x << "/" << whole;
      // Monotonic: more card points never round to fewer tens.
      if (x > 0) {
        EXPECT_GE(belot_round_tens(x, whole), belot_round_tens(x - 1, whole)) << x << "/" << whole;
      }
    }
  }
}

// ---- The hand score ---------------------------------------------------------------------------

struct ScoreCase {
  const char* name;
  int whole;
  int multiplier;
  BelotScoring rules;
  // bidder = side 0. Card points include the last trick; extras = declarations + belote.
  int cards0, extras0, cards1, extras1;
  int capot_team;  // -1: none
  int held_before;
  Outcome outcome;
  int score0, score1, held_after, held_to;
  const char* source;
};

BelotScoring rules_with(bool tie_hangs, bool takes_all) {
  BelotScoring r;
  r.tie_hangs = tie_hangs;
  r.double_takes_all = takes_all;
  return r;
}

TEST(BelotScoring, Table) {
  const BelotScoring std_rules = rules_with(true, true);
  const ScoreCase cases[] = {
      {"made", 162, 1, std_rules, 100, 0, 62, 0, -1, 0, Outcome::made, 10, 6, 0, -1,
       "Bulgarian Belot rules: bidders short of points are inside: all points go to the other side"},
      {"inside", 162, 1, std_rules, 70, 0, 92, 0, -1, 0, Outcome::failed, 0, 16, 0, -1,
       "Bulgarian Belot rules: all points go to the opposition"},
      {"inside takes every bonus", 162, 1, std_rules, 70, 20, 92, 50, -1, 0, Outcome::failed, 0, 16 + 7, 0, -1,
       "Bulgarian Belot rules: bidders short of points are inside: all points go to the other side; belote and "
       "declarations too (docs/rules/belot.md)"},
      {"declarations make it", 162, 1, std_rules, 72, 50, 90, 0, -1, 0, Outcome::made, 12, 9, 0, -1,
       "Bulgarian Belot rules: declarations are added to the score"},
      {"equal tens, raw decides", 162, 1, std_rules, 82, 0, 80, 0, -1, 0, Outcome::made, 8, 8, 0, -1,
       "Bulgarian Belot rules: more rounded tens wins the hand; equal tens go by raw points"},
      {"13 and 13, raw decides for the defence", 162, 1, std_rules, 125, 0, 37, 100, -1, 0, Outcome::failed, 0, 26, 0,
       -1, "Bulgarian Belot rules: 13 and 13 rounded; 125 against 137 raw"},
      {"13 and 13, raw decides for the bidders", 162, 1, std_rules, 37, 100, 125, 0, -1, 0, Outcome::made, 13, 13, 0,
       -1, "Bulgarian Belot rules: 137 against 125 raw"},
      {"rounded figures first", 258, 1, std_rules, 127, 50, 131, 40, -1, 0, Outcome::failed, 0, 26 + 9, 0, -1,
       "Bulgarian Belot rules: 17 against 18 tens puts the bidders inside though 177 > 171 raw"},
      {"tie hangs", 162, 1, std_rules, 81, 0, 81, 0, -1, 0, Outcome::tie_held, 0, 8, 8, -1,
       "rule: points left hanging on a tie"},
      {"tie is inside", 162, 1, rules_with(false, true), 81, 0, 81, 0, -1, 0, Outcome::failed, 0, 16, 0, -1,
       "option tie: inside"},
      {"held go to the winner", 162, 1, std_rules, 100, 0, 62, 0, -1, 8, Outcome::made, 18, 6, 0, 0,
       "rule: hanging points go to the next hand's winner"},
      {"held go to the defence", 162, 1, std_rules, 70, 0, 92, 0, -1, 8, Outcome::failed, 0, 24, 0, 1,
       "the chosen rule"},
      {"held accumulate", 162, 1, std_rules, 81, 0, 81, 0, -1, 8, Outcome::tie_held, 0, 8, 16, -1, "the chosen rule"},
      {"kaput", 162, 1, std_rules, 162, 20, 0, 0, 0, 0, Outcome::made, 16 + 9 + 2, 0, 0, -1,
       "Bulgarian Belot rules: +90"},
      {"kaput in All Trumps", 258, 1, std_rules, 258, 0, 0, 0, 0, 0, Outcome::made, 26 + 9, 0, 0, -1,
       "Bulgarian Belot rules: a side with no trick is kaput: 90 more to the other"},
      {"defence kaput", 162, 1, std_rules, 0, 0, 162, 0, 1, 0, Outcome::failed, 0, 25, 0, -1,
       "Bulgarian Belot rules: a side with no trick is kaput: 90 more to the other"},
      {"doubled, made", 162, 2, std_rules, 100, 0, 62, 0, -1, 0, Outcome::made, 32, 0, 0, -1,
       "Bulgarian Belot rules: Double, by the other side, doubles the result; rule: x2 on the whole score"},
      {"redoubled, made", 162, 4, std_rules, 100, 0, 62, 0, -1, 0, Outcome::made, 64, 0, 0, -1,
       "Bulgarian Belot rules: x4"},
      {"doubled, inside", 162, 2, std_rules, 70, 20, 92, 0, -1, 0, Outcome::failed, 0, 36, 0, -1,
       "Bulgarian Belot rules: Double, by the other side, doubles the result"},
      {"doubled, tie", 162, 2, std_rules, 81, 0, 81, 0, -1, 0, Outcome::tie_held, 0, 0, 32, -1,
       "rule: the whole doubled hand hangs"},
      {"doubled, held collected", 162, 2, std_rules, 100, 0, 62, 0, -1, 5, Outcome::made, 37, 0, 0, 0,
       "held points are not multiplied again"},
      {"each side, doubled", 162, 2, rules_with(true, false), 100, 0, 62, 0, -1, 0, Outcome::made, 20, 12, 0, -1,
       "option double_scoring: each_side"},
      {"each side, redoubled inside", 162, 4, rules_with(true, false), 70, 0, 92, 0, -1, 0, Outcome::failed, 0, 64, 0,
       -1, "option double_scoring: each_side"},
      {"each side, doubled tie", 162, 2, rules_with(true, false), 81, 0, 81, 0, -1, 0, Outcome::tie_held, 0, 16, 16, -1,
       "option double_scoring: each_side"},
      {"No Trumps", 130, 1, std_rules, 95, 0, 35, 0, -1, 0, Outcome::made, 10, 3, 0, -1,
       "Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0"},
      {"No Trumps doubled count", 260, 1, std_rules, 190, 0, 70, 0, -1, 0, Outcome::made, 19, 7, 0, -1,
       "option no_trumps_double"},
  };
  for (const ScoreCase& c : cases) {
    HandResult r;
    r.teams[0].card_points = c.cards0;
    r.teams[0].declarations = c.extras0;
    r.teams[1].card_points = c.cards1;
    r.teams[1].declarations = c.extras1;
    r.capot = c.capot_team >= 0;
    r.capot_team = c.capot_team;
    r.held_before = c.held_before;
    int held = c.held_before;
    score_belot(r, 0, c.whole, c.multiplier, c.rules, held);
    SCOPED_TRACE(std::string(c.name) + " (" + c.source + ")");
    EXPECT_EQ(r.outcome, c.outcome);
    EXPECT_EQ(r.teams[0].score, c.score0);
    EXPECT_EQ(r.teams[1].score, c.score1);
    EXPECT_EQ(held, c.held_after);
    EXPECT_EQ(r.held_to, c.held_to);
    for (const TeamTally& t : r.teams)
      EXPECT_EQ(t.raw, t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote);
    EXPECT_EQ(r.teams[static_cast<std::size_t>(std::max(c.capot_team, 0))].capot_bonus, c.capot_team >= 0 ? 90 : 0);
    EXPECT_FALSE(r.rounding.empty());
  }
}

TEST(BelotScoring, BidderMayBeEitherSide) {
  HandResult r;
  r.teams[0].card_points = 100;
  r.teams[1].card_points = 62;
  int held = 0;
  EXPECT_EQ(score_belot(r, 1, 162, 1, BelotScoring{}, held), 0);
  EXPECT_EQ(r.outcome, Outcome::failed);
  EXPECT_EQ(r.teams[0].score, 16);
  EXPECT_EQ(r.teams[1].score, 0);
}

// ---- Which declarations count -----------------------------------------------------------------

Combo seq(int len, Suit s, Rank top) {
  Combo c;
  c.kind = static_cast<ComboKind>(len - 3);
  c.suit = s;
  c.top = top;
  c.points = len == 3 ? 20 : len == 4 ? 50 : 100;
  for (int k = 0; k < len; ++k) c.cards.insert(Card(s, static_cast<Rank>(static_cast<int>(top) - k)));
  return c;
}

Combo carre(Rank r) {
  Combo c;
  c.kind = ComboKind::carre;
  c.top = r;
  c.points = r == Rank::jack ? 200 : r == Rank::nine ? 150 : 100;
  c.cards = CardSet::rank_mask(r);
  return c;
}

struct SidesCase {
  const char* name;
  std::vector<std::vector<Combo>> by_seat;
  std::optional<int> sequences, carres;
  std::array<int, 2> points;
};

TEST(BelotDeclarationSides, Table) {
  const auto H = Suit::hearts;
  const auto S_ = Suit::spades;
  const auto D = Suit::diamonds;
  const SidesCase cases[] = {
      {"longer wins", {{seq(4, H, Rank::jack)}, {seq(3, S_, Rank::ace)}, {}, {}}, 0, std::nullopt, {50, 0}},
      {"higher top wins", {{seq(3, H, Rank::jack)}, {seq(3, S_, Rank::king)}, {}, {}}, 1, std::nullopt, {0, 20}},
      {"the best side scores all its sequences",
       {{seq(5, H, Rank::ace)}, {seq(4, S_, Rank::ace)}, {seq(3, D, Rank::nine)}, {}},
       0,
       std::nullopt,
       {120, 0}},
      {"equal best sequences on both sides cancel",
       {{seq(4, H, Rank::king), seq(3, D, Rank::nine)}, {seq(4, S_, Rank::king)}, {}, {}},
       std::nullopt,
       std::nullopt,
       {0, 0}},
      {"equal best sequences of partners count",
       {{seq(4, H, Rank::king)}, {seq(3, S_, Rank::ace)}, {seq(4, D, Rank::king)}, {}},
       0,
       std::nullopt,
       {100, 0}},
      {"the trump suit does not break a tie",
       {{seq(3, H, Rank::ten)}, {seq(3, S_, Rank::ten)}, {}, {}},
       std::nullopt,
       std::nullopt,
       {0, 0}},
      {"carrés apart from sequences", {{seq(5, H, Rank::ace)}, {carre(Rank::queen)}, {}, {}}, 0, 1, {100, 100}},
      {"jacks beat nines", {{carre(Rank::nine)}, {carre(Rank::jack)}, {}, {}}, std::nullopt, 1, {0, 200}},
      {"nines beat aces", {{carre(Rank::ace)}, {}, {}, {carre(Rank::nine)}}, std::nullopt, 1, {0, 150}},
      {"aces beat tens", {{carre(Rank::ten)}, {carre(Rank::ace)}, {}, {}}, std::nullopt, 1, {0, 100}},
      {"tens beat kings", {{carre(Rank::king)}, {carre(Rank::ten)}, {}, {}}, std::nullopt, 1, {0, 100}},
      {"kings beat queens", {{carre(Rank::king)}, {carre(Rank::queen)}, {}, {}}, std::nullopt, 0, {100, 0}},
      {"the best carré's side scores all its carrés",
       {{carre(Rank::jack)}, {carre(Rank::nine)}, {carre(Rank::ace)}, {}},
       std::nullopt,
       0,
       {300, 0}},
      {"nothing declared", {{}, {}, {}, {}}, std::nullopt, std::nullopt, {0, 0}},
  };
  for (const SidesCase& c : cases) {
    const BelotDeclarationSides sides = belot_declaration_sides(c.by_seat);
    EXPECT_EQ(sides.sequences, c.sequences) << c.name;
    EXPECT_EQ(sides.carres, c.carres) << c.name;
    EXPECT_EQ(belot_declaration_points(c.by_seat, sides), c.points) << c.name;
  }
}

// ---- The end of the match ------------------------------------------------------------------

TEST(BelotMatchEnd, Table) {
  struct Case {
    std::array<int, 2> score;
    bool strictly_ahead;
    int last_winner;
    std::optional<int> winner;
    const char* why;
  };
  const Case cases[] = {
      {{150, 140}, true, 0, std::nullopt, "Bulgarian Belot rules: nobody has 151"},
      {{151, 140}, true, 0, 0, "Bulgarian Belot rules: first to reach 151"},
      {{120, 170}, true, 1, 1, "Bulgarian Belot rules: the first side to 151 wins"},
      {{160, 170}, true, 0, 1, "both past: the higher"},
      {{160, 160}, true, 0, std::nullopt, "rule: only with one side strictly ahead"},
      {{160, 160}, false, 1, 1, "strictly_ahead off: the last hand's winner"},
      {{160, 160}, false, -1, std::nullopt, "strictly_ahead off, the last hand hung: play on"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(belot_match_winner(c.score, 151, c.strictly_ahead, c.last_winner), c.winner) << c.why;
}

// ---- Play constraints (the chosen belot play rules) ---------------------------------------------

struct PlayCase {
  Trump trump;
  std::vector<const char*> trick;  // led by seat 0
  std::vector<const char*> hand;
  std::vector<const char*> legal;
  const char* refused;  // a card of the hand that is not legal, or nullptr
  Refusal reason;
  const char* source;
};

TEST(BelotPlay, ConstraintScenarios) {
  const Trump h = Trump::of(Suit::hearts);
  const Trump at = Trump::all_trumps();
  const Trump nt = Trump::no_trumps();
  const PlayCase cases[] = {
      {h,
       {"TH", "8H"},
       {"AH", "KH", "7C"},
       {"AH"},
       "KH",
       Refusal::must_beat,
       "rule: trumps led, beat if able, even the partner's; Bulgarian Belot rules: a trump played must be overtrumped "
       "if able"},
      {h,
       {"JH"},
       {"AH", "KH", "7C"},
       {"AH", "KH"},
       "7C",
       Refusal::must_follow_suit,
       "Bulgarian Belot rules: follow suit if able; void, trump if able"},
      {h,
       {"AS", "7H"},
       {"7S", "KS", "JH"},
       {"7S", "KS"},
       "JH",
       Refusal::must_follow_suit,
       "Bulgarian Belot rules: answer the colour; no duty to beat in a plain suit"},
      {h, {"AS", "7S"}, {"7C", "JH"}, {"7C", "JH"}, nullptr, Refusal::none, "rule: void, partner winning: free"},
      {h,
       {"AS", "9H", "KS"},
       {"JH", "7C"},
       {"JH", "7C"},
       nullptr,
       Refusal::none,
       "rule: void, partner winning with a trump: free"},
      {h,
       {"AS"},
       {"7C", "8H"},
       {"8H"},
       "7C",
       Refusal::must_trump,
       "Bulgarian Belot rules: follow suit if able; void, trump if able; rule: void, opponent winning: must trump"},
      {h,
       {"AS", "9H"},
       {"JH", "7H", "7C"},
       {"JH"},
       "7H",
       Refusal::must_overtrump,
       "Bulgarian Belot rules: a trump played must be overtrumped if able"},
      {h,
       {"AS", "JH"},
       {"7H", "7C"},
       {"7H", "7C"},
       nullptr,
       Refusal::none,
       "rule: opponent trumped, cannot overtrump: free discard"},
      {at, {"TS"}, {"AS", "7S", "JH"}, {"AS"}, "7S", Refusal::must_beat, "rule: All Trumps, beat in every suit led"},
      {at, {"TS", "8S"}, {"9S", "KS"}, {"9S"}, "KS", Refusal::must_beat, "rule: even the partner's card"},
      {at, {"JD", "7D"}, {"9D", "KD"}, {"9D", "KD"}, "7C", Refusal::card_not_in_hand, "nothing beats the jack"},
      {at, {"TS"}, {"JH", "7C"}, {"JH", "7C"}, nullptr, Refusal::none, "Bulgarian Belot rules: void, any card"},
      {nt,
       {"QS"},
       {"TS", "9S", "7C"},
       {"TS", "9S"},
       "7C",
       Refusal::must_follow_suit,
       "Bulgarian Belot rules: going low is allowed"},
      {nt,
       {"QS"},
       {"7C", "JH"},
       {"7C", "JH"},
       nullptr,
       Refusal::none,
       "Bulgarian Belot rules: follow suit if able; void, trump if able"},
  };
  const PlayRules rules = belot_play_rules({});
  for (const PlayCase& c : cases) {
    Trick trick;
    trick.leader = 0;
    for (const char* x : c.trick) trick.add(C(x), c.trump);
    CardSet hand, legal;
    for (const char* x : c.hand) hand.insert(C(x));
    for (const char* x : c.legal) legal.insert(C(x));
    EXPECT_EQ(legal_plays(hand, trick, c.trump, rules), legal) << c.source;
    if (c.refused) {
      EXPECT_EQ(refusal_for(hand, trick, c.trump, C(c.refused)), c.reason) << c.source;
    }
  }
}

// The belot play rules written out again, on its own, and compared with the engine on
// random positions of random hands under all six contracts.
CardSet rules_notes_legal(CardSet hand, const std::vector<Card>& trick, Trump t) {
  if (trick.empty()) return hand;
  auto order = [&](Card c) {
    // Index in the strength order, strongest first (Bulgarian Belot rules: trump order J 9 A 10 K Q 8 7).
    static constexpr Rank kTrumpOrder[] = {Rank::jack, Rank::nine,  Rank::ace,   Rank::ten,
                                           Rank::king, Rank::queen, Rank::eight, Rank::seven};
    static constexpr Rank kPlainOrder[] = {Rank::ace,  Rank::ten,  Rank::king,  Rank::queen,
                                           Rank::jack, Rank::nine, Rank::eight, Rank::seven};
    const bool trump_order = t.mode == Mode::all_trumps || (t.mode == Mode::suit && c.suit() == t.suit);
    const Rank* o = trump_order ? kTrumpOrder : kPlainOrder;
    return static_cast<int>(std::find(o, o + kRanks, c.rank()) - o);
  };
  const auto is_trump = [&](Card c) { return t.mode == Mode::suit && c.suit() == t.suit; };
  const Suit led = trick[0].suit();
  std::size_t best = 0;
  for (std::size_t i = 1; i < trick.size(); ++i) {
    const Card b = trick[best], c = trick[i];
    if ((is_trump(c) && !is_trump(b)) || (c.suit() == b.suit() && order(c) < order(b))) best = i;
  }
  CardSet follow, higher, trumps, over;
  for (Card c : hand) {
    if (c.suit() == led) follow.insert(c);
    if (c.suit() == led && c.suit() == trick[best].suit() && order(c) < order(trick[best])) higher.insert(c);
    if (is_trump(c)) trumps.insert(c);
    if (is_trump(c) && is_trump(trick[best]) && order(c) < order(trick[best])) over.insert(c);
  }
  if (!follow.empty()) {
    // Trumps led, or any suit in All Trumps: beat if able. A plain suit or No Trumps: follow.
    const bool must_beat = t.mode == Mode::all_trumps || is_trump(trick[0]);
    return must_beat && !higher.empty() ? higher : follow;
  }
  if (trumps.empty()) return hand;
  const bool partner_winning = (trick.size() - best) % 2 == 0;
  if (partner_winning) return hand;
  if (!is_trump(trick[best])) return trumps;
  return over.empty() ? hand : over;  // cannot overtrump: free discard
}

TEST(BelotPlay, EngineMatchesTheRulesOnRandomPositions) {
  Rng rng(Seed{0xBE107, 1});
  const Trump contracts[] = {Trump::of(Suit::clubs),  Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                             Trump::of(Suit::spades), Trump::no_trumps(),        Trump::all_trumps()};
  const PlayRules rules = belot_play_rules({});
  int positions = 0;
  for (int deal = 0; deal < 1500; ++deal) {
    std::vector<Card> deck;
    for (Card c : CardSet::deck32()) deck.push_back(c);
    shuffle(deck, rng);
    PlayPhase p;
    p.trump = contracts[deal % 6];
    p.rules = rules;
    for (int i = 0; i < 32; ++i) p.hands[static_cast<std::size_t>(i / 8)].insert(deck[static_cast<std::size_t>(i)]);
    p.start(static_cast<Seat>(deal % 4));
    while (!p.done()) {
      std::vector<Card> trick(p.trick.cards.begin(), p.trick.cards.begin() + p.trick.count);
      const CardSet hand = p.hands[static_cast<std::size_t>(p.current)];
      const CardSet legal = p.legal();
      ASSERT_EQ(legal, rules_notes_legal(hand, trick, p.trump))
          << to_string(p.trump) << " hand " << to_string(hand) << " trick " << to_string(p.trick.as_set());
      ++positions;
      p.play(legal.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))));
    }
  }
  EXPECT_EQ(positions, 1500 * 32);
}

// ---- The machine on hand-built decks -------------------------------------------------------

using Hands = std::array<std::array<const char*, 8>, 4>;

// The deck that deals `h` with dealer 0: each seat's first five cards (3, then 2) and its last
// three (after the bidding), dealt from seat 1 round to seat 0 (Bulgarian Belot rules: three cards each, then two).
std::vector<Card> deck_of(const Hands& h) {
  std::vector<Card> deck;
  const int packets[3][2] = {{0, 3}, {3, 5}, {5, 8}};
  for (const auto& pk : packets)
    for (int k = 1; k <= 4; ++k)
      for (int i = pk[0]; i < pk[1]; ++i)
        deck.push_back(C(h[static_cast<std::size_t>(k % 4)][static_cast<std::size_t>(i)]));
  return deck;
}

std::unique_ptr<State> make(const std::vector<Card>& deck, Options options = {}) {
  Record r;
  r.variant = "belot";
  r.options = std::move(options);
  r.first_dealer = 0;
  r.deal.decks.push_back(deck);
  r.deal.seed = Seed{4, 4};  // later deals
  auto c = create_state(r);
  EXPECT_FALSE(c.error.has_value()) << (c.error ? c.error->message : "");
  return std::move(c.state);
}

std::vector<Card> natural_deck() {
  std::vector<Card> d;
  for (Card c : CardSet::deck32()) d.push_back(c);
  return d;
}

// Seat 1 holds every heart, seat 3 every diamond; seats 0 and 2 hold no combination.
const Hands kKaputHands = {{
    {"7C", "9C", "JC", "KC", "7S", "9S", "JS", "KS"},
    {"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"},
    {"8C", "TC", "QC", "AC", "8S", "TS", "QS", "AS"},
    {"7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"},
}};

void bid_and_pass(State& s, Trump t) {
  ASSERT_EQ(s.apply(1, Action::bid(0, t)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s.apply(seat, Action::pass()), Refusal::none);
}

void play_out(State& s) {
  const std::size_t before = s.hand_results().size();
  while (!s.is_terminal() && s.hand_results().size() == before)
    ASSERT_EQ(s.apply(s.legal_actions().front()), Refusal::none);
}

std::vector<Action> bids_above(int rank) {
  std::vector<Action> v;
  const Trump ladder[] = {Trump::of(Suit::clubs),  Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                          Trump::of(Suit::spades), Trump::no_trumps(),        Trump::all_trumps()};
  for (int i = rank + 1; i < 6; ++i) v.push_back(Action::bid(0, ladder[i]));
  return v;
}

TEST(Belot, DealsThreeThenTwoAndNoTurnUp) {
  auto s = make(natural_deck());
  // Natural order: 7C 8C ... AS. Seats 1, 2, 3, 0 get deck[0..11] by threes, deck[12..19] by twos.
  EXPECT_EQ(s->hands()[1], S({"7C", "8C", "9C", "JD", "QD"}));
  EXPECT_EQ(s->hands()[2], S({"TC", "JC", "QC", "KD", "AD"}));
  EXPECT_EQ(s->hands()[3], S({"KC", "AC", "7D", "7H", "8H"}));
  EXPECT_EQ(s->hands()[0], S({"8D", "9D", "TD", "9H", "TH"}));
  const Observation o = s->observation(1);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_EQ(o.current, 1);  // Bulgarian Belot rules: the player after the dealer
  EXPECT_FALSE(o.turn_up.has_value());
  EXPECT_EQ(o.hand_sizes, (std::array<int, 4>{5, 5, 5, 5}));
  std::vector<Action> expected{Action::pass()};
  for (const Action& a : bids_above(-1)) expected.push_back(a);
  EXPECT_EQ(o.legal, expected);  // no double with nothing to double
  // After the bidding, three more each in the same order (Bulgarian Belot rules: three more each after the bidding).
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::clubs))), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::playing);
  EXPECT_EQ(s->hands()[1], S({"7C", "8C", "9C", "JD", "QD", "JH", "QH", "KH"}));
  EXPECT_EQ(s->hands()[2], S({"TC", "JC", "QC", "KD", "AD", "AH", "7S", "8S"}));
  EXPECT_EQ(s->hands()[3], S({"KC", "AC", "7D", "7H", "8H", "9S", "TS", "JS"}));
  EXPECT_EQ(s->hands()[0], S({"8D", "9D", "TD", "9H", "TH", "QS", "KS", "AS"}));
  EXPECT_EQ(s->current_player(), 1);  // Bulgarian Belot rules: first to play is the player after the dealer
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.taker, 1);
  EXPECT_EQ(c.trump, Trump::of(Suit::clubs));
  EXPECT_EQ(c.multiplier, 1);
}

TEST(Belot, BidLadderAndBidRefusals) {
  auto s = make(natural_deck());
  EXPECT_EQ(s->apply(2, Action::pass()), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::cannot_double);     // nothing bid yet
  EXPECT_EQ(s->apply(1, Action::redouble()), Refusal::cannot_redouble);  // no double
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::hearts))), Refusal::none);
  const std::size_t recorded = s->record().actions.size();
  // Bulgarian Belot rules: each bid must be higher on the ladder.
  EXPECT_EQ(s->apply(2, Action::bid(0, Trump::of(Suit::hearts))), Refusal::bid_too_low);
  EXPECT_EQ(s->apply(2, Action::bid(0, Trump::of(Suit::diamonds))), Refusal::bid_too_low);
  EXPECT_EQ(s->apply(2, Action::bid(0, Trump::of(Suit::clubs))), Refusal::bid_too_low);
  EXPECT_EQ(s->apply(2, Action::bid(90, Trump::of(Suit::spades))), Refusal::invalid_bid);  // no values
  EXPECT_EQ(s->apply(2, Action::bid(0, Trump::of(Suit::spades), true)), Refusal::invalid_bid);
  EXPECT_EQ(s->apply(2, Action::take()), Refusal::invalid_bid);
  EXPECT_EQ(s->apply(2, Action::take(Trump::of(Suit::spades))), Refusal::invalid_bid);
  EXPECT_EQ(s->apply(2, Action::play(C("TC"))), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(2, Action::announce(S({"TC", "JC", "QC"}))), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(2, Action::concede()), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(3, Action::bid(0, Trump::all_trumps())), Refusal::not_your_turn);
  EXPECT_EQ(s->record().actions.size(), recorded);  // refusals change nothing
  EXPECT_EQ(s->current_player(), 2);
  std::vector<Action> expected{Action::pass()};
  for (const Action& a : bids_above(2)) expected.push_back(a);
  expected.push_back(Action::double_());
  EXPECT_EQ(s->legal_actions(), expected);
  ASSERT_EQ(s->apply(2, Action::bid(0, Trump::no_trumps())), Refusal::none);
  // The partner of a bidder may bid higher too; All Trumps is the top of the ladder.
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::bid(0, Trump::all_trumps())), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::bid(0, Trump::all_trumps())), Refusal::bid_too_low);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::pass(), Action::double_()}));
}

TEST(Belot, DoubleAndRedouble) {
  auto s = make(natural_deck());
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::hearts))), Refusal::none);
  // Only the side opposing the bid may double (Bulgarian Belot rules: Double, by the other side, doubles the result).
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  EXPECT_EQ(s->apply(3, Action::double_()), Refusal::cannot_double);  // own side's bid
  EXPECT_EQ(s->apply(3, Action::redouble()), Refusal::cannot_redouble);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  EXPECT_EQ(s->apply(0, Action::redouble()), Refusal::cannot_redouble);  // no double yet
  ASSERT_EQ(s->apply(0, Action::double_()), Refusal::none);
  // Re-Double only after a Double, by the doubled side (Bulgarian Belot rules: Re-Double, only after a Double,
  // multiplies it by 4).
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::cannot_double);
  std::vector<Action> expected{Action::pass()};
  for (const Action& a : bids_above(2)) expected.push_back(a);
  expected.push_back(Action::redouble());
  EXPECT_EQ(s->legal_actions(), expected);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::double_()), Refusal::cannot_double);     // only once
  EXPECT_EQ(s->apply(2, Action::redouble()), Refusal::cannot_redouble);  // the doubling side
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::redouble()), Refusal::none);
  EXPECT_EQ(s->apply(0, Action::redouble()), Refusal::cannot_redouble);
  EXPECT_EQ(s->apply(0, Action::double_()), Refusal::cannot_double);
  // Three passes after the re-double end the bidding.
  for (Seat seat : {Seat{0}, Seat{1}, Seat{2}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s->phase(), Phase::playing);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.taker, 1);
  EXPECT_EQ(c.trump, Trump::of(Suit::hearts));
  EXPECT_EQ(c.multiplier, 4);
  EXPECT_EQ(c.doubled_by, 0);
  EXPECT_EQ(c.redoubled_by, 3);
}

TEST(Belot, DoubledContractEndsAfterThreePasses) {
  auto s = make(natural_deck());
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::spades))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  for (Seat seat : {Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::bidding);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->phase(), Phase::playing);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.multiplier, 2);
  EXPECT_EQ(c.doubled_by, 2);
  EXPECT_EQ(c.redoubled_by, kNoSeat);
}

TEST(Belot, HigherBidClearsTheDouble) {
  auto s = make(natural_deck());
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::hearts))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::redouble()), Refusal::none);
  // The doubling side bids over the re-doubled contract: a new contract, not doubled.
  ASSERT_EQ(s->apply(0, Action::bid(0, Trump::of(Suit::spades))), Refusal::none);
  const auto legal = s->legal_actions();
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::double_()), legal.end());
  EXPECT_EQ(std::find(legal.begin(), legal.end(), Action::redouble()), legal.end());
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.taker, 0);
  EXPECT_EQ(c.trump, Trump::of(Suit::spades));
  EXPECT_EQ(c.multiplier, 1);
  EXPECT_EQ(c.doubled_by, kNoSeat);
  EXPECT_EQ(c.redoubled_by, kNoSeat);
}

TEST(Belot, PassesBeforeTheFirstBidDoNotEndTheBidding) {
  auto s = make(natural_deck());
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::bid(0, Trump::of(Suit::clubs))), Refusal::none);
  for (Seat seat : {Seat{1}, Seat{2}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::bidding);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::playing);
  EXPECT_EQ(s->observation(kNoSeat).contract->taker, 0);
  EXPECT_EQ(s->current_player(), 1);  // the lead stays with the player after the dealer
}

TEST(Belot, FourPassesRedealByTheNextDealer) {
  auto s = make(natural_deck());
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s->hand_results().size(), 1u);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.outcome, Outcome::all_passed);
  EXPECT_FALSE(r.contract.has_value());
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 0}));
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.hand, 1);
  EXPECT_EQ(o.dealer, 1);
  EXPECT_EQ(o.current, 2);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_TRUE(o.bids.empty());
  EXPECT_EQ(o.hand_sizes, (std::array<int, 4>{5, 5, 5, 5}));
}

TEST(Belot, PlayRefusalsAreTyped) {
  auto s = make(deck_of(kKaputHands));
  bid_and_pass(*s, Trump::of(Suit::hearts));
  EXPECT_EQ(s->apply(2, Action::play(C("8C"))), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(1, Action::play(C("7C"))), Refusal::card_not_in_hand);
  EXPECT_EQ(s->apply(1, Action::bid(0, Trump::all_trumps())), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::concede()), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::announce(S({"7H", "8H", "9H"}))), Refusal::not_allowed);  // declare: auto
  ASSERT_EQ(s->apply(1, Action::play(C("9H"))), Refusal::none);
  // Seat 2 holds no heart: with no trump either, any card.
  ASSERT_EQ(s->apply(2, Action::play(C("AS"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("AD"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("KS"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 1);
}

// Natural deck, clubs by seat 1: seat 1 7C 8C 9C JD QD JH QH KH; seat 2 TC JC QC KD AD AH 7S 8S;
// seat 3 KC AC 7D 7H 8H 9S TS JS; seat 0 8D 9D TD 9H TH QS KS AS.
TEST(Belot, FollowBeatAndTrumpRefusalsThroughTheState) {
  auto s = make(natural_deck());
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::clubs))), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("9C"))), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::play(C("TC"))),
            Refusal::must_beat);  // Bulgarian Belot rules: a trump played must be overtrumped if able
  EXPECT_EQ(s->apply(2, Action::play(C("KD"))), Refusal::must_follow_suit);
  ASSERT_EQ(s->apply(2, Action::play(C("JC"))), Refusal::none);
  EXPECT_EQ(s->apply(3, Action::play(C("7D"))), Refusal::must_follow_suit);
  ASSERT_EQ(s->apply(3, Action::play(C("AC"))), Refusal::none);  // cannot beat the jack: any club
  ASSERT_EQ(s->apply(0, Action::play(C("8D"))), Refusal::none);  // no club, no trump: any card
  ASSERT_EQ(s->current_player(), 2);
  ASSERT_EQ(s->apply(2, Action::play(C("7S"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("9S"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("AS"))), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::play(C("JD"))),
            Refusal::must_trump);  // Bulgarian Belot rules: follow suit if able; void, trump if able
  const std::size_t recorded = s->record().actions.size();
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::play(C("7C")), Action::play(C("8C"))}));
  ASSERT_EQ(s->apply(1, Action::play(C("8C"))), Refusal::none);
  EXPECT_EQ(s->record().actions.size(), recorded + 1);
  EXPECT_EQ(s->current_player(), 1);
}

// Seat 1 holds every heart and wins every trick (legal_actions().front() plays the lowest card):
// a kaput with a quint and a tierce for each of seats 1 and 3.
TEST(Belot, KaputInHearts) {
  auto s = make(deck_of(kKaputHands));
  bid_and_pass(*s, Trump::of(Suit::hearts));
  play_out(*s);
  ASSERT_EQ(s->hand_results().size(), 1u);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.outcome, Outcome::made);
  EXPECT_TRUE(r.capot);
  EXPECT_EQ(r.capot_team, 1);
  EXPECT_EQ(r.teams[1].tricks, 8);
  EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick,
            162);                         // Bulgarian Belot rules: a suit hand is 162 (16), All Trumps 258 (26)
  EXPECT_EQ(r.teams[1].capot_bonus, 90);  // Bulgarian Belot rules: a side with no trick is kaput: 90 more to the other
  EXPECT_EQ(r.teams[1].declarations, 240);  // two runs of eight, each five + three (Bulgarian Belot rules: longer runs
                                            // count as a five (and a three for eight))
  EXPECT_EQ(r.teams[1].belote,
            20);  // K and Q of hearts, trumps (Bulgarian Belot rules: belote, K and Q of trumps, is 20)
  EXPECT_EQ(r.teams[1].raw, 512);
  EXPECT_EQ(r.teams[1].score, 16 + 9 + 24 + 2);
  EXPECT_EQ(r.teams[0].score, 0);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 51}));
  EXPECT_FALSE(s->is_terminal());
}

TEST(Belot, KaputInAllTrumpsCountsOnlyTheBeloteLedOrFollowed) {
  auto s = make(deck_of(kKaputHands));
  bid_and_pass(*s, Trump::all_trumps());
  // Trick by trick: seat 1 leads its lowest heart; the others, void, discard their lowest card.
  std::vector<Seat> calls;
  while (s->hand_results().empty()) {
    const Observation o = s->observation(kNoSeat);
    calls = o.belote;
    ASSERT_EQ(s->apply(s->legal_actions().front()), Refusal::none);
  }
  const HandResult& r = s->hand_results()[0];
  // Seat 1 led the queen of hearts with the king in hand: belote. Seat 3 threw the queen of
  // diamonds on a heart: no belote (docs/rules/belot.md, All Trumps belote).
  EXPECT_EQ(calls, (std::vector<Seat>{1}));
  EXPECT_EQ(r.teams[1].belote, 20);
  EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick,
            258);  // Bulgarian Belot rules: a suit hand is 162 (16), All Trumps 258 (26)
  EXPECT_EQ(r.teams[1].declarations, 240);
  EXPECT_EQ(r.teams[1].score, 26 + 9 + 24 + 2);
}

TEST(Belot, KaputInNoTrumpsHasNoDeclarationsNorBelote) {
  for (bool doubled : {false, true}) {
    auto s = make(deck_of(kKaputHands), {{"no_trumps_double", doubled}});
    bid_and_pass(*s, Trump::no_trumps());
    play_out(*s);
    const HandResult& r = s->hand_results()[0];
    EXPECT_EQ(r.teams[1].declarations, 0);  // Bulgarian Belot rules: no declarations in No Trumps
    EXPECT_EQ(r.teams[1].belote, 0);        // Bulgarian Belot rules: it must be trump
    EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick, doubled ? 260 : 130);
    EXPECT_EQ(r.teams[1].score, (doubled ? 26 : 13) + 9);
  }
}

TEST(Belot, RedoubledKaputEndsTheMatch) {
  auto s = make(deck_of(kKaputHands));
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::hearts))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::redouble()), Refusal::none);
  for (Seat seat : {Seat{0}, Seat{1}, Seat{2}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.contract->multiplier, 4);
  EXPECT_EQ(r.teams[1].score, 51 * 4);  // Bulgarian Belot rules: x4, the whole hand to its winner
  EXPECT_EQ(r.teams[0].score, 0);
  EXPECT_TRUE(s->is_terminal());  // 204 >= 151 (Bulgarian Belot rules: the first side to 151 wins)
  EXPECT_EQ(s->winner(), 1);
  EXPECT_EQ(s->current_player(), kNoSeat);
  EXPECT_EQ(s->apply(1, Action::pass()), Refusal::game_over);
}

TEST(Belot, DoubledKaputForTheDefenceEachSideOption) {
  // Seat 0 bids hearts for seat 1's hand: the defence takes every trick.
  auto s = make(deck_of(kKaputHands), {{"double_scoring", std::string("each_side")}});
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::bid(0, Trump::of(Suit::hearts))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::double_()), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.outcome, Outcome::failed);
  // Inside: the defence takes all (51), doubled.
  EXPECT_EQ(r.teams[1].score, 102);
  EXPECT_EQ(r.teams[0].score, 0);
}

// Seat 0 holds four jacks, seat 1 a quarte to the ten of hearts: each side shows and scores its
// own kind of declaration.
const Hands kSplitHands = {{
    {"JC", "JD", "JH", "JS", "7C", "8D", "7S", "8S"},
    {"7H", "8H", "9H", "TH", "AC", "KD", "9S", "AS"},
    {"8C", "TC", "KC", "7D", "TD", "AD", "QH", "TS"},
    {"9C", "QC", "9D", "QD", "KH", "AH", "QS", "KS"},
}};

TEST(Belot, SequencesAndCarresCountApart) {
  auto s = make(deck_of(kSplitHands));
  bid_and_pass(*s, Trump::of(Suit::clubs));
  // Before the first trick is over nothing is shown.
  for (int i = 0; i < 4; ++i) {
    for (const DeclarationView& d : s->observation(kNoSeat).declarations) EXPECT_FALSE(d.shown);
    ASSERT_EQ(s->apply(s->legal_actions().front()), Refusal::none);
  }
  const Observation o = s->observation(kNoSeat);
  ASSERT_EQ(o.declarations.size(), 2u);
  for (const DeclarationView& d : o.declarations) {
    EXPECT_TRUE(d.shown);
    EXPECT_EQ(d.cards, d.seat == 0 ? CardSet::rank_mask(Rank::jack) : S({"7H", "8H", "9H", "TH"}));
    EXPECT_TRUE((d.cards - o.visible).empty());
  }
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.teams[0].declarations, 200);  // Bulgarian Belot rules: four jacks are 200
  EXPECT_EQ(r.teams[1].declarations, 50);   // Bulgarian Belot rules: a sequence of four is 50
}

// `declare: manual`: announce before your first card, show before your second; only what is
// shown counts (Bulgarian Belot rules: declarations are announced during the first round).
TEST(BelotManualDeclarations, OnlyShownCombinationsCount) {
  auto s = make(deck_of(kKaputHands), {{"declare", std::string("manual")}});
  bid_and_pass(*s, Trump::of(Suit::hearts));
  const CardSet quint = S({"TH", "JH", "QH", "KH", "AH"});
  const CardSet tierce = S({"7H", "8H", "9H"});
  const CardSet diamonds = S({"TD", "JD", "QD", "KD", "AD"});
  const auto legal = s->legal_actions();
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::announce(quint)), legal.end());
  EXPECT_EQ(s->apply(1, Action::show(quint)), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::announce(S({"7C", "8C", "9C"}))), Refusal::invalid_combination);
  ASSERT_EQ(s->apply(1, Action::announce(quint)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(S({"9H", "TH", "JH"}))), Refusal::invalid_combination);  // crosses
  ASSERT_EQ(s->apply(1, Action::announce(tierce)), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("7H"))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::play(C("8C"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::announce(diamonds)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("7D"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("7C"))), Refusal::none);
  // Trick 2: seat 1 shows both; seat 3 will not show its quint.
  EXPECT_EQ(s->apply(1, Action::show(S({"7H", "8H", "9H", "TH"}))), Refusal::not_announced);
  ASSERT_EQ(s->apply(1, Action::show(quint)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::show(quint)), Refusal::not_allowed);
  ASSERT_EQ(s->apply(1, Action::show(tierce)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(S({"TH", "JH", "QH"}))), Refusal::wrong_phase);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.teams[1].declarations, 120);  // seat 3's quint was never shown
  EXPECT_EQ(r.teams[1].belote, 20);         // belote is called as it is played, in either mode
}

TEST(BelotManualDeclarations, NothingToAnnounceInNoTrumps) {
  auto s = make(deck_of(kKaputHands), {{"declare", std::string("manual")}});
  bid_and_pass(*s, Trump::no_trumps());
  for (const Action& a : s->legal_actions())
    EXPECT_EQ(a.type, ActionType::play);  // Bulgarian Belot rules: no declarations in No Trumps
  EXPECT_EQ(s->apply(1, Action::announce(S({"7H", "8H", "9H"}))), Refusal::invalid_combination);
}

TEST(Belot, BadOptionsAreRefused) {
  Record r;
  r.variant = "belot";
  r.deal.seed = Seed{1, 1};
  r.options = {{"target", 101}};
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r.options = {{"tie", std::string("litige")}};
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r.options = {{"capot", 250}};
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r.options = {{"no_trumps_double", 1}};
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r.options = {{"declare", std::string("manual")}, {"deal", std::string("cut")}, {"strictly_ahead", false}};
  EXPECT_FALSE(create_state(r).error.has_value());
}

TEST(Belot, BidsTravelAsJsonWithoutAValue) {
  // A belot bid names its trump alone; the record round-trips through JSON and replays.
  const auto parsed = protocol::parse_action(protocol::json::parse(R"({"type": "bid", "trump": "all_trumps"})"));
  ASSERT_TRUE(parsed) << parsed.error;
  EXPECT_EQ(*parsed.value, Action::bid(0, Trump::all_trumps()));
  EXPECT_FALSE(protocol::to_json(Action::bid(0, Trump::no_trumps())).contains("value"));
  auto s = make(deck_of(kKaputHands));
  ASSERT_EQ(s->apply(1, Action::bid(0, Trump::of(Suit::spades))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  for (Seat seat : {Seat{3}, Seat{0}, Seat{1}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  play_out(*s);
  const auto back = protocol::parse_record(protocol::to_json(s->record()));
  ASSERT_TRUE(back) << back.error;
  const ReplayResult rr = replay(*back.value);
  ASSERT_EQ(rr.refusal, Refusal::none);
  EXPECT_EQ(protocol::to_json(rr.state->hand_results().back()), protocol::to_json(s->hand_results().back()));
}

}  // namespace
}  // namespace atout
