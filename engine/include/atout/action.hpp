// Actions a seat can take, and the typed reasons the engine gives when it refuses one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "atout/card.hpp"
#include "atout/contract.hpp"

namespace atout {

enum class ActionType : std::uint8_t {
  pass,
  take,      // take the turned-up card (round 1) or name a trump (round 2: `trump` set)
  bid,       // an auction bid: `value` and `trump`, `capot` for a capot bid
  double_,   // coinche / contra / double
  redouble,  // surcoinche / re-contra / re-double
  play,      // play `card`
  announce,  // announce the combination made of `cards`
  show,      // show a previously announced combination `cards`
  concede,   // give all remaining tricks to the opponents
};

struct Action {
  ActionType type = ActionType::pass;
  Card card{};
  bool has_trump = false;
  Trump trump{};
  std::int16_t value = 0;
  bool capot = false;
  CardSet cards{};

  static Action pass() { return {}; }
  static Action take() { return Action{ActionType::take}; }
  static Action take(Trump t) {
    Action a{ActionType::take};
    a.has_trump = true;
    a.trump = t;
    return a;
  }
  static Action bid(int value, Trump t, bool capot = false) {
    Action a{ActionType::bid};
    a.value = static_cast<std::int16_t>(value);
    a.has_trump = true;
    a.trump = t;
    a.capot = capot;
    return a;
  }
  static Action double_() { return Action{ActionType::double_}; }
  static Action redouble() { return Action{ActionType::redouble}; }
  static Action play(Card c) {
    Action a{ActionType::play};
    a.card = c;
    return a;
  }
  static Action announce(CardSet cards) {
    Action a{ActionType::announce};
    a.cards = cards;
    return a;
  }
  static Action show(CardSet cards) {
    Action a{ActionType::show};
    a.cards = cards;
    return a;
  }
  static Action concede() { return Action{ActionType::concede}; }

  bool operator==(const Action& o) const;
};

std::string to_string(ActionType t);  // "pass", "take", "bid", "double", ...
std::optional<ActionType> parse_action_type(std::string_view text);
std::string to_string(const Action& a);  // e.g. "play JS", "take hearts", "bid 90 spades"

// Why the engine refused an action. The names (to_string) are stable codes used by the CLI and
// the protocol.
enum class Refusal : std::uint8_t {
  none,
  game_over,
  not_your_turn,
  wrong_phase,  // this kind of action is not taken in the current phase
  card_not_in_hand,
  must_follow_suit,
  must_beat,  // following suit, a higher card of the suit led must be played
  must_trump,
  must_overtrump,
  must_undertrump,
  bid_too_low,
  invalid_bid,    // a value or trump this variant does not allow here
  invalid_trump,  // taking a trump that may not be taken now
  cannot_double,
  cannot_redouble,
  not_announced,  // showing a combination that was not announced
  invalid_combination,
  not_allowed,  // the action exists in this phase but not for this seat now
};

std::string to_string(Refusal r);

}  // namespace atout
