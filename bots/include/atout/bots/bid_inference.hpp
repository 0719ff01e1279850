// Reading the other seats' cards from how they bid: a world in which every pass, take and bid seen
// is the one a sound bidder would have made with the cards the world gives it is likelier than one
// in which they were mistakes.
//
// The model of a sound bidder is the rules bot (a hand's worth in card points under each trump,
// against what the contract needs). For each bid another seat made, its hand at that moment is
// rebuilt from the world: the cards it holds now and the cards it played, less the turned-up card,
// cut to the number of cards it held when it spoke. Where some cards came after the auction (the
// French deal gives the last three after the taking), which of the hand's cards came late is not
// known, and one choice, drawn uniformly (and fixed for the world), stands for all of them: over
// the draws this weighs a world by its average over the choices. The rules bot is then asked what
// it would have said with that hand, in the auction as it stood.
//
// The auction as each bidder saw it, its legal actions included, is rebuilt once per decision by
// replaying the hand's bids in a fresh match of the same variant, options, dealer and turned-up
// card; where that cannot be done (a view that no longer shows the turned-up card) the bids are not
// read.
#pragma once

#include <boost/unordered/unordered_flat_map.hpp>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "atout/bots/worlds.hpp"
#include "atout/state.hpp"

namespace atout::bots {

class BidInference {
 public:
  // `options` must be complete and outlive the object.
  BidInference(const Observation& view, const Options& options);

  // How many of the other seats' bids the rules bot would not have made in `w`.
  int misses(const World& w);

  // Whether actions of type `t` are read as bids: pass, take, bid, double, redouble.
  static bool reads(ActionType t);

  // How many bids of other seats are read (0 when the auction could not be rebuilt).
  std::size_t size() const { return bids_.size(); }

 private:
  struct Bid {
    Observation then;  // the bidder's view as it spoke; `own` is set per world
    Action said;       // as the legal action it was
    int held = 0;      // the cards it held then
  };
  const Options& options_;
  CardSet turn_up_;  // the turned-up card, which no hand held at the auction
  std::vector<Bid> bids_;
  std::vector<std::pair<Seat, Card>> played_;  // every card seen played, by whom
  // By bid and hand: the rules bot says the same. Open addressing in one block: a decision fills it
  // with thousands of hands, and a map of nodes took milliseconds to free.
  boost::unordered_flat_map<std::uint64_t, bool> explained_;
};

}  // namespace atout::bots
