// Bazar belote: every number of the Bazar rules in tables, the scoring
// formula on the rules' own examples, the auction's edge cases and refusals, the play constraints,
// announcing and showing combinations, and whole hands on hand-built decks.
#include "variants/bazar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "atout/declarations.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"
#include "test_util.hpp"
#include "variants/bazar_auction.hpp"
#include "variants/bazar_scoring.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

const Trump kHearts = Trump::of(Suit::hearts);
const Trump kClubs = Trump::of(Suit::clubs);
const Trump kSpades = Trump::of(Suit::spades);
const Trump kHeight = Trump::no_trumps();

// ---- every number of the Bazar rules ---------------------------------------------------------

struct PointRow {
  Rank rank;
  int plain;
  int trump;
  int height;
  const char* source;
};

const PointRow kPointRows[] = {
    {Rank::ace, 11, 11, 19, "Bazar rules: card values A 11 (height: A 19)"},
    {Rank::ten, 10, 10, 10, "Bazar rules: 10 is worth 10"},
    {Rank::king, 4, 4, 4, "Bazar rules: K is worth 4"},
    {Rank::queen, 3, 3, 3, "Bazar rules: Q is worth 3"},
    {Rank::jack, 2, 20, 2, "Bazar rules: J is worth 2 (trump J 20)"},
    {Rank::nine, 0, 14, 0, "Bazar rules: 7, 8 and 9 are worth nothing (trump 9 14)"},
    {Rank::eight, 0, 0, 0, "Bazar rules: 7, 8 and 9 are worth nothing"},
    {Rank::seven, 0, 0, 0, "Bazar rules: 7, 8 and 9 are worth nothing"},
};

TEST(BazarSeedNumbers, CardPoints) {
  const PointTable p = bazar_points();
  for (const PointRow& r : kPointRows) {
    EXPECT_EQ(p.value(kHearts, Card(Suit::spades, r.rank)), r.plain) << r.source;
    EXPECT_EQ(p.value(kHearts, Card(Suit::hearts, r.rank)), r.trump) << r.source;
    for (int s = 0; s < kSuits; ++s)
      EXPECT_EQ(p.value(kHeight, Card(static_cast<Suit>(s), r.rank)), r.height) << r.source;
  }
}

TEST(BazarSeedNumbers, DealTotals) {
  // Bazar rules: the cards are worth 152 in every contract, the last trick 10 more, a capot
  // 250; 162 in the folds, which is the 16 of Bazar rules: the scoring formula in tens in tens.
  const PointTable p = bazar_points();
  for (Trump t : {Trump::of(Suit::clubs), Trump::of(Suit::diamonds), kHearts, kSpades, kHeight})
    EXPECT_EQ(p.sum(t, CardSet::deck32()), 152) << to_string(t);
  EXPECT_EQ(p.last_trick, 10);
  EXPECT_EQ(kCapotPoints, 250);
  EXPECT_EQ(kDealTens, card_tens(152 + 10));
  EXPECT_EQ(kDealTens, 16);
  // Bazar rules: bids are in tens, "12 of hearts" asks for 120.
  EXPECT_EQ(card_tens(120), 12);
  EXPECT_EQ(card_tens(119), 11);
  // Bazar rules: capot may be bid above 25. Our bounds (docs/rules/bazar.md): 8 (the contract's 82 in tens,
  // rounded down) up to 84 (a capot and four carrés in height: 25 + 20 + 19 + 10 + 10).
  EXPECT_EQ(kCapotBidAbove, 25);
  EXPECT_EQ(kMinBid, 8);
  EXPECT_EQ(kMaxBid, card_tens(kCapotPoints) + 20 + 19 + 10 + 10);
}

TEST(BazarSeedNumbers, CardOrders) {
  // Bazar rules: plain A 10 K Q J 9 8 7; trump J 9 A 10 K Q 8 7; any trump
  // beats any plain card; in height the ace is highest in every suit.
  const Rank plain[] = {Rank::ace,  Rank::ten,  Rank::king,  Rank::queen,
                        Rank::jack, Rank::nine, Rank::eight, Rank::seven};
  const Rank trump[] = {Rank::jack, Rank::nine,  Rank::ace,   Rank::ten,
                        Rank::king, Rank::queen, Rank::eight, Rank::seven};
  for (int i = 0; i + 1 < kRanks; ++i) {
    EXPECT_GT(strength(kHearts, Card(Suit::spades, plain[i])), strength(kHearts, Card(Suit::spades, plain[i + 1])));
    EXPECT_GT(strength(kHearts, Card(Suit::hearts, trump[i])), strength(kHearts, Card(Suit::hearts, trump[i + 1])));
    EXPECT_GT(strength(kHeight, Card(Suit::hearts, plain[i])), strength(kHeight, Card(Suit::hearts, plain[i + 1])));
  }
  EXPECT_TRUE(beats(C("7H"), C("AS"), kHearts));
  EXPECT_FALSE(beats(C("7S"), C("AH"), kHeight));
}

struct ComboRow {
  std::vector<const char*> cards;
  Trump trump;
  ComboKind kind;
  int points;
  const char* source;
};

TEST(BazarSeedNumbers, CombinationValuesInTens) {
  const ComboRow rows[] = {
      {{"7H", "8H", "9H"}, kClubs, ComboKind::tierce, 2, "Bazar rules: a tierce is 2 (in tens)"},
      {{"TH", "JH", "QH", "KH"}, kClubs, ComboKind::quarte, 5, "Bazar rules: a fifty is 5"},
      {{"9S", "TS", "JS", "QS", "KS"}, kClubs, ComboKind::quint, 10, "Bazar rules: a hundred is 10"},
      {{"JC", "JD", "JH", "JS"}, kClubs, ComboKind::carre, 20, "Bazar rules: four jacks are 20"},
      {{"JC", "JD", "JH", "JS"}, kHeight, ComboKind::carre, 20, "Bazar rules: four jacks are 20"},
      {{"9C", "9D", "9H", "9S"}, kClubs, ComboKind::carre, 14, "Bazar rules: four nines are 14 (10 without a trump)"},
      {{"9C", "9D", "9H", "9S"},
       kHeight,
       ComboKind::carre,
       10,
       "Bazar rules: four nines are 14 (10 without a trump) (without a trump)"},
      {{"KC", "KD", "KH", "KS"}, kClubs, ComboKind::carre, 10, "Bazar rules: four kings, queens or tens are 10"},
      {{"QC", "QD", "QH", "QS"}, kHeight, ComboKind::carre, 10, "Bazar rules: four kings, queens or tens are 10"},
      {{"TC", "TD", "TH", "TS"}, kClubs, ComboKind::carre, 10, "Bazar rules: four kings, queens or tens are 10"},
      {{"AC", "AD", "AH", "AS"}, kClubs, ComboKind::carre, 10, "Bazar rules: four aces are 10 (19 without a trump)"},
      {{"AC", "AD", "AH", "AS"},
       kHeight,
       ComboKind::carre,
       19,
       "Bazar rules: four aces are 10 (19 without a trump) (without a trump)"},
      {{"8C", "8D", "8H", "8S"}, kClubs, ComboKind::carre, 0, "Bazar rules: four eights are worth nothing"},
      {{"8C", "8D", "8H", "8S"}, kHeight, ComboKind::carre, 0, "Bazar rules: four eights are worth nothing"},
  };
  const DeclarationRules rules = bazar_declarations();
  for (const ComboRow& r : rows) {
    CardSet hand;
    for (const char* x : r.cards) hand.insert(C(x));
    const auto found = find_combos(hand, r.trump, rules);
    const auto it = std::find_if(found.begin(), found.end(), [&](const Combo& c) { return c.cards == hand; });
    ASSERT_NE(it, found.end()) << r.source;
    EXPECT_EQ(it->kind, r.kind) << r.source;
    EXPECT_EQ(it->points, r.points) << r.source;
  }
  // Bazar rules: every rank but 7 makes a carré.
  EXPECT_TRUE(find_combos(S({"7C", "7D", "7H", "7S"}), kClubs, rules).empty());
  EXPECT_TRUE(find_combos(S({"7C", "7D", "7H", "7S"}), kHeight, rules).empty());
  // Bazar rules: belote-rebelote 2.
  EXPECT_EQ(rules.belote_points, 2);
}

