// The double-dummy cost of each card played in one deal of a recorded match: with every hand
// known, how many points the card's side gave away against the best card it held at that moment.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "atout/bots/solver.hpp"
#include "atout/card.hpp"
#include "atout/state.hpp"

namespace atout::bots {

struct PlayCost {
  std::size_t action = 0;  // index of the play in the record's actions
  Seat seat = kNoSeat;
  Card card;
  // Final points of the declaring side with best play from here on by both sides: after the card
  // played, and after the best card the seat held (its side's best: most for the declarers, least
  // for the defenders).
  int value = 0;
  int best = 0;
  int cost = 0;        // what the card gave away: |best - value|, 0 for a best card
  CardSet best_cards;  // every card that reaches `best`
};

struct DealAnalysis {
  int deal = 0;                 // the deal's number, as the engine counts deals (0 for the first)
  Seat declarer = kNoSeat;      // the contract's taker; kNoSeat when every seat passed
  std::vector<PlayCost> plays;  // in the order played; empty when no card was played
};

struct AnalysisError {
  std::string code;  // "no_such_deal", "unreadable_record", "not_supported"
  std::string message;
};

struct AnalysisResult {
  std::optional<DealAnalysis> analysis;
  std::optional<AnalysisError> error;
};

// Replays `record` and solves the position before every card of deal `deal`: a deal the record
// played, or the one it ends in (even with no action yet). The record must replay cleanly. Costs
// one solve of every legal card per card played: up to a few seconds for an unlucky deal of four
// hands, so run it away from anything that must answer quickly.
AnalysisResult analyse_deal(const Record& record, int deal, Solver& solver);

}  // namespace atout::bots
