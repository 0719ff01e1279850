// Bulgarian belot's bidding as a small value type: the ladder from Clubs to All Trumps, Double
// and Re-Double.
#pragma once

#include <cstdint>
#include <vector>

#include "atout/action.hpp"
#include "atout/state.hpp"

namespace atout {

// Four seats speak in turn (the caller keeps the turn); partners are seats of equal parity.
class BelotAuction {
 public:
  enum class Status : std::uint8_t { open, all_passed, closed };

  // Appends the seat's legal actions: pass, every higher bid, Double / Re-Double when open to it.
  void legal(Seat seat, std::vector<Action>& out) const;
  // Why `a` may not be taken by `seat` now (Refusal::none when it may).
  Refusal refusal(Seat seat, const Action& a) const;
  // Applies an action that refusal() accepted; returns it as the record keeps it (a bid names
  // its trump only).
  Action apply(Seat seat, const Action& a);

  Status status() const;
  // The contract once the auction is closed: the bidder, the trump and the doubling.
  const Contract& contract() const { return high_; }

 private:
  static int team(Seat s) { return s % 2; }
  bool can_double(Seat seat) const;
  bool can_redouble(Seat seat) const;

  Contract high_;   // the bid in force (no taker before the first bid) and the doubling on it
  int passes_ = 0;  // consecutive passes
};

}  // namespace atout
