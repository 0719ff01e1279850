// The rules bot's card play: leads and follows from belote practice (draw trumps as the taker,
// cash masters, give points to a partner who holds the trick, never waste a master).
#include <algorithm>
#include <tuple>

#include "atout/bots/solver.hpp"
#include "levels.hpp"

namespace atout::bots {

namespace {

// ---- Card play ---------------------------------------------------------------------------------

// A card and why, before it becomes a Decision (the reason stays a literal until then).
struct Choice {
  Card card;
  const char* reason;
};

struct Play {
  const Observation& view;
  const Reading& r;
  const HandValue& v;
  CardSet legal;
  bool our_contract = false;

  int pts(Card c) const { return points(v, c); }
  bool trump(Card c) const { return r.trump.is_trump_suit(c.suit()); }

  // Weakest first: fewest points, then lowest strength, plain cards before trumps.
  Card cheapest(CardSet cards) const {
    Card best = cards.first();
    auto key = [&](Card c) { return std::tuple(trump(c), pts(c), strength(r.trump, c), c.index()); };
    for (Card c : cards)
      if (key(c) < key(best)) best = c;
    return best;
  }
  // The most points; the first in card order among equals.
  Card richest(CardSet cards) const {
    Card best = cards.first();
    for (Card c : cards)
      if (pts(c) > pts(best)) best = c;
    return best;
  }
  Card strongest(CardSet cards) const {
    Card best = cards.first();
    auto key = [&](Card c) { return std::tuple(trump(c), strength(r.trump, c), pts(c)); };
    for (Card c : cards)
      if (key(c) > key(best)) best = c;
    return best;
  }
  CardSet masters(CardSet cards) const {
    CardSet out;
    for (Card c : cards)
      if (is_master(c, r)) out.insert(c);
    return out;
  }
  int unseen_trumps() const { return (r.unseen & r.trump.trump_cards()).size(); }

