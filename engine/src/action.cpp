// Text forms of actions, refusals, phases and outcomes.
#include "atout/action.hpp"

#include <array>

#include "atout/state.hpp"

namespace atout {

namespace {
constexpr std::array<const char*, 9> kActionNames = {"pass", "take",     "bid",  "double", "redouble",
                                                     "play", "announce", "show", "concede"};
}

bool Action::operator==(const Action& o) const {
  return type == o.type && card == o.card && has_trump == o.has_trump && (!has_trump || trump == o.trump) &&
         value == o.value && capot == o.capot && cards == o.cards;
}

std::string to_string(ActionType t) { return kActionNames[static_cast<std::size_t>(t)]; }

std::optional<ActionType> parse_action_type(std::string_view text) {
  for (std::size_t i = 0; i < kActionNames.size(); ++i)
    if (text == kActionNames[i]) return static_cast<ActionType>(i);
  return std::nullopt;
}

std::string to_string(const Action& a) {
  std::string out = to_string(a.type);
  const auto word = [&out](const std::string& w) { out.append(1, ' ').append(w); };
  switch (a.type) {
    case ActionType::play:
      word(to_string(a.card));
      break;
    case ActionType::take:
      if (a.has_trump) word(to_string(a.trump));
      if (!a.cards.empty()) {
        word("with");
        word(to_string(a.cards));
      }
      break;
    case ActionType::bid:
      // A bid without a value (belot) is named by its trump alone; a capot bid with a value
      // (bazar: "27 capot") keeps its value, one without (coinche) reads "capot".
      if (a.value != 0) word(std::to_string(a.value));
      if (a.capot) word("capot");
      word(to_string(a.trump));
      break;
    case ActionType::announce:
    case ActionType::show:
      word(to_string(a.cards));
      break;
    default:
      break;
  }
  return out;
}

std::string to_string(Refusal r) {
  switch (r) {
    case Refusal::none:
      return "none";
    case Refusal::game_over:
      return "game_over";
    case Refusal::not_your_turn:
      return "not_your_turn";
    case Refusal::wrong_phase:
      return "wrong_phase";
    case Refusal::card_not_in_hand:
      return "card_not_in_hand";
    case Refusal::must_follow_suit:
      return "must_follow_suit";
    case Refusal::must_beat:
      return "must_beat";
    case Refusal::must_trump:
      return "must_trump";
    case Refusal::must_overtrump:
      return "must_overtrump";
    case Refusal::must_undertrump:
      return "must_undertrump";
    case Refusal::bid_too_low:
      return "bid_too_low";
    case Refusal::invalid_bid:
      return "invalid_bid";
    case Refusal::invalid_trump:
      return "invalid_trump";
    case Refusal::cannot_double:
      return "cannot_double";
    case Refusal::cannot_redouble:
      return "cannot_redouble";
    case Refusal::not_announced:
      return "not_announced";
    case Refusal::invalid_combination:
      return "invalid_combination";
    case Refusal::not_allowed:
      return "not_allowed";
  }
  return "unknown";
}

std::string to_string(Phase p) {
  switch (p) {
    case Phase::bidding:
      return "bidding";
    case Phase::playing:
      return "playing";
    case Phase::match_over:
      return "match_over";
  }
  return "unknown";
}

std::string to_string(Outcome o) {
  switch (o) {
    case Outcome::made:
      return "made";
    case Outcome::failed:
      return "failed";
    case Outcome::tie_held:
      return "tie_held";
    case Outcome::all_passed:
      return "all_passed";
  }
  return "unknown";
}

}  // namespace atout
