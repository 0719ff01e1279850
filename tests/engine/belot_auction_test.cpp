// Bulgarian belot's bidding as a pure type: the ladder, Double and Re-Double, and how the bidding
// closes, without a game around it.
#include "variants/belot_auction.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"

namespace atout {
namespace {

const Trump kClubs = Trump::of(Suit::clubs);
const Trump kHearts = Trump::of(Suit::hearts);
const Trump kSpades = Trump::of(Suit::spades);

// Applies `x` by `seat` after checking that it is accepted.
void speak(BelotAuction& a, Seat seat, const Action& x) {
  ASSERT_EQ(a.refusal(seat, x), Refusal::none);
  a.apply(seat, x);
}

TEST(BelotAuction, TheFirstSpeakerMayBidAnyRungOfTheLadder) {
  // Before any bid a player may pass or bid any of Clubs, Diamonds, Hearts, Spades, No Trumps,
  // All Trumps; there is nothing to double yet.
  const BelotAuction a;
  EXPECT_EQ(test::auction_legal(a, Seat{1}),
            (std::vector<Action>{Action::pass(), Action::bid(0, kClubs), Action::bid(0, Trump::of(Suit::diamonds)),
                                 Action::bid(0, kHearts), Action::bid(0, kSpades), Action::bid(0, Trump::no_trumps()),
                                 Action::bid(0, Trump::all_trumps())}));
  EXPECT_EQ(a.refusal(1, Action::double_()), Refusal::cannot_double);
  EXPECT_EQ(a.refusal(1, Action::redouble()), Refusal::cannot_redouble);
}

TEST(BelotAuction, EachBidMustClimbTheLadder) {
  // Each bid must be higher on the ladder than the bid in force; equal or lower is refused.
  BelotAuction a;
  speak(a, 1, Action::bid(0, kHearts));
  EXPECT_EQ(a.refusal(2, Action::bid(0, kHearts)), Refusal::bid_too_low);
  EXPECT_EQ(a.refusal(2, Action::bid(0, kClubs)), Refusal::bid_too_low);
  EXPECT_EQ(a.refusal(2, Action::bid(0, kSpades)), Refusal::none);
  EXPECT_FALSE(test::auction_offers(a, Action::bid(0, kHearts), Seat{2}));
  EXPECT_TRUE(test::auction_offers(a, Action::bid(0, Trump::all_trumps()), Seat{2}));
}

TEST(BelotAuction, ABidNamesOnlyATrump) {
  // A bid names a trump, No Trumps or All Trumps, and nothing else: no value, no capot, no bare
  // bid; and there is no turned-up card to take.
  const BelotAuction a;
  EXPECT_EQ(a.refusal(1, Action::bid(80, kHearts)), Refusal::invalid_bid);
  EXPECT_EQ(a.refusal(1, Action::bid(0, kHearts, true)), Refusal::invalid_bid);
  Action bare = Action::bid(0, kHearts);
  bare.has_trump = false;
  EXPECT_EQ(a.refusal(1, bare), Refusal::invalid_bid);
  EXPECT_EQ(a.refusal(1, Action::take()), Refusal::invalid_bid);
  EXPECT_EQ(a.refusal(1, Action::concede()), Refusal::wrong_phase);
}

TEST(BelotAuction, OnlyTheOpponentsDoubleAndOnlyOnce) {
  // Only the opponents of the bidder may Double, and a bid is doubled once.
  BelotAuction a;
  speak(a, 1, Action::bid(0, kHearts));
  EXPECT_EQ(a.refusal(3, Action::double_()), Refusal::cannot_double);  // the bidder's partner
  EXPECT_TRUE(test::auction_offers(a, Action::double_(), Seat{2}));
  speak(a, 2, Action::double_());
  EXPECT_EQ(a.refusal(0, Action::double_()), Refusal::cannot_double);
  EXPECT_FALSE(test::auction_offers(a, Action::double_(), Seat{0}));
}

TEST(BelotAuction, OnlyTheDoubledSideRedoublesAfterADouble) {
  // Re-Double comes only after a Double, and only from the side that was doubled.
  BelotAuction a;
  speak(a, 1, Action::bid(0, kHearts));
  EXPECT_EQ(a.refusal(3, Action::redouble()), Refusal::cannot_redouble);  // not doubled yet
  speak(a, 2, Action::double_());
  EXPECT_EQ(a.refusal(0, Action::redouble()), Refusal::cannot_redouble);  // the doubling side
  EXPECT_TRUE(test::auction_offers(a, Action::redouble(), Seat{3}));
  speak(a, 3, Action::redouble());
  EXPECT_EQ(a.refusal(1, Action::redouble()), Refusal::cannot_redouble);  // once only
  const Contract c = a.contract();
  EXPECT_EQ(c.multiplier, 4);
  EXPECT_EQ(c.doubled_by, 2);
  EXPECT_EQ(c.redoubled_by, 3);
}

TEST(BelotAuction, AHigherBidLiftsTheDouble) {
  // A higher bid is a new contract: the Double on the old bid lapses.
  BelotAuction a;
  speak(a, 1, Action::bid(0, kHearts));
  speak(a, 2, Action::double_());
  speak(a, 3, Action::bid(0, kSpades));
  const Contract c = a.contract();
  EXPECT_EQ(c.taker, 3);
  EXPECT_EQ(c.trump, kSpades);
  EXPECT_EQ(c.multiplier, 1);
  EXPECT_EQ(c.doubled_by, kNoSeat);
}

TEST(BelotAuction, ThreePassesAfterABidCloseTheBidding) {
  // Three passes in a row after a bid, Double or Re-Double close the bidding.
  BelotAuction a;
  speak(a, 1, Action::bid(0, kClubs));
  speak(a, 2, Action::pass());
  speak(a, 3, Action::pass());
  speak(a, 0, Action::double_());  // a Double starts the count again
  speak(a, 1, Action::pass());
  speak(a, 2, Action::pass());
  EXPECT_EQ(a.status(), BelotAuction::Status::open);
  speak(a, 3, Action::pass());
  EXPECT_EQ(a.status(), BelotAuction::Status::closed);
  EXPECT_EQ(a.contract().multiplier, 2);
}

TEST(BelotAuction, FourPassesWithNoBidVoidTheDeal) {
  // Four passes with no bid at all: there is no contract and the next dealer deals.
  BelotAuction a;
  for (Seat s : {Seat{1}, Seat{2}, Seat{3}}) speak(a, s, Action::pass());
  EXPECT_EQ(a.status(), BelotAuction::Status::open);
  speak(a, 0, Action::pass());
  EXPECT_EQ(a.status(), BelotAuction::Status::all_passed);
}

TEST(BelotAuction, TheRecordKeepsOnlyTheBidsTrump) {
  // A bid is recorded as its trump alone, whatever else the action carried.
  BelotAuction a;
  Action with_cards = Action::bid(0, kHearts);
  with_cards.cards = CardSet::of(Card(Suit::hearts, Rank::ace));
  EXPECT_EQ(a.apply(1, with_cards), Action::bid(0, kHearts));
}

}  // namespace
}  // namespace atout
