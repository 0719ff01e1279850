// The play phase as a small value type: hands, the trick in progress and the tricks won.
// It is the hot path of random play, so it allocates nothing.
#pragma once

#include <array>

#include "atout/card.hpp"
#include "atout/contract.hpp"
#include "atout/trick.hpp"

namespace atout {

struct PlayPhase {
  Trump trump{};
  PlayRules rules{};
  std::array<CardSet, 4> hands{};
  Trick trick{};
  Seat current = kNoSeat;
  Seat last_winner = kNoSeat;
  int tricks_done = 0;
  int tricks_total = 8;
  std::array<CardSet, 2> won{};     // cards won, by team (seat % 2)
  std::array<int, 2> tricks_won{};  // tricks won, by team

  int players() const { return rules.players; }
  void start(Seat leader) {
    current = leader;
    trick = Trick{};
    trick.leader = leader;
  }
  CardSet legal() const { return legal_plays(hands[static_cast<std::size_t>(current)], trick, trump, rules); }
  bool done() const { return tricks_done == tricks_total; }

  // Plays `c` for the current seat, which must be legal. Returns true when it completed a trick;
  // the completed trick is then in `last`.
  bool play(Card c, Trick* last = nullptr) {
    hands[static_cast<std::size_t>(current)].erase(c);
    trick.add(c, trump);
    if (trick.count < rules.players) {
      current = static_cast<Seat>((current + 1) % rules.players);
      return false;
    }
    const Seat winner = seat_of(trick, trick.win, rules.players);
    const int team = winner % 2;
    won[static_cast<std::size_t>(team)] |= trick.set;
    ++tricks_won[static_cast<std::size_t>(team)];
    ++tricks_done;
    last_winner = winner;
    if (last) *last = trick;
    start(winner);
    return true;
  }
};

}  // namespace atout
