// Bulgarian belot bidding; the choices the rules leave open are in docs/rules/belot.md.
#include "belot_auction.hpp"

#include "belot_scoring.hpp"

namespace atout {

namespace {
constexpr int kPlayers = 4;
constexpr Trump kLadder[] = {Trump::of(Suit::clubs),  Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                             Trump::of(Suit::spades), Trump::no_trumps(),        Trump::all_trumps()};
}  // namespace

bool BelotAuction::can_double(Seat seat) const {
  // Doubling says you will beat the opponents at their own bid.
  return high_.taker != kNoSeat && team(seat) != team(high_.taker) && high_.multiplier == 1;
}

bool BelotAuction::can_redouble(Seat seat) const {
  // Only after a Double, by the side that was doubled.
  return high_.taker != kNoSeat && team(seat) == team(high_.taker) && high_.multiplier == 2;
}

void BelotAuction::legal(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::pass());
  const int floor = high_.taker == kNoSeat ? -1 : belot_ladder_rank(high_.trump);
  for (Trump t : kLadder)
    if (belot_ladder_rank(t) > floor) out.push_back(Action::bid(0, t));
  if (can_double(seat)) out.push_back(Action::double_());
  if (can_redouble(seat)) out.push_back(Action::redouble());
}

Refusal BelotAuction::refusal(Seat seat, const Action& a) const {
  switch (a.type) {
    case ActionType::pass:
      return Refusal::none;
    case ActionType::bid:
      // A bid names a trump, No Trumps or All Trumps, and nothing else.
      if (!a.has_trump || a.value != 0 || a.capot) return Refusal::invalid_bid;
      if (high_.taker != kNoSeat && belot_ladder_rank(a.trump) <= belot_ladder_rank(high_.trump))
        return Refusal::bid_too_low;
      return Refusal::none;
    case ActionType::double_:
      return can_double(seat) ? Refusal::none : Refusal::cannot_double;
    case ActionType::redouble:
      return can_redouble(seat) ? Refusal::none : Refusal::cannot_redouble;
    case ActionType::take:
      return Refusal::invalid_bid;  // belot has no turned-up card to take
    default:
      return Refusal::wrong_phase;  // plays, declarations and concessions belong to the play
  }
}

Action BelotAuction::apply(Seat seat, const Action& a) {
  switch (a.type) {
    case ActionType::bid:
      // A higher bid is a new contract: any double on the old one lapses (docs/rules/belot.md).
      high_ = Contract{};
      high_.taker = seat;
      high_.trump = a.trump;
      passes_ = 0;
      return Action::bid(0, a.trump);
    case ActionType::double_:
      high_.multiplier = 2;
      high_.doubled_by = seat;
      passes_ = 0;
      return a;
    case ActionType::redouble:
      high_.multiplier = 4;
      high_.redoubled_by = seat;
      passes_ = 0;
      return a;
    default:
      ++passes_;
      return a;
  }
}

BelotAuction::Status BelotAuction::status() const {
  // Four passes with no bid: the next dealer deals again. Three passes after a bid, Double or
  // Re-Double close the bidding.
  if (high_.taker == kNoSeat) return passes_ == kPlayers ? Status::all_passed : Status::open;
  return passes_ == kPlayers - 1 ? Status::closed : Status::open;
}

}  // namespace atout
