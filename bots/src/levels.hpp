// The levels behind bots::decide, and what they share: hand reading and hand evaluation.
#pragma once

#include <array>
#include <string>

#include "atout/bots/bot.hpp"
#include "atout/bots/solver.hpp"

namespace atout::bots {

// The cards of a variant's deck: 32, or 24 (nine to ace).
CardSet deck_of(const std::string& variant);

// The card points of each card under `trump` (the variant's own values where it has them), and
// the total in play, last trick included.
HandValue values_of(const Observation& view, const Options& options, Trump trump);
inline int points(const HandValue& v, Card c) { return v.points[static_cast<std::size_t>(c.index())]; }
int total_points(const Observation& view, const Options& options, Trump trump);

// Partners, or one seat, at four seats; the same seat only, at two.
inline bool same_side(Seat a, Seat b, int players) { return players == 4 ? a % 2 == b % 2 : a == b; }

// What a seat has seen of the hand so far, read once per decision.
struct Reading {
  Trump trump{};
  CardSet played;                // every card played this hand (the trick in progress included)
  std::array<CardSet, 4> voids;  // per seat: suits (as card masks) it showed it lacks
  CardSet unseen;                // cards neither own nor played nor public

  // Reads one card `c` played to the trick `before` (as it stood before it): the suits its
  // player showed it lacks, and the card itself. `unseen` is left to the caller.
  void see(const Trick& before, Card c, int players);
};
Reading read_view(const Observation& view);

// True when no unseen card of `c`'s suit beats it under `t`.
bool is_master(Card c, const Reading& r);

// A rough number of card points (and belote) the seat's side takes in `trump` with `hand`, from
// belote practice: masters in each suit, trump length, the partner's expected share.
int estimate_points(const Observation& view, const Options& options, CardSet hand, Trump trump);

// The rules bot, and its two halves: bids, takes, doubles (rules_bid.cpp); cards (rules_play.cpp).
Decision decide_rules(const Observation& view, const Options& options);
Decision decide_rules_bid(const Observation& view, const Options& options);
Decision decide_rules_play(const Observation& view, const Options& options);
// The rules bot's card for `view`'s seat from `legal`, with the seat's reading and the cards'
// values already made (the view's `own`, `legal` and `tricks` are not read): what the sampling
// bot asks for each card another seat played.
Card rules_card(const Observation& view, CardSet legal, const Reading& reading, const HandValue& values);
Decision decide_sampling(const Request& request);

}  // namespace atout::bots
