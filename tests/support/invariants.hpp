// The invariants every step of a match must keep, shared by the seeded random-game tests
// (tests/engine/sim_harness) and the engine fuzz target (tests/fuzz/engine_fuzz): cards are
// conserved, legal actions are non-empty exactly until the end, and no observation (nor its JSON)
// shows a card its seat may not see. Failures come back as text, so either caller can report them.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "atout/state.hpp"

namespace atout::sim {

// What the checker saw of one played deal, for a variant's scoring oracle.
struct DealFacts {
  int hand = 0;
  Contract contract;
  Seat leader = kNoSeat;                 // who led the first trick
  std::array<CardSet, 4> start_hands{};  // each hand when play began
  CardSet dealt;                         // every card in play
  std::vector<Seat> shown_by;            // seats whose combinations were shown, in first-seen order
};

// Every card string anywhere in a JSON value.
void collect_cards(const nlohmann::json& j, CardSet& out);

// Every seat's observation and the record as JSON text: equal for states that must be equal.
std::string observations_json(const State& s);

// Follows one match step by step; call step_checks() before every action and at the end.
class InvariantChecker {
 public:
  // `scan_json`: also look for hidden cards in each observation's JSON form (slower).
  InvariantChecker(const State& s, bool scan_json) : s_(s), scan_json_(scan_json) {}

  // Empty when every invariant holds; otherwise which one failed, and how.
  std::string step_checks();

  // Per deal, indexed by hand number (deals nobody played stay default).
  const std::vector<DealFacts>& deals() const { return deals_; }
  std::vector<DealFacts>& deals() { return deals_; }

 private:
  DealFacts& deal() { return deals_[static_cast<std::size_t>(deal_)]; }
  std::string check_observation(Seat seat, const std::vector<CardSet>& hands, CardSet played);
  void track_deal(const Observation& pub);

  const State& s_;
  bool scan_json_;
  std::vector<DealFacts> deals_;
  int deal_ = -1;
  Phase last_phase_ = Phase::match_over;
  std::optional<Card> turn_up_;
};

}  // namespace atout::sim
