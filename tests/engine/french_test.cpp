// The French machine end to end on hand-built decks: the deal, both taking rounds, the redeal,
// refusals with their typed reasons, and a scored capot.
#include <gtest/gtest.h>

#include <algorithm>

#include "atout/state.hpp"
#include "test_util.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

// Dealer 0. Deck positions: 3 each to seats 1,2,3,0 (0-11), 2 each (12-19), the turned-up card
// (20), then 3 each with 2 for the taker (French belote rules: the pack is cut, not shuffled; dealt 3 then 2; Belote
// Classic rules: dealt 3 then 2, clockwise).
const char* kDeck[32] = {"AS", "7S", "8C", "KS", "9C", "TC", "QS", "7D", "8D", "JS", "JC",
                         "QC", "JH", "9H", "8H", "TD", "9D", "QD", "KD", "AD", "7H", "8S",
                         "9S", "KC", "AC", "7C", "TS", "TH", "QH", "KH", "AH", "JD"};

Record record_for(const char* const* deck, Options options = {}) {
  Record r;
  r.variant = "french";
  r.options = std::move(options);
  r.first_dealer = 0;
  std::vector<Card> d;
  for (int i = 0; i < 32; ++i) d.push_back(C(deck[i]));
  r.deal.decks.push_back(d);
  r.deal.seed = Seed{9, 9};  // later deals
  return r;
}

std::unique_ptr<State> make(const char* const* deck, Options options = {}) {
  auto c = create_state(record_for(deck, std::move(options)));
  EXPECT_FALSE(c.error.has_value()) << (c.error ? c.error->message : "");
  return std::move(c.state);
}

TEST(French, DealThreeTwoAndTurnUp) {
  auto s = make(kDeck);
  const Observation o = s->observation(1);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_EQ(o.current, 1);  // the player after the dealer speaks first (French belote rules: the player after the
                            // dealer takes or passes; second round another suit)
  EXPECT_EQ(o.own, S({"AS", "7S", "8C", "JH", "9H"}));
  EXPECT_EQ(s->hands()[0], S({"JS", "JC", "QC", "KD", "AD"}));
  ASSERT_TRUE(o.turn_up.has_value());
  EXPECT_EQ(*o.turn_up, C("7H"));
  EXPECT_EQ(o.legal, (std::vector<Action>{Action::pass(), Action::take()}));
}

TEST(French, TakerGetsTurnUpAndTwoOthersThree) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  const auto hands = s->hands();
  EXPECT_EQ(hands[1], S({"AS", "7S", "8S", "9S", "8C", "JH", "9H", "7H"}));
  EXPECT_EQ(hands[2], S({"KS", "9C", "TC", "KC", "AC", "7C", "8H", "TD"}));
  EXPECT_EQ(hands[3], S({"QS", "TS", "7D", "8D", "9D", "QD", "TH", "QH"}));
  EXPECT_EQ(hands[0], S({"JS", "JC", "QC", "KD", "AD", "JD", "KH", "AH"}));
  EXPECT_EQ(s->phase(), Phase::playing);
  EXPECT_EQ(s->current_player(), 1);  // French belote rules: follow suit; trumps led, overtrump whoever holds the trick
  ASSERT_TRUE(s->observation(0).contract.has_value());
  EXPECT_EQ(s->observation(0).contract->trump, Trump::of(Suit::hearts));
}

TEST(French, SecondRoundNamesAnotherSuit) {
  auto s = make(kDeck);
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  const auto legal = s->legal_actions();
  EXPECT_EQ(legal.size(),
            4u);  // pass and the three other suits (French belote rules: the player after the dealer takes or passes;
                  // second round another suit; Belote Classic rules: second round: a suit other than the turned-up one)
  EXPECT_EQ(s->apply(1, Action::take()), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(1, Action::take(Trump::of(Suit::hearts))), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(1, Action::take(Trump::no_trumps())), Refusal::invalid_trump);
  ASSERT_EQ(s->apply(1, Action::take(Trump::of(Suit::spades))), Refusal::none);
  EXPECT_EQ(s->observation(kNoSeat).contract->trump, Trump::of(Suit::spades));
}

TEST(French, SecondRoundAnySuitOption) {
  auto s = make(kDeck, {{"second_round", std::string("any_suit")}});
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  EXPECT_EQ(s->legal_actions().size(), 5u);  // Bazar rules: any of the 4 suits
  EXPECT_EQ(s->apply(1, Action::take(Trump::of(Suit::hearts))), Refusal::none);
}

