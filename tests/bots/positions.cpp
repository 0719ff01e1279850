// Random positions and a plain minimax written on the engine's own play phase.
#include "positions.hpp"

#include <algorithm>

namespace atout::bots::testing {

Options options_of(const std::string& variant, const Options& overrides) {
  const VariantInfo* info = find_variant(variant);
  Options o = overrides;
  if (info) normalise_options(*info, o);
  return o;
}

std::vector<Trump> trumps_of(const std::string& variant) {
  std::vector<Trump> out;
  for (int s = 0; s < kSuits; ++s) out.push_back(Trump::of(static_cast<Suit>(s)));
  if (variant == "coinche" || variant == "belot" || variant == "bazar" || variant == "simple")
    out.push_back(Trump::no_trumps());
  if (variant == "coinche" || variant == "belot") out.push_back(Trump::all_trumps());
  return out;
}

namespace {

struct Walk {
  PlayPhase play;
  std::array<int, 2> points{};
};

Walk fresh(const std::string& variant, const Options& options, Rng& rng) {
  const VariantInfo* info = find_variant(variant);
  std::vector<Card> deck;
  for (Card c : info->deck_size == 24 ? CardSet::deck24() : CardSet::deck32()) deck.push_back(c);
  shuffle(deck, rng);
  const int players = info->players;
  const int per_hand = players == 4 ? 8 : 9;
  Walk w;
  const std::vector<Trump> trumps = trumps_of(variant);
  w.play.trump = trumps[rng.below(static_cast<std::uint32_t>(trumps.size()))];
  w.play.rules = info->play_rules(options);
  for (int s = 0; s < players; ++s)
    for (int k = 0; k < per_hand; ++k)
      w.play.hands[static_cast<std::size_t>(s)].insert(deck[static_cast<std::size_t>(s * per_hand + k)]);
  w.play.tricks_total = per_hand;
  w.play.start(static_cast<Seat>(rng.below(static_cast<std::uint32_t>(players))));
  return w;
}

Position to_position(const Walk& w, const std::string& variant, const Options& options, int declarer) {
  Position p;
  p.trump = w.play.trump;
  p.rules = w.play.rules;
  p.value = *hand_value(variant, options, p.trump);
  p.hands = w.play.hands;
  p.trick = w.play.trick;
  p.current = w.play.current;
  p.declarer_team = declarer;
  p.points = w.points;
  p.tricks_won = w.play.tricks_won;
  return p;
}

void play_one(Walk& w, Card c, const HandValue& v) {
  Trick done;
  if (w.play.play(c, &done)) {
    int pts = 0;
    for (Card x : done.set) pts += v.points[static_cast<std::size_t>(x.index())];
    w.points[static_cast<std::size_t>(w.play.last_winner % 2)] += pts;
  }
}

}  // namespace

Position random_deal(const std::string& variant, const Options& options, Rng& rng, std::optional<Trump> trump) {
  Walk w = fresh(variant, options, rng);
  if (trump) w.play.trump = *trump;
  return to_position(w, variant, options, static_cast<int>(rng.below(2)));
}

Position random_position(const std::string& variant, const Options& options, Rng& rng, int max_tricks) {
  Walk w = fresh(variant, options, rng);
  const int declarer = static_cast<int>(rng.below(2));
  const HandValue v = *hand_value(variant, options, w.play.trump);
  const int players = w.play.players();
  const int left = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(max_tricks)));
  // Cards still to play at the stop: whole tricks, and sometimes part of one.
  const int extra = static_cast<int>(rng.below(static_cast<std::uint32_t>(players)));
  const int total_cards = w.play.tricks_total * players;
  const int stop_at = std::max(0, total_cards - left * players + extra);
  for (int k = 0; k < stop_at && k < total_cards - 1; ++k) {
    const CardSet legal = w.play.legal();
    play_one(w, legal.nth(static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))), v);
  }
  return to_position(w, variant, options, declarer);
}

PlayPhase engine_play(const Position& p) {
  PlayPhase play;
  play.trump = p.trump;
  play.rules = p.rules;
  play.hands = p.hands;
  play.trick = p.trick;
  play.current = p.current;
  play.tricks_done = 0;
  play.tricks_total = p.tricks_left();
  play.tricks_won = p.tricks_won;
  return play;
}

namespace {

int points_of(const Position& p, CardSet cards) {
  int sum = 0;
  for (Card c : cards) sum += p.value.points[static_cast<std::size_t>(c.index())];
  return sum;
}

int final_points(const Position& p, const PlayPhase& play, const std::array<int, 2>& points) {
  const auto d = static_cast<std::size_t>(p.declarer_team);
  int mine = points[d];
  if (play.last_winner % 2 == p.declarer_team) mine += p.value.last_trick;
  if (play.tricks_won[1 - d] == 0) {
    mine = p.value.capot_rule == CapotRule::replace ? p.value.capot : mine + p.value.capot;
  }
  return mine;
}

int minimax_rec(const Position& p, const PlayPhase& play, const std::array<int, 2>& points) {
  if (play.done()) return final_points(p, play, points);
  const bool maximise = play.current % 2 == p.declarer_team;
  int best = maximise ? -100000 : 100000;
  for (Card c : play.legal()) {
    PlayPhase next = play;
    std::array<int, 2> pts = points;
    Trick done;
    if (next.play(c, &done)) pts[static_cast<std::size_t>(next.last_winner % 2)] += points_of(p, done.set);
    const int v = minimax_rec(p, next, pts);
    best = maximise ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

}  // namespace

int minimax(const Position& p) { return minimax_rec(p, engine_play(p), p.points); }

std::vector<CardValue> minimax_cards(const Position& p) {
  std::vector<CardValue> out;
  const PlayPhase play = engine_play(p);
  for (Card c : play.legal()) {
    PlayPhase next = play;
    std::array<int, 2> pts = p.points;
    Trick done;
    if (next.play(c, &done)) pts[static_cast<std::size_t>(next.last_winner % 2)] += points_of(p, done.set);
    out.push_back({c, minimax_rec(p, next, pts)});
  }
  return out;
}

}  // namespace atout::bots::testing
