// Card values per variant, and play-phase positions read from a match.
#include <algorithm>

#include "atout/bots/solver.hpp"

namespace atout::bots {

namespace {

// coinche: All Trumps values (J 14, 9 9, A 6, 10 5, K 3, Q 1), ranks indexed 7 8 9 10 J Q K A.
constexpr std::array<int, kRanks> kCoincheAllTrumps = {0, 0, 9, 5, 14, 1, 3, 6};

int option_int_or(const Options& o, const char* name, int fallback) {
  const auto it = o.find(name);
  return it != o.end() && std::holds_alternative<int>(it->second) ? std::get<int>(it->second) : fallback;
}
bool option_bool_or(const Options& o, const char* name, bool fallback) {
  const auto it = o.find(name);
  return it != o.end() && std::holds_alternative<bool>(it->second) ? std::get<bool>(it->second) : fallback;
}

// Fills `v.points` from per-order tables: `trump` for trump-ordered suits, `plain` for the others.
void fill(HandValue& v, Trump t, const std::array<int, kRanks>& trump, const std::array<int, kRanks>& plain) {
  for (int i = 0; i < kCards; ++i) {
    const Card c = Card::from_index(i);
    const auto r = static_cast<std::size_t>(c.rank());
    v.points[static_cast<std::size_t>(i)] = t.trump_ordered(c.suit()) ? trump[r] : plain[r];
  }
}

}  // namespace

std::optional<HandValue> hand_value(std::string_view variant, const Options& options, Trump t) {
  HandValue v;
  v.last_trick = 10;
  v.capot_rule = CapotRule::replace;
  v.capot = 250;
  if (variant == "french" || variant == "duel") {
    // Plain values outside trumps; french has no No Trumps or All Trumps contract.
    fill(v, t, kTrumpPoints, kPlainPoints);
    v.capot = option_int_or(options, "capot", 250);
  } else if (variant == "coinche") {
    fill(v, t, t.mode == Mode::all_trumps ? kCoincheAllTrumps : kTrumpPoints,
         t.mode == Mode::no_trumps ? kHeightPoints : kPlainPoints);
  } else if (variant == "bazar") {
    fill(v, t, kTrumpPoints, t.mode == Mode::no_trumps ? kHeightPoints : kPlainPoints);
  } else if (variant == "simple") {
    fill(v, t, kTrumpPoints, t.mode == Mode::no_trumps ? kHeightPoints : kPlainPoints);
    v.capot = option_int_or(options, "kaput", 210);
  } else if (variant == "belot") {
    // All Trumps: every suit at trump values; No Trumps: plain values, doubled with the option.
    fill(v, t, kTrumpPoints, kPlainPoints);
    if (t.mode == Mode::no_trumps && option_bool_or(options, "no_trumps_double", false)) {
      for (int& p : v.points) p *= 2;
      v.last_trick *= 2;
    }
    v.capot_rule = CapotRule::add;
    v.capot = 90;
  } else {
    return std::nullopt;
  }
  return v;
}

int Position::tricks_left() const {
  int cards = trick.count;
  for (int s = 0; s < rules.players; ++s) cards += hands[static_cast<std::size_t>(s)].size();
  return (cards + rules.players - 1) / rules.players;
}

std::optional<Position> position_from(const State& state) {
  if (state.phase() != Phase::playing) return std::nullopt;
  const Observation view = state.observation(kNoSeat);
  if (!view.contract) return std::nullopt;
  const VariantInfo* info = find_variant(state.record().variant);
  if (!info || !info->play_rules) return std::nullopt;
  Position p;
  p.trump = view.contract->trump;
  p.rules = info->play_rules(state.record().options);
  const auto value = hand_value(info->id, state.record().options, p.trump);
  if (!value) return std::nullopt;
  p.value = *value;
  const std::vector<CardSet> hands = state.hands();
  for (std::size_t s = 0; s < hands.size() && s < 4; ++s) p.hands[s] = hands[s];
  p.trick = view.trick;
  p.current = view.current;
  p.declarer_team = view.contract->taker % 2;
  const int players = p.rules.players;
  for (const Trick& t : view.tricks) {
    const int team = seat_of(t, t.win, players) % 2;
    int pts = 0;
    for (int i = 0; i < t.count; ++i) pts += p.value.points[static_cast<std::size_t>(t.cards[i].index())];
    p.points[static_cast<std::size_t>(team)] += pts;
    ++p.tricks_won[static_cast<std::size_t>(team)];
  }
  return p;
}

}  // namespace atout::bots
