// Reading the other seats' cards from how they played: a world in which the cards seen played are
// the ones a sound player would have chosen is likelier than one in which they were mistakes.
//
// The model of a sound player is the rules bot (belote practice: draw trumps as the taker, give
// points to a partner who holds the trick, throw the cheapest card on a lost trick). For each card
// another seat played with a choice, the seat's hand at that moment is rebuilt from the world (its
// cards now and the cards it played since), its view of the hand at that moment from the seat's
// own view, and the rules bot is asked what it would have played there. A world is weighed by
// kMiss to the power of the plays it does not explain.
#pragma once

#include <array>
#include <vector>

#include "atout/bots/solver.hpp"
#include "atout/bots/worlds.hpp"
#include "atout/state.hpp"

namespace atout::bots {

class PlayInference {
 public:
  // The weight of one unexplained play: a world with one such play is kept a quarter as often.
  static constexpr double kMiss = 0.25;

  // `view` must outlive the object; `options` must be complete.
  PlayInference(const Observation& view, const Options& options);

  // How many of the other seats' plays with a choice the rules bot would not have made in `w`,
  // stopping once `limit` is reached.
  int misses(const World& w, int limit) const;

 private:
  struct Play {
    Seat seat = kNoSeat;
    Card card;
    Trick before;                  // the trick as it stood before it
    CardSet played;                // the cards played before it, this trick's included
    std::array<CardSet, 4> voids;  // per seat, the suits it had shown it lacked by then
  };
  const Observation& view_;
  PlayRules rules_{};
  Trump trump_{};
  CardSet deck_;
  HandValue values_{};
  std::vector<Play> plays_;  // every card seen played, in order, the seat's own included
};

}  // namespace atout::bots
