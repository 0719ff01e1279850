// Bazar belote's point and combination tables and its scoring formula.
#include "bazar_scoring.hpp"

namespace atout {

PointTable bazar_points() {
  PointTable p;
  p.trump = kTrumpPoints;  // trump J 20, 9 14, the rest as plain
  p.plain = kPlainPoints;
  p.no_trumps = kHeightPoints;  // in height the ace is 19
  p.all_trumps = kTrumpPoints;  // unused: Bazar has no All Trumps
  p.last_trick = 10;
  return p;
}

DeclarationRules bazar_declarations() {
  DeclarationRules d;
  d.enabled = true;
  d.sequence_points = {2, 5, 10};  // tierce 2, 50 5, 100 10
  // Carrés of everything but 7s. Ranks are indexed 7 8 9 10 J Q K A.
  d.carre_ranks = 0b11111110;
  d.carre_points = {0, 0, 14, 10, 20, 10, 10, 10};
  d.carre_points_no_trumps = {0, 0, 10, 10, 20, 10, 10, 19};  // 9 is 10, A is 19
  // 8 > J > 9 > A > 10 > K > Q, in every contract; 8s score nothing but beat all.
  d.carre_order = {0, 7, 5, 3, 6, 1, 2, 4};
  d.carre_order_no_trumps = d.carre_order;
  // Equal heights go to the trump sequence, else to the one who may show first, i.e.
  // the first in the second trick's order of play (showing is done before the second card).
  d.equal_first_wins = true;
  d.ties_to_first_shown = true;
  d.belote_points = 2;
  return d;
}

void score_bazar(HandResult& r, int taker) {
  const Contract& c = *r.contract;
  if (r.capot) {
    TeamTally& t = r.teams[static_cast<std::size_t>(r.capot_team)];
    t.capot_bonus = kCapotPoints - (t.card_points + t.last_trick);
  }
  // What each side took, in tens: its cards and the additional points that count for it.
  for (TeamTally& t : r.teams)
    t.raw = card_tens(t.card_points + t.last_trick + t.capot_bonus) + t.declarations + t.belote;
  r.rounding = "tens: card points divided by 10, rounded down; combinations and belote are counted in tens";

  TeamTally& bidders = r.teams[static_cast<std::size_t>(taker)];
  TeamTally& defence = r.teams[static_cast<std::size_t>(1 - taker)];
  // The bid is reached when the cards and the counted combinations make at least 10x;
  // a capot bid also needs the capot.
  const bool capot_made = r.capot && r.capot_team == taker;
  const bool made = bidders.raw >= c.value && (!c.capot || capot_made);
  r.outcome = made ? Outcome::made : Outcome::failed;

  // z: the additional points of the teams, i.e. whatever counted on either side.
  const int z = r.teams[0].declarations + r.teams[0].belote + r.teams[1].declarations + r.teams[1].belote;
  if (c.multiplier == 1) {
    if (made) {
      bidders.score = c.value + bidders.raw;  // x + y
      defence.score = defence.raw;            // what it took, divided by 10
    } else {
      bidders.score = 0;
      defence.score = c.value + kDealTens + z;  // x + 16 + z
    }
    return;
  }
  // Contra and re-contra: the side that is wrong scores nothing; the other 2x (4x) + 16 + z.
  TeamTally& winner = made ? bidders : defence;
  TeamTally& loser = made ? defence : bidders;
  winner.score = c.multiplier * c.value + kDealTens + z;
  loser.score = 0;
}

}  // namespace atout