TEST(BazarSeedNumbers, CombinationStrengths) {
  // Bazar rules: 4 of a kind > 100 > 50 > tierce; carrés 8 > J > 9 > A > 10 > K > Q (in every
  // contract); other combinations by their top card A K Q J 10 9.
  const DeclarationRules rules = bazar_declarations();
  auto key = [&](std::initializer_list<const char*> cards, Trump t) {
    const auto best = find_combos(S(cards), t, rules);
    EXPECT_FALSE(best.empty());
    std::uint32_t k = 0;
    for (const Combo& c : best) k = std::max(k, combo_strength(c, t, rules));
    return k;
  };
  for (Trump t : {kClubs, kHeight}) {
    const std::uint32_t carres[] = {key({"8C", "8D", "8H", "8S"}, t), key({"JC", "JD", "JH", "JS"}, t),
                                    key({"9C", "9D", "9H", "9S"}, t), key({"AC", "AD", "AH", "AS"}, t),
                                    key({"TC", "TD", "TH", "TS"}, t), key({"KC", "KD", "KH", "KS"}, t),
                                    key({"QC", "QD", "QH", "QS"}, t)};
    for (int i = 0; i + 1 < 7; ++i) {
      EXPECT_GT(carres[i], carres[i + 1])
          << "carré order, Bazar rules: only the side with the strongest combination scores, " << to_string(t);
    }
    EXPECT_GT(carres[6], key({"TH", "JH", "QH", "KH", "AH"}, t));  // the weakest carré beats a 100
  }
  EXPECT_GT(key({"7H", "8H", "9H", "TH", "JH"}, kClubs), key({"JH", "QH", "KH", "AH"}, kClubs));  // 100 > 50
  EXPECT_GT(key({"7H", "8H", "9H", "TH"}, kClubs), key({"QH", "KH", "AH"}, kClubs));              // 50 > tierce
  const char* tops[][3] = {{"QD", "KD", "AD"}, {"JD", "QD", "KD"}, {"TD", "JD", "QD"},
                           {"9D", "TD", "JD"}, {"8D", "9D", "TD"}, {"7D", "8D", "9D"}};
  for (int i = 0; i + 1 < 6; ++i)
    EXPECT_GT(key({tops[i][0], tops[i][1], tops[i][2]}, kClubs),
              key({tops[i + 1][0], tops[i + 1][1], tops[i + 1][2]}, kClubs));
  // Bazar rules: at equal height the trump sequence wins.
  EXPECT_GT(key({"9C", "TC", "JC"}, kClubs), key({"9D", "TD", "JD"}, kClubs));
  EXPECT_EQ(key({"9H", "TH", "JH"}, kClubs), key({"9D", "TD", "JD"}, kClubs));
}

TEST(BazarSeedNumbers, OnlyTheStrongerSideCounts) {
  // Bazar rules: only the side with the strongest combination counts, and all its combinations
  // count; and, as the rules add in parenthesis, 8s score nothing but neutralise every combination of the opponent.
  const DeclarationRules rules = bazar_declarations();
  std::vector<std::vector<Combo>> by_seat(4);
  by_seat[0] = find_combos(S({"JC", "JD", "JH", "JS"}), kClubs, rules);
  by_seat[1] = find_combos(S({"8C", "8D", "8H", "8S"}), kClubs, rules);
  const std::vector<Seat> order = {0, 1, 2, 3};
  EXPECT_EQ(declaration_winner(by_seat, order, kClubs, rules), 1);
  // Equal non-trump sequences: the first in the showing order (Bazar rules: equal combinations: trumps first, then the
  // first to show).
  by_seat[0] = find_combos(S({"9H", "TH", "JH"}), kClubs, rules);
  by_seat[1] = find_combos(S({"9D", "TD", "JD"}), kClubs, rules);
  EXPECT_EQ(declaration_winner(by_seat, order, kClubs, rules), 0);
  EXPECT_EQ(declaration_winner(by_seat, {1, 2, 3, 0}, kClubs, rules), 1);
  // ... unless one is in trumps.
  EXPECT_EQ(declaration_winner(by_seat, order, Trump::of(Suit::diamonds), rules), 1);
}

TEST(BazarSeedNumbers, CrossingCombinationsCountOnce) {
  // Bazar rules: {7H 8H 9H 10H} is one 50 (5); {8H 9H 10H 10C JC QC} two tierces (2 + 2).
  const DeclarationRules rules = bazar_declarations();
  auto total = [&](CardSet h) {
    int t = 0;
    for (const Combo& c : best_combos(h, kSpades, rules)) t += c.points;
    return t;
  };
  EXPECT_EQ(total(S({"7H", "8H", "9H", "TH"})), 5);
  EXPECT_EQ(total(S({"8H", "9H", "TH", "TC", "JC", "QC"})), 4);
}

// ---- the scoring formula (Bazar rules: bids are 'x of a suit', at least 10x points), pure
// ---------------------------------------

struct ScoreRow {
  const char* source;
  int x;
  bool capot_bid;
  int multiplier;
  int bidder_cards;  // card points of the bidders' tricks, without the last trick
  bool bidder_last;  // the bidders took the last trick
  int bidder_tricks;
  int bidder_decl, bidder_belote, defence_decl, defence_belote;  // tens
  Outcome outcome;
  int bidder_raw, bidder_score, defence_score;
};

