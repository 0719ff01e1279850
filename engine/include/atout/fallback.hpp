// The stand-in for an absent player: a legal, cautious action chosen from the seat's own view,
// without lookahead. The server plays it on a turn timeout or for a disconnected seat.
#pragma once

#include "atout/state.hpp"

namespace atout {

// One of `view.legal` (which must not be empty), chosen from what the seat may see:
// - it shows a combination it announced, then announces what it may, before playing;
// - in an auction it makes the cheapest offer for a suit in which it holds the jack and two more
//   cards (so a table of absent players still plays), else passes when it may, else makes the
//   first forced choice;
// - it never doubles or concedes;
// - leading, it plays its weakest plain card (its weakest trump if it holds only trumps);
// - following, it lets a partner's winning card stand with its weakest card, beats the trick with
//   the weakest card that wins it when it can, and otherwise throws its weakest card.
Action fallback_action(const Observation& view);

}  // namespace atout
