// French and head-to-head belote's taking as a small value type: two rounds over the turned-up card.
#pragma once

#include <cstdint>
#include <vector>

#include "atout/action.hpp"
#include "atout/state.hpp"

namespace atout {

// Seats speak in turn (the caller keeps the turn). In round one a seat takes the turned-up card's
// suit or passes; in round two it names another suit or passes. Who takes is all the auction
// decides: the caller hands out the turned-up card and the rest of the deal.
class FrenchAuction {
 public:
  enum class Status : std::uint8_t { open, all_passed, closed };

  FrenchAuction() = default;
  // `any_suit_second_round`: the `second_round: any_suit` option, where round two may also name
  // the turned-up suit.
  FrenchAuction(int players, Card turned_up, bool any_suit_second_round);

  // Appends the legal actions of the seat to speak: pass, and the takes of this round.
  void legal(std::vector<Action>& out) const;
  // Why `a` may not be taken now (Refusal::none when it may).
  Refusal refusal(const Action& a) const;
  // Applies an action that refusal() accepted; returns it as the record keeps it (a take names
  // its trump).
  Action apply(Seat seat, const Action& a);

  Status status() const;
  int round() const { return spoken_ < players_ ? 1 : 2; }
  // The contract once the auction is closed: the taker and the trump.
  const Contract& contract() const { return contract_; }

 private:
  // Whether round two may name `s`.
  bool second_round_allows(Suit s) const;

  int players_ = 4;
  Card turned_up_{};
  bool any_suit_second_round_ = false;
  int spoken_ = 0;     // passes so far (a take closes the auction)
  Contract contract_;  // the taker and the trump, once a seat takes
};

}  // namespace atout
