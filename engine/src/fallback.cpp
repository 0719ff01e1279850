// The cautious default policy behind turn timeouts (engine/include/atout/fallback.hpp).
#include "atout/fallback.hpp"

#include <algorithm>

namespace atout {

namespace {

const Action* first_of(const std::vector<Action>& legal, ActionType type) {
  const auto it = std::find_if(legal.begin(), legal.end(), [&](const Action& a) { return a.type == type; });
  return it == legal.end() ? nullptr : &*it;
}

// Weaker first: plain cards before trumps, then by strength under the contract.
bool weaker(Card a, Card b, Trump t) {
  const bool ta = t.is_trump_suit(a.suit()), tb = t.is_trump_suit(b.suit());
  if (ta != tb) return !ta;
  if (strength(t, a) != strength(t, b)) return strength(t, a) < strength(t, b);
  return a.index() < b.index();
}

Action choose_card(const Observation& view, const std::vector<const Action*>& plays) {
  const Trump trump = view.contract ? view.contract->trump : Trump{};
  auto weakest = [&](auto keep) {
    const Action* best = nullptr;
    for (const Action* a : plays)
      if (keep(a->card) && (!best || weaker(a->card, best->card, trump))) best = a;
    return best;
  };
  const auto any = [](Card) { return true; };
  const Trick& trick = view.trick;
  if (trick.empty()) return *weakest(any);

  const Card holding = trick.cards[trick.win];
  const Seat holder = seat_of(trick, trick.win, view.players);
  const bool partner_holds = view.players == 4 && holder != view.seat && (holder % 2) == (view.seat % 2);
  if (!partner_holds)
    if (const Action* win = weakest([&](Card c) { return beats(c, holding, trump); })) return *win;
  return *weakest(any);
}

// In an auction: the cheapest offer to play a suit in which the seat holds the jack and at least
// two more cards, so that a table of absent players still gets a contract rather than redealing
// for ever.
const Action* cautious_bid(const Observation& view) {
  const Action* best = nullptr;
  for (const Action& a : view.legal) {
    if ((a.type != ActionType::take && a.type != ActionType::bid) || a.capot) continue;
    Suit suit;
    if (a.has_trump || a.type == ActionType::bid) {
      if (a.trump.mode != Mode::suit) continue;
      suit = a.trump.suit;
    } else if (view.turn_up) {
      suit = view.turn_up->suit();
    } else {
      continue;
    }
    const CardSet trumps = view.own.in_suit(suit);
    if (!trumps.contains(Card(suit, Rank::jack)) || trumps.size() < 3) continue;
    if (!best || a.value < best->value) best = &a;
  }
  return best;
}

}  // namespace

Action fallback_action(const Observation& view) {
  const std::vector<Action>& legal = view.legal;
  if (const Action* a = first_of(legal, ActionType::show)) return *a;
  if (const Action* a = first_of(legal, ActionType::announce)) return *a;
  std::vector<const Action*> plays;
  for (const Action& a : legal)
    if (a.type == ActionType::play) plays.push_back(&a);
  if (!plays.empty()) return choose_card(view, plays);
  if (const Action* a = cautious_bid(view)) return *a;
  if (const Action* a = first_of(legal, ActionType::pass)) return *a;
  for (const Action& a : legal)
    if (a.type != ActionType::double_ && a.type != ActionType::redouble && a.type != ActionType::concede) return a;
  return legal.front();
}

}  // namespace atout