TEST(French, AllPassTwiceRedealsByTheNextPlayer) {
  auto s = make(kDeck);
  for (int i = 0; i < 8; ++i) ASSERT_EQ(s->apply(s->current_player(), Action::pass()), Refusal::none);
  ASSERT_EQ(s->hand_results().size(), 1u);
  EXPECT_EQ(s->hand_results()[0].outcome, Outcome::all_passed);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 0}));
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.hand, 1);
  EXPECT_EQ(o.dealer, 1);  // French belote rules: the next player in rotation deals
  EXPECT_EQ(o.current, 2);
}

TEST(French, RefusalsAreTypedAndChangeNothing) {
  auto s = make(kDeck);
  EXPECT_EQ(s->apply(2, Action::pass()), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(1, Action::play(C("AS"))), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::not_allowed);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("7S"))), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::play(C("7S"))), Refusal::card_not_in_hand);  // already played
  EXPECT_EQ(s->apply(2, Action::play(C("QC"))), Refusal::card_not_in_hand);  // someone else's
  EXPECT_EQ(s->apply(2, Action::play(C("9C"))), Refusal::must_follow_suit);
  EXPECT_EQ(s->apply(2, Action::take()), Refusal::wrong_phase);
  const std::size_t before = s->record().actions.size();
  EXPECT_EQ(s->record().actions.size(), before);
  ASSERT_EQ(s->apply(2, Action::play(C("KS"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("TS"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("JS"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 3);  // the ten of spades won (Bazar rules: plain order A 10 K Q J 9 8 7)
  ASSERT_EQ(s->apply(3, Action::play(C("7D"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("JD"))), Refusal::none);
  // Seat 1 has no diamonds, an opponent holds the trick: it must trump (French belote rules: void, an opponent holds
  // the trick: trump).
  EXPECT_EQ(s->apply(1, Action::play(C("8C"))), Refusal::must_trump);
}

// Seat 1 holds all eight hearts and takes hearts: it wins every trick.
const char* kCapotDeck[32] = {"JH", "9H", "AH", "7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C",
                              "9C", "TH", "KH", "TS", "JS", "TD", "JD", "TC", "JC", "QH", "8H",
                              "7H", "QS", "KS", "AS", "QD", "KD", "AD", "QC", "KC", "AC"};

void play_out(State& s) {
  while (s.phase() == Phase::playing && s.hand_results().empty()) {
    ASSERT_EQ(s.apply(s.legal_actions().front()), Refusal::none);
  }
}

TEST(French, CapotWithDeclarationsAndBelote) {
  for (int capot : {250, 252}) {
    auto s = make(kCapotDeck, {{"capot", capot}});
    ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
    EXPECT_EQ(s->hands()[1], CardSet::suit_mask(Suit::hearts));
    play_out(*s);
    ASSERT_EQ(s->hand_results().size(), 1u);
    const HandResult& r = s->hand_results()[0];
    EXPECT_EQ(r.outcome, Outcome::made);
    EXPECT_TRUE(r.capot);
    EXPECT_EQ(r.capot_team, 1);
    EXPECT_EQ(r.teams[1].tricks, 8);
    EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick, 162);
    // Eight hearts in a row: a quint and a tierce (Bulgarian Belot rules: longer runs count as a five (and a three for
    // eight)): 100 + 20. Partner seat 3 holds all eight diamonds, 120 more: the side with the best combination (the
    // trump quint to the ace beats seat 2's spade quint to the ace, Bazar rules: equal combinations: trumps first, then
    // the first to show) scores all its own.
    EXPECT_EQ(r.teams[1].declarations, 240);
    EXPECT_EQ(r.teams[1].belote, 20);
    EXPECT_EQ(r.teams[1].score, capot + 240 + 20);
    EXPECT_EQ(r.teams[0].score, 0);
    EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, capot + 260}));
  }
}

TEST(French, DeclarationsOffStillCountsBelote) {
  auto s = make(kCapotDeck, {{"declarations", false}});
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.teams[1].declarations, 0);
  EXPECT_EQ(r.teams[1].belote, 20);
  EXPECT_EQ(r.teams[1].score, 270);
}

