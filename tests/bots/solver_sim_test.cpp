// Seeded random checks of the solver: against plain minimax on endgames, against plain alpha-beta
// on whole deals, and its legal cards and card values against the engine in random matches.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atout/bots/solver.hpp"
#include "positions.hpp"

namespace atout::bots {
namespace {

using testing::minimax_cards;
using testing::options_of;
using testing::random_deal;
using testing::random_position;

struct SolverCase {
  std::string variant;
  int shard = 0;
  int count = 0;
  Options overrides;
};

void PrintTo(const SolverCase& c, std::ostream* os) { *os << c.variant << "/" << c.shard; }
std::string case_name(const ::testing::TestParamInfo<SolverCase>& p) {
  return p.param.variant + "_" + std::to_string(p.param.shard);
}

// One seed per suite, variant and shard.
Seed seed_of(const std::string& suite, const SolverCase& c) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : suite + "/" + c.variant) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return Seed{h, static_cast<std::uint64_t>(c.shard)};
}

std::string describe(const Position& p) {
  std::string s = "trump " + to_string(p.trump) + ", declarer team " + std::to_string(p.declarer_team) + ", current " +
                  std::to_string(p.current) + ", trick [";
  for (int i = 0; i < p.trick.count; ++i) s += (i ? " " : "") + to_string(p.trick.cards[static_cast<std::size_t>(i)]);
  s += "] led by " + std::to_string(p.trick.leader) + ", points " + std::to_string(p.points[0]) + "/" +
       std::to_string(p.points[1]) + ", tricks " + std::to_string(p.tricks_won[0]) + "/" +
       std::to_string(p.tricks_won[1]);
  for (int h = 0; h < p.rules.players; ++h)
    s += "\n  seat " + std::to_string(h) + ": " + to_string(p.hands[static_cast<std::size_t>(h)]);
  return s;
}

// The variants' option sets, so that every play-rule knob and capot value is met.
Options overrides_for(const std::string& variant, int shard) {
  if (shard % 2 == 0) return {};
  if (variant == "french") return {{"undertrump", std::string("free")}, {"capot", 252}};
  if (variant == "duel") return {{"capot", 252}};
  if (variant == "coinche") return {{"undertrump", std::string("free")}, {"all_trumps_must_beat", false}};
  if (variant == "belot") return {{"no_trumps_double", true}};
  if (variant == "bazar") return {{"undertrump", std::string("forced")}};
  if (variant == "simple") return {{"kaput", 372}};
  return {};
}

const std::vector<std::string>& all_variants() {
  static const std::vector<std::string> v = {"french", "duel", "coinche", "belot", "bazar", "simple"};
  return v;
}

std::vector<SolverCase> make_cases(int shards, int per_shard) {
  std::vector<SolverCase> out;
  for (const std::string& v : all_variants())
    for (int shard = 0; shard < shards; ++shard) out.push_back({v, shard, per_shard, overrides_for(v, shard)});
  return out;
}

// ---- Endgames of up to four tricks against plain minimax ----------------------------------------

class SolverEndgameSim : public ::testing::TestWithParam<SolverCase> {};

TEST_P(SolverEndgameSim, EveryCardValueEqualsMinimax) {
  const SolverCase& c = GetParam();
  const Options options = options_of(c.variant, c.overrides);
  Rng rng(seed_of("endgame", c));
  Solver solver;
  for (int i = 0; i < c.count; ++i) {
    const Position p = random_position(c.variant, options, rng, 4);
    const Solution got = solver.solve(p);
    const std::vector<CardValue> want = minimax_cards(p);
    ASSERT_EQ(got.cards.size(), want.size()) << describe(p);
    int best_want = got.cards.empty() ? 0 : want[0].value;
    const bool maximise = p.current % 2 == p.declarer_team;
    for (std::size_t k = 0; k < want.size(); ++k) {
      ASSERT_EQ(got.cards[k].card, want[k].card) << describe(p);
      ASSERT_EQ(got.cards[k].value, want[k].value) << to_string(want[k].card) << " in\n" << describe(p);
      best_want = maximise ? std::max(best_want, want[k].value) : std::min(best_want, want[k].value);
    }
    ASSERT_EQ(got.value, best_want) << describe(p);
    ASSERT_EQ(solver.value(p), best_want) << describe(p);
  }
}

// Per variant 300 + 9 x 1,100 = 10,200 endgames; the small shard 0 is the one the sanitizers run.
std::vector<SolverCase> endgame_cases() {
  std::vector<SolverCase> out;
  for (const std::string& v : all_variants())
    for (int shard = 0; shard < 10; ++shard)
      out.push_back({v, shard, shard == 0 ? 300 : 1100, overrides_for(v, shard)});
  return out;
}
INSTANTIATE_TEST_SUITE_P(Variants, SolverEndgameSim, ::testing::ValuesIn(endgame_cases()), case_name);

// ---- Whole deals against simpler searches ------------------------------------------------------

// The solver against itself without merged cards, bounds, the last two tricks' own search,
// principal-variation search or the near table (the main table stays and holds every boundary, and
// each value is found by zero-window searches that halve its range): whole deals.
class SolverDealSim : public ::testing::TestWithParam<SolverCase> {};

