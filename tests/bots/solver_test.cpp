// The solver on small hand-made positions, each citing the rule it checks.
#include "atout/bots/solver.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "positions.hpp"

namespace atout::bots {
namespace {

Card card(const char* text) { return *parse_card(text); }
CardSet cards(std::initializer_list<const char*> texts) {
  CardSet s;
  for (const char* t : texts) s.insert(card(t));
  return s;
}

// A four-seat position of `variant` under `trump`: `hands` by seat, `on_table` played from `leader`.
Position make(const std::string& variant, Trump trump, std::vector<CardSet> hands, Seat leader,
              std::vector<const char*> on_table = {}, Options overrides = {}) {
  const Options options = testing::options_of(variant, overrides);
  Position p;
  p.trump = trump;
  p.rules = find_variant(variant)->play_rules(options);
  p.value = *hand_value(variant, options, trump);
  for (std::size_t s = 0; s < hands.size(); ++s) p.hands[s] = hands[s];
  p.trick.leader = leader;
  for (const char* c : on_table) p.trick.add(card(c), trump);
  p.current = static_cast<Seat>((leader + p.trick.count) % p.rules.players);
  p.declarer_team = 0;
  // Both sides have taken a trick already, unless a test says otherwise: no capot is open.
  p.tricks_won = {3, 3};
  return p;
}

int value_of(const Solution& s, const char* c) {
  for (const CardValue& cv : s.cards)
    if (cv.card == card(c)) return cv.value;
  ADD_FAILURE() << c << " is not a legal card";
  return -1;
}

TEST(Solver, LastTrickIsWorthTen) {
  // Dix de der: the last trick brings 10 to the side that takes it.
  // Hearts trump; seat 0 leads the ace of spades and takes the trick (11 + 0 + 0 + 0).
  Position p = make("french", Trump::of(Suit::hearts), {cards({"AS"}), cards({"7S"}), cards({"8S"}), cards({"7C"})}, 0);
  Solver solver;
  EXPECT_EQ(solver.value(p), 11 + 10);
  // The same trick won by the defence leaves the declarer nothing.
  p.declarer_team = 1;
  EXPECT_EQ(solver.value(p), 0);
}

TEST(Solver, MustOvertrumpAnOpponentsTrump) {
  // French rules: void in the suit led, an opponent has trumped: overtrump if able.
  // Seat 0 led AS, seat 1 trumped with 10H; seat 2 (void in spades) holds 9H and QH: only 9H.
  const Position p =
      make("french", Trump::of(Suit::hearts),
           {cards({}), cards({}), cards({"9H", "QH", "7C"}), cards({"7S", "8S", "9S"})}, 0, {"AS", "TH"});
  EXPECT_EQ(solver_legal(p), cards({"9H"}));
}

TEST(Solver, UndertrumpIsForcedOrFreeByTheVariant) {
  // Cannot overtrump the opponent's trump: french forces a lower trump, bazar leaves a free discard.
  const std::vector<CardSet> hands = {cards({}), cards({}), cards({"QH", "7C"}), cards({"7S", "8S"})};
  EXPECT_EQ(solver_legal(make("french", Trump::of(Suit::hearts), hands, 0, {"AS", "JH"})), cards({"QH"}));
  EXPECT_EQ(solver_legal(make("bazar", Trump::of(Suit::hearts), hands, 0, {"AS", "JH"})), cards({"QH", "7C"}));
}

TEST(Solver, PartnerHoldingTheTrickFreesTheDiscard) {
  // Void in the suit led while the partner holds the trick: any card, even with trumps in hand.
  const Position p = make("coinche", Trump::of(Suit::hearts),
                          {cards({}), cards({"7S"}), cards({"QH", "7C"}), cards({"8S"})}, 0, {"AS", "8D"});
  EXPECT_EQ(solver_legal(p), cards({"QH", "7C"}));
}

TEST(Solver, AllTrumpsFollowerMustBeat) {
  // All Trumps (coinche, Bulgarian belot): following suit, beat the best card of the suit if able.
  const std::vector<CardSet> hands = {cards({}), cards({"9S", "KS", "7C"}), cards({"8S"}), cards({"7S"})};
  EXPECT_EQ(solver_legal(make("coinche", Trump::all_trumps(), hands, 0, {"AS"})), cards({"9S"}));
  // The coinche option that turns the rule off: any spade.
  EXPECT_EQ(solver_legal(make("coinche", Trump::all_trumps(), hands, 0, {"AS"}, {{"all_trumps_must_beat", false}})),
            cards({"9S", "KS"}));
  // No Trumps: follow suit, no need to beat.
  EXPECT_EQ(solver_legal(make("coinche", Trump::no_trumps(), hands, 0, {"AS"})), cards({"9S", "KS"}));
}

TEST(Solver, CapotReplacesTheCardPoints) {
  // French: a side that takes every trick scores 250 (the `capot` option: 250 or 252) in place of
  // its cards and the last trick.
  Position p = make("french", Trump::of(Suit::hearts), {cards({"AS"}), cards({"7S"}), cards({"8S"}), cards({"7C"})}, 0);
  p.tricks_won = {7, 0};
  p.points = {141, 0};
  Solver solver;
  EXPECT_EQ(solver.value(p), 250);
  p = make("french", Trump::of(Suit::hearts), {cards({"AS"}), cards({"7S"}), cards({"8S"}), cards({"7C"})}, 0, {},
           {{"capot", 252}});
  p.tricks_won = {7, 0};
  EXPECT_EQ(solver.value(p), 252);
}

TEST(Solver, KaputAddsNinetyInBelot) {
  // Bulgarian belot: kaput (every trick) adds 90 to the card points and last trick.
  Position p = make("belot", Trump::of(Suit::hearts), {cards({"AS"}), cards({"7S"}), cards({"8S"}), cards({"7C"})}, 0);
  p.tricks_won = {7, 0};
  p.points = {141, 0};
  Solver solver;
  EXPECT_EQ(solver.value(p), 141 + 11 + 10 + 90);
}

TEST(Solver, DeclarerKeepsTheCapot) {
  // Two tricks left and the declarer's side has every trick so far (a capot is 250 in french).
  // Leading the ace of spades draws the ten and the king then wins the last trick: capot. Leading
  // the king first loses it to the ten, and the nine of diamonds takes the last trick.
  Position p = make("french", Trump::of(Suit::hearts),
                    {cards({"AS", "KS"}), cards({"TS", "7D"}), cards({"7S", "8D"}), cards({"8S", "9D"})}, 0);
  p.tricks_won = {6, 0};
  p.points = {100, 0};
  Solver solver;
  const Solution s = solver.solve(p);
  EXPECT_EQ(value_of(s, "AS"), 250);
  EXPECT_EQ(value_of(s, "KS"), 100);
  EXPECT_EQ(s.value, 250);
  EXPECT_EQ(s.best, card("AS"));
}

TEST(Solver, ValuesOfEveryCardAndEquivalentCards) {
  // The 7 and 8 of clubs are worth nothing and adjacent once the 9 is gone: one is searched, both
  // get its value. The king and queen are adjacent too but worth 4 and 3, so they stay apart.
  Position p = make("coinche", Trump::of(Suit::hearts),
                    {cards({"7C", "8C", "KC", "QC"}), cards({"AC", "9S", "8S", "7S"}), cards({"TC", "TS", "KS", "QS"}),
                     cards({"JC", "AS", "JS", "7D"})},
                    0);
  Solver solver;
  const Solution s = solver.solve(p);
  ASSERT_EQ(s.cards.size(), 4u);
  EXPECT_EQ(value_of(s, "7C"), value_of(s, "8C"));
  const std::vector<CardValue> want = testing::minimax_cards(p);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(s.cards[i].value, want[i].value) << to_string(want[i].card);
}

TEST(Solver, PositionFromAMatchInPlay) {
  // A match brought to its play phase by the engine gives a position whose legal cards are the
  // engine's.
  Record header;
  header.variant = "coinche";
  header.deal.seed = Seed{1, 2};
  std::unique_ptr<State> state = create_state(header).state;
  std::vector<Action> legal;
  for (int i = 0; i < 1000 && state->phase() != Phase::playing; ++i) {
    state->legal_actions(legal);
    // The last bid before three passes: bid 80 once, then pass.
    Action a = legal.front();
    for (const Action& x : legal)
      if (x.type == ActionType::bid && x.value == 80 && !x.capot) a = x;
    state->apply(a);
  }
  ASSERT_EQ(state->phase(), Phase::playing);
  const std::optional<Position> p = position_from(*state);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->tricks_left(), 8);
  state->legal_actions(legal);
  CardSet engine_cards;
  for (const Action& a : legal)
    if (a.type == ActionType::play) engine_cards.insert(a.card);
  EXPECT_EQ(solver_legal(*p), engine_cards);
  Solver solver;
  const Solution s = solver.solve(*p);
  EXPECT_EQ(static_cast<int>(s.cards.size()), engine_cards.size());
  EXPECT_GE(s.value, 0);
  EXPECT_LE(s.value, 250);
}

// A solve with a deadline gives the same values as one without, or nothing once the deadline has
// passed; and a solve given up leaves nothing in the table that changes the next one's values.
TEST(Solver, ASolveWithADeadlineIsExactOrGivenUp) {
  const Options options = testing::options_of("coinche");
  Rng rng(Seed{0xdead11e, 1});
  Solver timed;
  for (int i = 0; i < 5; ++i) {
    const Position p = testing::random_deal("coinche", options, rng, Trump::of(Suit::hearts));
    Solver fresh;
    const Solution exact = fresh.solve(p);
    EXPECT_FALSE(timed.solve(p, std::chrono::steady_clock::now()).has_value());
    const auto later = timed.solve(p, std::chrono::steady_clock::now() + std::chrono::hours(1));
    ASSERT_TRUE(later.has_value());
    EXPECT_EQ(later->value, exact.value);
    ASSERT_EQ(later->cards.size(), exact.cards.size());
    for (std::size_t c = 0; c < exact.cards.size(); ++c) {
      EXPECT_EQ(later->cards[c].card, exact.cards[c].card);
      EXPECT_EQ(later->cards[c].value, exact.cards[c].value);
    }
    // Given up again, then the plain solve: still exact.
    EXPECT_FALSE(timed.solve(p, std::chrono::steady_clock::now()).has_value());
    EXPECT_EQ(timed.solve(p).value, exact.value);
  }
}

// Quick tricks count length: in No Trumps only a higher card of the suit led takes a trick, so a
// leader who has cashed its masters as often as any other hand can follow has every card of the suit
// left as a winner. Seat 0 leads with four spades, the ace and ten above every other spade and each
// other seat holding one: every trick is the leader's, and the bounds settle the deal before any
// node. With length not counted, the same value takes a search.
TEST(Solver, QuickTricksCountTheLengthOfASuit) {
  const Position p = make("coinche", Trump::no_trumps(),
                          {cards({"AS", "TS", "8S", "7S"}), cards({"KS", "7C", "8C", "9C"}),
                           cards({"QS", "7D", "8D", "9D"}), cards({"JS", "7H", "8H", "9H"})},
                          0);
  // Coinche's No Trumps values: A 19, 10 10, K 4, Q 3, J 2, 9, 8 and 7 nothing; the last trick 10.
  constexpr int kAll = 19 + 10 + 4 + 3 + 2 + 10;
  Solver counting;
  EXPECT_EQ(counting.value(p), kAll);
  EXPECT_EQ(counting.nodes(), 0u);
  Solver masters_only(SolverOptions{.length_tricks = false});
  EXPECT_EQ(masters_only.value(p), kAll);
  EXPECT_GT(masters_only.nodes(), 0u);
  // Give seat 1 three spades: two masters no longer exhaust it, and the low spades are not counted.
  const Position longer = make("coinche", Trump::no_trumps(),
                               {cards({"AS", "TS", "8S", "7S"}), cards({"KS", "QS", "JS", "9C"}),
                                cards({"9S", "7D", "8D", "9D"}), cards({"7C", "7H", "8H", "9H"})},
                               0);
  EXPECT_EQ(counting.value(longer), masters_only.value(longer));
  EXPECT_GT(counting.nodes(), 0u);
}

// Cards adjacent in strength and worth the same points (the seven, eight and nine of a plain suit or
// of No Trumps) form a run: which of a run's cards are left does not change a position's value, only
// how many and in which hands, from the strongest down. The table keys such positions as one, which
// must keep every value exact, against the same solver keying every card as it is (itself checked
// against plain searches by the simulations), on positions of up to eight tricks of every variant,
// every card of the seat to play; and must find them again: fewer nodes in all. Enough of the
// positions must hold a whole run for the check to mean something.
TEST(Solver, RunsOfEqualPointsShareTheirTableEntries) {
  Solver runs;
  Solver cards_as_they_are(SolverOptions{.run_keys = false});
  std::uint64_t nodes_runs = 0, nodes_cards = 0;
  int with_run = 0;
  const std::vector<std::string> variants = {"french", "coinche", "belot", "bazar", "duel", "simple"};
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const std::string& variant = variants[v];
    const Options options = testing::options_of(variant);
    Rng rng(Seed{0x5175, v});
    for (int i = 0; i < 120; ++i) {
      const Position p = testing::random_position(variant, options, rng, 8);
      CardSet held;
      for (const CardSet& h : p.hands) held = held | h;
      for (int suit = 0; suit < kSuits; ++suit) {
        const auto s = static_cast<Suit>(suit);
        const bool plain = p.trump.mode == Mode::no_trumps || (p.trump.mode == Mode::suit && !p.trump.is_trump_suit(s));
        if (plain && held.contains(Card(s, Rank::seven)) && held.contains(Card(s, Rank::eight)) &&
            held.contains(Card(s, Rank::nine))) {
          ++with_run;
          break;
        }
      }
      const Solution want = cards_as_they_are.solve(p);
      const Solution got = runs.solve(p);
      nodes_runs += got.nodes;
      nodes_cards += want.nodes;
      ASSERT_EQ(got.cards.size(), want.cards.size());
      for (std::size_t c = 0; c < want.cards.size(); ++c)
        EXPECT_EQ(got.cards[c].value, want.cards[c].value) << variant << " position " << i;
      EXPECT_EQ(got.value, want.value) << variant << " position " << i;
    }
  }
  EXPECT_GT(with_run, 150);
  EXPECT_LT(nodes_runs, nodes_cards);
}

