// Reading the other seats' cards from how they played (see play_inference.hpp).
#include "atout/bots/play_inference.hpp"

#include <array>

#include "levels.hpp"

namespace atout::bots {

PlayInference::PlayInference(const Observation& view, const Options& options) : view_(view), options_(options) {
  const VariantInfo* info = find_variant(view.variant);
  if (!info || !info->play_rules || !view.contract || view.phase != Phase::playing) return;
  rules_ = info->play_rules(options);
  trump_ = view.contract->trump;
  auto add = [&](const Trick& t, std::size_t tricks_before) {
    Trick prefix;
    prefix.leader = t.leader;
    for (int i = 0; i < t.count; ++i) {
      const Card c = t.cards[static_cast<std::size_t>(i)];
      plays_.push_back({seat_of(t, i, view.players), c, tricks_before, prefix});
      prefix.add(c, trump_);
    }
  };
  for (std::size_t i = 0; i < view.tricks.size(); ++i) add(view.tricks[i], i);
  add(view.trick, view.tricks.size());
}

int PlayInference::misses(const World& w, int limit) const {
  if (plays_.empty() || limit <= 0) return 0;
  // Each seat's hand before the first play: its cards now and every card it played since.
  std::array<CardSet, 4> hands = w.hands;
  for (const Play& p : plays_) hands[static_cast<std::size_t>(p.seat)].insert(p.card);
  // One view, moved forward play by play: the other seat's view as it stood then.
  Observation then;
  then.variant = view_.variant;
  then.players = view_.players;
  then.phase = Phase::playing;
  then.dealer = view_.dealer;
  then.contract = view_.contract;
  then.tricks.reserve(view_.tricks.size());
  int missed = 0;
  for (const Play& p : plays_) {
    const auto seat = static_cast<std::size_t>(p.seat);
    while (then.tricks.size() < p.tricks_before) then.tricks.push_back(view_.tricks[then.tricks.size()]);
    if (p.seat != view_.seat) {
      const CardSet legal = legal_plays(hands[seat], p.before, trump_, rules_);
      if (legal.size() > 1) {
        then.seat = p.seat;
        then.current = p.seat;
        then.own = hands[seat];
        then.trick = p.before;
        for (int s = 0; s < view_.players; ++s)
          then.hand_sizes[static_cast<std::size_t>(s)] = hands[static_cast<std::size_t>(s)].size();
        then.legal.clear();
        for (Card c : legal) then.legal.push_back(Action::play(c));
        const Decision d = decide_rules_play(then, options_);
        if (d.action.card != p.card && ++missed >= limit) return missed;
      }
    }
    hands[seat] -= CardSet::of(p.card);
  }
  return missed;
}

}  // namespace atout::bots
