// The rules bot: hand evaluation and card play from belote practice, for every variant.
//
// Everything here reads the seat's own view only. The heuristics are the ones belote books and
// club players teach; each is named where it is used.
#include <algorithm>
#include <string>

#include "atout/bots/solver.hpp"
#include "levels.hpp"

namespace atout::bots {

namespace {

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

int points(const HandValue& v, Card c) { return v.points[static_cast<std::size_t>(c.index())]; }

int total_points(const Observation& view, const Options& options, Trump trump) {
  const HandValue v = values_of(view, options, trump);
  int sum = v.last_trick;
  for (Card c : deck_of(view.variant)) sum += points(v, c);
  return sum;
}

// The cards of `suit` from strongest to weakest under `t`, within `deck`.
std::vector<Card> suit_order(Suit suit, Trump t, CardSet deck) {
  std::vector<Card> out;
  for (Card c : deck.in_suit(suit)) out.push_back(c);
  std::sort(out.begin(), out.end(), [&](Card a, Card b) { return strength(t, a) > strength(t, b); });
  return out;
}

bool same_side(Seat a, Seat b, int players) { return players == 4 ? a % 2 == b % 2 : a == b; }

}  // namespace

Reading read_view(const Observation& view) {
  Reading r;
  r.trump = view.contract ? view.contract->trump : Trump{};
  auto scan = [&](const Trick& t) {
    Trick prefix;
    prefix.leader = t.leader;
    for (int i = 0; i < t.count; ++i) {
      const Card c = t.cards[static_cast<std::size_t>(i)];
      const Seat s = seat_of(t, i, view.players);
      if (i > 0 && c.suit() != t.led()) {
        r.voids[static_cast<std::size_t>(s)] |= CardSet::suit_mask(t.led());
        // Not following and not trumping when an opponent held the trick with a plain card: no
        // trumps either (the rule that forces a trump).
        const Seat holder = seat_of(prefix, prefix.win, view.players);
        if (r.trump.mode == Mode::suit && !r.trump.is_trump_suit(c.suit()) &&
            !r.trump.is_trump_suit(prefix.cards[prefix.win].suit()) && !same_side(holder, s, view.players))
          r.voids[static_cast<std::size_t>(s)] |= r.trump.trump_cards();
      }
      prefix.add(c, r.trump);
      r.played.insert(c);
    }
  };
  for (const Trick& t : view.tricks) scan(t);
  scan(view.trick);
  r.unseen = deck_of(view.variant) - view.own - r.played;
  return r;
}

bool is_master(Card c, const Reading& r) { return (r.unseen & stronger_in_suit(r.trump, c)).empty(); }

int estimate_points(const Observation& view, const Options& options, CardSet hand, Trump trump) {
  const HandValue v = values_of(view, options, trump);
  const CardSet deck = deck_of(view.variant);
  const int full = view.players == 4 ? 8 : 9;
  int est = 0;
  const CardSet trumps = hand & trump.trump_cards();
  for (int s = 0; s < kSuits; ++s) {
    const auto suit = static_cast<Suit>(s);
    const bool trump_suit = trump.is_trump_suit(suit);
    const std::vector<Card> order = suit_order(suit, trump, deck);
    // Masters: the top cards of the suit held without a gap. In a plain suit of a trump contract
    // only the first two rounds usually stand before someone ruffs ("two rounds of a side suit").
    const int cap = trump.mode == Mode::suit && !trump_suit ? 2 : kRanks;
    int masters = 0;
    for (Card c : order) {
      if (!hand.contains(c) || masters >= cap) break;
      est += points(v, c) + 10;
      ++masters;
    }
    const CardSet rest_of_suit = hand.in_suit(suit);
    int k = 0;
    for (Card c : order) {
      if (!rest_of_suit.contains(c)) continue;
      if (k++ < masters) continue;
      if (trump_suit) {
        est += 8 + points(v, c) / 2;  // a small trump still takes a trick by ruffing
      } else if (k == masters + 1 && rest_of_suit.size() >= 2) {
        est += points(v, c) / 2;  // a guarded second card (the 10 behind the ace's fall)
      } else if (trump.mode == Mode::no_trumps && masters >= 2 && k > 3) {
        est += 5;  // long cards of an established suit at No Trumps
      }
    }
    // A short side suit with trumps to ruff ("la coupe").
    if (trump.mode == Mode::suit && !trump_suit && trumps.size() >= 3 && rest_of_suit.size() <= 1) est += 6;
  }
  // Belote: king and queen of trumps together.
  if (trump.mode == Mode::suit) {
    const Card k(trump.suit, Rank::king), q(trump.suit, Rank::queen);
    if (hand.contains(k) && hand.contains(q)) est += 20;
  }
  est += 4 * std::max(0, full - hand.size());  // cards still to be dealt bring their average
  if (view.players == 4) est += 20;            // the partner's share
  return est;
}

namespace {

// ---- Bidding -------------------------------------------------------------------------------

// A margin for a contract's risk, in card points: a failed contract loses everything.
constexpr int kRiskMargin = 20;

struct BidChoice {
  const Action* action = nullptr;
  int margin = 0;
  int est = 0;
  std::string why;
};

// The hand a take would give: the turned-up card goes to the taker in the French deal (in either
// round), and in Simple when the taker says so.
CardSet hand_after_take(const Observation& view, const Action& a) {
  CardSet hand = view.own;
  if (!view.turn_up) return hand;
  if (view.variant == "simple") {
    if (!a.has_trump || !a.cards.empty()) hand.insert(*view.turn_up);
  } else {
    hand.insert(*view.turn_up);
  }
  return hand;
}

Trump trump_of(const Observation& view, const Action& a) {
  if (a.has_trump || a.type == ActionType::bid) return a.trump;
  return view.turn_up ? Trump::of(view.turn_up->suit()) : Trump{};
}

// The bid in force (the latest bid or take), if any.
const RecordedAction* bid_in_force(const Observation& view) {
  const RecordedAction* best = nullptr;
  for (const RecordedAction& b : view.bids)
    if (b.action.type == ActionType::bid || b.action.type == ActionType::take) best = &b;
  return best;
}

// What a contract must reach, in card points: the bid (Bazar bids in tens), or half the deal.
int contract_needs(const Observation& view, const Options& options, const Action& a) {
  const Trump t = trump_of(view, a);
  const int half = total_points(view, options, t) / 2 + 1;
  if (a.type != ActionType::bid || a.value == 0) return half;
  return view.variant == "bazar" ? a.value * 10 : static_cast<int>(a.value);
}

Decision decide_bid(const Observation& view, const Options& options) {
  const int players = view.players;
  const RecordedAction* in_force = bid_in_force(view);
  const bool partner_holds =
      in_force && players == 4 && in_force->seat != view.seat && same_side(in_force->seat, view.seat, players);
  std::optional<Trump> partner_trump;
  for (const RecordedAction& b : view.bids)
    if (players == 4 && b.seat != view.seat && same_side(b.seat, view.seat, players) &&
        (b.action.type == ActionType::bid || b.action.type == ActionType::take) && b.action.has_trump)
      partner_trump = b.action.trump;

  const VariantInfo* info = find_variant(view.variant);
  const int deck_cards = info ? info->deck_size : 32;
  const int full = players == 4 ? 8 : 9;
  const double dealt = static_cast<double>(players * full) / static_cast<double>(deck_cards);

  struct Estimate {
    Trump trump;
    CardSet hand;
    int points = 0;
  };
  std::vector<Estimate> estimates;
  BidChoice best;
  bool pass_legal = false;
  const Action* double_action = nullptr;
  const Action* redouble_action = nullptr;
  for (const Action& a : view.legal) {
    if (a.type == ActionType::pass) pass_legal = true;
    if (a.type == ActionType::double_) double_action = &a;
    if (a.type == ActionType::redouble) redouble_action = &a;
    if ((a.type != ActionType::take && a.type != ActionType::bid) || a.capot) continue;
    const Trump t = trump_of(view, a);
    const CardSet hand = hand_after_take(view, a);
    // An auction offers many values per trump: each (trump, hand) is estimated once.
    int est = 0;
    const auto cached = std::find_if(estimates.begin(), estimates.end(),
                                     [&](const Estimate& e) { return e.trump == t && e.hand == hand; });
    if (cached != estimates.end()) {
      est = cached->points;
    } else {
      est = estimate_points(view, options, hand, t);
      estimates.push_back({t, hand, est});
    }
    // Supporting the partner's suit: the partner announced strength there.
    if (partner_trump && *partner_trump == t) est += 20;
    int needs = contract_needs(view, options, a);
    if (a.type == ActionType::take || a.value == 0) {
      // Without a value, a contract must take more than the other side of the points in play.
      needs = static_cast<int>(needs * (players == 2 ? dealt : 1.0));
      // In the French family a failed take gives the defence every point in play, so a take wants
      // the same margin as a bid. Measured in the arena against the same bot without the margin,
      // on the same deals: French, head-to-head and Simple gain 20 to 35 Elo (30 points did no
      // better); Bulgarian belot, whose takes are suit bids, gained nothing and keeps none.
      if (view.variant != "belot") needs += kRiskMargin;
    } else {
      needs += kRiskMargin;
    }
    int margin = est - needs;
    // Over the partner's bid only with clearly more ("don't outbid your partner for nothing").
    if (partner_holds) margin -= 20;
    // Among the bids the hand can afford: the best trump, then the highest value, which tells the
    // partner the hand's strength at once. Otherwise the least unsafe one (for a forced choice).
    const bool feasible = margin >= 0;
    bool better = !best.action;
    if (!better && feasible != (best.margin >= 0)) better = feasible;
    if (!better && feasible && best.margin >= 0)
      better = est > best.est || (est == best.est && a.value > best.action->value);
    if (!better && !feasible && best.margin < 0) better = margin > best.margin;
    if (better) best = {&a, margin, est, "estimated " + std::to_string(est) + " points for " + to_string(t)};
  }
  if (best.action && (best.margin >= 0 || !pass_legal)) return {*best.action, best.why};

  if (in_force && !same_side(in_force->seat, view.seat, players) && double_action) {
    // Double when our side holds the tricks of their trump and the aces: they cannot reach the bid.
    const Trump t = trump_of(view, in_force->action);
    const int total = total_points(view, options, t);
    const int ours = estimate_points(view, options, view.own, t);
    const int theirs = total - ours;
    if (theirs + 20 < contract_needs(view, options, in_force->action))
      return {*double_action, "they should reach only " + std::to_string(theirs) + " points"};
  }
  if (in_force && same_side(in_force->seat, view.seat, players) && redouble_action) {
    const Trump t = trump_of(view, in_force->action);
    const int ours = estimate_points(view, options, view.own, t);
    if (ours >= contract_needs(view, options, in_force->action) + 40)
      return {*redouble_action, "our contract is safe: " + std::to_string(ours) + " points"};
  }
  for (const Action& a : view.legal)
    if (a.type == ActionType::pass) return {a, best.action ? best.why + ", not enough" : "nothing to bid"};
  return {view.legal.front(), "the only choice"};
}

// ---- Card play ---------------------------------------------------------------------------------

struct Play {
  const Observation& view;
  const Options& options;
  Reading r;
  HandValue v;
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
  // Two players: the lead whose trick is worth most on average, (2w - 1) * (points + 5), where w is
  // the chance that no stronger card of its suit is in the opponent's hand and 5 stands for the
  // card the opponent adds.
  Card best_chance(CardSet cards) const {
    Card best = cards.first();
    double best_worth = -1e9;
    for (Card c : cards) {
      const double holds = opponent_lacks(stronger_in_suit(r.trump, c));
      const double worth = (2 * holds - 1) * (pts(c) + 5);
      if (worth > best_worth) {
        best_worth = worth;
        best = c;
      }
    }
    return best;
  }
};

Decision lead(const Play& p) {
  const CardSet hand = p.legal;
  const CardSet trumps = hand & p.r.trump.trump_cards();
  const CardSet masters = p.masters(hand);
  // The taker's side draws trumps while the defence still holds some ("faire tomber les atouts"),
  // starting with a master trump.
  if (p.our_contract && !trumps.empty() && p.unseen_trumps() > 0) {
    const CardSet top = masters & trumps;
    if (!top.empty()) return {Action::play(p.strongest(top)), "drawing trumps with the master"};
    if (trumps.size() >= 3) return {Action::play(p.cheapest(trumps)), "drawing trumps, low"};
  }
  // Cash plain masters, side suits before trumps, so that the trumps stay for the last trick.
  const CardSet plain_masters = masters - p.r.trump.trump_cards();
  if (!plain_masters.empty()) {
    // Highest points first while they stand; in a suit contract they are ruffed soon.
    return {Action::play(p.richest(plain_masters)), "cashing a master"};
  }
  if (!(masters & trumps).empty() && (p.unseen_trumps() == 0 || p.our_contract))
    return {Action::play(p.strongest(masters & trumps)), "cashing a master trump"};
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
  if (p.view.players == 2) return {Action::play(p.best_chance(candidates)), "a lead likely to hold"};
  return {Action::play(p.cheapest(candidates)), "a low lead"};
}

Decision follow(const Play& p) {
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
      return {Action::play(give), "giving points to the partner's trick"};
    }
    return {Action::play(p.cheapest(p.legal)), "the partner holds the trick; a small card"};
  }