// The table's buckets keep eight entries and replace the one with the fewest tricks left, and the
// near table (the last three tricks) keeps one entry a slot; a table of one bucket and a near table
// of eight slots, where almost every store replaces something, must still give exact values: every
// card's value against a solver without a table, on positions of up to five tricks of every
// variant. One solver is kept across them all, and each position is solved a second time with the
// other side declaring: the same cards, so the same table keys, but other values, which only the
// tables' record of the solve that wrote each entry keeps apart (for the near table, from the solve
// just before; the next test checks its record over the seven solves it tells apart).
TEST(Solver, ATableOfOneBucketGivesTheSameValues) {
  Solver tiny(SolverOptions{.table_bits = 3, .near_table_bits = 3});
  Solver plain(SolverOptions{.table_bits = 0, .use_table = false, .last_two = false});
  for (const char* variant : {"french", "coinche", "belot", "bazar", "duel", "simple"}) {
    const Options options = testing::options_of(variant);
    Rng rng(Seed{0x7ab1e, static_cast<std::uint64_t>(variant[0])});
    for (int i = 0; i < 150; ++i) {
      Position p = testing::random_position(variant, options, rng, 5);
      for (int side = 0; side < 2; ++side, p.declarer_team = 1 - p.declarer_team) {
        const Solution want = plain.solve(p);
        const Solution got = tiny.solve(p);
        ASSERT_EQ(got.value, want.value) << variant << " position " << i << " side " << side;
        ASSERT_EQ(got.cards.size(), want.cards.size());
        for (std::size_t c = 0; c < want.cards.size(); ++c) {
          EXPECT_EQ(got.cards[c].card, want.cards[c].card);
          EXPECT_EQ(got.cards[c].value, want.cards[c].value) << variant << " position " << i << " side " << side;
        }
        EXPECT_EQ(tiny.value(p), want.value);
      }
    }
  }
}

