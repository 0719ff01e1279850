// Reading the other seats' cards from how they played (see play_inference.hpp).
#include "atout/bots/play_inference.hpp"

#include "levels.hpp"

namespace atout::bots {

PlayInference::PlayInference(const Observation& view, const Options& options) : view_(view) {
  const VariantInfo* info = find_variant(view.variant);
  if (!info || !info->play_rules || !view.contract || view.phase != Phase::playing) return;
  rules_ = info->play_rules(options);
  trump_ = view.contract->trump;
  deck_ = deck_of(view.variant);
  values_ = values_of(view, options, trump_);
  // What every seat had seen before each play: the reading the rules bot makes of a view.
  Reading seen;
  seen.trump = trump_;
  auto add = [&](const Trick& t) {
    Trick prefix;
    prefix.leader = t.leader;
    for (int i = 0; i < t.count; ++i) {
      const Card c = t.cards[static_cast<std::size_t>(i)];
      plays_.push_back({seat_of(t, i, view.players), c, prefix, seen.played, seen.voids});
      seen.see(prefix, c, view.players);
      prefix.add(c, trump_);
    }
  };
  for (const Trick& t : view.tricks) add(t);
  add(view.trick);
}

int PlayInference::misses(const World& w, int limit) const {
  if (plays_.empty() || limit <= 0) return 0;
  // Each seat's hand before the first play: its cards now and every card it played since.
  std::array<CardSet, 4> hands = w.hands;
  for (const Play& p : plays_) hands[static_cast<std::size_t>(p.seat)].insert(p.card);
  // One view, moved forward play by play: what the rules bot reads of the other seat's view then
  // (its seat, the trick, the hand sizes, the contract; the rest comes in `reading`).
  Observation then;
  then.variant = view_.variant;
  then.players = view_.players;
  then.phase = Phase::playing;
  then.contract = view_.contract;
  Reading reading;
  reading.trump = trump_;
  int missed = 0;
  for (const Play& p : plays_) {
    const auto seat = static_cast<std::size_t>(p.seat);
    if (p.seat != view_.seat) {
      const CardSet legal = legal_plays(hands[seat], p.before, trump_, rules_);
      if (legal.size() > 1) {
        then.seat = p.seat;
        then.current = p.seat;
        then.own = hands[seat];
        then.trick = p.before;
        for (int s = 0; s < view_.players; ++s)
          then.hand_sizes[static_cast<std::size_t>(s)] = hands[static_cast<std::size_t>(s)].size();
        reading.played = p.played;
        reading.voids = p.voids;
        reading.unseen = deck_ - hands[seat] - p.played;
        if (rules_card(then, legal, reading, values_) != p.card && ++missed >= limit) return missed;
      }
    }
    hands[seat] -= CardSet::of(p.card);
  }
  return missed;
}

}  // namespace atout::bots
