// Bulgarian belot's pure sub-rules (see belot_scoring.hpp).
#include "belot_scoring.hpp"

#include <algorithm>

namespace atout {

int belot_ladder_rank(Trump t) {
  switch (t.mode) {
    case Mode::suit:
      return static_cast<int>(t.suit);  // Suit is declared clubs, diamonds, hearts, spades
    case Mode::no_trumps:
      return 4;
    case Mode::all_trumps:
      return 5;
  }
  return 0;
}

PointTable belot_points(Trump t, bool no_trumps_double) {
  PointTable p;
  p.trump = kTrumpPoints;       // J 20, 9 14, A 11, 10 10, K 4, Q 3
  p.plain = kPlainPoints;       // A 11, 10 10, K 4, Q 3, J 2, 9 0
  p.all_trumps = kTrumpPoints;  // every suit counts as trump
  p.no_trumps = kPlainPoints;
  p.last_trick = 10;
  if (no_trumps_double && t.mode == Mode::no_trumps) {
    for (int& v : p.no_trumps) v *= 2;
    p.last_trick *= 2;
  }
  return p;
}

int belot_whole(Trump t, bool no_trumps_double) {
  const PointTable p = belot_points(t, no_trumps_double);
  return p.sum(t, CardSet::deck32()) + p.last_trick;
}

int belot_whole_tens(int whole) { return (whole + 5) / 10; }

int belot_round_tens(int points, int whole) {
  if (2 * points < whole) return points / 10;
  if (2 * points > whole) return std::min((points + 9) / 10, belot_whole_tens(whole) - (whole - points) / 10);
  return (points + 4) / 10;
}

std::string belot_rounding_text(int whole) {
  const std::string w = std::to_string(whole);
  return "card points and last trick in tens: below half of " + w +
         " rounded down, above half rounded up but never past " + std::to_string(belot_whole_tens(whole)) +
         " for the whole hand, exactly half to the nearest ten (5 down); declarations, belote and kaput "
         "added in tens; sides compared on the rounded figures, then on the raw points";
}

namespace {
// Carré strength by rank (7 8 9 10 J Q K A): J > 9 > A > 10 > K > Q, the trump order.
constexpr std::array<int, kRanks> kCarreStrength = {0, 0, 5, 3, 6, 1, 2, 4};

int sequence_key(const Combo& c) { return (static_cast<int>(c.kind) + 3) * 16 + static_cast<int>(c.top) + 1; }
}  // namespace

BelotDeclarationSides belot_declaration_sides(const std::vector<std::vector<Combo>>& by_seat) {
  BelotDeclarationSides out;
  int best_sequence = 0;
  std::array<bool, 2> sequence_holders{};
  int best_carre = 0;
  for (std::size_t s = 0; s < by_seat.size(); ++s) {
    const int side = static_cast<int>(s % 2);
    for (const Combo& c : by_seat[s]) {
      if (c.kind == ComboKind::carre) {
        const int key = kCarreStrength[static_cast<std::size_t>(c.top)];
        if (key > best_carre) {
          best_carre = key;
          out.carres = side;
        }
        continue;
      }
      const int key = sequence_key(c);
      if (key > best_sequence) {
        best_sequence = key;
        sequence_holders = {};
      }
      if (key == best_sequence) sequence_holders[static_cast<std::size_t>(side)] = true;
    }
  }
  if (sequence_holders[0] != sequence_holders[1]) out.sequences = sequence_holders[0] ? 0 : 1;
  return out;
}

std::array<int, 2> belot_declaration_points(const std::vector<std::vector<Combo>>& by_seat,
                                            const BelotDeclarationSides& sides) {
  std::array<int, 2> points{};
  for (std::size_t s = 0; s < by_seat.size(); ++s) {
    const int side = static_cast<int>(s % 2);
    for (const Combo& c : by_seat[s]) {
      const std::optional<int>& counts = c.kind == ComboKind::carre ? sides.carres : sides.sequences;
      if (counts && *counts == side) points[static_cast<std::size_t>(side)] += c.points;
    }
  }
  return points;
}

int score_belot(HandResult& r, int bidder, int whole, int multiplier, const BelotScoring& rules, int& held) {
  std::array<int, 2> tens{};
  int extras = 0;
  for (int t = 0; t < 2; ++t) {
    TeamTally& tt = r.teams[static_cast<std::size_t>(t)];
    tt.capot_bonus = (r.capot && r.capot_team == t) ? rules.kaput_bonus : 0;
    const int extra = tt.capot_bonus + tt.declarations + tt.belote;  // all multiples of 10
    tt.raw = tt.card_points + tt.last_trick + extra;
    tens[static_cast<std::size_t>(t)] = belot_round_tens(tt.card_points + tt.last_trick, whole) + extra / 10;
    extras += extra;
  }
  // Everything the hand is worth: the whole hand in tens and every bonus.
  const int all = belot_whole_tens(whole) + extras / 10;
  const int defence = 1 - bidder;
  const auto b = static_cast<std::size_t>(bidder);
  const auto d = static_cast<std::size_t>(defence);
  // The rounded figures decide; equal ones go to the raw points.
  int lead = tens[b] - tens[d];
  if (lead == 0) lead = r.teams[b].raw - r.teams[d].raw;
  int winner = -1;
  if (lead > 0) {
    winner = bidder;
  } else if (lead < 0 || !rules.tie_hangs) {
    winner = defence;  // inside
  }
  r.outcome = winner == bidder ? Outcome::made : (winner == defence ? Outcome::failed : Outcome::tie_held);

  std::array<int, 2> score{};
  int hang = 0;
  if (multiplier > 1 && rules.double_takes_all) {
    // Doubled or redoubled: the side that wins the hand takes all of it (established Bulgarian play: "double x2
    // and redouble x4 on the whole score"); a tie leaves all of it hanging.
    if (winner >= 0) {
      score[static_cast<std::size_t>(winner)] = all * multiplier;
    } else {
      hang = all * multiplier;
    }
  } else {
    if (winner == bidder) {
      score = tens;
    } else if (winner == defence) {
      score[d] = all;  // inside: all points go to the defence
    } else {
      score[d] = tens[d];  // hanging: the defence scores, the bidders' points wait
      hang = tens[b];
    }
    for (int& s : score) s *= multiplier;
    hang *= multiplier;
  }
  if (winner >= 0 && r.held_before > 0) {
    score[static_cast<std::size_t>(winner)] += r.held_before;
    r.held_to = winner;
    held = 0;
  }
  held += hang;
  for (std::size_t t = 0; t < 2; ++t) r.teams[t].score = score[t];
  r.rounding = belot_rounding_text(whole);
  return winner;
}

std::optional<int> belot_match_winner(const std::array<int, 2>& score, int target, bool strictly_ahead,
                                      int last_winner) {
  if (score[0] < target && score[1] < target) return std::nullopt;
  if (score[0] != score[1]) return score[0] > score[1] ? 0 : 1;
  if (strictly_ahead || last_winner < 0) return std::nullopt;
  return last_winner;
}

}  // namespace atout