TEST(French, BadOptionsAndDecksAreRefused) {
  Record r = record_for(kDeck, {{"target", 600}});
  auto c = create_state(r);
  ASSERT_TRUE(c.error.has_value());
  EXPECT_EQ(c.error->code, "bad_option");
  EXPECT_NE(c.error->message.find("501, 701, 1001"), std::string::npos);
  r = record_for(kDeck, {{"no_such", true}});
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r = record_for(kDeck, {{"capot", std::string("250")}});
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r = record_for(kDeck);
  r.deal.decks[0][5] = r.deal.decks[0][4];
  EXPECT_EQ(create_state(r).error->code, "bad_deal");
  r = record_for(kDeck);
  r.variant = "whist";
  EXPECT_EQ(create_state(r).error->code, "unknown_variant");
  r = record_for(kDeck);
  r.deal.seed.reset();
  EXPECT_EQ(create_state(r).error->code, "bad_deal");  // one deck, no hand limit, no seed
  r.hand_limit = 1;
  EXPECT_FALSE(create_state(r).error.has_value());
}

}  // namespace
}  // namespace atout

namespace atout {
namespace {

// `declare: manual`: announcing before the first card and showing before
// the second are actions; a combination that is not announced and shown does not count (Bazar rules:
// announce before the first card, show before the second). After seat 1 takes hearts, seat 1 holds 7S 8S 9S and its
// partner, seat 3, 7D 8D 9D.
TEST(FrenchManualDeclarations, OnlyAnnouncedAndShownCombinationsCount) {
  auto s = make(kDeck, {{"declare", std::string("manual")}});
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  const CardSet spades = S({"7S", "8S", "9S"});
  const CardSet diamonds = S({"7D", "8D", "9D"});
  EXPECT_EQ(s->apply(1, Action::show(spades)), Refusal::wrong_phase);  // shown before the second card
  EXPECT_EQ(s->apply(1, Action::announce(S({"7S", "8S", "AS"}))), Refusal::invalid_combination);
  const auto legal = s->legal_actions();
  ASSERT_NE(std::find(legal.begin(), legal.end(), Action::announce(spades)), legal.end());
  ASSERT_EQ(s->apply(1, Action::announce(spades)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(spades)), Refusal::invalid_combination);  // crosses one announced
  // Everyone hears the announcement at once; nobody sees its cards yet.
  const Observation heard = s->observation(0);
  ASSERT_EQ(heard.declarations.size(), 1u);
  EXPECT_EQ(heard.declarations[0].kind, ComboKind::tierce);
  EXPECT_FALSE(heard.declarations[0].shown);
  EXPECT_TRUE(heard.declarations[0].cards.empty());

  bool shown = false;
  while (s->hand_results().empty()) {
    const Seat seat = s->current_player();
    const Observation o = s->observation(seat);
    if (o.tricks.size() == 1 && seat == 3) {
      EXPECT_EQ(s->apply(3, Action::show(diamonds)), Refusal::not_announced);
    }
    if (o.tricks.size() == 1 && seat == 1 && !shown) {
      ASSERT_EQ(s->apply(1, Action::show(spades)), Refusal::none);
      EXPECT_EQ(s->apply(1, Action::show(spades)), Refusal::not_allowed);  // already shown
      const Observation seen = s->observation(2);
      ASSERT_EQ(seen.declarations.size(), 1u);
      EXPECT_TRUE(seen.declarations[0].shown);
      EXPECT_EQ(seen.declarations[0].cards, spades);
      shown = true;
    }
    if (o.tricks.size() == 2 && seat == 1) {
      EXPECT_EQ(s->apply(1, Action::announce(spades)), Refusal::wrong_phase);
    }
    const auto acts = s->legal_actions();
    const auto play =
        std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::play; });
    ASSERT_NE(play, acts.end());
    ASSERT_EQ(s->apply(seat, *play), Refusal::none);
  }
  EXPECT_TRUE(shown);
  // Seat 3's tierce was never announced: only seat 1's counts (Belote Classic rules: 20).
  EXPECT_EQ(s->hand_results()[0].teams[1].declarations, 20);
  EXPECT_EQ(s->hand_results()[0].teams[0].declarations, 0);
}

// The automatic default declares both tierces for the same hand.
TEST(FrenchManualDeclarations, AutomaticDefaultCountsEveryBestCombination) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(S({"7S", "8S", "9S"}))), Refusal::not_allowed);
  while (s->hand_results().empty()) {
    const auto acts = s->legal_actions();
    ASSERT_EQ(s->apply(acts.front()), Refusal::none);
  }
  EXPECT_EQ(s->hand_results()[0].teams[1].declarations, 40);
}

}  // namespace
}  // namespace atout
