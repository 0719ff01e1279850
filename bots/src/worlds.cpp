// Consistent worlds: per-seat constraints read from a view, exact uniform dealing, and a checker.
#include "atout/bots/worlds.hpp"

#include <algorithm>
#include <span>

#include "levels.hpp"

namespace atout::bots {

namespace {

// One card seen played: by whom, and the trick as it stood before it.
struct PlayEvent {
  Seat seat = kNoSeat;
  Card card;
  Trick before;
};

std::vector<PlayEvent> plays_of(const Observation& v, Trump t) {
  std::vector<PlayEvent> out;
  if (v.phase != Phase::playing || !v.contract) return out;
  auto add_trick = [&](const Trick& tr) {
    Trick prefix;
    prefix.leader = tr.leader;
    for (int i = 0; i < tr.count; ++i) {
      const Card c = tr.cards[static_cast<std::size_t>(i)];
      out.push_back({seat_of(tr, i, v.players), c, prefix});
      prefix.add(c, t);
    }
  };
  for (const Trick& tr : v.tricks) add_trick(tr);
  if (!v.trick.empty()) add_trick(v.trick);
  return out;
}

PlayRules rules_of(const Observation& v, const Options& options) {
  const VariantInfo* info = find_variant(v.variant);
  return info && info->play_rules ? info->play_rules(options) : PlayRules{};
}

int sequence_length(ComboKind k) {
  switch (k) {
    case ComboKind::tierce:
      return 3;
    case ComboKind::quarte:
      return 4;
    case ComboKind::quint:
      return 5;
    case ComboKind::carre:
      return 0;
  }
  return 0;
}

// The card sets one announced combination may be: a carré is its four cards; a sequence is one run
// per suit (its suit is hidden until shown).
std::vector<CardSet> combo_candidates(const DeclarationView& d, CardSet deck) {
  std::vector<CardSet> out;
  if (d.kind == ComboKind::carre) {
    out.push_back(CardSet::rank_mask(d.top) & deck);
    return out;
  }
  const int len = sequence_length(d.kind);
  const int top = static_cast<int>(d.top);
  if (top - len + 1 < 0) return out;
  for (int s = 0; s < kSuits; ++s) {
    CardSet run;
    for (int r = top - len + 1; r <= top; ++r) run.insert(Card(static_cast<Suit>(s), static_cast<Rank>(r)));
    if ((run & deck) == run) out.push_back(run);
  }
  return out;
}

CardSet king_queen(Suit s) { return CardSet::of(Card(s, Rank::king)) | CardSet::of(Card(s, Rank::queen)); }

// (sum of parts)! / product of (part!): the ways of sharing a group's cards out.
double multinomial(const std::vector<int>& parts) {
  double w = 1;
  int k = 0;
  for (int p : parts)
    for (int i = 1; i <= p; ++i) w = w * static_cast<double>(++k) / static_cast<double>(i);
  return w;
}

double uniform01(Rng& rng) { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; }

}  // namespace

WorldSampler::WorldSampler(const Observation& view, const Options& options) : view_(view), players_(view.players) {
  const CardSet deck = deck_of(view.variant);
  const PlayRules rules = rules_of(view, options);
  const Trump trump = view.contract ? view.contract->trump : Trump{};
  const bool playing = view.phase == Phase::playing && view.contract.has_value();
  const Seat me = view.seat >= 0 && view.seat < players_ ? view.seat : kNoSeat;
  auto other = [&](Seat s) { return s >= 0 && s < players_ && s != me; };

  const std::vector<PlayEvent> plays = plays_of(view, trump);
  CardSet played;
  for (const PlayEvent& e : plays) {
    played.insert(e.card);
    played_by_[static_cast<std::size_t>(e.seat)].insert(e.card);
  }
  const CardSet own = me == kNoSeat ? CardSet() : view.own;

  // Cards whose place is known.
  if (view.turn_up) {
    const Card c = *view.turn_up;
    if (playing) {
      // Whoever took (in any round) was given the turned-up card.
      const Seat taker = view.contract->taker;
      if (!played.contains(c) && other(taker)) required_[static_cast<std::size_t>(taker)].insert(c);
    } else if (!own.contains(c)) {
      required_[kRestPlace].insert(c);
    }
  }
  for (const DeclarationView& d : view.declarations) {
    if (!other(d.seat)) continue;
    if (d.shown) {
      required_[static_cast<std::size_t>(d.seat)] |= d.cards - played;
      continue;
    }
    const std::vector<CardSet> candidates = combo_candidates(d, deck);
    if (candidates.size() == 1) {
      required_[static_cast<std::size_t>(d.seat)] |= candidates.front() - played;
    } else {
      predicates_.push_back({d.seat, candidates, 1});
    }
  }
  if (playing) {
    for (int s = 0; s < players_; ++s) {
      const auto seat = static_cast<Seat>(s);
      if (!other(seat)) continue;
      const bool called = std::find(view.belote.begin(), view.belote.end(), seat) != view.belote.end();
      if (trump.mode == Mode::suit) {
        const CardSet kq = king_queen(trump.suit);
        if (called) {
          required_[static_cast<std::size_t>(s)] |= kq - played;
        } else if (!(played_by_[static_cast<std::size_t>(s)] & kq).empty()) {
          // Belote is called as the first of the pair is played: a seat that played one without
          // calling never held both.
          forbidden_[static_cast<std::size_t>(s)] |= kq - played;
        }
      } else if (trump.mode == Mode::all_trumps && called) {
        std::vector<CardSet> pairs;
        for (int su = 0; su < kSuits; ++su) pairs.push_back(king_queen(static_cast<Suit>(su)));
        predicates_.push_back({seat, pairs, 1});
      }
    }
  }

  CardSet known = own | played;
  for (std::size_t p = 0; p < required_.size(); ++p) {
    if (!(required_[p] & known).empty()) valid_ = false;
    known |= required_[p];
  }
  unknown_ = deck - known;

  // Each play was legal with the hand its seat held then: the cards it still holds and those it
  // played from then on. Every constraint of the play rules has the form "held none of these
  // cards", so a hidden card is excluded exactly when adding it alone to what is known of that hand
  // would have made the card played illegal.
  std::array<CardSet, 4> later{};
  for (auto it = plays.rbegin(); it != plays.rend(); ++it) {
    const auto s = static_cast<std::size_t>(it->seat);
    later[s].insert(it->card);
    if (!other(it->seat)) continue;
    const CardSet held = later[s] | required_[s];
    for (Card x : unknown_) {
      if (forbidden_[s].contains(x)) continue;
      if (!legal_plays(held | CardSet::of(x), it->before, trump, rules).contains(it->card)) forbidden_[s].insert(x);
    }
  }

  int hand_cards = 0;
  for (int s = 0; s < players_; ++s) hand_cards += view.hand_sizes[static_cast<std::size_t>(s)];
  for (int s = 0; s < players_; ++s) {
    const auto i = static_cast<std::size_t>(s);
    if (!other(static_cast<Seat>(s))) continue;
    if (!(required_[i] & forbidden_[i]).empty()) valid_ = false;
    need_[i] = view.hand_sizes[i] - required_[i].size();
  }
  if (me != kNoSeat && view.own.size() != view.hand_sizes[static_cast<std::size_t>(me)]) valid_ = false;
  need_[kRestPlace] = deck.size() - hand_cards - played.size() - required_[kRestPlace].size();
  int needed = 0;
  for (int n : need_) {
    if (n < 0) valid_ = false;
    needed += n;
  }
  if (needed != unknown_.size()) valid_ = false;
  if (!valid_) return;

  // Group the unknown cards by the places that may hold them.
  std::vector<std::uint32_t> patterns;
  for (Card x : unknown_) {
    std::uint32_t pattern = 0;
    for (int p = 0; p <= kRestPlace; ++p) {
      if (p < kRestPlace && !other(static_cast<Seat>(p))) continue;
      if (need_[static_cast<std::size_t>(p)] == 0) continue;
      if (p < kRestPlace && forbidden_[static_cast<std::size_t>(p)].contains(x)) continue;
      pattern |= 1u << p;
    }
    if (pattern == 0) {
      valid_ = false;
      return;
    }
    const auto at = std::find(patterns.begin(), patterns.end(), pattern);
    if (at == patterns.end()) {
      patterns.push_back(pattern);
      Group g;
      for (int p = 0; p <= kRestPlace; ++p)
        if (pattern & (1u << p)) g.places.push_back(p);
      g.cards.push_back(x);
      groups_.push_back(g);
    } else {
      groups_[static_cast<std::size_t>(at - patterns.begin())].cards.push_back(x);
    }
  }
  // Most constrained first, so that impossible shares are cut early.
  std::sort(groups_.begin(), groups_.end(),
            [](const Group& a, const Group& b) { return a.places.size() < b.places.size(); });
  std::array<int, 5> left = need_;
  std::vector<std::vector<int>> shares;
  enumerate(0, left, shares);
  if (total_weight_ <= 0) valid_ = false;
}

void WorldSampler::enumerate(std::size_t group, std::array<int, 5>& left, std::vector<std::vector<int>>& shares) {
  if (group == groups_.size()) {
    for (int n : left)
      if (n != 0) return;
    Split split{shares, 1.0};
    for (std::size_t g = 0; g < groups_.size(); ++g) split.weight *= multinomial(shares[g]);
    total_weight_ += split.weight;
    splits_.push_back(std::move(split));
    return;
  }
  const Group& g = groups_[group];
  std::vector<int> share(g.places.size(), 0);
  // Every way of writing the group's size as a sum over its places, within each place's room.
  auto place = [&](auto&& self, std::size_t i, int remaining) -> void {
    const auto p = static_cast<std::size_t>(g.places[i]);
    if (i + 1 == g.places.size()) {
      if (remaining > left[p]) return;
      share[i] = remaining;
      left[p] -= remaining;
      shares.push_back(share);
      enumerate(group + 1, left, shares);
      shares.pop_back();
      left[p] += remaining;
      return;
    }
    for (int k = 0; k <= std::min(remaining, left[p]); ++k) {
      share[i] = k;
      left[p] -= k;
      self(self, i + 1, remaining - k);
      left[p] += k;
    }
  };
  place(place, 0, static_cast<int>(g.cards.size()));
}

bool WorldSampler::predicates_hold(const World& w) const {
  for (const Predicate& pr : predicates_) {
    const auto s = static_cast<std::size_t>(pr.seat);
    const CardSet start = w.hands[s] | played_by_[s];
    int held = 0;
    for (CardSet c : pr.any_of)
      if ((start & c) == c) ++held;
    if (held < pr.at_least) return false;
  }
  return true;
}

std::optional<World> WorldSampler::sample(Rng& rng) const {
  if (!valid_) return std::nullopt;
  const Seat me = view_.seat >= 0 && view_.seat < players_ ? view_.seat : kNoSeat;
  for (int attempt = 0; attempt < kMaxRejections; ++attempt) {
    const double u = uniform01(rng) * total_weight_;
    double acc = 0;
    std::size_t pick = splits_.size() - 1;
    for (std::size_t i = 0; i < splits_.size(); ++i) {
      acc += splits_[i].weight;
      if (u < acc) {
        pick = i;
        break;
      }
    }
    World w;
    if (me != kNoSeat) w.hands[static_cast<std::size_t>(me)] = view_.own;
    for (int s = 0; s < players_; ++s) w.hands[static_cast<std::size_t>(s)] |= required_[static_cast<std::size_t>(s)];
    w.rest = required_[kRestPlace];
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      std::vector<Card> cards = groups_[g].cards;
      shuffle(std::span<Card>(cards), rng);
      std::size_t next = 0;
      for (std::size_t i = 0; i < groups_[g].places.size(); ++i) {
        const int p = groups_[g].places[i];
        CardSet& to = p == kRestPlace ? w.rest : w.hands[static_cast<std::size_t>(p)];
        for (int k = 0; k < splits_[pick].shares[g][i]; ++k) to.insert(cards[next++]);
      }
    }
    if (predicates_hold(w)) return w;
  }
  return std::nullopt;
}

