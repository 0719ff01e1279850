// Simple belote's tables and scoring rule, pure and tested on their own.
#include <array>

#include "simple.hpp"

namespace atout {

PointTable simple_points() {
  PointTable p;
  // With a trump: trump J 20, 9 14, A 11, 10 10, K 4, Q 3;
  // other suits A 11, 10 10, K 4, Q 3, J 2, 9 0. Right column (without a trump): A 19, 10 10,
  // K 4, Q 3, J 2, 9 0. The shared tables hold exactly these numbers; 7s and 8s are not dealt.
  p.trump = kTrumpPoints;
  p.plain = kPlainPoints;
  p.no_trumps = kHeightPoints;
  p.all_trumps = kTrumpPoints;  // never played: simple has no All Trumps
  p.last_trick = 10;
  return p;
}

DeclarationRules simple_declarations() {
  DeclarationRules d;
  d.sequence_points = {20, 50, 100};  // at most five cards
  // Carrés of 9, 10, J, Q, K, A (the whole 24-card deck); ranks are indexed 7 8 9 10 J Q K A.
  d.carre_ranks = 0b11111100;
  d.carre_points = {0, 0, 140, 100, 200, 100, 100, 110};
  d.carre_points_no_trumps = {0, 0, 0, 100, 100, 100, 100, 190};
  // "the higher the last card, the higher the combination"; for a carré that is the
  // rank's card strength: J > 9 > A > 10 > K > Q with a trump (the order of the carré table), and
  // A > 10 > K > Q > J > 9 without (its four 100s ordered by card strength).
  d.carre_order = {0, 0, 5, 3, 6, 1, 2, 4};
  d.carre_order_no_trumps = {0, 0, 1, 5, 2, 3, 4, 6};
  // Equal best combinations go to the one in trumps, else to the player who announced
  // first, i.e. earlier in the first trick's order of play.
  d.equal_first_wins = true;
  d.ties_to_first_shown = false;
  d.belote_points = 20;
  return d;
}

PlayRules simple_play_rules() {
  PlayRules r;
  r.players = 2;
  // Void with trumps, an opponent winning: trump; an opponent has
  // trumped and you cannot overtrump: a trump all the same. Two players never meet the latter.
  r.undertrump = Undertrump::forced;
  return r;
}

namespace {
struct MatchRow {
  const char* name;
  SimpleMatch match;
};
// "501 (51), 1001 (101) or 2001 (201)" and "a defined number of games (1, 3 or 5)".
constexpr std::array<MatchRow, 6> kMatches = {{
    {"points_51", {false, 501}},
    {"points_101", {false, 1001}},
    {"points_201", {false, 2001}},
    {"games_1", {true, 1}},
    {"games_3", {true, 3}},
    {"games_5", {true, 5}},
}};
}  // namespace

std::optional<SimpleMatch> parse_simple_match(const std::string& name) {
  for (const MatchRow& row : kMatches)
    if (name == row.name) return row.match;
  return std::nullopt;
}

void score_simple(HandResult& r, int taker, const SimpleScoring& rules) {
  // Kaput: the player who took no trick leaves the other "21" (210 points by default)
  // for the cards, in place of the hand's 162.
  const int total = r.capot ? rules.kaput_value : kSimpleHandTotal;
  if (r.capot) {
    TeamTally& k = r.teams[static_cast<std::size_t>(r.capot_team)];
    k.capot_bonus = rules.kaput_value - (k.card_points + k.last_trick);
  }
  for (TeamTally& t : r.teams) t.raw = t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote;

  TeamTally& tt = r.teams[static_cast<std::size_t>(taker)];
  TeamTally& ot = r.teams[static_cast<std::size_t>(1 - taker)];
  const int opponent_cards = ot.card_points + ot.last_trick + ot.capot_bonus;
  if (tt.raw > ot.raw) {
    // Made: the taker writes 162 less the opponent's card points, plus its combinations;
    // the opponent keeps what it took (see docs/rules/simple.md).
    r.outcome = Outcome::made;
    tt.score = total - opponent_cards + tt.declarations + tt.belote;
    ot.score = ot.raw;
  } else {
    // Failed, ties included (the taker "hasn't collected more points"): the cards and the
    // combinations move to the opponent. Belote stays with its holder.
    r.outcome = Outcome::failed;
    ot.score = total + tt.declarations + ot.declarations + ot.belote;
    tt.score = tt.belote;
  }
}

int simple_deal_winner(const HandResult& r) {
  const int taker = r.contract->taker % 2;
  return r.outcome == Outcome::made ? taker : 1 - taker;
}

}  // namespace atout
