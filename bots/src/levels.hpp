// The levels behind bots::decide, and what they share: hand reading and hand evaluation.
#pragma once

#include <array>

#include "atout/bots/bot.hpp"

namespace atout::bots {

// What a seat has seen of the hand so far, read once per decision.
struct Reading {
  Trump trump{};
  CardSet played;                // every card played this hand (the trick in progress included)
  std::array<CardSet, 4> voids;  // per seat: suits (as card masks) it showed it lacks
  CardSet unseen;                // cards neither own nor played nor public
};
Reading read_view(const Observation& view);

// True when no unseen card of `c`'s suit beats it under `t`.
bool is_master(Card c, const Reading& r);

// A rough number of card points (and belote) the seat's side takes in `trump` with `hand`, from
// belote practice: masters in each suit, trump length, the partner's expected share.
int estimate_points(const Observation& view, const Options& options, CardSet hand, Trump trump);

Decision decide_rules(const Observation& view, const Options& options);
Decision decide_sampling(const Request& request);

}  // namespace atout::bots