// The bidders are team 1 (seats 1 and 3), the defence team 0.
const ScoreRow kScoreRows[] = {
    {"Bazar rules: 12 of hearts, 120 taken", 12, false, 1, 110, true, 5, 0, 0, 0, 0, Outcome::made, 12, 24, 4},
    {"Bazar rules: 12 of hearts, 119 taken", 12, false, 1, 109, true, 5, 0, 0, 0, 0, Outcome::failed, 11, 0, 28},
    {"Bazar rules: 12 with 2 additional, 100 taken", 12, false, 1, 90, true, 5, 2, 0, 0, 0, Outcome::made, 12, 24, 6},
    {"Bazar rules: 12 with 2 additional, 99 taken", 12, false, 1, 99, false, 5, 2, 0, 0, 0, Outcome::failed, 11, 0, 30},
    {"Bazar rules: belote is an additional 2", 12, false, 1, 90, true, 5, 0, 2, 0, 0, Outcome::made, 12, 24, 6},
    {"Bazar rules: made, x + y; defence its own / 10", 8, false, 1, 80, true, 4, 0, 0, 0, 0, Outcome::made, 9, 17, 7},
    {"Bazar rules: y = x is made", 9, false, 1, 80, true, 4, 0, 0, 0, 0, Outcome::made, 9, 18, 7},
    {"Bazar rules: rounded down, 89 is 8", 9, false, 1, 79, true, 4, 0, 0, 0, 0, Outcome::failed, 8, 0, 25},
    {"Bazar rules: rounded down, 89 makes 8", 8, false, 1, 79, true, 4, 0, 0, 0, 0, Outcome::made, 8, 16, 7},
    {"Bazar rules: the defence's counted combinations are its own", 8, false, 1, 80, true, 4, 0, 0, 5, 0, Outcome::made,
     9, 17, 12},
    {"Bazar rules: failed, x + 16 + z, z from both sides", 10, false, 1, 60, true, 3, 0, 2, 5, 0, Outcome::failed, 9, 0,
     33},
    {"Bazar rules: contra, bidders made: 2x + 16 + z", 9, false, 2, 90, true, 5, 2, 0, 0, 0, Outcome::made, 12, 36, 0},
    {"Bazar rules: contra, bidders failed", 9, false, 2, 70, true, 4, 0, 0, 0, 0, Outcome::failed, 8, 0, 34},
    {"Bazar rules: re-contra, bidders made: 4x + 16 + z", 9, false, 4, 90, true, 5, 0, 0, 0, 0, Outcome::made, 10, 52,
     0},
    {"Bazar rules: re-contra, bidders failed", 11, false, 4, 90, true, 5, 0, 0, 0, 2, Outcome::failed, 10, 0, 62},
    {"Bazar rules: capot bid and capot", 26, true, 1, 152, true, 8, 0, 2, 0, 0, Outcome::made, 27, 53, 0},
    {"Bazar rules: capot bid, amount taken, no capot", 26, true, 1, 142, true, 7, 10, 2, 0, 0, Outcome::failed, 27, 0,
     54},
    {"Bazar rules: capot bid, capot, amount short", 30, true, 1, 152, true, 8, 0, 0, 0, 0, Outcome::failed, 25, 0, 46},
    {"Bazar rules: an unbid capot is 250", 20, false, 1, 152, true, 8, 0, 0, 0, 0, Outcome::made, 25, 45, 0},
    {"Bazar rules: a defence capot fails the bid", 8, false, 1, 0, false, 0, 0, 0, 0, 0, Outcome::failed, 0, 0, 24},
    {"Bazar rules: combinations alone can reach the bid", 8, false, 1, 0, false, 0, 34, 0, 0, 0, Outcome::made, 34, 42,
     25},
};

TEST(BazarScoring, SeedExamples) {
  for (const ScoreRow& row : kScoreRows) {
    HandResult r;
    Contract c;
    c.taker = 1;
    c.trump = kHearts;
    c.value = row.x;
    c.capot = row.capot_bid;
    c.multiplier = row.multiplier;
    r.contract = c;
    TeamTally& b = r.teams[1];
    TeamTally& d = r.teams[0];
    b.card_points = row.bidder_cards;
    d.card_points = 152 - row.bidder_cards;
    b.last_trick = row.bidder_last ? 10 : 0;
    d.last_trick = row.bidder_last ? 0 : 10;
    b.tricks = row.bidder_tricks;
    d.tricks = 8 - row.bidder_tricks;
    b.declarations = row.bidder_decl;
    b.belote = row.bidder_belote;
    d.declarations = row.defence_decl;
    d.belote = row.defence_belote;
    r.capot = row.bidder_tricks == 8 || row.bidder_tricks == 0;
    r.capot_team = row.bidder_tricks == 8 ? 1 : row.bidder_tricks == 0 ? 0 : -1;
    score_bazar(r, 1);
    EXPECT_EQ(r.outcome, row.outcome) << row.source;
    EXPECT_EQ(b.raw, row.bidder_raw) << row.source;
    EXPECT_EQ(b.score, row.bidder_score) << row.source;
    EXPECT_EQ(d.score, row.defence_score) << row.source;
    if (r.capot) {
      const TeamTally& t = r.teams[static_cast<std::size_t>(r.capot_team)];
      EXPECT_EQ(t.card_points + t.last_trick + t.capot_bonus, 250) << row.source;
    }
    EXPECT_FALSE(r.rounding.empty());
  }
}

// ---- the auction, pure -----------------------------------------------------------------------------

struct Step {
  Seat seat;
  Action action;
  Refusal expected;
};

struct AuctionRow {
  const char* name;
  std::vector<Step> steps;
  BazarAuction::Status status;
  int value, multiplier;
  Seat taker;
  bool capot;
};

Action bid(int x, Trump t, bool capot = false) { return Action::bid(x, t, capot); }

const Refusal kOk = Refusal::none;

