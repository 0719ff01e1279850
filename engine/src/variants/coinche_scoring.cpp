// The coinche hand score (docs/rules/coinche.md, "Scoring a hand"), a pure function.
#include "coinche.hpp"

namespace atout {

void score_coinche(HandResult& r, const CoincheScoring& rules) {
  const Contract& c = *r.contract;
  // An unbid capot brings 250 instead of the 162 of the deal.
  if (r.capot) {
    TeamTally& t = r.teams[static_cast<std::size_t>(r.capot_team)];
    t.capot_bonus = kCoincheCapot - (t.card_points + t.last_trick);
  }
  for (TeamTally& t : r.teams) t.raw = t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote;

  const int taker = c.taker % 2;
  TeamTally& tt = r.teams[static_cast<std::size_t>(taker)];
  TeamTally& dt = r.teams[static_cast<std::size_t>(1 - taker)];
  bool made = false;
  if (c.capot) {
    made = r.capot && r.capot_team == taker;  // a capot bid needs every trick, whatever the points
  } else {
    // At least the bid, and more than the defence (82 points for a bid of 80).
    const auto counted = [&](const TeamTally& t) {
      return rules.declarations_make_contract ? t.raw : t.card_points + t.last_trick + t.capot_bonus;
    };
    made = counted(tt) >= c.value && counted(tt) > counted(dt);
  }
  r.outcome = made ? Outcome::made : Outcome::failed;

  const int winner = made ? taker : 1 - taker;
  TeamTally& wt = r.teams[static_cast<std::size_t>(winner)];
  TeamTally& lt = r.teams[static_cast<std::size_t>(1 - winner)];
  if (rules.scheme == CoincheScheme::contract_only) {
    // Only the contract is scored, multiplied by the coinche; belote stays with its holders.
    wt.score = c.value * c.multiplier + wt.belote;
    lt.score = lt.belote;
    return;
  }
  if (made && c.multiplier == 1) {
    // Each side its own points; the takers add their bid.
    tt.score = tt.raw + c.value;
    dt.score = dt.raw;
    return;
  }
  // The winner takes the deal (162, or 250 when the contract was capot or the winner took every
  // trick) plus the bid, both multiplied by a coinche or surcoinche, and every counted declaration;
  // each side keeps its own belote.
  const int deal = (c.capot || (r.capot && r.capot_team == winner)) ? kCoincheCapot : kCoincheDeal;
  wt.score = (deal + c.value) * c.multiplier + tt.declarations + dt.declarations + wt.belote;
  lt.score = lt.belote;
}

}  // namespace atout
