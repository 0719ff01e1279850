// Simple belote's taking as a pure type: the offered card, the forced Jack and the choice of
// another trump, without a game around it.
#include "variants/simple_auction.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"

namespace atout {
namespace {
using test::C;

const Trump kHearts = Trump::of(Suit::hearts);
const Trump kSpades = Trump::of(Suit::spades);

// Both players pass on the offered card (seat 1 speaks first, as the dealer's opponent).
void pass_offered(SimpleAuction& a) {
  for (Seat s : {Seat{1}, Seat{0}}) {
    ASSERT_EQ(a.refusal(Action::pass()), Refusal::none);
    a.apply(s, Action::pass());
  }
}

TEST(SimpleAuction, FirstPlayerMayTakeTheOfferedCardOrPass) {
  // The first player may take the offered card, making its suit trump, or pass.
  SimpleAuction a(C("9H"), true);
  EXPECT_EQ(test::auction_legal(a), (std::vector<Action>{Action::pass(), Action::take()}));
  EXPECT_EQ(a.refusal(Action::take(kSpades)), Refusal::invalid_trump);
  EXPECT_EQ(a.apply(1, Action::take()), take_offered(kHearts, C("9H")));
  EXPECT_EQ(a.status(), SimpleAuction::Status::closed);
  EXPECT_TRUE(a.with_offered());
  EXPECT_EQ(a.contract().taker, 1);
  EXPECT_EQ(a.contract().trump, kHearts);
}

TEST(SimpleAuction, SecondPlayerMustTakeAnOfferedJack) {
  // When the offered card is a Jack and the first player passes, the second player must take it.
  SimpleAuction a(C("JH"), true);
  a.apply(1, Action::pass());
  EXPECT_EQ(test::auction_legal(a), (std::vector<Action>{Action::take()}));
  EXPECT_EQ(a.refusal(Action::pass()), Refusal::not_allowed);
}

TEST(SimpleAuction, SecondPlayerMayPassAnOfferedCardThatIsNoJack) {
  // Any other offered card the second player may pass.
  SimpleAuction a(C("9H"), true);
  a.apply(1, Action::pass());
  EXPECT_EQ(test::auction_legal(a), (std::vector<Action>{Action::pass(), Action::take()}));
  EXPECT_EQ(a.refusal(Action::pass()), Refusal::none);
}

TEST(SimpleAuction, ChoosingTurnsNameAnotherTrumpWithOrWithoutTheOfferedCard) {
  // After both pass, a player may choose another trump than the offered card's suit, or no trump,
  // taking the offered card into the hand or not.
  SimpleAuction a(C("9H"), true);
  pass_offered(a);
  const auto l = test::auction_legal(a);
  EXPECT_EQ(l.front(), Action::pass());
  EXPECT_EQ(l.size(), 1U + 2U * 4U);  // pass; three other suits and no trump, each with or without
  EXPECT_TRUE(test::auction_offers(a, Action::take(kSpades)));
  EXPECT_TRUE(test::auction_offers(a, take_offered(Trump::no_trumps(), C("9H"))));
  EXPECT_FALSE(test::auction_offers(a, Action::take(kHearts)));
  EXPECT_EQ(a.refusal(Action::take(kHearts)), Refusal::invalid_trump);
  EXPECT_EQ(a.refusal(Action::take()), Refusal::invalid_trump);
  EXPECT_EQ(a.refusal(Action::take(Trump::all_trumps())), Refusal::invalid_trump);
}

TEST(SimpleAuction, NoTrumpIsOnlyAChoiceUnderTheOption) {
  // Without the `no_trumps` option the choice of another trump must name a suit.
  SimpleAuction a(C("9H"), false);
  pass_offered(a);
  EXPECT_EQ(test::auction_legal(a).size(), 1U + 2U * 3U);
  EXPECT_EQ(a.refusal(Action::take(Trump::no_trumps())), Refusal::invalid_trump);
}

TEST(SimpleAuction, ChoosingWithoutTheOfferedCardSetsItAside) {
  // A player who chooses another trump without the offered card leaves it out of the hand.
  SimpleAuction a(C("9H"), true);
  pass_offered(a);
  EXPECT_EQ(a.apply(1, Action::take(kSpades)), Action::take(kSpades));
  EXPECT_FALSE(a.with_offered());
  EXPECT_EQ(a.contract().trump, kSpades);
}

TEST(SimpleAuction, ChoosingWithTheOfferedCardTakesIt) {
  // A player who chooses another trump with the offered card takes it into the hand.
  SimpleAuction a(C("9H"), true);
  pass_offered(a);
  a.apply(1, Action::pass());
  EXPECT_EQ(a.apply(0, take_offered(kSpades, C("9H"))), take_offered(kSpades, C("9H")));
  EXPECT_TRUE(a.with_offered());
  EXPECT_EQ(a.contract().taker, 0);
}

TEST(SimpleAuction, TheSecondPlayerMustChooseInTheLastTurn) {
  // If the first player also passes the choice, the second player is obliged to choose a trump.
  SimpleAuction a(C("9H"), true);
  pass_offered(a);
  a.apply(1, Action::pass());
  EXPECT_EQ(a.refusal(Action::pass()), Refusal::not_allowed);
  EXPECT_FALSE(test::auction_offers(a, Action::pass()));
  EXPECT_EQ(a.status(), SimpleAuction::Status::open);
}

TEST(SimpleAuction, OnlyTheOfferedCardMayBeTaken) {
  // A take may carry only the offered card; bids, doubles and other cards are refused.
  SimpleAuction a(C("9H"), true);
  Action other = Action::take();
  other.cards = CardSet::of(C("AS"));
  EXPECT_EQ(a.refusal(other), Refusal::invalid_bid);
  EXPECT_EQ(a.refusal(Action::bid(0, kHearts)), Refusal::not_allowed);
  EXPECT_EQ(a.refusal(Action::double_()), Refusal::not_allowed);
}

}  // namespace
}  // namespace atout
