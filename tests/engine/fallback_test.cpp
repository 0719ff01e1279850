// The stand-in policy for absent players (engine/include/atout/fallback.hpp): always legal, always
// finishes a match, and cautious in the ways its comment promises.
#include "atout/fallback.hpp"

#include <gtest/gtest.h>

namespace atout {
namespace {

// The fallback must be a simple, legal and sensible default policy (it plays for a seat whose
// turn timer ran out). Whole matches of every variant,
// with both default and alternative declaration modes, played by the fallback alone.
TEST(Fallback, PlaysEveryVariantsMatchesToTheEndWithLegalActionsOnly) {
  for (const VariantInfo& v : variants()) {
    for (std::uint64_t g = 0; g < 40; ++g) {
      Record header;
      header.variant = v.id;
      header.deal.seed = Seed{0xFA11, g};
      header.first_dealer = static_cast<Seat>(g % static_cast<std::uint64_t>(v.players));
      for (const OptionSpec& o : v.options)
        if (o.name == "declare" && g % 2 == 1) header.options["declare"] = std::string("manual");
      auto s = create_state(header).state;
      ASSERT_TRUE(s) << v.id;
      int steps = 0;
      while (!s->is_terminal()) {
        ASSERT_LT(++steps, 20000) << v.id << " match " << g << " does not end";
        const Seat seat = s->current_player();
        const Observation view = s->observation(seat);
        ASSERT_FALSE(view.legal.empty());
        const Action a = fallback_action(view);
        ASSERT_NE(std::find(view.legal.begin(), view.legal.end(), a), view.legal.end()) << v.id << ": " << to_string(a);
        ASSERT_NE(a.type, ActionType::concede);
        ASSERT_NE(a.type, ActionType::double_);
        ASSERT_EQ(s->apply(seat, a), Refusal::none) << v.id << ": " << to_string(a);
      }
    }
  }
}

Observation following(Seat seat, std::vector<Card> legal_cards, Trump trump, Seat leader, std::vector<Card> trick) {
  Observation o;
  o.players = 4;
  o.seat = seat;
  o.phase = Phase::playing;
  o.contract = Contract{};
  o.contract->trump = trump;
  o.trick.leader = leader;
  for (Card c : trick) o.trick.add(c, trump);
  for (Card c : legal_cards) o.legal.push_back(Action::play(c));
  return o;
}

const Trump kHearts{Mode::suit, Suit::hearts};

TEST(Fallback, LeadsItsWeakestPlainCard) {
  const Observation o =
      following(0, {Card(Suit::hearts, Rank::seven), Card(Suit::spades, Rank::ace), Card(Suit::clubs, Rank::eight)},
                kHearts, 0, {});
  EXPECT_EQ(fallback_action(o).card, Card(Suit::clubs, Rank::eight));
}

TEST(Fallback, LetsAPartnersWinningCardStand) {
  // Seat 2 (partner of 0) holds the trick with the ace of spades: seat 0 throws its weakest.
  const Observation o =
      following(0, {Card(Suit::spades, Rank::king), Card(Suit::spades, Rank::seven)}, kHearts, 1,
                {Card(Suit::spades, Rank::nine), Card(Suit::spades, Rank::ace), Card(Suit::spades, Rank::eight)});
  EXPECT_EQ(fallback_action(o).card, Card(Suit::spades, Rank::seven));
}

TEST(Fallback, WinsTheTrickWithItsCheapestWinner) {
  // An opponent (seat 1) holds the trick with the ten of spades: the king does not win, the ace
  // does, and the seven would only throw.
  const Observation o =
      following(2, {Card(Suit::spades, Rank::seven), Card(Suit::spades, Rank::king), Card(Suit::spades, Rank::ace)},
                kHearts, 1, {Card(Suit::spades, Rank::ten)});
  EXPECT_EQ(fallback_action(o).card, Card(Suit::spades, Rank::ace));
}

TEST(Fallback, PassesInAnAuctionAndShowsWhatItAnnounced) {
  Observation bidding;
  bidding.phase = Phase::bidding;
  bidding.legal = {Action::take(), Action::pass()};
  EXPECT_EQ(fallback_action(bidding).type, ActionType::pass);
  // With the jack and two more of the turned-up suit it takes.
  bidding.turn_up = Card(Suit::hearts, Rank::ten);
  bidding.own = CardSet::of(Card(Suit::hearts, Rank::jack)) | CardSet::of(Card(Suit::hearts, Rank::seven)) |
                CardSet::of(Card(Suit::hearts, Rank::eight));
  EXPECT_EQ(fallback_action(bidding).type, ActionType::take);
  Observation forced;
  forced.legal = {Action::take(kHearts)};
  EXPECT_EQ(fallback_action(forced).type, ActionType::take);
  Observation showing;
  showing.phase = Phase::playing;
  showing.legal = {Action::play(Card(Suit::clubs, Rank::seven)), Action{ActionType::show}};
  EXPECT_EQ(fallback_action(showing).type, ActionType::show);
}

}  // namespace
}  // namespace atout
