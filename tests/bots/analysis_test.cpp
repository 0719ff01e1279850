// The double-dummy cost of each card of a deal (analysis.hpp), against what the deal then scored.
#include "atout/bots/analysis.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "match_driver.hpp"

namespace atout::bots {
namespace {

using testing::MatchCase;
using testing::RandomMatch;

// A record of `variant` whose first deal with a contract has been played to its end, at random
// or, with `solver`, every card chosen as a best card for its side. Returns that deal's number.
int play_one_deal(const std::string& variant, int shard, Record& out, Solver* solver = nullptr) {
  RandomMatch m(MatchCase{variant, shard, 1, {}}, "analysis");
  Rng rng(Seed{77, static_cast<std::uint64_t>(shard)});
  for (int guard = 0; guard < 5000; ++guard) {
    const State& s = m.state();
    const int results = static_cast<int>(s.hand_results().size());
    if (results > 0 && s.hand_results().back().contract) {
      out = s.record();
      return s.hand_results().back().hand;
    }
    if (solver && s.phase() == Phase::playing) {
      const auto p = position_from(s);
      EXPECT_TRUE(p.has_value());
      if (!p) return -1;
      EXPECT_EQ(m.mutable_state().apply(Action::play(solver->solve(*p).best)), Refusal::none);
    } else if (s.phase() == Phase::playing) {
      // Cards only (no concession), so that every deal is played to its last trick.
      std::vector<Action> plays;
      for (const Action& a : s.legal_actions())
        if (a.type == ActionType::play) plays.push_back(a);
      if (plays.empty()) {
        m.step(rng);
      } else {
        EXPECT_EQ(m.mutable_state().apply(plays[rng.below(static_cast<std::uint32_t>(plays.size()))]), Refusal::none);
      }
    } else {
      m.step(rng);
    }
  }
  ADD_FAILURE() << "no deal with a contract was played";
  return -1;
}

// `cards`: how many cards the deal has, where the test knows it (0: do not check).
// The declaring side's points at the end of the deal as the solver counts them: its card points
// and last trick, or the variant's capot value.
int declarer_points(const HandResult& r) {
  const TeamTally& t = r.teams[static_cast<std::size_t>(r.contract->taker % 2)];
  return t.card_points + t.last_trick + t.capot_bonus;
}

void expect_consistent(const Record& record, int deal, const DealAnalysis& a, int cards) {
  ASSERT_FALSE(a.plays.empty());
  if (cards > 0) {
    EXPECT_EQ(static_cast<int>(a.plays.size()), cards);
  }
  // Every card from the deal's first to its last (the record's last action) is valued, in order.
  EXPECT_EQ(a.plays.back().action, record.actions.size() - 1);
  std::size_t next = 0;
  for (std::size_t i = a.plays.front().action; i < record.actions.size(); ++i)
    if (record.actions[i].action.type == ActionType::play) {
      ASSERT_LT(next, a.plays.size());
      EXPECT_EQ(a.plays[next++].action, i);
    }
  EXPECT_EQ(next, a.plays.size());
  auto replayed = replay(record);
  ASSERT_TRUE(replayed.state);
  const HandResult& result = replayed.state->hand_results()[static_cast<std::size_t>(deal)];
  EXPECT_EQ(a.declarer, result.contract->taker);
  for (std::size_t k = 0; k < a.plays.size(); ++k) {
    const PlayCost& p = a.plays[k];
    const RecordedAction& ra = record.actions[p.action];
    EXPECT_EQ(ra.action.type, ActionType::play);
    EXPECT_EQ(ra.seat, p.seat);
    EXPECT_EQ(ra.action.card, p.card);
    EXPECT_EQ(p.cost, std::abs(p.best - p.value));
    EXPECT_EQ(p.cost == 0, p.best_cards.contains(p.card)) << "play " << k;
    EXPECT_FALSE(p.best_cards.empty());
    // The side to play picks its best: the declarers the most, the defenders the least.
    if (p.seat % 2 == a.declarer % 2) {
      EXPECT_GE(p.best, p.value);
    } else {
      EXPECT_LE(p.best, p.value);
    }
    // After a card, the next seat's best is the value that card left.
    if (k + 1 < a.plays.size()) {
      EXPECT_EQ(a.plays[k + 1].best, p.value) << "play " << k;
    }
  }
  // After the last card nothing is left to choose: its value is what the deal scored.
  EXPECT_EQ(a.plays.back().value, declarer_points(result));
}

TEST(Analysis, RandomPlayCostsAddUpToWhatTheDealScored) {
  // A French deal played at random: 4 seats × 8 cards, each valued by the solver.
  Record record;
  const int deal = play_one_deal("french", 1, record);
  ASSERT_GE(deal, 0);
  Solver solver;
  const AnalysisResult r = analyse_deal(record, deal, solver);
  ASSERT_FALSE(r.error) << r.error->message;
  expect_consistent(record, deal, *r.analysis, 32);
  int total = 0;
  for (const PlayCost& p : r.analysis->plays) total += p.cost;
  EXPECT_GT(total, 0) << "random play gave nothing away, which a random deal almost never does";
}

TEST(Analysis, BestPlayCostsNothing) {
  // Every card chosen by the solver: no card gives anything away, and the value of the deal from
  // the first lead is what it scored.
  Solver solver;
  Record record;
  const int deal = play_one_deal("belot", 2, record, &solver);
  ASSERT_GE(deal, 0);
  const AnalysisResult r = analyse_deal(record, deal, solver);
  ASSERT_FALSE(r.error) << r.error->message;
  expect_consistent(record, deal, *r.analysis, 32);
  for (const PlayCost& p : r.analysis->plays) EXPECT_EQ(p.cost, 0) << p.action;
  EXPECT_EQ(r.analysis->plays.front().best, r.analysis->plays.back().value);
}

TEST(Analysis, EveryVariantsCardsAreValued) {
  // Each variant's trick-play rules, two-seat and four-seat: the values chain from card to card
  // and end at what the deal scored.
  for (const std::string variant : {"simple", "coinche", "bazar", "duel"}) {
    SCOPED_TRACE(variant);
    Record record;
    const int deal = play_one_deal(variant, 6, record);
    ASSERT_GE(deal, 0);
    Solver solver;
    const AnalysisResult r = analyse_deal(record, deal, solver);
    ASSERT_FALSE(r.error) << r.error->message;
    expect_consistent(record, deal, *r.analysis, variant == "coinche" || variant == "bazar" ? 32 : 0);
  }
}

TEST(Analysis, ADealTheMatchNeverReachedIsRefused) {
  Record record;
  const int deal = play_one_deal("french", 4, record);
  ASSERT_GE(deal, 0);
  Solver solver;
  for (int bad : {-1, deal + 2, 1000}) {
    const AnalysisResult r = analyse_deal(record, bad, solver);
    EXPECT_FALSE(r.analysis);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->code, "no_such_deal") << bad;
  }
  // The record ends where the next deal was dealt: that deal exists, with nothing played yet.
  const AnalysisResult next = analyse_deal(record, deal + 1, solver);
  ASSERT_FALSE(next.error) << next.error->message;
  EXPECT_TRUE(next.analysis->plays.empty());
  EXPECT_EQ(next.analysis->declarer, kNoSeat);
}

TEST(Analysis, ARecordTheRulesRefuseIsUnreadable) {
  Record record;
  const int deal = play_one_deal("french", 5, record);
  ASSERT_GE(deal, 0);
  Solver solver;
  // The last card of the deal replaced by the one played just before it, by another seat: the
  // rules refuse it (the card is not in the last seat's hand).
  Record broken = record;
  broken.actions.back().action.card = broken.actions[broken.actions.size() - 2].action.card;
  AnalysisResult r = analyse_deal(broken, deal, solver);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->code, "unreadable_record");
  // A record of a variant that does not exist never starts.
  broken = record;
  broken.variant = "whist";
  r = analyse_deal(broken, deal, solver);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->code, "unreadable_record");
}

}  // namespace
}  // namespace atout::bots