const AuctionRow kAuctionRows[] = {
    {"four passes: a new deal (GameBase::all_passed)",
     {{1, Action::pass(), kOk}, {2, Action::pass(), kOk}, {3, Action::pass(), kOk}, {0, Action::pass(), kOk}},
     BazarAuction::Status::all_passed,
     0,
     0,
     kNoSeat,
     false},
    {"a bid and three passes",
     {{1, Action::pass(), kOk},
      {2, bid(8, kSpades), kOk},
      {3, Action::pass(), kOk},
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     8,
     1,
     2,
     false},
    {"the minimum is 8, the maximum 84; a bid must name a suit or height",
     {{1, bid(7, kHearts), Refusal::bid_too_low},
      {1, bid(85, kHearts), Refusal::invalid_bid},
      {1, bid(9, Trump::all_trumps()), Refusal::invalid_trump},
      {1, Action{ActionType::bid}, Refusal::invalid_trump},
      {1, bid(84, kHeight), kOk}},
     BazarAuction::Status::open,
     84,
     1,
     1,
     false},
    {"each bid must be higher (the suit does not matter)",
     {{1, bid(10, kHearts), kOk},
      {2, bid(10, kHeight), Refusal::bid_too_low},
      {2, bid(9, kSpades), Refusal::bid_too_low},
      {2, bid(11, kClubs), kOk},
      {3, bid(12, kClubs), kOk},  // raising a partner's bid is a bid like any other
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk},
      {2, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     12,
     1,
     3,
     false},
    {"contra: the opponents only, once, and not before a bid (Bazar rules: contra and re-contra)",
     {{1, Action::double_(), Refusal::cannot_double},
      {1, bid(9, kHearts), kOk},
      {2, Action::redouble(), Refusal::cannot_redouble},  // re-contra without contra
      {3, Action::double_(), Refusal::cannot_double},     // contra of your own side
      {2, Action::double_(), kOk},
      {3, Action::double_(), Refusal::cannot_double},
      {0, Action::double_(), Refusal::cannot_double},  // already contra'd
      {3, Action::pass(), kOk},
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     9,
     2,
     1,
     false},
    {"re-contra: the bidding side only, after a contra, once (Bazar rules: contra and re-contra)",
     {{1, bid(9, kHearts), kOk},
      {2, Action::double_(), kOk},
      {0, Action::redouble(), Refusal::cannot_redouble},  // the contra's own side
      {3, Action::redouble(), kOk},                       // the bidder's partner may
      {1, Action::redouble(), Refusal::cannot_redouble},
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk},
      {2, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     9,
     4,
     1,
     false},
    {"a higher bid after a contra is a new, undoubled contract",
     {{1, bid(9, kHearts), kOk},
      {2, Action::double_(), kOk},
      {3, bid(10, kHearts), kOk},
      {0, Action::redouble(), Refusal::cannot_redouble},
      {0, Action::double_(), kOk},
      {1, Action::pass(), kOk},
      {2, bid(11, kClubs), kOk},
      {3, Action::pass(), kOk},
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     11,
     1,
     2,
     false},
    {"capot only above 25, then the other side must bid capot too (Bazar rules: capot bids above 25)",
     {{1, bid(25, kHearts, true), Refusal::invalid_bid},
      {1, bid(26, kHearts, true), kOk},
      {2, bid(27, kSpades), Refusal::invalid_bid},
      {2, bid(26, kSpades, true), Refusal::bid_too_low},
      {2, Action::pass(), kOk},
      {3, bid(28, kHearts), kOk},  // only the other side is bound
      {0, bid(29, kClubs), Refusal::invalid_bid},
      {0, bid(29, kClubs, true), kOk},
      {1, bid(30, kHearts), Refusal::invalid_bid},  // now both sides have said capot
      {1, Action::pass(), kOk},
      {2, Action::pass(), kOk},
      {3, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     29,
     1,
     0,
     true},
    {"a capot bid can be contra'd and re-contra'd",
     {{1, bid(30, kHeight, true), kOk},
      {2, Action::double_(), kOk},
      {3, Action::redouble(), kOk},
      {0, Action::pass(), kOk},
      {1, Action::pass(), kOk},
      {2, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     30,
     4,
     1,
     true},
    {"bids above 25 need not be capot",
     {{1, bid(40, kSpades), kOk}, {2, Action::pass(), kOk}, {3, Action::pass(), kOk}, {0, Action::pass(), kOk}},
     BazarAuction::Status::closed,
     40,
     1,
     1,
     false},
    {"other action types are refused",
     {{1, Action::take(), Refusal::not_allowed},
      {1, Action::announce(S({"7H", "8H", "9H"})), Refusal::wrong_phase},
      {1, Action::show(S({"7H", "8H", "9H"})), Refusal::wrong_phase},
      {1, Action::concede(), Refusal::wrong_phase},
      {1, Action::pass(), kOk}},
     BazarAuction::Status::open,
     0,
     0,
     kNoSeat,
     false},
};

TEST(BazarAuction, Table) {
  for (const AuctionRow& row : kAuctionRows) {
    BazarAuction a;
    for (const Step& st : row.steps) {
      // Whatever legal() lists is accepted, and nothing it leaves out.
      std::vector<Action> legal;
      a.legal(st.seat, legal);
      const bool listed = std::find(legal.begin(), legal.end(), st.action) != legal.end();
      EXPECT_EQ(listed, st.expected == Refusal::none) << row.name << ": " << to_string(st.action);
      EXPECT_EQ(a.refusal(st.seat, st.action), st.expected) << row.name << ": " << to_string(st.action);
      if (st.expected == Refusal::none) a.apply(st.seat, st.action);
    }
    EXPECT_EQ(a.status(), row.status) << row.name;
    if (row.status == BazarAuction::Status::closed) {
      const Contract c = a.contract();
      EXPECT_EQ(c.value, row.value) << row.name;
      EXPECT_EQ(c.multiplier, row.multiplier) << row.name;
      EXPECT_EQ(c.taker, row.taker) << row.name;
      EXPECT_EQ(c.capot, row.capot) << row.name;
    }
  }
}

TEST(BazarAuction, OpeningListsEveryBid) {
  BazarAuction a;
  std::vector<Action> legal;
  a.legal(1, legal);
  // Pass; 8..84 in four suits and height; capot 26..84 likewise.
  EXPECT_EQ(legal.size(), 1u + 77u * 5u + 59u * 5u);
  EXPECT_EQ(legal.front(), Action::pass());
  EXPECT_NE(std::find(legal.begin(), legal.end(), bid(8, kHeight)), legal.end());
  EXPECT_NE(std::find(legal.begin(), legal.end(), bid(26, kClubs, true)), legal.end());
  EXPECT_EQ(std::find(legal.begin(), legal.end(), bid(25, kClubs, true)), legal.end());
  a.apply(1, bid(84, kHeight));
  legal.clear();
  a.legal(2, legal);
  EXPECT_EQ(legal, (std::vector<Action>{Action::pass(), Action::double_()}));
}

// ---- the state: deal, bidding, refusals -----------------------------------------------------------

// The deck that deals `hands` (seat order 0..3) with dealer 0: packets of 3, 2, 3 from seat 1.
std::vector<Card> deck_for(const std::array<std::vector<const char*>, 4>& hands) {
  std::vector<Card> deck;
  std::array<std::size_t, 4> used{};
  for (int packet : {3, 2, 3})
    for (int k = 1; k <= 4; ++k) {
      const auto s = static_cast<std::size_t>(k % 4);
      for (int i = 0; i < packet; ++i) deck.push_back(C(hands[s][used[s]++]));
    }
  return deck;
}

Record record_for(std::vector<Card> deck, Options options = {}) {
  Record r;
  r.variant = "bazar";
  r.options = std::move(options);
  r.first_dealer = 0;
  r.deal.decks.push_back(std::move(deck));
  r.deal.seed = Seed{0xBA, 0x2A};  // later deals
  return r;
}

std::unique_ptr<State> make(std::vector<Card> deck, Options options = {}) {
  auto c = create_state(record_for(std::move(deck), std::move(options)));
  EXPECT_FALSE(c.error.has_value()) << (c.error ? c.error->message : "");
  return std::move(c.state);
}

// Seat 0 holds four jacks, seat 1 four eights and the hearts K Q, seat 3 the tierce Q K A of spades.
const std::array<std::vector<const char*>, 4> kCarreHands = {{
    {"JC", "JD", "JH", "JS", "7C", "7D", "AC", "AD"},
    {"8C", "8D", "8H", "8S", "KH", "QH", "9S", "TS"},
    {"9C", "TC", "QC", "KC", "9D", "TD", "QD", "KD"},
    {"AH", "TH", "9H", "7H", "7S", "QS", "KS", "AS"},
}};

TEST(Bazar, DealsThreeTwoThreeFromTheDealersSuccessor) {
  std::vector<Card> deck;
  for (int i = 0; i < 32; ++i) deck.push_back(Card::from_index((i * 5 + 3) % 32));
  auto s = make(deck);
  const auto hands = s->hands();
  auto expect = [&](Seat seat, std::initializer_list<int> positions) {
    CardSet want;
    for (int p : positions) want.insert(deck[static_cast<std::size_t>(p)]);
    EXPECT_EQ(hands[static_cast<std::size_t>(seat)], want) << "seat " << int(seat);
  };
  expect(1, {0, 1, 2, 12, 13, 20, 21, 22});
  expect(2, {3, 4, 5, 14, 15, 23, 24, 25});
  expect(3, {6, 7, 8, 16, 17, 26, 27, 28});
  expect(0, {9, 10, 11, 18, 19, 29, 30, 31});
  const Observation o = s->observation(1);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_EQ(o.current, 1);  // Bazar rules: the player next to the dealer speaks first
  EXPECT_FALSE(o.turn_up.has_value());
  EXPECT_EQ(o.hand_sizes, (std::array<int, 4>{8, 8, 8, 8}));  // Bazar rules: 8 cards each
}

TEST(Bazar, AllPassRedealsByTheNextDealer) {
  auto s = make(deck_for(kCarreHands));
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) {
    ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  }
  ASSERT_EQ(s->hand_results().size(), 1u);
  EXPECT_EQ(s->hand_results()[0].outcome, Outcome::all_passed);
  EXPECT_FALSE(s->hand_results()[0].contract.has_value());
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 0}));
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.hand, 1);
  EXPECT_EQ(o.dealer, 1);
  EXPECT_EQ(o.current, 2);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_TRUE(o.bids.empty());
}

TEST(Bazar, ContractWithContraAndReContraThenTheDealersSuccessorLeads) {
  auto s = make(deck_for(kCarreHands));
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, bid(9, kSpades)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::double_()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::redouble()), Refusal::none);
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}}) {
    ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  }
  const Observation o = s->observation(kNoSeat);
  ASSERT_EQ(o.phase, Phase::playing);
  ASSERT_TRUE(o.contract.has_value());
  EXPECT_EQ(o.contract->taker, 2);
  EXPECT_EQ(o.contract->trump, kSpades);
  EXPECT_EQ(o.contract->value, 9);
  EXPECT_EQ(o.contract->multiplier, 4);
  EXPECT_EQ(o.contract->doubled_by, 3);
  EXPECT_EQ(o.contract->redoubled_by, 0);
  EXPECT_EQ(o.current, 1);  // Bazar rules: the dealer's successor leads, whoever bid
  EXPECT_EQ(o.bids.size(), 7u);
}

