// Bazar bidding; the choices the rules leave open are in docs/rules/bazar.md.
#include "bazar_auction.hpp"

#include <algorithm>

#include "bazar_scoring.hpp"

namespace atout {

namespace {
// The trumps a bid may name, in the order legal() lists them: the four suits, then height.
constexpr Trump kBidTrumps[] = {Trump::of(Suit::clubs), Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                                Trump::of(Suit::spades), Trump::no_trumps()};
}  // namespace

bool BazarAuction::bid_allowed(Seat seat, int value, bool capot) const {
  if (value < kMinBid || value > kMaxBid) return false;
  if (high_ && value <= high_->value) return false;
  if (capot) return value > kCapotBidAbove;
  // Once a side has said capot, the other side may only bid capot.
  return !capot_said_[static_cast<std::size_t>(1 - team(seat))];
}

void BazarAuction::legal(Seat seat, std::vector<Action>& out) const {
  out.push_back(Action::pass());
  if (refusal(seat, Action::double_()) == Refusal::none) out.push_back(Action::double_());
  if (refusal(seat, Action::redouble()) == Refusal::none) out.push_back(Action::redouble());
  const int from = std::max(kMinBid, high_ ? high_->value + 1 : kMinBid);
  for (int v = from; v <= kMaxBid; ++v) {
    for (bool capot : {false, true}) {
      if (!bid_allowed(seat, v, capot)) continue;
      for (Trump t : kBidTrumps) out.push_back(Action::bid(v, t, capot));
    }
  }
}

Refusal BazarAuction::refusal(Seat seat, const Action& a) const {
  switch (a.type) {
    case ActionType::pass:
      return Refusal::none;
    case ActionType::bid: {
      // A suit or height; Bazar has no All Trumps.
      if (!a.has_trump || a.trump.mode == Mode::all_trumps) return Refusal::invalid_trump;
      if (a.value < kMinBid || (high_ && a.value <= high_->value)) return Refusal::bid_too_low;
      if (a.value > kMaxBid) return Refusal::invalid_bid;
      if (!bid_allowed(seat, a.value, a.capot)) return Refusal::invalid_bid;  // the capot rules
      return Refusal::none;
    }
    case ActionType::double_:
      // The opponents of the bid in force contra it, once.
      if (!high_ || team(seat) == team(high_->seat) || doubled_by_ != kNoSeat) return Refusal::cannot_double;
      return Refusal::none;
    case ActionType::redouble:
      // The side whose bid was contra'd may re-contra, once.
      if (doubled_by_ == kNoSeat || redoubled_by_ != kNoSeat || team(seat) != team(high_->seat))
        return Refusal::cannot_redouble;
      return Refusal::none;
    case ActionType::announce:
    case ActionType::show:
    case ActionType::concede:
    case ActionType::play:
      return Refusal::wrong_phase;
    case ActionType::take:
      break;
  }
  return Refusal::not_allowed;
}

void BazarAuction::apply(Seat seat, const Action& a) {
  switch (a.type) {
    case ActionType::bid:
      high_ = BazarBid{seat, a.value, a.trump, a.capot};
      // A higher bid is a new contract: any contra or re-contra on the old one lapses.
      doubled_by_ = kNoSeat;
      redoubled_by_ = kNoSeat;
      if (a.capot) capot_said_[static_cast<std::size_t>(team(seat))] = true;
      passes_ = 0;
      return;
    case ActionType::double_:
      doubled_by_ = seat;
      passes_ = 0;
      return;
    case ActionType::redouble:
      redoubled_by_ = seat;
      passes_ = 0;
      return;
    default:
      ++passes_;
      return;
  }
}

BazarAuction::Status BazarAuction::status() const {
  // Three passes after the last bid, contra or re-contra close the bidding; four passes with no
  // bid at all mean a new deal.
  if (!high_) return passes_ >= 4 ? Status::all_passed : Status::open;
  return passes_ >= 3 ? Status::closed : Status::open;
}

Contract BazarAuction::contract() const {
  Contract c;
  c.taker = high_->seat;
  c.trump = high_->trump;
  c.value = high_->value;
  c.capot = high_->capot;
  c.doubled_by = doubled_by_;
  c.redoubled_by = redoubled_by_;
  c.multiplier = redoubled_by_ != kNoSeat ? 4 : doubled_by_ != kNoSeat ? 2 : 1;
  return c;
}

}  // namespace atout
