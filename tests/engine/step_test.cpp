// State::step: what each action reports (hand ended, deal started, match ended) against what the
// state shows afterwards, for every variant, and the deal in progress with its seed.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "atout/fair_deal.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace atout {
namespace {

constexpr Seed kMatchSeed{0x5eed0001, 0x00c0ffee};

std::unique_ptr<State> make(const std::string& variant, DealSource deal, std::optional<int> hand_limit = {}) {
  Record header;
  header.variant = variant;
  header.deal = std::move(deal);
  header.first_dealer = 1;
  header.hand_limit = hand_limit;
  CreateResult c = create_state(header);
  EXPECT_FALSE(c.error) << variant << ": " << (c.error ? c.error->message : "");
  return std::move(c.state);
}

void expect_same_result(const HandResult& a, const HandResult& b) {
  EXPECT_EQ(a.hand, b.hand);
  EXPECT_EQ(a.dealer, b.dealer);
  EXPECT_EQ(a.outcome, b.outcome);
  EXPECT_EQ(a.capot, b.capot);
  EXPECT_EQ(a.match_score, b.match_score);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.held_after, b.held_after);
  for (std::size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(a.teams[t].raw, b.teams[t].raw);
    EXPECT_EQ(a.teams[t].score, b.teams[t].score);
  }
}

// The deal in progress read the slow way: the public view and the record.
void expect_deal_matches_view(const State& st, Seed match_seed) {
  const Observation view = st.observation(kNoSeat);
  const DealInfo d = st.deal();
  EXPECT_EQ(d.hand, view.hand);
  EXPECT_EQ(d.dealer, view.dealer);
  ASSERT_TRUE(d.seed);
  EXPECT_EQ(*d.seed, derive_deal_seed(match_seed, static_cast<std::uint64_t>(view.hand)));
  EXPECT_EQ(st.deal_seed(), d.seed);
}

// Plays a whole seeded match of `variant` with step() on one state and apply() on a twin, checking
// every report against what the state shows after the step. Returns the number of hands played.
bool ended_now(const State& st, std::size_t hands_before) { return st.hand_results().size() > hands_before; }

int play_and_check(const std::string& variant, std::uint64_t pick_seed, int* takes_without_trump) {
  std::unique_ptr<State> st = make(variant, DealSource{kMatchSeed, {}, {}});
  if (!st) return 0;
  std::unique_ptr<State> twin = st->clone();
  Rng pick(Seed{pick_seed, 7});
  int match_ends = 0;
  int deals = 1;
  expect_deal_matches_view(*st, kMatchSeed);
  for (int guard = 0; !st->is_terminal() && guard < 100000; ++guard) {
    const std::vector<Action> legal = st->legal_actions();
    const Action a = legal[pick.below(static_cast<std::uint32_t>(legal.size()))];
    const Seat seat = st->current_player();
    const std::size_t hands_before = st->hand_results().size();

    const Step s = st->step(seat, a);
    EXPECT_EQ(twin->apply(seat, a), Refusal::none);
    EXPECT_TRUE(s.applied()) << variant << " refused " << to_string(a) << ": " << to_string(s.refusal);
    // The action as applied: the one given, or a take with the trump this deal's bids show.
    if (a.type == ActionType::take && !a.has_trump) {
      ++*takes_without_trump;
      const Observation after = st->observation(kNoSeat);
      EXPECT_FALSE(after.bids.empty()) << variant;
      if (!after.bids.empty()) {
        EXPECT_EQ(after.bids.back().seat, seat);
        EXPECT_TRUE(s.action == after.bids.back().action) << variant;
      }
      EXPECT_TRUE(s.action.has_trump) << variant << ": a take always names its trump once applied";
      if (after.contract) {
        EXPECT_TRUE(s.action.trump == after.contract->trump) << variant;
      }
    } else {
      EXPECT_TRUE(s.action == a) << variant;
    }
    // No hand is reported conceded: a concession is scored, and reported, as made or failed.
    if (ended_now(*st, hands_before)) {
      EXPECT_NE(to_string(st->hand_results().back().outcome), "conceded") << variant;
    }
    EXPECT_EQ(st->record().actions.size(), twin->record().actions.size());
    EXPECT_EQ(st->hand_results().size(), twin->hand_results().size());

    const bool ended = st->hand_results().size() > hands_before;
    EXPECT_EQ(s.hand_ended.has_value(), ended) << variant;
    EXPECT_LE(st->hand_results().size(), hands_before + 1) << variant << ": one action ends one hand at most";
    if (ended && s.hand_ended) expect_same_result(*s.hand_ended, st->hand_results().back());
    EXPECT_EQ(s.match_ended, st->is_terminal()) << variant;
    if (s.match_ended) ++match_ends;
    EXPECT_EQ(s.deal_started.has_value(), ended && !st->is_terminal()) << variant;
    if (s.deal_started) {
      ++deals;
      EXPECT_EQ(s.deal_started->hand, static_cast<int>(st->hand_results().size()));
      EXPECT_EQ(s.deal_started->hand, s.hand_ended->hand + 1);
      EXPECT_EQ(s.deal_started->seed, derive_deal_seed(kMatchSeed, static_cast<std::uint64_t>(s.deal_started->hand)));
      EXPECT_EQ(s.deal_started->dealer, st->observation(kNoSeat).dealer);
    }
    if (!st->is_terminal()) expect_deal_matches_view(*st, kMatchSeed);
  }
  EXPECT_TRUE(st->is_terminal()) << variant;
  EXPECT_EQ(match_ends, 1) << variant;
  EXPECT_EQ(deals, static_cast<int>(st->hand_results().size())) << variant;
  // Once over, the deal is the last one dealt, and nothing more is reported.
  const HandResult& last = st->hand_results().back();
  EXPECT_EQ(st->deal().hand, last.hand);
  EXPECT_EQ(st->deal().dealer, last.dealer);
  EXPECT_EQ(st->deal_seed(), last.seed);
  EXPECT_EQ(st->State::deal().hand, last.hand);
  // The view at the end shows the last deal played, and names it.
  EXPECT_EQ(st->observation(kNoSeat).hand, last.hand) << variant;
  EXPECT_EQ(st->observation(kNoSeat).dealer, last.dealer) << variant;
  const Step after = st->step(0, Action::pass());
  EXPECT_EQ(after.refusal, Refusal::game_over);
  EXPECT_FALSE(after.hand_ended);
  EXPECT_FALSE(after.deal_started);
  EXPECT_FALSE(after.match_ended);
  return static_cast<int>(st->hand_results().size());
}

