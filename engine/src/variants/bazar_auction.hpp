// Bazar belote's bidding as a small value type: bids in tens, capot bids, contra and re-contra.
#pragma once

#include <optional>
#include <vector>

#include "atout/action.hpp"
#include "atout/state.hpp"

namespace atout {

struct BazarBid {
  Seat seat = kNoSeat;
  int value = 0;  // tens
  Trump trump{};
  bool capot = false;
};

// Seats speak in turn (the caller keeps the turn); partners are seats of equal parity.
class BazarAuction {
 public:
  enum class Status : std::uint8_t { open, all_passed, closed };

  // Appends the seat's legal actions: pass, contra / re-contra when open to it, every higher bid.
  void legal(Seat seat, std::vector<Action>& out) const;
  // Why `a` may not be taken by `seat` now (Refusal::none when it may).
  Refusal refusal(Seat seat, const Action& a) const;
  // Applies an action that refusal() accepted.
  void apply(Seat seat, const Action& a);

  Status status() const;
  const std::optional<BazarBid>& high() const { return high_; }
  // The contract once the auction is closed.
  Contract contract() const;

 private:
  static int team(Seat s) { return s % 2; }
  bool bid_allowed(Seat seat, int value, bool capot) const;

  std::optional<BazarBid> high_;
  Seat doubled_by_ = kNoSeat;
  Seat redoubled_by_ = kNoSeat;
  int passes_ = 0;                    // consecutive passes
  std::array<bool, 2> capot_said_{};  // by team: has this side bid a capot in this auction
};

}  // namespace atout