std::string snapshot(const State& s) {
  std::string out;
  for (Seat seat = kNoSeat; seat < 4; ++seat) out += protocol::to_json(s.observation(seat)).dump();
  return out + protocol::to_json(s.record()).dump();
}

// Applies `a` for `seat`, expects `why`, and checks that the refusal changed nothing.
void expect_refused(State& s, Seat seat, const Action& a, Refusal why) {
  const std::string before = snapshot(s);
  EXPECT_EQ(s.apply(seat, a), why) << to_string(a);
  EXPECT_EQ(snapshot(s), before) << to_string(a);
}

TEST(Bazar, BiddingRefusalsAreTypedAndChangeNothing) {
  auto s = make(deck_for(kCarreHands));
  expect_refused(*s, 2, Action::pass(), Refusal::not_your_turn);
  expect_refused(*s, 1, Action::play(C("8C")), Refusal::wrong_phase);
  expect_refused(*s, 1, Action::double_(), Refusal::cannot_double);
  expect_refused(*s, 1, Action::redouble(), Refusal::cannot_redouble);
  expect_refused(*s, 1, bid(7, kHearts), Refusal::bid_too_low);
  expect_refused(*s, 1, bid(85, kHearts), Refusal::invalid_bid);
  expect_refused(*s, 1, bid(9, Trump::all_trumps()), Refusal::invalid_trump);
  expect_refused(*s, 1, bid(20, kHearts, true), Refusal::invalid_bid);
  expect_refused(*s, 1, Action::take(), Refusal::not_allowed);
  expect_refused(*s, 1, Action::announce(S({"8C", "8D", "8H", "8S"})), Refusal::wrong_phase);
  ASSERT_EQ(s->apply(1, bid(26, kHearts, true)), Refusal::none);
  expect_refused(*s, 2, bid(30, kSpades), Refusal::invalid_bid);  // Bazar rules: capot or nothing
  expect_refused(*s, 2, bid(26, kSpades, true), Refusal::bid_too_low);
  expect_refused(*s, 2, Action::redouble(), Refusal::cannot_redouble);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  expect_refused(*s, 3, Action::double_(), Refusal::cannot_double);  // its own side's bid
  ASSERT_EQ(s->apply(3, Action::redouble()), Refusal::none);
  expect_refused(*s, 0, Action::redouble(), Refusal::cannot_redouble);
  expect_refused(*s, 0, Action::double_(), Refusal::cannot_double);  // contra'd already
  expect_refused(*s, 0, bid(40, kClubs), Refusal::invalid_bid);
  for (Seat seat : {Seat{0}, Seat{1}, Seat{2}}) {
    ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  }
  ASSERT_EQ(s->phase(), Phase::playing);
  expect_refused(*s, 1, bid(30, kHearts, true), Refusal::wrong_phase);
  expect_refused(*s, 1, Action::pass(), Refusal::wrong_phase);
  expect_refused(*s, 1, Action::double_(), Refusal::wrong_phase);
}

// Plays the first legal card for whoever is to play until the hand is scored, calling `before`
// first at each turn (for announcements and showings).
void play_out(State& s, const std::function<void(State&, Seat, int)>& before = {}) {
  const std::size_t results = s.hand_results().size();
  while (s.hand_results().size() == results && !s.is_terminal()) {
    const Seat seat = s.current_player();
    if (before) before(s, seat, static_cast<int>(s.observation(kNoSeat).tricks.size()));
    const auto legal = s.legal_actions();
    const auto play =
        std::find_if(legal.begin(), legal.end(), [](const Action& a) { return a.type == ActionType::play; });
    ASSERT_NE(play, legal.end());
    ASSERT_EQ(s.apply(seat, *play), Refusal::none);
  }
}

void bid_and_close(State& s, Seat bidder, const Action& b) {
  for (Seat seat = 1; seat != bidder; seat = static_cast<Seat>((seat + 1) % 4))
    ASSERT_EQ(s.apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s.apply(bidder, b), Refusal::none);
  for (int k = 1; k <= 3; ++k) {
    ASSERT_EQ(s.apply(static_cast<Seat>((bidder + k) % 4), Action::pass()), Refusal::none);
  }
  ASSERT_EQ(s.phase(), Phase::playing);
}

// ---- play constraints (Bazar rules: the leader may play any card, the chosen bazar play rules)
// ------------------------------

struct PlayRow {
  const char* source;
  std::vector<const char*> trick;  // from the leader, seat 0; the player to move is seat trick.size()
  std::vector<const char*> hand;
  std::vector<const char*> legal;
  Trump trump;
  const char* undertrump;  // the option's value
  Refusal refused_card_reason;
  const char* refused_card;  // a card of `hand` not in `legal`, or nullptr
};

