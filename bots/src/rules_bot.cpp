// The rules bot: hand evaluation and card play from belote practice, for every variant. This file
// chooses between the bidding (rules_bid.cpp) and the card play (rules_play.cpp), and holds what
// both read: the seat's reading of the hand and the cards' values.
//
// Everything here reads the seat's own view only. The heuristics are the ones belote books and
// club players teach; each is named where it is used.
#include "atout/bots/solver.hpp"
#include "levels.hpp"

namespace atout::bots {

CardSet deck_of(const std::string& variant) {
  const VariantInfo* info = find_variant(variant);
  return info && info->deck_size == 24 ? CardSet::deck24() : CardSet::deck32();
}

HandValue values_of(const Observation& view, const Options& options, Trump trump) {
  if (const auto v = hand_value(view.variant, options, trump)) return *v;
  HandValue v;
  for (int i = 0; i < kCards; ++i) {
    const Card c = Card::from_index(i);
    const auto r = static_cast<std::size_t>(c.rank());
    v.points[static_cast<std::size_t>(i)] = trump.trump_ordered(c.suit()) ? kTrumpPoints[r] : kPlainPoints[r];
  }
  return v;
}

int total_points(const Observation& view, const Options& options, Trump trump) {
  const HandValue v = values_of(view, options, trump);
  int sum = v.last_trick;
  for (Card c : deck_of(view.variant)) sum += points(v, c);
  return sum;
}

void Reading::see(const Trick& before, Card c, int players) {
  if (before.count > 0 && c.suit() != before.led()) {
    const Seat s = seat_of(before, before.count, players);
    voids[static_cast<std::size_t>(s)] |= CardSet::suit_mask(before.led());
    // Not following and not trumping when an opponent held the trick with a plain card: no trumps
    // either (the rule that forces a trump).
    const Seat holder = seat_of(before, before.win, players);
    if (trump.mode == Mode::suit && !trump.is_trump_suit(c.suit()) &&
        !trump.is_trump_suit(before.cards[before.win].suit()) && !same_side(holder, s, players))
      voids[static_cast<std::size_t>(s)] |= trump.trump_cards();
  }
  played.insert(c);
}

Reading read_view(const Observation& view) {
  Reading r;
  r.trump = view.contract ? view.contract->trump : Trump{};
  auto scan = [&](const Trick& t) {
    Trick prefix;
    prefix.leader = t.leader;
    for (int i = 0; i < t.count; ++i) {
      const Card c = t.cards[static_cast<std::size_t>(i)];
      r.see(prefix, c, view.players);
      prefix.add(c, r.trump);
    }
  };
  for (const Trick& t : view.tricks) scan(t);
  scan(view.trick);
  r.unseen = deck_of(view.variant) - view.own - r.played;
  return r;
}

bool is_master(Card c, const Reading& r) { return (r.unseen & stronger_in_suit(r.trump, c)).empty(); }

Decision decide_rules(const Observation& view, const Options& options) {
  // Announce every combination and show it: only shown combinations count.
  for (const Action& a : view.legal)
    if (a.type == ActionType::announce) return {a, "announcing a combination"};
  for (const Action& a : view.legal)
    if (a.type == ActionType::show) return {a, "showing an announced combination"};
  for (const Action& a : view.legal)
    if (a.type == ActionType::play) return decide_rules_play(view, options);
  // Conceding is never chosen: it gives the other side every remaining trick.
  return decide_rules_bid(view, options);
}

}  // namespace atout::bots
