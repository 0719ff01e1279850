// Bulgarian belot's pure sub-rules: the bid ladder, card points, rounding to tens, which side's
// declarations count, the hand score and the end of the match.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "atout/contract.hpp"
#include "atout/declarations.hpp"
#include "atout/state.hpp"

namespace atout {

// Clubs < Diamonds < Hearts < Spades < No Trumps < All Trumps (0 to 5).
int belot_ladder_rank(Trump t);

// Card points. `no_trumps_double` doubles the No Trumps points, last trick
// included, as established Bulgarian play does (docs/rules/belot.md).
PointTable belot_points(Trump t, bool no_trumps_double);

// Every card point of a hand plus the last trick: 162 in a suit, 258 in All Trumps,
// 130 in No Trumps (the published No Trumps card values), 260 with `no_trumps_double`.
int belot_whole(Trump t, bool no_trumps_double);

// The whole hand in tens: 16, 26, 13 (26 doubled): 258 is 26, 162 is 16.
int belot_whole_tens(int whole);

// A side's card points (with the last trick) in tens, out of a hand whose
// card points total `whole`. Below half of the whole: rounded down (35 -> 3). Above half: rounded
// up (135 -> 14), but never past the whole hand in tens less what the other side's points round
// down to, so that a side with every card scores the whole (162 is 16, not 17).
// Exactly half (both sides equal): to the nearest ten, a 5 rounding down.
int belot_round_tens(int points, int whole);

// The one-line text of the rounding rule, for HandResult::rounding.
std::string belot_rounding_text(int whole);

// Which side's declarations count, sequences and carrés apart (established Bulgarian rules,
// docs/rules/belot.md): the side holding the best sequence scores all its sequences (longer, then
// higher top card; equal best sequences on both sides cancel every sequence); the side holding
// the best carré (J > 9 > A > 10 > K > Q) scores all its carrés. Indexed by seat (seat % 2 = side).
struct BelotDeclarationSides {
  std::optional<int> sequences;
  std::optional<int> carres;
};
BelotDeclarationSides belot_declaration_sides(const std::vector<std::vector<Combo>>& by_seat);

// The points each side's counting declarations are worth under `sides`.
std::array<int, 2> belot_declaration_points(const std::vector<std::vector<Combo>>& by_seat,
                                            const BelotDeclarationSides& sides);

struct BelotScoring {
  bool tie_hangs = true;         // `tie: hanging`; false: `tie: inside`
  bool double_takes_all = true;  // `double_scoring: winner_takes_all`; false: `each_side`
  int kaput_bonus = 90;
};

// Scores one hand, pure. `r.teams` holds each side's card points, last trick, declarations,
// belote and tricks; r.capot / r.capot_team are set. `bidder` is the bidding side, `whole` the
// hand's card total (belot_whole), `multiplier` 1, 2 or 4. Fills capot_bonus, raw, score (in
// tens), outcome, held_to and rounding; `held` (tens held back from ties) is updated in place.
// Returns the side that won the hand (collects held points), or -1 for a hanging tie.
int score_belot(HandResult& r, int bidder, int whole, int multiplier, const BelotScoring& rules, int& held);

// The match winner after a hand (the first side to reach `target`). With
// `strictly_ahead` equal scores at or past the target play on; without it, they go
// to `last_winner`, the side that won the last hand (none: play on).
std::optional<int> belot_match_winner(const std::array<int, 2>& score, int target, bool strictly_ahead,
                                      int last_winner);

}  // namespace atout