const PlayRow kPlayRows[] = {
    {"Bazar rules: the leader plays anything",
     {},
     {"7S", "JH", "AD"},
     {"7S", "JH", "AD"},
     kHearts,
     "free",
     Refusal::none,
     nullptr},
    {"Bazar rules: follow a plain suit, no need to beat",
     {"KS"},
     {"7S", "AS", "JH"},
     {"7S", "AS"},
     kHearts,
     "free",
     Refusal::must_follow_suit,
     "JH"},
    {"Bazar rules: trumps led, beat if able",
     {"AH"},
     {"7H", "9H", "KS"},
     {"9H"},
     kHearts,
     "free",
     Refusal::must_beat,
     "7H"},
    {"Bazar rules: trumps led, play a higher trump if able, else a trump (the chosen rule): beat the partner's trump "
     "too",
     {"AH", "7H"},
     {"8H", "JH"},
     {"JH"},
     kHearts,
     "free",
     Refusal::must_beat,
     "8H"},
    {"Bazar rules: cannot beat, any trump",
     {"JH"},
     {"7H", "AH", "KS"},
     {"7H", "AH"},
     kHearts,
     "free",
     Refusal::must_follow_suit,
     "KS"},
    {"Bazar rules: no trump, any card", {"JH"}, {"KS", "AD"}, {"KS", "AD"}, kHearts, "free", Refusal::none, nullptr},
    {"Bazar rules: void, opponent winning with a plain card: beat with a trump",
     {"AS"},
     {"7H", "KD"},
     {"7H"},
     kHearts,
     "free",
     Refusal::must_trump,
     "KD"},
    {"Bazar rules: void, no trump: any card",
     {"AS"},
     {"KD", "7C"},
     {"KD", "7C"},
     kHearts,
     "free",
     Refusal::none,
     nullptr},
    {"Bazar rules: void, the partner holds the trick: any card",
     {"AS", "7S"},
     {"7H", "KD"},
     {"7H", "KD"},
     kHearts,
     "free",
     Refusal::none,
     nullptr},
    {"Bazar rules: void, opponent trumped: beat it if able",
     {"AS", "9H"},
     {"7H", "JH", "KD"},
     {"JH"},
     kHearts,
     "free",
     Refusal::must_overtrump,
     "7H"},
    {"Bazar rules: void, beat the trick with a trump if able (our default undertrump: free): cannot beat, any card",
     {"AS", "9H"},
     {"7H", "KD"},
     {"7H", "KD"},
     kHearts,
     "free",
     Refusal::none,
     nullptr},
    {"option undertrump: forced: cannot beat, still a trump",
     {"AS", "9H"},
     {"7H", "KD"},
     {"7H"},
     kHearts,
     "forced",
     Refusal::must_undertrump,
     "KD"},
    {"Bazar rules: height, void: any card",
     {"AS"},
     {"7H", "KD"},
     {"7H", "KD"},
     kHeight,
     "free",
     Refusal::none,
     nullptr},
    {"Bazar rules: height, follow, no need to beat",
     {"TS"},
     {"7S", "AS", "KD"},
     {"7S", "AS"},
     kHeight,
     "free",
     Refusal::must_follow_suit,
     "KD"},
};

TEST(BazarPlay, LegalCardsByTheSeed) {
  for (const PlayRow& row : kPlayRows) {
    const PlayRules rules = bazar_play_rules({{"undertrump", std::string(row.undertrump)}});
    Trick t = test::make_trick(0, {}, row.trump);
    for (const char* c : row.trick) t.add(C(c), row.trump);
    CardSet hand, legal;
    for (const char* c : row.hand) hand.insert(C(c));
    for (const char* c : row.legal) legal.insert(C(c));
    EXPECT_EQ(legal_plays(hand, t, row.trump, rules), legal) << row.source;
    if (row.refused_card) {
      EXPECT_EQ(refusal_for(hand, t, row.trump, C(row.refused_card)), row.refused_card_reason);
    }
  }
  EXPECT_EQ(bazar_play_rules({}).undertrump, Undertrump::free);  // the default (docs/rules/bazar.md)
}

TEST(BazarPlay, RefusalsInPlayAreTypedAndChangeNothing) {
  auto s = make(deck_for(kCarreHands));
  bid_and_close(*s, 1, bid(8, kHearts));
  ASSERT_EQ(s->apply(1, Action::play(C("9S"))), Refusal::none);
  expect_refused(*s, 3, Action::play(C("7S")), Refusal::not_your_turn);
  expect_refused(*s, 2, Action::play(C("9S")), Refusal::card_not_in_hand);
  expect_refused(*s, 2, Action::play(C("7S")), Refusal::card_not_in_hand);
  ASSERT_EQ(s->apply(2, Action::play(C("9C"))), Refusal::none);  // void, no trump: free
  expect_refused(*s, 3, Action::play(C("AH")), Refusal::must_follow_suit);
  expect_refused(*s, 3, Action::concede(), Refusal::wrong_phase);
}

// ---- announcing and showing (Bazar rules: combinations must not cross; belote counts in any case)
// -----------------------------------------------

const CardSet kJacks = S({"JC", "JD", "JH", "JS"});
const CardSet kEights = S({"8C", "8D", "8H", "8S"});
const CardSet kSpadeTierce = S({"QS", "KS", "AS"});

// The carré deck in hearts, bid by seat 1. Trick 1: 9S 9C 7S JS (seat 0 wins); trick 2 is shown in
// the order 0, 1, 2, 3. The flags say which of the three combinations are announced and shown.
struct CarreCase {
  bool jacks_announced, jacks_shown, eights_announced, eights_shown, tierce_announced, tierce_shown;
  int team0_decl, team1_decl;
  const char* why;
};

