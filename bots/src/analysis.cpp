// The double-dummy cost of each card of one deal (see analysis.hpp).
#include "atout/bots/analysis.hpp"

#include <algorithm>
#include <cstdlib>

namespace atout::bots {

namespace {

AnalysisResult fail(std::string code, std::string message) {
  return AnalysisResult{std::nullopt, AnalysisError{std::move(code), std::move(message)}};
}

}  // namespace

AnalysisResult analyse_deal(const Record& record, int deal, Solver& solver) {
  Record header = record;
  header.actions.clear();
  CreateResult created = create_state(header);
  if (!created.state)
    return fail("unreadable_record", created.error ? created.error->message : "the record does not start");
  State& state = *created.state;

  DealAnalysis out;
  out.deal = deal;
  bool seen = false;
  for (std::size_t i = 0; i < record.actions.size(); ++i) {
    const RecordedAction& ra = record.actions[i];
    const int current = state.deal().hand;
    if (current > deal) break;
    if (current == deal) {
      seen = true;
      if (ra.action.type == ActionType::play && state.phase() == Phase::playing) {
        const std::optional<Position> p = position_from(state);
        if (!p) return fail("not_supported", "the solver does not value this variant's play");
        out.declarer = static_cast<Seat>(state.observation(kNoSeat).contract->taker);
        const Solution s = solver.solve(*p);
        const auto played =
            std::find_if(s.cards.begin(), s.cards.end(), [&](const CardValue& c) { return c.card == ra.action.card; });
        if (played == s.cards.end())
          return fail("unreadable_record", "action " + std::to_string(i) + " plays a card the solver finds illegal");
        PlayCost cost;
        cost.action = i;
        cost.seat = ra.seat;
        cost.card = ra.action.card;
        cost.value = played->value;
        cost.best = s.value;
        cost.cost = std::abs(s.value - played->value);
        for (const CardValue& c : s.cards)
          if (c.value == s.value) cost.best_cards.insert(c.card);
        out.plays.push_back(cost);
      }
    }
    if (state.apply(ra.seat, ra.action) != Refusal::none)
      return fail("unreadable_record", "action " + std::to_string(i) + " is refused by the rules");
  }
  // The deal in progress at the record's end counts even before its first action.
  if (!seen && state.deal().hand == deal) seen = true;
  if (!seen) return fail("no_such_deal", "the match has no deal " + std::to_string(deal));
  // A deal conceded before its first card still had a declarer.
  for (const HandResult& h : state.hand_results())
    if (h.hand == deal && h.contract) out.declarer = h.contract->taker;
  return AnalysisResult{std::move(out), std::nullopt};
}

}  // namespace atout::bots