  CardSet winners;
  for (Card c : p.legal)
    if (beats(c, best, p.r.trump)) winners.insert(c);
  if (!winners.empty()) {
    if (to_play == 0) {
      // Two players, last to play: any winner holds the trick, so bank the most points with a plain
      // card and keep the trumps (in the arena, 26 to 28 Elo over the cheapest winner head to head).
      const CardSet plain = winners - p.r.trump.trump_cards();
      if (p.view.players == 2 && !plain.empty())
        return {Action::play(p.richest(plain)), "taking the trick with the richest card"};
      return {Action::play(p.cheapest(winners)), "taking the trick as cheaply as possible"};
    }
    // Not last: take with a card that stays master, or take a rich trick with the best card.
    const CardSet sure = p.masters(winners);
    if (!sure.empty()) return {Action::play(p.cheapest(sure)), "taking the trick with a master"};
    if (on_table >= 10 || p.trump(*winners.begin()))
      return {Action::play(p.strongest(winners)), "taking a trick worth points"};
  }
  // The trick is lost: throw the cheapest card and keep the masters ("ne pas gaspiller").
  CardSet keep = p.masters(p.legal);
  const CardSet spare = p.legal - keep;
  return {Action::play(p.cheapest(spare.empty() ? p.legal : spare)), "the trick is lost; the cheapest card"};
}

Decision decide_play(const Observation& view, const Options& options) {
  Play p{view, options, read_view(view), {}, {}, false};
  p.v = values_of(view, options, p.r.trump);
  for (const Action& a : view.legal)
    if (a.type == ActionType::play) p.legal.insert(a.card);
  p.our_contract = view.contract && same_side(view.contract->taker, view.seat, view.players);
  if (p.legal.size() == 1) return {Action::play(p.legal.first()), "the only card"};
  return view.trick.empty() ? lead(p) : follow(p);
}

}  // namespace

Decision decide_rules(const Observation& view, const Options& options) {
  // Announce every combination and show it: only shown combinations count.
  for (const Action& a : view.legal)
    if (a.type == ActionType::announce) return {a, "announcing a combination"};
  for (const Action& a : view.legal)
    if (a.type == ActionType::show) return {a, "showing an announced combination"};
  for (const Action& a : view.legal)
    if (a.type == ActionType::play) return decide_play(view, options);
  // Conceding is never chosen: it gives the other side every remaining trick.
  return decide_bid(view, options);
}

}  // namespace atout::bots
