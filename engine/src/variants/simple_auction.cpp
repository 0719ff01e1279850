// Simple belote's taking: the offered card in two turns, then another trump in two more.
#include "simple_auction.hpp"

namespace atout {

Action take_offered(Trump t, Card offered) {
  Action a = Action::take(t);
  a.cards = CardSet::of(offered);
  return a;
}

SimpleAuction::SimpleAuction(Card offered, bool no_trumps) : offered_(offered), no_trumps_(no_trumps) {}

bool SimpleAuction::forced() const {
  // The forced Jack: the second player must take it. And the second player is obliged to choose.
  return (turn() == Turn::second_offered && jack_offered()) || turn() == Turn::second_chooses;
}

bool SimpleAuction::other_trump_allowed(Trump t) const {
  if (t.mode == Mode::suit) return t.suit != offered_.suit();  // "another trump"
  return t.mode == Mode::no_trumps && no_trumps_;
}

void SimpleAuction::legal(std::vector<Action>& out) const {
  if (!forced()) out.push_back(Action::pass());
  if (offered_round()) {
    out.push_back(Action::take());
    return;
  }
  for (int s = 0; s <= kSuits; ++s) {
    const Trump t = s < kSuits ? Trump::of(static_cast<Suit>(s)) : Trump::no_trumps();
    if (!other_trump_allowed(t)) continue;
    out.push_back(Action::take(t));
    out.push_back(take_offered(t, offered_));
  }
}

Refusal SimpleAuction::refusal(const Action& a) const {
  if (a.type == ActionType::pass) return forced() ? Refusal::not_allowed : Refusal::none;
  if (a.type != ActionType::take) return Refusal::not_allowed;
  if (!a.cards.empty() && a.cards != CardSet::of(offered_)) return Refusal::invalid_bid;
  if (offered_round()) {
    // Taking the offered card makes its suit trump.
    if (a.has_trump && !(a.trump == Trump::of(offered_.suit()))) return Refusal::invalid_trump;
    return Refusal::none;
  }
  // Another trump, with or without the offered card.
  if (!a.has_trump || !other_trump_allowed(a.trump)) return Refusal::invalid_trump;
  return Refusal::none;
}

Action SimpleAuction::apply(Seat seat, const Action& a) {
  if (a.type == ActionType::pass) {
    ++passes_;
    return a;
  }
  contract_.taker = seat;
  // Taking the offered card makes its suit trump; a choice names its own, with or without the card.
  contract_.trump = offered_round() ? Trump::of(offered_.suit()) : a.trump;
  with_offered_ = offered_round() || !a.cards.empty();
  return with_offered_ ? take_offered(contract_.trump, offered_) : Action::take(contract_.trump);
}

}  // namespace atout