TEST(Step, EveryVariantReportsEachHandDealAndTheMatchEnd) {
  for (const VariantInfo& v : variants()) {
    SCOPED_TRACE(v.id);
    int takes_without_trump = 0;
    for (std::uint64_t k = 1; k <= 3; ++k) EXPECT_GE(play_and_check(v.id, k, &takes_without_trump), 1);
    // The variants with a turned-up card take it without naming a trump.
    if (v.id == "french" || v.id == "duel") {
      EXPECT_GT(takes_without_trump, 0);
    }
  }
}

TEST(Step, ARefusedActionReportsNothingAndChangesNothing) {
  for (const VariantInfo& v : variants()) {
    SCOPED_TRACE(v.id);
    std::unique_ptr<State> st = make(v.id, DealSource{kMatchSeed, {}, {}});
    ASSERT_TRUE(st);
    const Seat to_act = st->current_player();
    const Seat other = static_cast<Seat>((to_act + 1) % st->players());
    const Action a = st->legal_actions().front();
    const Observation before = st->observation(to_act);

    const Step wrong_seat = st->step(other, a);
    EXPECT_EQ(wrong_seat.refusal, Refusal::not_your_turn);
    const Step card_in_bidding = st->step(to_act, Action::play(*st->hands()[static_cast<std::size_t>(to_act)].begin()));
    EXPECT_NE(card_in_bidding.refusal, Refusal::none);
    for (const Step& s : {wrong_seat, card_in_bidding}) {
      EXPECT_FALSE(s.applied());
      EXPECT_FALSE(s.hand_ended);
      EXPECT_FALSE(s.deal_started);
      EXPECT_FALSE(s.match_ended);
    }
    EXPECT_TRUE(st->record().actions.empty());
    EXPECT_EQ(st->current_player(), to_act);
    EXPECT_EQ(st->observation(to_act).legal, before.legal);
    EXPECT_EQ(st->hands()[static_cast<std::size_t>(to_act)], before.own);
  }
}

TEST(Step, TheDealSeedFollowsTheRecordsSource) {
  // Deal 0 from an explicit deck, deal 1 from its own seed, deal 2 from none: a hand record.
  const Seed own{0xabc, 0xdef};
  DealSource source;
  source.decks = {shuffled_deck(Seed{1, 2}, CardSet::deck32())};
  source.seeds = {Seed{9, 9}, own};
  std::unique_ptr<State> st = make("french", source, 2);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->deal().hand, 0);
  EXPECT_EQ(st->deal().dealer, 1);
  EXPECT_FALSE(st->deal_seed()) << "an explicit deck has no seed";
  EXPECT_FALSE(st->State::deal().seed);
  std::optional<Step> ended;
  while (!ended) {
    const Step s = st->step(st->legal_actions().front());
    ASSERT_TRUE(s.applied());
    if (s.hand_ended) ended = s;
  }
  EXPECT_FALSE(ended->hand_ended->seed);
  ASSERT_TRUE(ended->deal_started);
  EXPECT_EQ(ended->deal_started->hand, 1);
  EXPECT_EQ(ended->deal_started->dealer, 2);
  EXPECT_EQ(ended->deal_started->seed, own);
  EXPECT_EQ(st->deal_seed(), own);
  EXPECT_EQ(st->State::deal().seed, own);
  EXPECT_FALSE(ended->match_ended);
}

}  // namespace
}  // namespace atout
