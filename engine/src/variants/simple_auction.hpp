// Simple belote's taking as a small value type: the offered card, the forced Jack, another trump.
#pragma once

#include <cstdint>
#include <vector>

#include "atout/action.hpp"
#include "atout/state.hpp"

namespace atout {

// Two seats speak in turn (the caller keeps the turn), four turns at most: each may take the
// offered card, then each may choose another trump. Who takes, the trump and whether the offered
// card goes into the taker's hand are all the auction decides; the caller completes the deal.
class SimpleAuction {
 public:
  enum class Status : std::uint8_t { open, closed };

  SimpleAuction() = default;
  // `no_trumps`: the `no_trumps` option, where the choice of another trump may name no trump.
  SimpleAuction(Card offered, bool no_trumps);

  // Appends the legal actions of the seat to speak: pass where it is not forced to take, and
  // the takes of this turn (in the choosing turns each with and without the offered card).
  void legal(std::vector<Action>& out) const;
  // Why `a` may not be taken now (Refusal::none when it may).
  Refusal refusal(const Action& a) const;
  // Applies an action that refusal() accepted; returns it as the record keeps it (a take names
  // its trump, and the offered card when the taker takes it).
  Action apply(Seat seat, const Action& a);

  Status status() const { return contract_.taker != kNoSeat ? Status::closed : Status::open; }
  // Once closed: whether the taker takes the offered card into the hand.
  bool with_offered() const { return with_offered_; }
  // The contract once the auction is closed: the taker and the trump.
  const Contract& contract() const { return contract_; }

 private:
  // The four taking turns, in order.
  enum class Turn : std::uint8_t { first_offered, second_offered, first_chooses, second_chooses };
  Turn turn() const { return static_cast<Turn>(passes_); }
  bool offered_round() const { return turn() == Turn::first_offered || turn() == Turn::second_offered; }
  bool jack_offered() const { return offered_.rank() == Rank::jack; }
  // Whether this turn's player must take.
  bool forced() const;
  // Whether `t` may be chosen as "another trump".
  bool other_trump_allowed(Trump t) const;

  Card offered_{};
  bool no_trumps_ = false;
  int passes_ = 0;     // a take closes the auction, so the turn is the number of passes
  Contract contract_;  // the taker and the trump, once a seat takes
  bool with_offered_ = true;
};

// A take that also takes the offered card into the hand: `cards` holds that card.
Action take_offered(Trump t, Card offered);

}  // namespace atout
