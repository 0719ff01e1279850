// French and head-to-head taking: round one takes the turned-up suit, round two names another.
#include "french_auction.hpp"

namespace atout {

FrenchAuction::FrenchAuction(int players, Card turned_up, bool any_suit_second_round)
    : players_(players), turned_up_(turned_up), any_suit_second_round_(any_suit_second_round) {}

bool FrenchAuction::second_round_allows(Suit s) const { return s != turned_up_.suit() || any_suit_second_round_; }

void FrenchAuction::legal(std::vector<Action>& out) const {
  out.push_back(Action::pass());
  if (round() == 1) {
    out.push_back(Action::take());
    return;
  }
  for (int s = 0; s < kSuits; ++s)
    if (second_round_allows(static_cast<Suit>(s))) out.push_back(Action::take(Trump::of(static_cast<Suit>(s))));
}

Refusal FrenchAuction::refusal(const Action& a) const {
  if (a.type == ActionType::pass) return Refusal::none;
  if (a.type != ActionType::take) return Refusal::not_allowed;
  if (round() == 1) {
    // Round one takes the turned-up suit.
    if (a.has_trump && !(a.trump == Trump::of(turned_up_.suit()))) return Refusal::invalid_trump;
    return Refusal::none;
  }
  // Round two names another suit, or any of the four under the `second_round: any_suit` option.
  if (!a.has_trump || a.trump.mode != Mode::suit || !second_round_allows(a.trump.suit)) return Refusal::invalid_trump;
  return Refusal::none;
}

Action FrenchAuction::apply(Seat seat, const Action& a) {
  if (a.type == ActionType::pass) {
    ++spoken_;
    return a;
  }
  contract_.taker = seat;
  contract_.trump = round() == 1 ? Trump::of(turned_up_.suit()) : a.trump;
  return Action::take(contract_.trump);
}

FrenchAuction::Status FrenchAuction::status() const {
  if (contract_.taker != kNoSeat) return Status::closed;
  // All pass twice: the next player deals.
  return spoken_ == 2 * players_ ? Status::all_passed : Status::open;
}

}  // namespace atout