// The near table tags each entry with the solve that wrote it, 1 to 7, and is cleared as the tags
// start again: an entry written seven solves before has the tag of the solve in progress, and must
// not be read. Each block here solves seven positions, then the same seven with the other side
// declaring (the same cards, so the same keys, but other values), so that every position comes back
// exactly seven solves later. The near table is large enough to keep its entries that long, and
// the positions short enough (three tricks) to be kept whole in it.
TEST(Solver, TheNearTableForgetsTheSolveSevenBefore) {
  Solver solver(SolverOptions{.near_table_bits = 12});
  Solver plain(SolverOptions{.table_bits = 0, .use_table = false, .last_two = false});
  for (const char* variant : {"french", "coinche", "belot", "duel"}) {
    const Options options = testing::options_of(variant);
    Rng rng(Seed{0x7ea5, static_cast<std::uint64_t>(variant[0])});
    for (int block = 0; block < 20; ++block) {
      std::vector<Position> seven;
      for (int i = 0; i < 7; ++i) seven.push_back(testing::random_position(variant, options, rng, 3));
      for (int side = 0; side < 2; ++side) {
        for (int i = 0; i < 7; ++i) {
          Position p = seven[static_cast<std::size_t>(i)];
          if (side == 1) p.declarer_team = 1 - p.declarer_team;
          const Solution got = solver.solve(p);
          const Solution want = plain.solve(p);
          ASSERT_EQ(got.value, want.value) << variant << " block " << block << " position " << i << " side " << side;
          for (std::size_t c = 0; c < want.cards.size(); ++c)
            EXPECT_EQ(got.cards[c].value, want.cards[c].value) << variant << " block " << block << " position " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace atout::bots
