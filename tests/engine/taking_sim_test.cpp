// Seeded random matches of the taking variants (`french`, `duel`) through the shared harness,
// with an independent oracle for their scoring and for whose declarations count.
#include <gtest/gtest.h>

#include "sim_harness.hpp"
#include "variants/french_duel.hpp"

namespace atout {
namespace {

// Whose combinations count, reckoned from the hands (Bazar rules: only the side with the strongest combination scores),
// against what the observations showed and what the result counted.
void check_declaring_side(const State& s, const sim::DealFacts& deal, const HandResult& r) {
  const Options& o = s.record().options;
  const bool manual = std::get<std::string>(o.at("declare")) == "manual";
  if (manual) {
    // Announced-and-shown combinations only; they may be shown by both sides, but only one
    // side's count.
    ASSERT_TRUE(r.teams[0].declarations == 0 || r.teams[1].declarations == 0);
    for (int t = 0; t < 2; ++t) {
      if (r.teams[static_cast<std::size_t>(t)].declarations == 0) continue;
      const bool shown = std::any_of(deal.shown_by.begin(), deal.shown_by.end(), [&](Seat x) { return x % 2 == t; });
      ASSERT_TRUE(shown) << "team " << t << " counted combinations it never showed";
    }
    return;
  }
  const DeclarationRules rules = french_declarations(std::get<bool>(o.at("declarations")));
  std::vector<std::vector<Combo>> by_seat;
  std::vector<Seat> order;
  for (int k = 0; k < s.players(); ++k) {
    by_seat.push_back(best_combos(deal.start_hands[static_cast<std::size_t>(k)], deal.contract.trump, rules));
    order.push_back(static_cast<Seat>((deal.leader + k) % s.players()));
  }
  const std::optional<int> team = declaration_winner(by_seat, order, deal.contract.trump, rules);
  for (Seat x : deal.shown_by) {
    ASSERT_TRUE(team.has_value());
    ASSERT_EQ(x % 2, *team);
  }
  int expected = 0;
  if (team)
    for (int k = 0; k < s.players(); ++k)
      if (k % 2 == *team)
        for (const Combo& c : by_seat[static_cast<std::size_t>(k)]) expected += c.points;
  ASSERT_EQ(r.teams[static_cast<std::size_t>(team.value_or(0))].declarations, expected);
}

// The scoring oracle for the taking variants, written from docs/rules rather than from the
// engine's code: made / failed / litige, capot, belote kept, held points, cumulative scores.
void check_taking_results(const State& s, const std::vector<sim::DealFacts>& deals) {
  const Options& o = s.record().options;
  const int capot_value = std::get<int>(o.at("capot"));
  const bool tie_loses = std::get<std::string>(o.at("tie")) == "tie_loses";
  std::array<int, 2> running{};
  int held = 0;
  for (const HandResult& r : s.hand_results()) {
    ASSERT_EQ(r.held_before, held);
    if (r.outcome == Outcome::all_passed) {
      ASSERT_EQ(r.match_score, running);
      continue;
    }
    const TeamTally& a = r.teams[0];
    const TeamTally& b = r.teams[1];
    // 162 in four-player hands; in head-to-head, the points of the 18 cards dealt, plus 10.
    const int in_play = a.card_points + b.card_points + a.last_trick + b.last_trick;
    const sim::DealFacts& deal = deals.at(static_cast<std::size_t>(r.hand));
    ASSERT_EQ(in_play, french_points().sum(deal.contract.trump, deal.dealt) + 10);
    if (s.players() == 4) {
      ASSERT_EQ(in_play, 162);  // Bazar rules: the cards are worth 152, and the last trick 10
    }
    check_declaring_side(s, deal, r);
    ASSERT_TRUE(a.declarations == 0 || b.declarations == 0);  // only one side's count
    ASSERT_EQ(r.capot, a.tricks == 0 || b.tricks == 0);
    for (const TeamTally& t : r.teams) {
      ASSERT_EQ(t.raw, t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote);
    }
    if (r.capot) {
      const TeamTally& c = r.teams[static_cast<std::size_t>(r.capot_team)];
      ASSERT_EQ(c.card_points + c.last_trick + c.capot_bonus, capot_value);
    }
    const int taker = r.contract->taker % 2;
    const TeamTally& t = r.teams[static_cast<std::size_t>(taker)];
    const TeamTally& d = r.teams[static_cast<std::size_t>(1 - taker)];
    int t_score = 0, d_score = 0, winner = -1;
    if (t.raw > d.raw) {
      ASSERT_EQ(r.outcome, Outcome::made);
      t_score = t.raw;
      d_score = d.raw;
      winner = taker;
    } else if (t.raw < d.raw || tie_loses) {
      ASSERT_EQ(r.outcome, Outcome::failed);
      const int cards = (r.capot && r.capot_team != taker) ? capot_value : in_play;
      d_score = cards + t.declarations + d.declarations + d.belote;
      t_score = t.belote;
      winner = 1 - taker;
    } else {
      ASSERT_EQ(r.outcome, Outcome::tie_held);
      d_score = d.raw;
      t_score = t.belote;
      held += t.raw - t.belote;
    }
    if (winner == taker) t_score += held;
    if (winner == 1 - taker) d_score += held;
    if (winner >= 0) held = 0;
    ASSERT_EQ(t.score, t_score);
    ASSERT_EQ(d.score, d_score);
    running[static_cast<std::size_t>(taker)] += t_score;
    running[static_cast<std::size_t>(1 - taker)] += d_score;
    ASSERT_EQ(r.match_score, running);
    ASSERT_EQ(r.held_after, held);
  }
  const int target = std::get<int>(o.at("target"));
  ASSERT_TRUE(s.winner().has_value());
  const int w = *s.winner();
  ASSERT_GE(running[static_cast<std::size_t>(w)], target);
  ASSERT_GT(running[static_cast<std::size_t>(w)], running[static_cast<std::size_t>(1 - w)]);
  // The match ended at the first hand that produced a winner.
  for (std::size_t i = 0; i + 1 < s.hand_results().size(); ++i) {
    const auto& ms = s.hand_results()[i].match_score;
    ASSERT_FALSE((ms[0] >= target || ms[1] >= target) && ms[0] != ms[1]) << "match should have ended at hand " << i;
  }
}

class TakingSim : public ::testing::TestWithParam<sim::SimCase> {};

TEST_P(TakingSim, InvariantsHoldAtEveryStep) { sim::run_random_sim(GetParam(), check_taking_results); }

std::vector<sim::SimCase> taking_cases() {
  std::vector<sim::SimCase> v;
  // 10,000 matches of each variant (each match is several hands): shard 0, which also runs under
  // the sanitizers, plays 60 of them (enough to take every path there), shards 1-9 1,000 each,
  // and shard 10 the other 940.
  for (int shard = 0; shard <= 10; ++shard) {
    const int games = shard == 0 ? 60 : shard == 10 ? 940 : 1000;
    std::string french;
    if (shard % 3 == 1)
      french = R"({"declarations": false, "tie": "tie_loses", "capot": 252, "deal": "cut", "target": 701})";
    if (shard % 3 == 2) french = R"({"declare": "manual", "undertrump": "free", "target": 1001})";
    v.push_back({"french", shard, games, french});
    v.push_back(
        {"duel", shard, games, shard % 2 ? R"({"second_round": "any_suit", "declare": "manual", "deal": "cut"})" : ""});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, TakingSim, ::testing::ValuesIn(taking_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