std::optional<std::string> inconsistency(const World& world, const Observation& view, const Options& options) {
  const CardSet deck = deck_of(view.variant);
  const PlayRules rules = rules_of(view, options);
  const Trump trump = view.contract ? view.contract->trump : Trump{};
  const bool playing = view.phase == Phase::playing && view.contract.has_value();
  const int players = view.players;
  const std::vector<PlayEvent> plays = plays_of(view, trump);
  std::array<CardSet, 4> played_by{};
  CardSet played;
  for (const PlayEvent& e : plays) {
    played_by[static_cast<std::size_t>(e.seat)].insert(e.card);
    played.insert(e.card);
  }

  CardSet all = world.rest;
  if (!(world.rest & played).empty()) return "a played card is in the rest";
  for (int s = 0; s < players; ++s) {
    const CardSet h = world.hands[static_cast<std::size_t>(s)];
    if (h.size() != view.hand_sizes[static_cast<std::size_t>(s)])
      return "seat " + std::to_string(s) + " holds " + std::to_string(h.size()) + " cards";
    if (!(h & all).empty()) return "a card is in two places";
    if (!(h & played).empty()) return "seat " + std::to_string(s) + " holds a played card";
    all |= h;
  }
  if ((all | played) != deck) return "the cards are not the deck";
  if (view.seat >= 0 && view.seat < players && world.hands[static_cast<std::size_t>(view.seat)] != view.own)
    return "the seat's own cards moved";

  std::array<CardSet, 4> start{};
  for (int s = 0; s < players; ++s)
    start[static_cast<std::size_t>(s)] =
        world.hands[static_cast<std::size_t>(s)] | played_by[static_cast<std::size_t>(s)];
  if (view.turn_up) {
    if (playing && !start[static_cast<std::size_t>(view.contract->taker)].contains(*view.turn_up))
      return "the taker does not have the turned-up card";
    if (!playing && !world.rest.contains(*view.turn_up)) return "the turned-up card is in a hand";
  }

  std::array<CardSet, 4> now = start;
  for (const PlayEvent& e : plays) {
    CardSet& h = now[static_cast<std::size_t>(e.seat)];
    if (!legal_plays(h, e.before, trump, rules).contains(e.card))
      return "seat " + std::to_string(e.seat) + " could not have played " + to_string(e.card);
    h.erase(e.card);
  }

  for (const DeclarationView& d : view.declarations) {
    const CardSet h = start[static_cast<std::size_t>(d.seat)];
    if (d.shown) {
      if ((h & d.cards) != d.cards) return "seat " + std::to_string(d.seat) + " did not hold its shown combination";
      continue;
    }
    bool found = false;
    for (CardSet c : combo_candidates(d, deck)) found = found || (h & c) == c;
    if (!found) return "seat " + std::to_string(d.seat) + " did not hold its announced " + to_string(d.kind);
  }
  if (playing) {
    for (int s = 0; s < players; ++s) {
      const auto seat = static_cast<Seat>(s);
      const CardSet h = start[static_cast<std::size_t>(s)];
      const bool called = std::find(view.belote.begin(), view.belote.end(), seat) != view.belote.end();
      if (trump.mode == Mode::suit) {
        const CardSet kq = king_queen(trump.suit);
        if (called && (h & kq) != kq) return "seat " + std::to_string(s) + " called belote without the pair";
        if (!called && (h & kq) == kq && !(played_by[static_cast<std::size_t>(s)] & kq).empty())
          return "seat " + std::to_string(s) + " played from the pair without calling belote";
      } else if (trump.mode == Mode::all_trumps && called) {
        bool pair = false;
        for (int su = 0; su < kSuits; ++su) pair = pair || (h & king_queen(static_cast<Suit>(su))).size() == 2;
        if (!pair) return "seat " + std::to_string(s) + " called belote without a pair";
      }
    }
  }
  return std::nullopt;
}

World world_of(const State& state) {
  World w;
  const std::vector<CardSet> hands = state.hands();
  CardSet held;
  for (std::size_t s = 0; s < hands.size() && s < 4; ++s) {
    w.hands[s] = hands[s];
    held |= hands[s];
  }
  const Observation pub = state.observation(kNoSeat);
  CardSet played = pub.trick.as_set();
  for (const Trick& t : pub.tricks) played |= t.as_set();
  if (pub.phase != Phase::playing) played = CardSet();
  w.rest = deck_of(state.record().variant) - held - played;
  return w;
}

}  // namespace atout::bots
