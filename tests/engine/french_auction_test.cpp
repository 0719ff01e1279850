// The French and head-to-head taking as a pure type: two rounds over the turned-up card, without
// a game around it.
#include "variants/french_auction.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"

namespace atout {
namespace {
using test::C;

const Trump kHearts = Trump::of(Suit::hearts);
const Trump kSpades = Trump::of(Suit::spades);

// Every seat passes once, seat 0 first.
void pass_round(FrenchAuction& a, int players) {
  for (int k = 0; k < players; ++k) {
    ASSERT_EQ(a.refusal(Action::pass()), Refusal::none);
    a.apply(static_cast<Seat>(k), Action::pass());
  }
}

TEST(FrenchAuction, FirstRoundOffersPassOrTakeTheTurnedUpSuit) {
  // In the first round a player may only pass or take the turned-up card's suit.
  FrenchAuction a(4, C("9H"), false);
  EXPECT_EQ(a.round(), 1);
  EXPECT_EQ(test::auction_legal(a), (std::vector<Action>{Action::pass(), Action::take()}));
  EXPECT_EQ(a.refusal(Action::take()), Refusal::none);
  EXPECT_EQ(a.refusal(Action::take(kHearts)), Refusal::none);
  EXPECT_EQ(a.refusal(Action::take(kSpades)), Refusal::invalid_trump);
}

TEST(FrenchAuction, FirstRoundTakeRecordsTheTurnedUpSuit) {
  // Taking in the first round makes the turned-up card's suit trump, and the taker closes the auction.
  FrenchAuction a(4, C("9H"), false);
  a.apply(0, Action::pass());
  EXPECT_EQ(a.apply(1, Action::take()), Action::take(kHearts));
  EXPECT_EQ(a.status(), FrenchAuction::Status::closed);
  EXPECT_EQ(a.contract().taker, 1);
  EXPECT_EQ(a.contract().trump, kHearts);
  EXPECT_EQ(a.contract().multiplier, 1);
}

TEST(FrenchAuction, SecondRoundNamesAnySuitButTheTurnedUpOne) {
  // In the second round a player may name any suit but the turned-up one.
  FrenchAuction a(4, C("9H"), false);
  pass_round(a, 4);
  EXPECT_EQ(a.round(), 2);
  EXPECT_EQ(test::auction_legal(a),
            (std::vector<Action>{Action::pass(), Action::take(Trump::of(Suit::clubs)),
                                 Action::take(Trump::of(Suit::diamonds)), Action::take(kSpades)}));
  EXPECT_EQ(a.refusal(Action::take(kHearts)), Refusal::invalid_trump);
  EXPECT_EQ(a.refusal(Action::take(kSpades)), Refusal::none);
}

TEST(FrenchAuction, SecondRoundMustNameASuit) {
  // In the second round a take must name a suit: neither a bare take nor No Trumps nor All Trumps.
  FrenchAuction a(4, C("9H"), false);
  pass_round(a, 4);
  EXPECT_EQ(a.refusal(Action::take()), Refusal::invalid_trump);
  EXPECT_EQ(a.refusal(Action::take(Trump::no_trumps())), Refusal::invalid_trump);
  EXPECT_EQ(a.refusal(Action::take(Trump::all_trumps())), Refusal::invalid_trump);
}

TEST(FrenchAuction, AnySuitOptionAllowsTheTurnedUpSuitInRoundTwo) {
  // Under `second_round: any_suit` the second round may name any of the four suits.
  FrenchAuction a(4, C("9H"), true);
  pass_round(a, 4);
  EXPECT_EQ(test::auction_legal(a).size(), 5U);  // pass and four suits
  EXPECT_EQ(a.refusal(Action::take(kHearts)), Refusal::none);
  EXPECT_EQ(a.apply(2, Action::take(kHearts)), Action::take(kHearts));
  EXPECT_EQ(a.contract().taker, 2);
}

TEST(FrenchAuction, SecondRoundTakeRecordsTheNamedSuit) {
  // A second-round take makes the named suit trump.
  FrenchAuction a(2, C("9H"), false);
  pass_round(a, 2);
  EXPECT_EQ(a.apply(0, Action::take(kSpades)), Action::take(kSpades));
  EXPECT_EQ(a.status(), FrenchAuction::Status::closed);
  EXPECT_EQ(a.contract().trump, kSpades);
}

TEST(FrenchAuction, AllPassingTwiceEndsTheDeal) {
  // When every player passes in both rounds there is no contract and the deal is void.
  for (int players : {2, 4}) {
    FrenchAuction a(players, C("9H"), false);
    pass_round(a, players);
    EXPECT_EQ(a.status(), FrenchAuction::Status::open);
    for (int k = 0; k < players - 1; ++k) a.apply(static_cast<Seat>(k), Action::pass());
    EXPECT_EQ(a.status(), FrenchAuction::Status::open);
    a.apply(static_cast<Seat>(players - 1), Action::pass());
    EXPECT_EQ(a.status(), FrenchAuction::Status::all_passed) << players;
  }
}

TEST(FrenchAuction, OnlyPassAndTakeAreBids) {
  // Taking is the only bid: bids in points, doubles and redoubles are not part of this auction.
  FrenchAuction a(4, C("9H"), false);
  EXPECT_EQ(a.refusal(Action::bid(80, kHearts)), Refusal::not_allowed);
  EXPECT_EQ(a.refusal(Action::double_()), Refusal::not_allowed);
  EXPECT_EQ(a.refusal(Action::redouble()), Refusal::not_allowed);
}

}  // namespace
}  // namespace atout
