// Consistent worlds: complete deals that agree with everything one seat has seen of a hand.
//
// A world gives every seat's current cards and the cards in no hand (the undealt stock, a card set
// aside). It never moves a card the seat can see: its own cards, the cards played, a public
// turned-up card, shown combinations. The hidden cards are placed so that every play the seat has
// seen was legal under the variant's play rules (so a seat that did not follow, trump or overtrump
// holds no card that would have forced it), the turned-up card lies with the taker, a belote
// announcer held the king and queen of trumps (and a seat that played one of them without
// announcing did not hold both), and each announced combination was in its announcer's hand.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atout/card.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace atout::bots {

struct World {
  std::array<CardSet, 4> hands{};  // each seat's cards now (seats 0..players-1)
  CardSet rest;                    // the cards in no hand and not played
};

// Samples worlds for one observation.
//
// What every sampled world satisfies splits in two. Per seat, some hidden cards are known to be in
// its hand (required) and some known not to be (forbidden); over these, sampling is exactly
// uniform: the unknown cards are grouped by the set of places that may hold them, every way of
// sharing the groups' sizes among the places is counted (a product of multinomials), one is drawn
// in proportion to its count and each group is shuffled into its shares. The rest of the knowledge
// is a disjunction (an announced sequence whose suit is not shown; a belote in All Trumps), and is
// met by rejection, which keeps the draw uniform over the consistent deals. When rejection keeps
// failing (kMaxRejections draws) `sample` returns nullopt rather than a world that is not
// consistent.
class WorldSampler {
 public:
  static constexpr int kMaxRejections = 2000;

  // `options` must be complete (normalise_options). The view must be a seat's or a spectator's.
  WorldSampler(const Observation& view, const Options& options);

  // False when the view contradicts itself (no deal fits it); `sample` then returns nullopt.
  bool valid() const { return valid_; }
  std::optional<World> sample(Rng& rng) const;

  // The number of consistent deals under the per-seat constraints alone (before rejection).
  double count() const { return total_weight_; }
  // True when some knowledge is met by rejection (count() then exceeds the consistent deals).
  bool rejects() const { return !predicates_.empty(); }
  CardSet unknown() const { return unknown_; }
  CardSet required(Seat s) const { return required_[static_cast<std::size_t>(s)]; }
  CardSet forbidden(Seat s) const { return forbidden_[static_cast<std::size_t>(s)]; }

 private:
  struct Group {
    std::vector<Card> cards;
    std::vector<int> places;  // the places (seats, or kRestPlace) that may hold these cards
  };
  struct Split {
    std::vector<std::vector<int>> shares;  // per group, per place in the group: how many cards
    double weight = 0;
  };
  // A condition on one seat's hand as play began (its cards now and the cards it played).
  struct Predicate {
    Seat seat = kNoSeat;
    std::vector<CardSet> any_of;  // the hand held one of these sets whole
    int at_least = 1;             // ... or this many of them (belote calls in All Trumps)
  };
  static constexpr int kRestPlace = 4;

  void enumerate(std::size_t group, std::array<int, 5>& left, std::vector<std::vector<int>>& shares);
  bool predicates_hold(const World& w) const;

  Observation view_;
  bool valid_ = true;
  int players_ = 4;
  CardSet unknown_;
  std::array<CardSet, 4> played_by_{};
  std::array<CardSet, 5> required_{};
  std::array<CardSet, 5> forbidden_{};
  std::array<int, 5> need_{};
  std::vector<Group> groups_;
  std::vector<Split> splits_;
  double total_weight_ = 0;
  std::vector<Predicate> predicates_;
};

// Why `world` contradicts what `view`'s seat knows (checked directly on the rules: the hand is
// replayed from the world's cards), or nullopt when it is consistent.
std::optional<std::string> inconsistency(const World& world, const Observation& view, const Options& options);

// The true world of a match: the cards each seat holds and the rest.
World world_of(const State& state);

}  // namespace atout::bots