HandResult play_carre_case(const CarreCase& k) {
  auto s = make(deck_for(kCarreHands));
  bid_and_close(*s, 1, bid(8, kHearts));
  if (k.eights_announced) {
    EXPECT_EQ(s->apply(1, Action::announce(kEights)), Refusal::none);
  }
  EXPECT_EQ(s->apply(1, Action::play(C("9S"))), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::play(C("9C"))), Refusal::none);
  if (k.tierce_announced) {
    EXPECT_EQ(s->apply(3, Action::announce(kSpadeTierce)), Refusal::none);
  }
  EXPECT_EQ(s->apply(3, Action::play(C("7S"))), Refusal::none);
  if (k.jacks_announced) {
    EXPECT_EQ(s->apply(0, Action::announce(kJacks)), Refusal::none);
  }
  EXPECT_EQ(s->apply(0, Action::play(C("JS"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 0);
  play_out(*s, [&](State& st, Seat seat, int tricks) {
    if (tricks != 1 || st.observation(kNoSeat).trick.count != seat) return;  // trick 2 is led by seat 0
    if (seat == 0 && k.jacks_shown) {
      EXPECT_EQ(st.apply(0, Action::show(kJacks)), Refusal::none);
    }
    if (seat == 1 && k.eights_shown) {
      EXPECT_EQ(st.apply(1, Action::show(kEights)), Refusal::none);
    }
    if (seat == 3 && k.tierce_shown) {
      EXPECT_EQ(st.apply(3, Action::show(kSpadeTierce)), Refusal::none);
    }
  });
  EXPECT_EQ(s->hand_results().size(), 1u);
  return s->hand_results().at(0);
}

TEST(BazarDeclarations, WhichSideCounts) {
  const CarreCase cases[] = {
      {true, true, true, true, true, true, 0, 2,
       "Bazar rules: 8s beat jacks and score nothing; the partner's tierce counts with them"},
      {true, true, true, true, false, false, 0, 0, "Bazar rules: 8s neutralise the jacks"},
      {true, true, true, false, true, true, 20, 0, "Bazar rules: the 8s were not shown, the jacks count"},
      {true, true, false, false, true, true, 20, 0, "Bazar rules: the 8s were not announced, the jacks count"},
      {false, false, true, true, false, false, 0, 0, "Bazar rules: nothing announced by team 0"},
      {true, false, false, false, true, true, 0, 2, "Bazar rules: the jacks were not shown, the tierce counts"},
      {true, true, false, false, false, false, 20, 0, "Bazar rules: four jacks 20"},
  };
  for (const CarreCase& k : cases) {
    const HandResult r = play_carre_case(k);
    EXPECT_EQ(r.teams[0].declarations, k.team0_decl) << k.why;
    EXPECT_EQ(r.teams[1].declarations, k.team1_decl) << k.why;
    // Bazar rules: belote-rebelote (seat 1 holds KH QH) counts 2 whatever the combinations do.
    EXPECT_EQ(r.teams[1].belote, 2) << k.why;
    EXPECT_EQ(r.teams[0].belote, 0) << k.why;
  }
}

TEST(BazarDeclarations, AnnounceAndShowRefusals) {
  auto s = make(deck_for(kCarreHands));
  bid_and_close(*s, 1, bid(8, kHearts));
  expect_refused(*s, 1, Action::show(kEights), Refusal::wrong_phase);  // shown before the second card
  expect_refused(*s, 1, Action::announce(S({"8C", "8D", "8H"})), Refusal::invalid_combination);
  expect_refused(*s, 1, Action::announce(kJacks), Refusal::invalid_combination);  // not the seat's cards
  expect_refused(*s, 0, Action::announce(kJacks), Refusal::not_your_turn);
  const auto legal = s->legal_actions();
  EXPECT_NE(std::find(legal.begin(), legal.end(), Action::announce(kEights)), legal.end());
  ASSERT_EQ(s->apply(1, Action::announce(kEights)), Refusal::none);
  expect_refused(*s, 1, Action::announce(kEights), Refusal::invalid_combination);  // already announced
  // Everyone hears the announcement; nobody sees its cards yet.
  const Observation heard = s->observation(2);
  ASSERT_EQ(heard.declarations.size(), 1u);
  EXPECT_EQ(heard.declarations[0].kind, ComboKind::carre);
  EXPECT_EQ(heard.declarations[0].points, 0);
  EXPECT_FALSE(heard.declarations[0].shown);
  EXPECT_TRUE(heard.declarations[0].cards.empty());
  ASSERT_EQ(s->apply(1, Action::play(C("9S"))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::play(C("9C"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("7S"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("JS"))), Refusal::none);
  // Trick 2: announcing is over; showing what was not announced is refused.
  expect_refused(*s, 0, Action::announce(kJacks), Refusal::wrong_phase);
  expect_refused(*s, 0, Action::show(kJacks), Refusal::not_announced);
  ASSERT_EQ(s->apply(0, Action::play(C("7C"))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::show(kEights)), Refusal::none);
  expect_refused(*s, 1, Action::show(kEights), Refusal::not_allowed);  // shown already
  const Observation seen = s->observation(0);
  ASSERT_EQ(seen.declarations.size(), 1u);
  EXPECT_TRUE(seen.declarations[0].shown);
  EXPECT_EQ(seen.declarations[0].cards, kEights);
  ASSERT_EQ(s->apply(1, Action::play(C("8C"))), Refusal::none);
  // Trick 3: too late to show.
  play_out(*s, [&](State& st, Seat seat, int tricks) {
    if (tricks == 2 && seat == 1 && st.observation(kNoSeat).trick.count == 0) {
      expect_refused(st, 1, Action::show(kEights), Refusal::wrong_phase);
    }
  });
}

// Equal tierces to the jack: seat 0 in clubs, seat 1 in diamonds. In hearts neither is trump and
// the first to show wins (Bazar rules: equal combinations: trumps first, then the first to show); trick 1 decides who
// shows first.
const std::array<std::vector<const char*>, 4> kTieHands = {{
    {"9C", "TC", "JC", "7C", "7H", "9H", "7S", "8D"},
    {"9D", "TD", "JD", "AD", "QC", "8H", "TH", "8S"},
    {"7D", "9S", "AC", "KC", "JH", "QH", "AS", "JS"},
    {"8C", "QD", "KD", "KH", "AH", "QS", "KS", "TS"},
}};
const CardSet kClubTierce = S({"9C", "TC", "JC"});
const CardSet kDiamondTierce = S({"9D", "TD", "JD"});

// Returns the hand's result; `lead` is seat 1's first card, `second` seat 2's reply.
HandResult play_tie(Trump trump, const char* lead, const char* second, Seat* first_to_show) {
  auto s = make(deck_for(kTieHands));
  bid_and_close(*s, 1, bid(8, trump));
  EXPECT_EQ(s->apply(1, Action::announce(kDiamondTierce)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::play(C(lead))), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::play(C(second))), Refusal::none);
  play_out(*s, [&](State& st, Seat seat, int tricks) {
    if (tricks == 0 && seat == 0) {
      EXPECT_EQ(st.apply(0, Action::announce(kClubTierce)), Refusal::none);
    }
    if (tricks == 1 && st.observation(kNoSeat).trick.count == 0) *first_to_show = seat;
    if (tricks != 1) return;
    const auto legal = st.legal_actions();
    for (const Action& a : legal)
      if (a.type == ActionType::show) {
        EXPECT_EQ(st.apply(seat, a), Refusal::none);
      }
  });
  return s->hand_results()[0];
}

TEST(BazarDeclarations, EqualHeightsGoToTrumpsThenToTheFirstToShow) {
  Seat first = kNoSeat;
  // Seat 1 leads the ace of diamonds and wins trick 1: it shows first, and its tierce counts.
  HandResult r = play_tie(kHearts, "AD", "7D", &first);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(r.teams[1].declarations, 2);
  EXPECT_EQ(r.teams[0].declarations, 0);
  // Seat 2 wins trick 1 with the ace of spades: seat 0 shows before seat 1 and counts.
  r = play_tie(kHearts, "8S", "AS", &first);
  EXPECT_EQ(first, 2);
  EXPECT_EQ(r.teams[0].declarations, 2);
  EXPECT_EQ(r.teams[1].declarations, 0);
  // In clubs, seat 0's tierce is a trump tierce and wins though seat 1 shows first.
  r = play_tie(kClubs, "AD", "7D", &first);
  EXPECT_EQ(first, 1);
  EXPECT_EQ(r.teams[0].declarations, 2);
  EXPECT_EQ(r.teams[1].declarations, 0);
}

// ---- whole hands ------------------------------------------------------------------------------------

// Seat 1 holds every heart: bidding hearts it takes every trick.
const std::array<std::vector<const char*>, 4> kCapotHands = {{
    {"7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"},
    {"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"},
    {"7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"},
    {"7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"},
}};

TEST(BazarHands, CapotBids) {
  struct Row {
    int x;
    bool capot_bid;
    bool contra, recontra;
    bool show_runs;  // seat 1 announces and shows its 100 (7-J) and tierce (Q-A)
    Outcome outcome;
    int team1, team0;
    const char* source;
  };
  const Row rows[] = {
      {26, true, false, false, false, Outcome::made, 26 + 27, 0,
       "Bazar rules: capot bid made: x + y, y = 25 + belote 2"},
      {28, true, false, false, false, Outcome::failed, 0, 28 + 16 + 2, "Bazar rules: capot, but 27 < 28"},
      {28, true, false, false, true, Outcome::made, 28 + 39, 0, "Bazar rules: 25 + 10 + 2 + belote 2 = 39"},
      {20, false, true, true, false, Outcome::made, 4 * 20 + 16 + 2, 0, "Bazar rules: re-contra, 4x + 16 + z"},
      {30, true, true, false, false, Outcome::failed, 0, 2 * 30 + 16 + 2, "Bazar rules: contra, 2x + 16 + z"},
  };
  for (const Row& row : rows) {
    auto s = make(deck_for(kCapotHands));
    ASSERT_EQ(s->apply(1, bid(row.x, kHearts, row.capot_bid)), Refusal::none);
    if (row.contra) {
      ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
      if (row.recontra) {
        ASSERT_EQ(s->apply(3, Action::redouble()), Refusal::none);
        ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
      } else {
        ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
        ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
      }
      ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
      if (row.recontra) {
        ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
      }
    } else {
      for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) {
        ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
      }
    }
    ASSERT_EQ(s->phase(), Phase::playing) << row.source;
    const CardSet hundred = S({"7H", "8H", "9H", "TH", "JH"});
    const CardSet tierce = S({"QH", "KH", "AH"});
    if (row.show_runs) {
      ASSERT_EQ(s->apply(1, Action::announce(hundred)), Refusal::none);
      ASSERT_EQ(s->apply(1, Action::announce(tierce)), Refusal::none);
    }
    play_out(*s, [&](State& st, Seat seat, int tricks) {
      if (row.show_runs && tricks == 1 && seat == 1 && st.observation(kNoSeat).trick.count == 0) {
        EXPECT_EQ(st.apply(1, Action::show(hundred)), Refusal::none);
        EXPECT_EQ(st.apply(1, Action::show(tierce)), Refusal::none);
      }
    });
    ASSERT_EQ(s->hand_results().size(), 1u);
    const HandResult& r = s->hand_results()[0];
    EXPECT_TRUE(r.capot) << row.source;
    EXPECT_EQ(r.capot_team, 1) << row.source;
    EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick + r.teams[1].capot_bonus, 250) << row.source;
    EXPECT_EQ(r.teams[1].belote, 2) << row.source;
    EXPECT_EQ(r.outcome, row.outcome) << row.source;
    EXPECT_EQ(r.teams[1].score, row.team1) << row.source;
    EXPECT_EQ(r.teams[0].score, row.team0) << row.source;
    EXPECT_EQ(s->match_score(), (std::array<int, 2>{row.team0, row.team1})) << row.source;
    ASSERT_TRUE(r.contract.has_value());
    EXPECT_EQ(r.contract->capot, row.capot_bid);
    EXPECT_EQ(r.contract->multiplier, row.recontra ? 4 : row.contra ? 2 : 1);
  }
}

TEST(BazarHands, CapotBidWithoutCapotFails) {
  // Bazar rules: a capot bid that takes its amount but not every trick is lost. Seat 0 holds the ace of
  // hearts and seat 1 the ace of clubs: seat 0 wins trick 2 with the ace (11 points), seat 1 takes
  // the rest, 151 with the last trick, and its 100 (7-J of hearts) and belote make 15 + 10 + 2 = 27.
  std::array<std::vector<const char*>, 4> hands = kCapotHands;
  std::swap(hands[1][7], hands[0][7]);
  auto s = make(deck_for(hands));
  ASSERT_EQ(s->apply(1, bid(26, kHearts, true)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) {
    ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  }
  const CardSet hundred = S({"7H", "8H", "9H", "TH", "JH"});
  ASSERT_EQ(s->apply(1, Action::announce(hundred)), Refusal::none);
  play_out(*s, [&](State& st, Seat seat, int tricks) {
    if (tricks == 1 && seat == 1 && st.observation(kNoSeat).trick.count == 0) {
      EXPECT_EQ(st.apply(1, Action::show(hundred)), Refusal::none);
    }
  });
  const HandResult& r = s->hand_results()[0];
  EXPECT_FALSE(r.capot && r.capot_team == 1);
  EXPECT_EQ(r.teams[0].card_points + r.teams[0].last_trick, 11);
  EXPECT_EQ(r.teams[1].raw, 27);          // the amount was taken...
  EXPECT_EQ(r.outcome, Outcome::failed);  // ... but not the capot
  EXPECT_EQ(r.teams[1].score, 0);
  EXPECT_EQ(r.teams[0].score, 26 + 16 + 10 + 2);
}

TEST(BazarHands, TheMatchEndsAtTheTarget) {
  // Option `target` (docs/rules/bazar.md): 51 is reached by a made 26 capot (53) in one hand.
  auto s = make(deck_for(kCapotHands), {{"target", 51}});
  ASSERT_EQ(s->apply(1, bid(26, kHearts, true)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) {
    ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  }
  play_out(*s);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->winner(), 1);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 53}));
  // With the default 101 the match goes on to a second deal.
  auto d = make(deck_for(kCapotHands));
  ASSERT_EQ(d->apply(1, bid(26, kHearts, true)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) {
    ASSERT_EQ(d->apply(seat, Action::pass()), Refusal::none);
  }
  play_out(*d);
  EXPECT_FALSE(d->is_terminal());
  EXPECT_EQ(d->observation(kNoSeat).dealer, 1);
}

TEST(BazarOptions, DefaultsAndBadValues) {
  const VariantInfo* v = find_variant("bazar");
  ASSERT_NE(v, nullptr);
  Options o;
  ASSERT_FALSE(normalise_options(*v, o).has_value());
  EXPECT_EQ(std::get<int>(o.at("target")), 101);
  EXPECT_EQ(std::get<std::string>(o.at("undertrump")), "free");
  EXPECT_EQ(std::get<std::string>(o.at("deal")), "shuffle");
  EXPECT_EQ(o.count("declare"), 0u);  // Bazar rules: always announced and shown
  for (Options bad : {Options{{"target", 100}}, Options{{"undertrump", std::string("sometimes")}},
                      Options{{"declare", std::string("auto")}}}) {
    EXPECT_EQ(create_state(record_for(deck_for(kCapotHands), bad)).error->code, "bad_option");
  }
}

}  // namespace
}  // namespace atout