TEST_P(SolverDealSim, ValueEqualsSearchWithoutMergingOrBounds) {
  const SolverCase& c = GetParam();
  const Options options = options_of(c.variant, c.overrides);
  Rng rng(seed_of("deal", c));
  Solver solver;
  Solver reference(
      SolverOptions{.near_table_bits = 0, .merge_equivalent = false, .bounds = false, .last_two = false, .pvs = false});
  for (int i = 0; i < c.count; ++i) {
    const Position p = random_deal(c.variant, options, rng);
    const int want = reference.value(p);
    ASSERT_EQ(solver.value(p), want) << describe(p);
    // Every first lead's value, on one deal in 25.
    if (i % 25 == 0) {
      const Solution got = solver.solve(p);
      ASSERT_EQ(got.value, want) << describe(p);
      for (const CardValue& cv : got.cards) {
        Position after = p;
        PlayPhase play = testing::engine_play(p);
        play.play(cv.card);
        after.hands = play.hands;
        after.trick = play.trick;
        after.current = play.current;
        ASSERT_EQ(cv.value, reference.value(after)) << to_string(cv.card) << " in\n" << describe(p);
      }
    }
  }
}

// Per variant 3 + 4 x 50 = 203 deals; the small shard 0 is the one the sanitizers run.
std::vector<SolverCase> deal_cases() {
  std::vector<SolverCase> out;
  for (const std::string& v : all_variants())
    for (int shard = 0; shard < 5; ++shard) out.push_back({v, shard, shard == 0 ? 3 : 50, overrides_for(v, shard)});
  return out;
}
INSTANTIATE_TEST_SUITE_P(Variants, SolverDealSim, ::testing::ValuesIn(deal_cases()), case_name);

// Plain alpha-beta: no table, no merged cards, no bounds, no search of its own for the last two
// tricks, every card in the full window. Whole deals for the two-seat variants; for the four-seat ones a whole deal
// takes it seconds, so positions of up to five tricks.
class SolverPlainSim : public ::testing::TestWithParam<SolverCase> {};

TEST_P(SolverPlainSim, ValueEqualsPlainAlphaBeta) {
  const SolverCase& c = GetParam();
  const Options options = options_of(c.variant, c.overrides);
  Rng rng(seed_of("plain", c));
  Solver solver;
  Solver plain(SolverOptions{.table_bits = 0,
                             .use_table = false,
                             .merge_equivalent = false,
                             .bounds = false,
                             .last_two = false,
                             .pvs = false});
  const bool two_seats = find_variant(c.variant)->players == 2;
  for (int i = 0; i < c.count; ++i) {
    const Position p = two_seats ? random_deal(c.variant, options, rng) : random_position(c.variant, options, rng, 5);
    ASSERT_EQ(solver.value(p), plain.value(p)) << describe(p);
  }
}

// Per variant 20 + 4 x 50 = 220 positions.
std::vector<SolverCase> plain_cases() {
  std::vector<SolverCase> out;
  for (const std::string& v : all_variants())
    for (int shard = 0; shard < 5; ++shard) out.push_back({v, shard, shard == 0 ? 20 : 50, overrides_for(v, shard)});
  return out;
}
INSTANTIATE_TEST_SUITE_P(Variants, SolverPlainSim, ::testing::ValuesIn(plain_cases()), case_name);

// ---- Random matches through the engine: legal cards and the value of the finished hand ----------

class SolverEngineSim : public ::testing::TestWithParam<SolverCase> {};

TEST_P(SolverEngineSim, LegalCardsAndHandPointsMatchTheEngine) {
  const SolverCase& c = GetParam();
  Record header;
  header.variant = c.variant;
  header.options = c.overrides;
  header.deal.seed = seed_of("engine", c);
  auto created = create_state(header);
  ASSERT_FALSE(created.error) << created.error->message;
  std::unique_ptr<State> state = std::move(created.state);
  Rng rng(seed_of("policy", c));
  Solver solver;
  int positions = 0, hands = 0;
  std::vector<Action> legal;
  for (int steps = 0; positions < c.count && steps < 200000; ++steps) {
    if (state->is_terminal()) {
      header.deal.seed = Seed{header.deal.seed->hi + 1, header.deal.seed->lo};
      state = create_state(header).state;
    }
    state->legal_actions(legal);
    std::optional<Position> p = position_from(*state);
    if (p) {
      CardSet engine_cards;
      for (const Action& a : legal)
        if (a.type == ActionType::play) engine_cards.insert(a.card);
      ASSERT_EQ(solver_legal(*p), engine_cards) << describe(*p);
      ++positions;
    }
    // Plays are preferred, so that random matches get through their auctions.
    std::vector<Action> plays;
    for (const Action& a : legal)
      if (a.type == ActionType::play) plays.push_back(a);
    const std::vector<Action>& pool = plays.empty() || rng.below(50) == 0 ? legal : plays;
    const Action a = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
    // The last card of a hand: the solver's value is then the declarer's final points exactly.
    const bool last_card =
        p && a.type == ActionType::play && p->tricks_left() == 1 && p->trick.count == p->rules.players - 1;
    const int predicted = last_card ? solver.value(*p) : 0;
    const Step step = state->step(a);
    ASSERT_TRUE(step.applied());
    if (last_card) {
      ASSERT_TRUE(step.hand_ended);
      const TeamTally& t = step.hand_ended->teams[static_cast<std::size_t>(p->declarer_team)];
      ASSERT_EQ(predicted, t.card_points + t.last_trick + t.capot_bonus) << describe(*p);
      ++hands;
    }
  }
  EXPECT_GE(positions, c.count);
  EXPECT_GT(hands, 0);
}

// 3 shards x 5,000 positions per variant.
INSTANTIATE_TEST_SUITE_P(Variants, SolverEngineSim, ::testing::ValuesIn(make_cases(3, 5000)), case_name);

}  // namespace
}  // namespace atout::bots