  // Two players: the chance that the opponent holds none of `cards`. Its hand is drawn from the
  // unseen cards outside the suits it showed it lacks; with two players some cards are never dealt
  // (14 of 32 in head-to-head, 5 or 6 of 24 in Simple), so it often lacks what would beat a lead.
  double opponent_lacks(CardSet cards) const {
    const auto opp = static_cast<std::size_t>(1 - view.seat);
    const CardSet pool = r.unseen - r.voids[opp];
    const int unseen = pool.size();
    const int held = view.hand_sizes[opp];
    const int wanted = (cards & pool).size();
    double chance = 1.0;
    for (int i = 0; i < wanted; ++i) {
      if (unseen - i <= 0) return 0.0;
      chance *= static_cast<double>(std::max(0, unseen - held - i)) / static_cast<double>(unseen - i);
    }
    return chance;
  }
  // Two players: the lead whose trick is worth most on average, w * (points + 2) - (1 - w) *
  // (points + s), where w is the chance that no stronger card of its suit is in the opponent's
  // hand, 2 stands for the small card the opponent then adds, and s is the average worth of the
  // stronger cards it may hold, one of which takes the trick otherwise (a player who can win a
  // trick as second player usually wins it with a card worth points). Against a flat 5 points for
  // the opponent's card either way, in the arena: +21 Elo head to head against the rules bot that
  // used it (50,000 deals), the same against random and in Simple.
  Card best_chance(CardSet cards) const {
    const CardSet pool = r.unseen - r.voids[static_cast<std::size_t>(1 - view.seat)];
    Card best = cards.first();
    double best_worth = -1e9;
    for (Card c : cards) {
      const CardSet stronger = stronger_in_suit(r.trump, c);
      const double holds = opponent_lacks(stronger);
      const CardSet may_take = stronger & pool;
      double taken_with = 0;
      for (Card x : may_take) taken_with += pts(x);
      if (!may_take.empty()) taken_with /= may_take.size();
      const double worth = holds * (pts(c) + 2) - (1 - holds) * (pts(c) + taken_with);
      if (worth > best_worth) {
        best_worth = worth;
        best = c;
      }
    }
    return best;
  }
};

Choice lead(const Play& p) {
  const CardSet hand = p.legal;
  const CardSet trumps = hand & p.r.trump.trump_cards();
  const CardSet masters = p.masters(hand);
  // The taker's side draws trumps while the defence still holds some ("faire tomber les atouts"),
  // starting with a master trump.
  if (p.our_contract && !trumps.empty() && p.unseen_trumps() > 0) {
    const CardSet top = masters & trumps;
    if (!top.empty()) return {p.strongest(top), "drawing trumps with the master"};
    if (trumps.size() >= 3) return {p.cheapest(trumps), "drawing trumps, low"};
  }
  // Cash plain masters, side suits before trumps, so that the trumps stay for the last trick.
  const CardSet plain_masters = masters - p.r.trump.trump_cards();
  if (!plain_masters.empty()) {
    // Highest points first while they stand; in a suit contract they are ruffed soon.
    return {p.richest(plain_masters), "cashing a master"};
  }
  if (!(masters & trumps).empty() && (p.unseen_trumps() == 0 || p.our_contract))
    return {p.strongest(masters & trumps), "cashing a master trump"};
  // Otherwise a low card of a plain suit, never from a bare ten ("ne pas jouer sous le dix"), and
  // as defence never a trump (that would help the taker draw them).
  CardSet candidates;
  for (Card c : hand - p.r.trump.trump_cards()) {
    const CardSet suit = hand.in_suit(c.suit());
    const bool guards_ten = c.rank() != Rank::ten && suit.contains(Card(c.suit(), Rank::ten)) &&
                            !p.r.played.contains(Card(c.suit(), Rank::ace)) && suit.size() <= 2;
    if (!guards_ten && p.pts(c) < 10) candidates.insert(c);
  }
  if (candidates.empty()) candidates = hand - p.r.trump.trump_cards();
  if (candidates.empty()) candidates = hand;
  // Two players: not the lowest card but the one likeliest to hold the trick for what it is worth
  // (in the arena, 25 Elo over the lowest card on the same head-to-head deals).
  if (p.view.players == 2) return {p.best_chance(candidates), "a lead likely to hold"};
  return {p.cheapest(candidates), "a low lead"};
}

Choice follow(const Play& p) {
  const Trick& t = p.view.trick;
  const Card best = t.cards[t.win];
  const Seat holder = seat_of(t, t.win, p.view.players);
  const int to_play = p.view.players - t.count - 1;  // seats after this one
  int on_table = 0;
  for (int i = 0; i < t.count; ++i) on_table += p.pts(t.cards[static_cast<std::size_t>(i)]);

  const bool partner_holds = p.view.players == 4 && holder != p.view.seat && same_side(holder, p.view.seat, 4);
  if (partner_holds) {
    // Is the partner's card safe? The last to play sees it; otherwise the card must be master and
    // the opponent still to play must not be able to ruff.
    bool safe = to_play == 0;
    if (!safe && is_master(best, p.r)) {
      const auto next = static_cast<std::size_t>((p.view.seat + 1) % 4);
      const bool can_ruff = p.r.trump.mode == Mode::suit && !p.trump(best) &&
                            (p.r.voids[next] & CardSet::suit_mask(t.led())) != CardSet() &&
                            (p.r.voids[next] & p.r.trump.trump_cards()).empty();
      safe = !can_ruff;
    }
    if (safe) {
      // Give points to the partner's trick ("charger", the schmear): the richest card that would
      // not take a trick of its own later.
      Card give = p.cheapest(p.legal);
      for (Card c : p.legal) {
        if (p.trump(c) && p.r.trump.mode == Mode::suit) continue;
        if (is_master(c, p.r) && p.pts(c) >= 10 && c.rank() != Rank::ten) continue;  // keep the aces
        if (p.pts(c) > p.pts(give)) give = c;
      }
      return {give, "giving points to the partner's trick"};
    }
    return {p.cheapest(p.legal), "the partner holds the trick; a small card"};
  }

  CardSet winners;
  for (Card c : p.legal)
    if (beats(c, best, p.r.trump)) winners.insert(c);
  if (!winners.empty()) {
    if (to_play == 0) {
      // Two players, last to play: any winner holds the trick, so bank the most points with a plain
      // card and keep the trumps (in the arena, 26 to 28 Elo over the cheapest winner head to head).
      const CardSet plain = winners - p.r.trump.trump_cards();
      if (p.view.players == 2 && !plain.empty()) return {p.richest(plain), "taking the trick with the richest card"};
      return {p.cheapest(winners), "taking the trick as cheaply as possible"};
    }
    // Not last: take with a card that stays master, or take a rich trick with the best card.
    const CardSet sure = p.masters(winners);
    if (!sure.empty()) return {p.cheapest(sure), "taking the trick with a master"};
    if (on_table >= 10 || p.trump(*winners.begin())) return {p.strongest(winners), "taking a trick worth points"};
  }
  // The trick is lost: throw the cheapest card and keep the masters ("ne pas gaspiller").
  CardSet keep = p.masters(p.legal);
  const CardSet spare = p.legal - keep;
  return {p.cheapest(spare.empty() ? p.legal : spare), "the trick is lost; the cheapest card"};
}

Choice choose(const Observation& view, CardSet legal, const Reading& reading, const HandValue& values) {
  Play p{view, reading, values, legal, false};
  p.our_contract = view.contract && same_side(view.contract->taker, view.seat, view.players);
  if (p.legal.size() == 1) return {p.legal.first(), "the only card"};
  return view.trick.empty() ? lead(p) : follow(p);
}

}  // namespace

Card rules_card(const Observation& view, CardSet legal, const Reading& reading, const HandValue& values) {
  return choose(view, legal, reading, values).card;
}

Decision decide_rules_play(const Observation& view, const Options& options) {
  const Reading reading = read_view(view);
  const HandValue values = values_of(view, options, reading.trump);
  CardSet legal;
  for (const Action& a : view.legal)
    if (a.type == ActionType::play) legal.insert(a.card);
  const Choice c = choose(view, legal, reading, values);
  return {Action::play(c.card), c.reason};
}

}  // namespace atout::bots
