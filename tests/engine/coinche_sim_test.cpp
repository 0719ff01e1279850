// Seeded random coinche matches through the shared harness, with an oracle written from
// docs/rules/coinche.md: it replays each hand's auction from the record on its own model, and
// recomputes belote, the contract's outcome, every score and the end of the match.
#include <gtest/gtest.h>

#include "sim_harness.hpp"
#include "variants/french_duel.hpp"

namespace atout {
namespace {

// ---- The rules, restated for the oracle -----------------------------------------------------

// Card points (docs/rules/coinche.md, "Cards"), ranks 7 8 9 10 J Q K A.
constexpr int kTrumpPts[8] = {0, 0, 14, 10, 20, 3, 4, 11};
constexpr int kPlainPts[8] = {0, 0, 0, 10, 2, 3, 4, 11};
constexpr int kNoTrumpPts[8] = {0, 0, 0, 10, 2, 3, 4, 19};
constexpr int kAllTrumpPts[8] = {0, 0, 9, 5, 14, 1, 3, 6};

int card_value(Trump t, Card c) {
  const int r = static_cast<int>(c.rank());
  if (t.mode == Mode::no_trumps) return kNoTrumpPts[r];
  if (t.mode == Mode::all_trumps) return kAllTrumpPts[r];
  return c.suit() == t.suit ? kTrumpPts[r] : kPlainPts[r];
}

struct Options4 {
  bool contract_only = false;
  bool cards_only = false;
  bool at_belote = true;
  bool manual = false;
  bool declarations = true;
  int target = 501;
};

Options4 read_options(const Options& o) {
  Options4 x;
  x.contract_only = std::get<std::string>(o.at("scoring")) == "contract_only";
  x.cards_only = std::get<std::string>(o.at("contract_counts")) == "cards_only";
  x.at_belote = std::get<std::string>(o.at("all_trumps_belote")) == "every_suit";
  x.manual = std::get<std::string>(o.at("declare")) == "manual";
  x.declarations = std::get<bool>(o.at("declarations"));
  x.target = std::get<int>(o.at("target"));
  return x;
}

// What the auction of one deal should produce.
struct ExpectedDeal {
  bool passed = false;
  Contract contract;
};

// Replays the record's actions deal by deal with a model of the auction of docs/rules/coinche.md,
// checking each bidding action on the way; returns what every deal should have produced.
std::vector<ExpectedDeal> replay_auctions(const Record& rec, std::size_t deals) {
  std::vector<ExpectedDeal> out;
  std::size_t i = 0;
  const auto& acts = rec.actions;
  for (std::size_t h = 0; h < deals; ++h) {
    const Seat dealer = static_cast<Seat>((rec.first_dealer + static_cast<int>(h)) % 4);
    Seat turn = static_cast<Seat>((dealer + 1) % 4);
    ExpectedDeal e;
    bool have_bid = false, coinched = false, done = false;
    int passes = 0, answers = 0, rank = 0;
    while (!done) {
      EXPECT_LT(i, acts.size()) << "deal " << h << " ran out of actions in its auction";
      if (i >= acts.size()) return out;
      const RecordedAction& ra = acts[i++];
      EXPECT_EQ(ra.seat, turn) << "deal " << h << ": out of turn";
      const Action& a = ra.action;
      const bool bidders = have_bid && ra.seat % 2 == e.contract.taker % 2;
      switch (a.type) {
        case ActionType::pass:
          if (coinched) {
            done = ++answers == 2;
            turn = static_cast<Seat>((turn + 2) % 4);
          } else {
            ++passes;
            done = passes == (have_bid ? 3 : 4);
            e.passed = !have_bid && done;
            turn = static_cast<Seat>((turn + 1) % 4);
          }
          break;
        case ActionType::bid: {
          EXPECT_FALSE(coinched);
          const int r = a.capot ? 170 : a.value;
          EXPECT_TRUE(a.capot || (a.value >= 80 && a.value <= 160 && a.value % 10 == 0)) << a.value;
          EXPECT_GT(r, rank) << "a bid must be higher";
          rank = r;
          have_bid = true;
          passes = 0;
          e.contract = Contract{};
          e.contract.taker = ra.seat;
          e.contract.trump = a.trump;
          e.contract.capot = a.capot;
          e.contract.value = a.capot ? 250 : a.value;
          turn = static_cast<Seat>((turn + 1) % 4);
          break;
        }
        case ActionType::double_:
          EXPECT_TRUE(have_bid && !coinched && !bidders) << "coinche only against the opponents' bid";
          coinched = true;
          e.contract.multiplier = 2;
          e.contract.doubled_by = ra.seat;
          turn = static_cast<Seat>((turn + 1) % 4);
          break;
        case ActionType::redouble:
          EXPECT_TRUE(coinched && bidders) << "surcoinche only by the coinched side";
          e.contract.multiplier = 4;
          e.contract.redoubled_by = ra.seat;
          done = true;
          break;
        default:
          ADD_FAILURE() << "deal " << h << ": " << to_string(a) << " during the auction";
          return out;
      }
    }
    out.push_back(e);
    if (e.passed) continue;
    // The play: 32 cards, with announcements and showings in between under `declare: manual`.
    int plays = 0;
    while (plays < 32 && i < acts.size()) {
      const ActionType t = acts[i++].action.type;
      EXPECT_TRUE(t == ActionType::play || t == ActionType::announce || t == ActionType::show) << to_string(t);
      if (t == ActionType::play) ++plays;
    }
  }
  EXPECT_EQ(i, acts.size());
  return out;
}

// Whose combinations count, reckoned from the hands as in the taking oracle (Bazar rules: only the side with the
// strongest combination scores).
void check_declarations(const Options4& x, const sim::DealFacts& deal, const HandResult& r) {
  ASSERT_TRUE(r.teams[0].declarations == 0 || r.teams[1].declarations == 0);
  if (x.manual) {
    for (int t = 0; t < 2; ++t) {
      if (r.teams[static_cast<std::size_t>(t)].declarations == 0) continue;
      const bool shown = std::any_of(deal.shown_by.begin(), deal.shown_by.end(), [&](Seat s) { return s % 2 == t; });
      ASSERT_TRUE(shown);
    }
    return;
  }
  const DeclarationRules rules = french_declarations(x.declarations);
  std::vector<std::vector<Combo>> by_seat;
  std::vector<Seat> order;
  for (int k = 0; k < 4; ++k) {
    by_seat.push_back(best_combos(deal.start_hands[static_cast<std::size_t>(k)], deal.contract.trump, rules));
    order.push_back(static_cast<Seat>((deal.leader + k) % 4));
  }
  const std::optional<int> team = declaration_winner(by_seat, order, deal.contract.trump, rules);
  int expected = 0;
  if (team)
    for (int k = *team; k < 4; k += 2)
      for (const Combo& c : by_seat[static_cast<std::size_t>(k)]) expected += c.points;
  ASSERT_EQ(r.teams[static_cast<std::size_t>(team.value_or(0))].declarations, expected);
}

// Belote (docs/rules/coinche.md, "Belote"): the king and queen of trumps in one hand, 20; in All
// Trumps, 20 for each suit whose king and queen one hand holds (`every_suit`); none in No Trumps.
std::array<int, 2> expected_belote(const Options4& x, const sim::DealFacts& deal) {
  std::array<int, 2> b{};
  const Trump t = deal.contract.trump;
  for (int s = 0; s < 4; ++s)
    for (int suit = 0; suit < 4; ++suit) {
      const bool counts =
          t.mode == Mode::suit ? static_cast<int>(t.suit) == suit : (t.mode == Mode::all_trumps && x.at_belote);
      const CardSet h = deal.start_hands[static_cast<std::size_t>(s)];
      if (counts && h.contains(Card(static_cast<Suit>(suit), Rank::king)) &&
          h.contains(Card(static_cast<Suit>(suit), Rank::queen)))
        b[static_cast<std::size_t>(s % 2)] += 20;
    }
  return b;
}

void check_coinche_results(const State& s, const std::vector<sim::DealFacts>& deals) {
  const Options4 x = read_options(s.record().options);
  const auto& results = s.hand_results();
  const std::vector<ExpectedDeal> auctions = replay_auctions(s.record(), results.size());
  ASSERT_EQ(auctions.size(), results.size());
  std::array<int, 2> running{};
  for (std::size_t h = 0; h < results.size(); ++h) {
    const HandResult& r = results[h];
    SCOPED_TRACE("hand " + std::to_string(h));
    ASSERT_EQ(r.dealer, (s.record().first_dealer + static_cast<int>(h)) % 4);
    ASSERT_EQ(r.held_before, 0);
    ASSERT_EQ(r.held_after, 0);
    if (auctions[h].passed) {
      ASSERT_EQ(r.outcome, Outcome::all_passed);
      ASSERT_EQ(r.match_score, running);
      continue;
    }
    const Contract& want = auctions[h].contract;
    ASSERT_TRUE(r.contract.has_value());
    const Contract& c = *r.contract;
    ASSERT_EQ(c.taker, want.taker);
    ASSERT_EQ(c.trump, want.trump);
    ASSERT_EQ(c.value, want.value);
    ASSERT_EQ(c.capot, want.capot);
    ASSERT_EQ(c.multiplier, want.multiplier);
    ASSERT_EQ(c.doubled_by, want.doubled_by);
    ASSERT_EQ(c.redoubled_by, want.redoubled_by);

    const sim::DealFacts& deal = deals.at(h);
    ASSERT_EQ(deal.leader, (r.dealer + 1) % 4);  // the first speaker leads
    ASSERT_EQ(deal.dealt, CardSet::deck32());
    int all = 0;
    for (Card card : deal.dealt) all += card_value(c.trump, card);
    ASSERT_EQ(all, 152);
    const TeamTally& a = r.teams[0];
    const TeamTally& b = r.teams[1];
    ASSERT_EQ(a.card_points + b.card_points, 152);
    ASSERT_EQ(a.last_trick + b.last_trick, 10);
    ASSERT_EQ(a.tricks + b.tricks, 8);
    ASSERT_EQ(r.capot, a.tricks == 0 || b.tricks == 0);
    check_declarations(x, deal, r);
    if (::testing::Test::HasFatalFailure()) return;
    const std::array<int, 2> belote = expected_belote(x, deal);
    ASSERT_EQ(a.belote, belote[0]);
    ASSERT_EQ(b.belote, belote[1]);

    // Each side's points: 250 for a side that took every trick, else its cards and last trick.
    std::array<int, 2> cards{}, points{};
    for (int t = 0; t < 2; ++t) {
      const TeamTally& tt = r.teams[static_cast<std::size_t>(t)];
      cards[static_cast<std::size_t>(t)] = tt.tricks == 8 ? 250 : tt.card_points + tt.last_trick;
      ASSERT_EQ(tt.card_points + tt.last_trick + tt.capot_bonus, cards[static_cast<std::size_t>(t)]);
      points[static_cast<std::size_t>(t)] = cards[static_cast<std::size_t>(t)] + tt.declarations + tt.belote;
      ASSERT_EQ(tt.raw, points[static_cast<std::size_t>(t)]);
    }
    const int T = c.taker % 2, D = 1 - T;
    const auto& counted = x.cards_only ? cards : points;
    const bool made = c.capot ? r.teams[static_cast<std::size_t>(T)].tricks == 8
                              : counted[static_cast<std::size_t>(T)] >= c.value &&
                                    counted[static_cast<std::size_t>(T)] > counted[static_cast<std::size_t>(D)];
    ASSERT_EQ(r.outcome, made ? Outcome::made : Outcome::failed);
    const int W = made ? T : D, L = 1 - W;
    std::array<int, 2> score{};
    if (x.contract_only) {
      score[static_cast<std::size_t>(W)] = c.value * c.multiplier;
    } else if (made && c.multiplier == 1) {
      score[static_cast<std::size_t>(T)] = points[static_cast<std::size_t>(T)] + c.value;
      score[static_cast<std::size_t>(D)] = points[static_cast<std::size_t>(D)];
    } else {
      const int stake = c.capot || r.teams[static_cast<std::size_t>(W)].tricks == 8 ? 250 : 162;
      score[static_cast<std::size_t>(W)] = (stake + c.value) * c.multiplier + a.declarations + b.declarations;
    }
    // Belote is kept by its holders in every case (already inside `points` when made and undoubled).
    if (x.contract_only || !(made && c.multiplier == 1)) {
      score[static_cast<std::size_t>(W)] += r.teams[static_cast<std::size_t>(W)].belote;
      score[static_cast<std::size_t>(L)] += r.teams[static_cast<std::size_t>(L)].belote;
    }
    ASSERT_EQ(a.score, score[0]);
    ASSERT_EQ(b.score, score[1]);
    running[0] += score[0];
    running[1] += score[1];
    ASSERT_EQ(r.match_score, running);
  }
  ASSERT_EQ(s.match_score(), running);
  // Bazar rules: the match ends at the first hand after which a side has reached the target
  // and is strictly ahead.
  ASSERT_TRUE(s.winner().has_value());
  const int w = *s.winner();
  ASSERT_GE(running[static_cast<std::size_t>(w)], x.target);
  ASSERT_GT(running[static_cast<std::size_t>(w)], running[static_cast<std::size_t>(1 - w)]);
  for (std::size_t i = 0; i + 1 < results.size(); ++i) {
    const auto& ms = results[i].match_score;
    ASSERT_FALSE((ms[0] >= x.target || ms[1] >= x.target) && ms[0] != ms[1]) << "should have ended at hand " << i;
  }
}

// ---- Policies -------------------------------------------------------------------------------

// A uniform policy bids up to capot within a round or two; this one passes often, bids near the
// current level, and coinches and surcoinches now and then, so every outcome turns up.
std::size_t bidding_policy(const State& s, const std::vector<Action>& legal, Rng& rng) {
  const auto n = static_cast<std::uint32_t>(legal.size());
  if (s.phase() != Phase::bidding) return rng.below(n);
  std::vector<std::size_t> bids;
  std::size_t pass = 0, coinche = n, surcoinche = n;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    switch (legal[i].type) {
      case ActionType::pass:
        pass = i;
        break;
      case ActionType::bid:
        bids.push_back(i);
        break;
      case ActionType::double_:
        coinche = i;
        break;
      case ActionType::redouble:
        surcoinche = i;
        break;
      default:
        break;
    }
  }
  const std::uint32_t roll = rng.below(100);
  if (surcoinche < n && roll < 25) return surcoinche;
  if (coinche < n && roll < 12) return coinche;
  if (roll < 62 || bids.empty()) return pass;
  if (rng.below(10) == 0) return bids[rng.below(static_cast<std::uint32_t>(bids.size()))];
  const auto near = static_cast<std::uint32_t>(std::min<std::size_t>(bids.size(), 12));  // the next two levels
  return bids[rng.below(near)];
}

class CoincheSim : public ::testing::TestWithParam<sim::SimCase> {};

// Shards 4, 9, 14 and 19 keep the harness's uniform policy (capot-heavy); the others bid like players.
TEST_P(CoincheSim, InvariantsAndScoresHold) {
  const sim::SimCase& c = GetParam();
  if (c.shard % 5 == 4) {
    sim::run_random_sim(c, check_coinche_results);
  } else {
    sim::run_random_sim(c, check_coinche_results, bidding_policy);
  }
}

std::vector<sim::SimCase> coinche_cases() {
  std::vector<sim::SimCase> v;
  const char* options[5] = {
      "",
      R"({"scoring": "contract_only", "target": 701, "deal": "cut"})",
      R"({"declare": "manual", "all_trumps_belote": "none", "undertrump": "free", "target": 701})",
      R"({"contract_counts": "cards_only", "all_trumps_must_beat": false, "declarations": false, "target": 1001})",
      "",
  };
  // 10,000 matches in shards of 500 (each stays under a minute under AddressSanitizer); shard 0,
  // which also runs there, plays 125 of them, and shard 20 (the same options) the other 375.
  for (int shard = 0; shard <= 20; ++shard)
    v.push_back({"coinche", shard, shard == 0 ? 125 : shard == 20 ? 375 : 500, options[shard % 5]});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shards, CoincheSim, ::testing::ValuesIn(coinche_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
