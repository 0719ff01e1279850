// The text form of actions (engine/src/action.cpp), as refusals, logs and the CLI print them.
#include <gtest/gtest.h>

#include "atout/action.hpp"
#include "atout/contract.hpp"

namespace atout {
namespace {

Card card(std::string_view text) { return *parse_card(text); }

TEST(ActionText, EachKindOfActionReadsAsItsPlayersSayIt) {
  const Trump hearts = Trump::of(Suit::hearts);
  const CardSet tierce = CardSet::of(card("7S")) | CardSet::of(card("8S")) | CardSet::of(card("9S"));
  struct Case {
    Action action;
    const char* text;
    const char* why;
  };
  const Case cases[] = {
      {Action::pass(), "pass", "a pass has nothing more"},
      {Action::take(), "take", "French first round: the turned-up card's suit is implied"},
      {Action::take(hearts), "take hearts", "second round: the trump is named"},
      {Action::bid(80, hearts, false), "bid 80 hearts", "coinche: a value and a trump"},
      {Action::bid(0, Trump::no_trumps(), false), "bid no_trumps", "belot: a bid is its trump alone"},
      {Action::bid(0, Trump::of(Suit::spades), true), "bid capot spades", "coinche: a capot bid has no value"},
      // The bazar merge once left this case unreachable, and "27 capot" read as plain "capot".
      {Action::bid(27, hearts, true), "bid 27 capot hearts", "bazar: a capot bid keeps its value"},
      {Action::double_(), "double", "contre"},
      {Action::redouble(), "redouble", "surcontre"},
      {Action::play(card("JS")), "play JS", "a card"},
      {Action::announce(tierce), "announce 7S 8S 9S", "the combination's cards"},
      {Action::show(tierce), "show 7S 8S 9S", "the same cards, shown"},
      {Action::concede(), "concede", "nothing more"},
  };
  for (const Case& c : cases) EXPECT_EQ(to_string(c.action), c.text) << c.why;
  Action with_cards = Action::take(hearts);
  with_cards.cards = tierce;
  EXPECT_EQ(to_string(with_cards), "take hearts with 7S 8S 9S");
}

}  // namespace
}  // namespace atout
