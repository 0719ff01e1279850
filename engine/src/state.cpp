// The parts of the state API every variant shares: stepping with a report, and the deal in progress.
#include "atout/state.hpp"

namespace atout {

Step State::step(Seat seat, const Action& action) {
  Step s;
  const std::size_t hands_before = hand_results().size();
  s.refusal = apply(seat, action);
  if (s.refusal != Refusal::none) return s;
  s.action = action;
  if (action.type == ActionType::take && !action.has_trump) {
    // A take ends no deal, so this deal's bids end with it, the trump filled in.
    const Observation view = observation(kNoSeat);
    if (!view.bids.empty() && view.bids.back().seat == seat && view.bids.back().action.type == ActionType::take)
      s.action = view.bids.back().action;
  }
  // A hand ends only on an action, and each action ends at most one hand.
  if (hand_results().size() > hands_before) {
    s.hand_ended = hand_results().back();
    s.match_ended = is_terminal();
    if (!s.match_ended) s.deal_started = deal();
  } else {
    s.match_ended = is_terminal();
  }
  return s;
}

DealInfo State::deal() const {
  if (is_terminal() && !hand_results().empty()) {
    const HandResult& last = hand_results().back();
    return DealInfo{last.hand, last.dealer, last.seed};
  }
  const Observation view = observation(kNoSeat);
  DealInfo d{view.hand, view.dealer, std::nullopt};
  const DealSource& source = record().deal;
  const auto i = static_cast<std::size_t>(view.hand);
  if (i < source.decks.size()) return d;
  if (i < source.seeds.size()) {
    d.seed = source.seeds[i];
  } else if (source.seed) {
    d.seed = derive_deal_seed(*source.seed, i);
  }
  return d;
}

}  // namespace atout
