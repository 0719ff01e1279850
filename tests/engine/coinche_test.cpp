// Coinche end to end on hand-built decks, and its numbers table by table: the 3+3+2 deal, the
// auction (all pass, coinche, surcoinche, capot bids, every refusal), play in All Trumps and No
// Trumps, belote, and the pure scoring rule.
#include "variants/coinche.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "atout/state.hpp"
#include "test_util.hpp"
#include "variants/french_duel.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

using Hands = std::array<std::vector<const char*>, 4>;

// The pack that makes dealer 0 deal `hands[s]` to seat s: packets of 3, 3 and 2 from seat 1 round
// to seat 0 (Bazar rules: coinche: the deck is cut, dealt 3, 3, 2), each seat's cards taken in the order listed.
std::vector<Card> deck_for(const Hands& hands) {
  std::vector<Card> deck;
  std::array<std::size_t, 4> used{};
  for (int packet : {3, 3, 2})
    for (int k = 1; k <= 4; ++k) {
      const auto s = static_cast<std::size_t>(k % 4);
      for (int i = 0; i < packet; ++i) deck.push_back(C(hands[s][used[s]++]));
    }
  return deck;
}

std::unique_ptr<State> make(const std::vector<Card>& deck, Options options = {}) {
  Record r;
  r.variant = "coinche";
  r.options = std::move(options);
  r.first_dealer = 0;
  r.deal.decks.push_back(deck);
  r.deal.seed = Seed{7, 7};  // later deals
  auto c = create_state(r);
  EXPECT_FALSE(c.error.has_value()) << (c.error ? c.error->message : "");
  return std::move(c.state);
}

std::vector<Card> ordered_deck() {
  std::vector<Card> d;
  for (Card c : CardSet::deck32()) d.push_back(c);
  return d;
}

bool has(const std::vector<Action>& v, const Action& a) { return std::find(v.begin(), v.end(), a) != v.end(); }

// Plays the hand out with the first legal card each time.
void play_out(State& s) {
  const std::size_t before = s.hand_results().size();
  while (s.hand_results().size() == before && !s.is_terminal()) {
    const auto acts = s.legal_actions();
    const auto play =
        std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::play; });
    ASSERT_NE(play, acts.end());
    ASSERT_EQ(s.apply(*play), Refusal::none);
  }
}

const Trump kHearts = Trump::of(Suit::hearts);
const Trump kSpades = Trump::of(Suit::spades);

// ---- Deal -----------------------------------------------------------------------------------

TEST(CoincheDeal, ThreeThreeTwoFromTheDealersSuccessor) {
  // Bazar rules: packets of 3, 3 and 2, starting from the dealer's successor.
  const std::vector<Card> deck = ordered_deck();
  auto s = make(deck);
  const auto hands = s->hands();
  for (int seat = 0; seat < 4; ++seat) {
    const int k = (seat + 3) % 4;  // seat 1 is served first, seat 0 (the dealer) last
    CardSet expected;
    for (int i = 0; i < 3; ++i) expected.insert(deck[static_cast<std::size_t>(3 * k + i)]);
    for (int i = 0; i < 3; ++i) expected.insert(deck[static_cast<std::size_t>(12 + 3 * k + i)]);
    for (int i = 0; i < 2; ++i) expected.insert(deck[static_cast<std::size_t>(24 + 2 * k + i)]);
    EXPECT_EQ(hands[static_cast<std::size_t>(seat)], expected) << "seat " << seat;
  }
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_FALSE(o.turn_up.has_value());  // no card is turned up in coinche
  EXPECT_EQ(o.current, 1);              // Bazar rules: the dealer's successor speaks first
}

TEST(CoincheDeal, OpeningLegalActionsArePassAndEveryBid) {
  auto s = make(ordered_deck());
  const auto legal = s->legal_actions();
  // pass, 9 values x 6 modes, capot in 6 modes; no coinche without a bid.
  EXPECT_EQ(legal.size(), 1u + 9u * 6u + 6u);
  EXPECT_EQ(legal.front(), Action::pass());
  EXPECT_TRUE(has(legal, Action::bid(80, Trump::no_trumps())));
  EXPECT_TRUE(has(legal, Action::bid(160, Trump::all_trumps())));
  EXPECT_TRUE(has(legal, Action::bid(0, kSpades, true)));
  EXPECT_FALSE(has(legal, Action::double_()));
  EXPECT_FALSE(has(legal, Action::bid(170, kSpades)));
}

TEST(CoincheDeal, CutOptionCutsTheGatheredCardsByAtLeastThree) {
  // Bazar rules: the deck is only cut, "at least three cards must be cut" (`deal: cut`).
  // After an all-passed deal the hands are gathered in seat order from the dealer's successor,
  // each in card order, and the next pack is that order cut.
  auto s = make(ordered_deck(), {{"deal", std::string("cut")}});
  std::vector<Card> gathered;
  const auto first = s->hands();
  for (int k = 1; k <= 4; ++k)
    for (Card c : first[static_cast<std::size_t>(k % 4)]) gathered.push_back(c);
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  const auto dealt = s->hands();  // dealer 1 now: seat 2 is served first
  std::vector<int> cuts;
  for (int k = 0; k < 32; ++k) {
    std::vector<Card> pack(gathered.begin() + k, gathered.end());
    pack.insert(pack.end(), gathered.begin(), gathered.begin() + k);
    std::array<CardSet, 4> hands{};
    std::size_t i = 0;
    for (int packet : {3, 3, 2})
      for (int n = 1; n <= 4; ++n)
        for (int c = 0; c < packet; ++c) hands[static_cast<std::size_t>((1 + n) % 4)].insert(pack[i++]);
    if (std::equal(hands.begin(), hands.end(), dealt.begin())) cuts.push_back(k);
  }
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_GE(cuts[0], 3);
  EXPECT_LE(cuts[0], 29);
}

// ---- Auction --------------------------------------------------------------------------------

TEST(CoincheAuction, AllPassRedealsByTheNextDealer) {
  auto s = make(ordered_deck());
  for (Seat seat : {Seat{1}, Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  ASSERT_EQ(s->hand_results().size(), 1u);
  EXPECT_EQ(s->hand_results()[0].outcome, Outcome::all_passed);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 0}));
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.hand, 1);
  EXPECT_EQ(o.dealer, 1);
  EXPECT_EQ(o.current, 2);
  EXPECT_EQ(o.phase, Phase::bidding);
}

TEST(CoincheAuction, ThreePassesAfterABidMakeTheContract) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::bid(90, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::bidding);  // two passes are not enough
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::playing);
  const Observation o = s->observation(kNoSeat);
  ASSERT_TRUE(o.contract.has_value());
  EXPECT_EQ(o.contract->taker, 2);
  EXPECT_EQ(o.contract->value, 90);
  EXPECT_EQ(o.contract->trump, kHearts);
  EXPECT_EQ(o.contract->multiplier, 1);
  EXPECT_EQ(o.current, 1);  // the first speaker leads (Bazar rules: the player after the dealer starts)
}

TEST(CoincheAuction, OverbiddingThePartnerAndSpeakingAgain) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(80, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::bid(100, Trump::no_trumps())), Refusal::none);  // over the partner
  ASSERT_EQ(s->apply(0, Action::bid(110, kSpades)), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::bid(120, Trump::all_trumps())), Refusal::none);  // seat 3 speaks again
  for (Seat seat : {Seat{0}, Seat{1}, Seat{2}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  const Observation o = s->observation(kNoSeat);
  EXPECT_EQ(o.contract->taker, 3);
  EXPECT_EQ(o.contract->value, 120);
  EXPECT_EQ(o.contract->trump, Trump::all_trumps());
  EXPECT_EQ(o.bids.size(), 10u);
}

TEST(CoincheAuction, APlayerWhoPassedMayBidLater) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::bid(80, kSpades)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::bid(90, kHearts)), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::bidding);
  EXPECT_EQ(s->current_player(), 2);
}

struct BidRefusalCase {
  Action bid;
  Refusal refusal;
  const char* why;
};

TEST(CoincheAuction, BadBidsAreRefusedWithTheirReason) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(100, kHearts)), Refusal::none);
  Action no_trump = Action::bid(110, kHearts);
  no_trump.has_trump = false;
  const BidRefusalCase cases[] = {
      {Action::bid(70, kSpades), Refusal::invalid_bid, "Bazar rules: bids start at 80"},
      {Action::bid(115, kSpades), Refusal::invalid_bid, "Bazar rules: steps of 10"},
      {Action::bid(170, kSpades), Refusal::invalid_bid, "160 is the highest numeric bid"},
      {Action::bid(0, kSpades), Refusal::invalid_bid, "no value, no capot"},
      {Action::bid(200, kSpades, true), Refusal::invalid_bid, "a capot bid carries no value but 250"},
      {no_trump, Refusal::invalid_bid, "a bid names its mode"},
      {Action::bid(100, kSpades), Refusal::bid_too_low, "Bazar rules: must be higher"},
      {Action::bid(90, Trump::all_trumps()), Refusal::bid_too_low, "Bazar rules: must be higher"},
      {Action::redouble(), Refusal::cannot_redouble, "nothing coinched"},
      {Action::take(), Refusal::not_allowed, "no taking in coinche"},
      {Action::play(C("7C")), Refusal::wrong_phase, "cards are played after the bidding"},
      {Action::announce(S({"7C", "8C", "9C"})), Refusal::wrong_phase, "declarations come with the first trick"},
  };
  const std::size_t actions = s->record().actions.size();
  const std::string before = to_string(s->observation(2).own) + std::to_string(s->observation(2).bids.size());
  for (const BidRefusalCase& c : cases) EXPECT_EQ(s->apply(2, c.bid), c.refusal) << to_string(c.bid) << ": " << c.why;
  EXPECT_EQ(s->apply(3, Action::bid(110, kSpades)), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(0, Action::double_()), Refusal::not_your_turn);
  // Nothing changed.
  EXPECT_EQ(s->record().actions.size(), actions);
  EXPECT_EQ(to_string(s->observation(2).own) + std::to_string(s->observation(2).bids.size()), before);
  EXPECT_EQ(s->current_player(), 2);
  EXPECT_EQ(s->apply(2, Action::bid(110, kSpades)), Refusal::none);
  EXPECT_EQ(s->apply(3, Action::bid(0, kSpades, true)), Refusal::none);  // capot outranks 160
}

TEST(CoincheAuction, CoincheOnlyByAnOpponentOfTheBid) {
  auto s = make(ordered_deck());
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::cannot_double);  // no bid yet
  ASSERT_EQ(s->apply(1, Action::bid(80, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  // Seat 3 is seat 1's partner: doubling one's own side is refused.
  EXPECT_EQ(s->apply(3, Action::double_()), Refusal::cannot_double);
  EXPECT_FALSE(has(s->legal_actions(), Action::double_()));
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  EXPECT_TRUE(has(s->legal_actions(), Action::double_()));
  EXPECT_EQ(s->apply(0, Action::redouble()), Refusal::cannot_redouble);
  ASSERT_EQ(s->apply(0, Action::double_()), Refusal::none);
  // After the coinche: seat 1 (bidding side) speaks; no new bid, no second coinche.
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::pass(), Action::redouble()}));
  EXPECT_EQ(s->apply(1, Action::bid(90, kHearts)), Refusal::not_allowed);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::cannot_double);
}

TEST(CoincheAuction, AnEarlierBidderMayCoincheTheNewBid) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(80, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::bid(90, kSpades)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  EXPECT_TRUE(has(s->legal_actions(), Action::double_()));  // seat 1 is seat 2's opponent
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->phase(), Phase::playing);
}

TEST(CoincheAuction, CoincheThenTheBiddingSidePassesTwice) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(80, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  // The bidding side answers, seat 3 then seat 1; the coincher's partner (seat 0) never speaks.
  EXPECT_EQ(s->current_player(), 3);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->apply(0, Action::pass()), Refusal::not_your_turn);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->phase(), Phase::playing);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.taker, 1);
  EXPECT_EQ(c.multiplier, 2);
  EXPECT_EQ(c.doubled_by, 2);
  EXPECT_EQ(c.redoubled_by, kNoSeat);
  EXPECT_EQ(s->current_player(), 1);
}

TEST(CoincheAuction, SurcoincheEndsTheBidding) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(120, Trump::no_trumps())), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::double_()), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::cannot_double);
  ASSERT_EQ(s->apply(1, Action::redouble()), Refusal::none);
  ASSERT_EQ(s->phase(), Phase::playing);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_EQ(c.multiplier, 4);
  EXPECT_EQ(c.doubled_by, 0);
  EXPECT_EQ(c.redoubled_by, 1);
}

TEST(CoincheAuction, ThePartnerMaySurcoincheAfterTheBidderPasses) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::bid(100, kSpades)), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::double_()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);  // the taker's partner passes
  EXPECT_EQ(s->current_player(), 2);
  EXPECT_EQ(s->apply(3, Action::redouble()), Refusal::not_your_turn);
  ASSERT_EQ(s->apply(2, Action::redouble()), Refusal::none);
  EXPECT_EQ(s->observation(kNoSeat).contract->multiplier, 4);
  EXPECT_EQ(s->observation(kNoSeat).contract->redoubled_by, 2);
}

TEST(CoincheAuction, CapotBidOutranksEveryBidAndCannotBeOutbid) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(160, kHearts)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::bid(0, kSpades, true)), Refusal::none);
  EXPECT_EQ(s->apply(3, Action::bid(0, kHearts, true)), Refusal::bid_too_low);
  EXPECT_EQ(s->apply(3, Action::bid(160, kHearts)), Refusal::bid_too_low);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::pass(), Action::double_()}));
  for (Seat seat : {Seat{3}, Seat{0}, Seat{1}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  const Contract c = *s->observation(kNoSeat).contract;
  EXPECT_TRUE(c.capot);
  EXPECT_EQ(c.value, 250);
  EXPECT_EQ(c.trump, kSpades);
}

TEST(CoincheAuction, CapotBidMayCarryTheValue250) {
  auto s = make(ordered_deck());
  ASSERT_EQ(s->apply(1, Action::bid(250, kHearts, true)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  EXPECT_TRUE(s->observation(kNoSeat).contract->capot);
}

TEST(CoincheAuction, PureAuctionLegalityMatchesRefusals) {
  // Every action the auction lists is accepted, and a few it does not list are refused.
  CoincheAuction a = CoincheAuction::start(3);
  EXPECT_EQ(a.current, 0);
  std::vector<Action> legal;
  coinche_auction_legal(a, legal);
  for (const Action& x : legal) EXPECT_EQ(coinche_auction_refusal(a, 0, x), Refusal::none) << to_string(x);
  coinche_auction_apply(a, 0, Action::bid(150, Trump::all_trumps()));
  legal.clear();
  coinche_auction_legal(a, legal);
  // pass, 160 in six modes, capot in six modes, coinche.
  EXPECT_EQ(legal.size(), 1u + 6u + 6u + 1u);
  EXPECT_EQ(coinche_bid_rank(160, false), 160);
  EXPECT_GT(coinche_bid_rank(0, true), coinche_bid_rank(160, false));
}

// ---- Play -----------------------------------------------------------------------------------

struct PlayCase {
  const char* options;  // which rule set: "" default, "beat_off", "free"
  Trump trump;
  Seat leader;
  std::vector<const char*> trick;
  std::vector<const char*> hand;
  std::vector<const char*> legal;
  const char* refused;  // a card outside `legal`, or nullptr
  Refusal refusal;
  const char* source;
};

TEST(CoinchePlay, LegalCardsTable) {
  const Trump at = Trump::all_trumps(), nt = Trump::no_trumps(), h = kHearts;
  const PlayCase cases[] = {
      {"", at, 0, {"9S"}, {"7S", "JS", "AH"}, {"JS"}, "7S", Refusal::must_beat, "All Trumps: beat if able"},
      {"beat_off",
       at,
       0,
       {"9S"},
       {"7S", "JS", "AH"},
       {"7S", "JS"},
       "AH",
       Refusal::must_follow_suit,
       "all_trumps_must_beat: false"},
      {"", at, 0, {"JS"}, {"7S", "9S", "AH"}, {"7S", "9S"}, "AH", Refusal::must_follow_suit, "cannot beat: any"},
      {"", at, 0, {"9S"}, {"7H", "AD"}, {"7H", "AD"}, nullptr, Refusal::none, "All Trumps: void, any card"},
      {"", nt, 0, {"TS"}, {"7S", "AS", "JH"}, {"7S", "AS"}, "JH", Refusal::must_follow_suit, "No Trumps: follow"},
      {"", nt, 0, {"TS"}, {"7H", "AD"}, {"7H", "AD"}, nullptr, Refusal::none, "No Trumps: void, any card"},
      {"", h, 0, {"9H"}, {"JH", "7H", "AS"}, {"JH"}, "7H", Refusal::must_beat, "rule: beat a trump"},
      {"", h, 0, {"9H", "7S"}, {"JH", "7H", "AS"}, {"JH"}, "7H", Refusal::must_beat, "rule: even the partner's"},
      {"", h, 0, {"AS", "7S"}, {"7H", "AD"}, {"7H", "AD"}, nullptr, Refusal::none, "rule: partner master"},
      {"", h, 0, {"AS"}, {"7H", "AD"}, {"7H"}, "AD", Refusal::must_trump, "rule: opponent master"},
      {"", h, 0, {"AS", "TH"}, {"7H", "9H", "AD"}, {"9H"}, "7H", Refusal::must_overtrump, "overtrump"},
      {"", h, 0, {"AS", "JH"}, {"7H", "AD"}, {"7H"}, "AD", Refusal::must_undertrump, "rule: undertrump"},
      {"free", h, 0, {"AS", "JH"}, {"7H", "AD"}, {"7H", "AD"}, nullptr, Refusal::none, "undertrump: free"},
  };
  for (const PlayCase& c : cases) {
    Options o = {{"all_trumps_must_beat", std::string(c.options) != "beat_off"},
                 {"undertrump", std::string(std::string(c.options) == "free" ? "free" : "forced")}};
    const PlayRules rules = coinche_play_rules(o);
    Trick t;
    t.leader = c.leader;
    for (const char* x : c.trick) t.add(C(x), c.trump);
    CardSet hand, legal;
    for (const char* x : c.hand) hand.insert(C(x));
    for (const char* x : c.legal) legal.insert(C(x));
    EXPECT_EQ(legal_plays(hand, t, c.trump, rules), legal) << c.source;
    if (c.refused) {
      EXPECT_EQ(refusal_for(hand, t, c.trump, C(c.refused)), c.refusal) << c.source;
    }
  }
}

// Seat 1 leads; spades are spread so that seat 2 holds 7S and JS after seat 1's 9S.
const Hands kSpread = {{
    {"QS", "KS", "AS", "TH", "JH", "QH", "KH", "AH"},  // seat 0 (dealer)
    {"9S", "7C", "8C", "9C", "TC", "JC", "QC", "KC"},  // seat 1
    {"7S", "JS", "AC", "7D", "8D", "9D", "TD", "JD"},  // seat 2
    {"8S", "TS", "QD", "KD", "AD", "7H", "8H", "9H"},  // seat 3
}};

void bid_and_pass(State& s, Trump t) {
  ASSERT_EQ(s.apply(1, Action::bid(80, t)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s.apply(seat, Action::pass()), Refusal::none);
}

TEST(CoinchePlay, AllTrumpsRefusalsThroughTheState) {
  auto s = make(deck_for(kSpread));
  bid_and_pass(*s, Trump::all_trumps());
  EXPECT_EQ(s->apply(1, Action::bid(90, kHearts)), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(1, Action::double_()), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(2, Action::play(C("7S"))), Refusal::not_your_turn);
  ASSERT_EQ(s->apply(1, Action::play(C("9S"))), Refusal::none);
  EXPECT_EQ(s->apply(2, Action::play(C("7S"))), Refusal::must_beat);
  EXPECT_EQ(s->apply(2, Action::play(C("AC"))), Refusal::must_follow_suit);
  EXPECT_EQ(s->apply(2, Action::play(C("QS"))), Refusal::card_not_in_hand);
  EXPECT_EQ(s->apply(2, Action::play(C("9S"))), Refusal::card_not_in_hand);  // already played
  ASSERT_EQ(s->apply(2, Action::play(C("JS"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("8S"))), Refusal::none);  // cannot beat the jack: any spade
  ASSERT_EQ(s->apply(0, Action::play(C("AS"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 2);  // the jack is the highest in All Trumps
}

TEST(CoinchePlay, NoTrumpsOnlyFollowSuit) {
  auto s = make(deck_for(kSpread));
  bid_and_pass(*s, Trump::no_trumps());
  ASSERT_EQ(s->apply(1, Action::play(C("9S"))), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::play(C("7S"))), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::play(C("TS"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("QS"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 3);  // the ten beats the queen in the plain order
}

// ---- Card points and belote -----------------------------------------------------------------

struct PointRow {
  Rank rank;
  int trump, plain, no_trumps, all_trumps;
};

TEST(CoincheNumbers, CardPointsInEveryMode) {
  // Suit contracts: the card values of the Bazar and French belote rules. No Trumps: the Bazar rules' height, where
  // the ace is 19. All Trumps: the FFB table (docs/rules/coinche.md).
  const PointRow rows[] = {
      {Rank::jack, 20, 2, 2, 14}, {Rank::nine, 14, 0, 0, 9}, {Rank::ace, 11, 11, 19, 6}, {Rank::ten, 10, 10, 10, 5},
      {Rank::king, 4, 4, 4, 3},   {Rank::queen, 3, 3, 3, 1}, {Rank::eight, 0, 0, 0, 0},  {Rank::seven, 0, 0, 0, 0},
  };
  const PointTable p = coinche_points();
  for (const PointRow& r : rows) {
    EXPECT_EQ(p.value(kHearts, Card(Suit::hearts, r.rank)), r.trump);
    EXPECT_EQ(p.value(kHearts, Card(Suit::clubs, r.rank)), r.plain);
    EXPECT_EQ(p.value(Trump::no_trumps(), Card(Suit::diamonds, r.rank)), r.no_trumps);
    EXPECT_EQ(p.value(Trump::all_trumps(), Card(Suit::spades, r.rank)), r.all_trumps);
  }
  // Bazar rules: "In all cases the sum value of the cards equals 152", and 10 for the last trick.
  for (Trump t : {kHearts, kSpades, Trump::no_trumps(), Trump::all_trumps()})
    EXPECT_EQ(p.sum(t, CardSet::deck32()), 152) << to_string(t);
  EXPECT_EQ(p.last_trick, 10);
  EXPECT_EQ(kCoincheDeal, 162);
  EXPECT_EQ(kCoincheCapot, 250);
  EXPECT_EQ(kCoincheMinBid, 80);
  EXPECT_EQ(kCoincheMaxBid, 160);
  EXPECT_EQ(kCoincheBidStep, 10);
}

TEST(CoincheNumbers, OptionValuesAndTarget) {
  const VariantInfo* v = find_variant("coinche");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->players, 4);
  int seen = 0;
  for (const OptionSpec& o : v->options) {
    if (o.name == "target") {
      EXPECT_EQ(std::get<int>(o.default_value), 501);  // Bazar rules: coinche: the first team to 501 wins
      EXPECT_EQ(o.allowed_integers, (std::vector<int>{501, 701, 1001, 1501, 2001}));
      ++seen;
    }
    if (o.name == "declare" || o.name == "deal" || o.name == "scoring") ++seen;
    if (o.name == "declare") {
      EXPECT_EQ(std::get<std::string>(o.default_value), "auto");
    }
  }
  EXPECT_EQ(seen, 4);
  // Bazar rules: the first to reach or pass 501 wins.
  EXPECT_FALSE(target_winner({500, 499}, 501).has_value());
  EXPECT_EQ(target_winner({501, 499}, 501), 0);
  EXPECT_EQ(target_winner({600, 700}, 501), 1);
  EXPECT_FALSE(target_winner({600, 600}, 501).has_value());
}

// Seat 1: every heart; seat 2: every spade; seat 3: every diamond; seat 0: every club.
const Hands kSuits = {{
    {"7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"},
    {"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"},
    {"7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"},
    {"7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"},
}};

TEST(CoincheHand, CapotBidMadeWithDeclarationsAndBelote) {
  auto s = make(deck_for(kSuits));
  ASSERT_EQ(s->apply(1, Action::bid(0, kHearts, true)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  play_out(*s);
  ASSERT_EQ(s->hand_results().size(), 1u);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.outcome, Outcome::made);
  EXPECT_TRUE(r.capot);
  EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick + r.teams[1].capot_bonus, 250);
  // A quint and a tierce each (runs of 8 split, as in french); the trump quint wins the
  // comparison, so seats 1 and 3 count 2 x 120 (Bazar rules: equal combinations: trumps first, then the first to show).
  EXPECT_EQ(r.teams[1].declarations, 240);
  EXPECT_EQ(r.teams[0].declarations, 0);
  EXPECT_EQ(r.teams[1].belote, 20);
  EXPECT_EQ(r.teams[1].score, 250 + 240 + 20 + 250);
  EXPECT_EQ(r.teams[0].score, 0);
  // The target is passed: the match is over.
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->winner(), 1);
}

TEST(CoincheHand, AllTrumpsBeloteInEverySuitAndTheOption) {
  for (const char* option : {"every_suit", "none"}) {
    auto s = make(deck_for(kSuits), {{"all_trumps_belote", std::string(option)}});
    ASSERT_EQ(s->apply(1, Action::bid(80, Trump::all_trumps())), Refusal::none);
    for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
    play_out(*s);
    const HandResult& r = s->hand_results()[0];
    const int belote = std::string(option) == "every_suit" ? 40 : 0;
    EXPECT_EQ(r.teams[1].belote, belote) << option;
    EXPECT_EQ(r.teams[0].belote, belote) << option;
    // Every quint is to the ace and none is in a single trump suit: the first to show (the
    // leader, seat 1) wins the comparison (Bazar rules: equal combinations: trumps first, then the first to show).
    EXPECT_EQ(r.teams[1].declarations, 240);
    EXPECT_TRUE(r.capot);  // seat 1 leads hearts eight times and nobody can follow
    EXPECT_EQ(r.outcome, Outcome::made);
    EXPECT_EQ(r.teams[1].score, 250 + 240 + belote + 80);
    EXPECT_EQ(r.teams[0].score, belote);
    // Each king-queen holder announced belote and rebelote as they were played.
    const Observation o = s->observation(kNoSeat);
    EXPECT_EQ(o.phase, Phase::match_over);
  }
}

TEST(CoincheHand, CoinchedCapotAndDeclarationsSwitchedOff) {
  auto s = make(deck_for(kSuits), {{"declarations", false}, {"target", 2001}});
  ASSERT_EQ(s->apply(1, Action::bid(0, kHearts, true)), Refusal::none);
  ASSERT_EQ(s->apply(2, Action::double_()), Refusal::none);
  ASSERT_EQ(s->apply(3, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.contract->multiplier, 2);
  EXPECT_EQ(r.teams[1].declarations, 0);
  EXPECT_EQ(r.teams[1].score, (250 + 250) * 2 + 20);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{0, 1020}));
  EXPECT_FALSE(s->is_terminal());  // 1020 < 2001
  EXPECT_EQ(s->observation(kNoSeat).dealer, 1);
}

TEST(CoincheHand, ManualDeclarationsAreActions) {
  auto s = make(deck_for(kSuits), {{"declare", std::string("manual")}});
  bid_and_pass(*s, kHearts);
  const CardSet quint = S({"TH", "JH", "QH", "KH", "AH"});
  EXPECT_TRUE(has(s->legal_actions(), Action::announce(quint)));
  EXPECT_EQ(s->apply(1, Action::show(quint)), Refusal::wrong_phase);  // shown before the second card
  ASSERT_EQ(s->apply(1, Action::announce(quint)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(S({"7H", "8H", "AH"}))), Refusal::invalid_combination);
  // Play trick one; then seat 1 shows what it announced and seat 3 cannot show what it did not.
  for (int i = 0; i < 4; ++i) {
    const auto acts = s->legal_actions();
    const auto play =
        std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::play; });
    ASSERT_EQ(s->apply(*play), Refusal::none);
  }
  ASSERT_EQ(s->current_player(), 1);
  ASSERT_EQ(s->apply(1, Action::show(quint)), Refusal::none);
  play_out(*s);
  const HandResult& r = s->hand_results()[0];
  EXPECT_EQ(r.teams[1].declarations, 100);  // only the quint was announced and shown
}

TEST(CoincheHand, ShowingAnUnannouncedCombinationIsRefused) {
  auto s = make(deck_for(kSuits), {{"declare", std::string("manual")}});
  ASSERT_EQ(s->apply(1, Action::bid(80, kHearts)), Refusal::none);
  for (Seat seat : {Seat{2}, Seat{3}, Seat{0}}) ASSERT_EQ(s->apply(seat, Action::pass()), Refusal::none);
  // Trick one: seat 1 leads and wins it, with nothing announced.
  for (int i = 0; i < 4; ++i) {
    const auto acts = s->legal_actions();
    const auto play =
        std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::play; });
    ASSERT_EQ(s->apply(*play), Refusal::none);
  }
  EXPECT_EQ(s->apply(1, Action::show(S({"TH", "JH", "QH", "KH", "AH"}))), Refusal::not_announced);
}

struct DeclCase {
  std::vector<const char*> cards;
  int points;
  const char* source;
};

TEST(CoincheNumbers, DeclarationValuesInEveryMode) {
  // The French table (the Belote Classic rules' values) in suit, No Trumps and All Trumps contracts alike.
  const DeclCase cases[] = {
      {{"7H", "8H", "9H"}, 20, "Belote Classic rules: a tierce is 20"},
      {{"TH", "JH", "QH", "KH"}, 50, "Belote Classic rules: a sequence of four is 50"},
      {{"9S", "TS", "JS", "QS", "KS"}, 100, "Belote Classic rules: a quint is 100"},
      {{"JC", "JD", "JH", "JS"}, 200, "Belote Classic rules: four jacks are 200"},
      {{"9C", "9D", "9H", "9S"}, 150, "Belote Classic rules: four nines are 150"},
      {{"AC", "AD", "AH", "AS"}, 100, "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"TC", "TD", "TH", "TS"}, 100, "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"KC", "KD", "KH", "KS"}, 100, "Belote Classic rules: four aces, tens, kings or queens are 100"},
      {{"QC", "QD", "QH", "QS"}, 100, "Belote Classic rules: four aces, tens, kings or queens are 100"},
  };
  const DeclarationRules rules = french_declarations(true);
  EXPECT_EQ(rules.belote_points, 20);  // French belote rules: belote and rebelote, 20
  for (Trump t : {kHearts, Trump::no_trumps(), Trump::all_trumps()})
    for (const DeclCase& c : cases) {
      CardSet hand;
      for (const char* x : c.cards) hand.insert(C(x));
      const auto best = best_combos(hand, t, rules);
      ASSERT_EQ(best.size(), 1u) << c.source;
      EXPECT_EQ(best[0].points, c.points) << c.source << " in " << to_string(t);
    }
}

// ---- The scoring rule, table by table -------------------------------------------------------

struct ScoreCase {
  const char* label;
  int value;
  bool capot_bid;
  int multiplier;
  // Taking side (team 1): cards, last trick, declarations, belote, tricks; then the defence.
  int t_cards, t_last, t_decl, t_belote, t_tricks;
  int d_cards, d_last, d_decl, d_belote;
  Outcome outcome;
  int t_score, d_score;
};

HandResult score(const ScoreCase& c, CoincheScoring rules) {
  HandResult r;
  Contract k;
  k.taker = 1;
  k.value = c.capot_bid ? 250 : c.value;
  k.capot = c.capot_bid;
  k.multiplier = c.multiplier;
  r.contract = k;
  r.teams[1] = TeamTally{c.t_cards, c.t_last, c.t_decl, c.t_belote, 0, c.t_tricks, 0, 0};
  r.teams[0] = TeamTally{c.d_cards, c.d_last, c.d_decl, c.d_belote, 0, 8 - c.t_tricks, 0, 0};
  if (c.t_tricks == 8 || c.t_tricks == 0) {
    r.capot = true;
    r.capot_team = c.t_tricks == 8 ? 1 : 0;
  }
  score_coinche(r, rules);
  return r;
}

void check(const ScoreCase& c, CoincheScoring rules) {
  const HandResult r = score(c, rules);
  EXPECT_EQ(r.outcome, c.outcome) << c.label;
  EXPECT_EQ(r.teams[1].score, c.t_score) << c.label;
  EXPECT_EQ(r.teams[0].score, c.d_score) << c.label;
  for (const TeamTally& t : r.teams)
    EXPECT_EQ(t.raw, t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote) << c.label;
}

const Outcome kMade = Outcome::made, kFailed = Outcome::failed;

TEST(CoincheScoring, PointsMade) {
  const ScoreCase cases[] = {
      // Bazar rules: a bid of 80 means 82 points (at least the bid, and more than the defence).
      {"80 made with 82", 80, false, 1, 72, 10, 0, 0, 5, 80, 0, 0, 0, kMade, 82 + 80, 80},
      {"80 with 81 is not more than the defence", 80, false, 1, 71, 10, 0, 0, 4, 81, 0, 0, 0, kFailed, 0, 162 + 80},
      {"80 with 80", 80, false, 1, 70, 10, 0, 0, 4, 82, 0, 0, 0, kFailed, 0, 162 + 80},
      {"100 made exactly", 100, false, 1, 90, 10, 0, 0, 5, 62, 0, 0, 0, kMade, 200, 62},
      {"100 with 99", 100, false, 1, 89, 10, 0, 0, 5, 63, 0, 0, 0, kFailed, 0, 262},
      {"belote helps make it", 100, false, 1, 82, 10, 0, 20, 5, 70, 0, 0, 0, kMade, 112 + 100, 70},
      {"declarations help make it", 90, false, 1, 80, 0, 20, 0, 4, 72, 10, 0, 0, kMade, 100 + 90, 82},
      {"the defence keeps its declarations", 80, false, 1, 100, 10, 0, 0, 6, 52, 0, 20, 0, kMade, 190, 72},
      {"defence declarations beat the takers", 80, false, 1, 82, 10, 0, 0, 5, 70, 0, 50, 0, kFailed, 0, 162 + 80 + 50},
      {"failed: the takers' declarations go over", 120, false, 1, 60, 0, 50, 0, 3, 92, 10, 0, 0, kFailed, 0,
       162 + 120 + 50},
      {"failed: belote stays with its holders", 100, false, 1, 60, 0, 0, 20, 3, 92, 10, 0, 0, kFailed, 20, 262},
      {"failed: the defence's belote", 100, false, 1, 60, 0, 0, 0, 3, 92, 10, 0, 20, kFailed, 0, 262 + 20},
      {"coinche made: (162 + bid) x 2", 80, false, 2, 90, 10, 0, 0, 5, 62, 0, 0, 0, kMade, (162 + 80) * 2, 0},
      {"coinche failed", 120, false, 2, 90, 0, 0, 0, 4, 62, 10, 0, 0, kFailed, 0, (162 + 120) * 2},
      {"coinche made, declarations and belote on top", 80, false, 2, 90, 10, 20, 20, 5, 62, 0, 0, 0, kMade,
       (162 + 80) * 2 + 20 + 20, 0},
      {"coinche failed, the takers keep belote", 100, false, 2, 60, 0, 0, 20, 3, 92, 10, 0, 0, kFailed, 20,
       (162 + 100) * 2},
      {"surcoinche made: x 4", 80, false, 4, 90, 10, 0, 0, 5, 62, 0, 0, 0, kMade, (162 + 80) * 4, 0},
      {"surcoinche failed", 80, false, 4, 70, 0, 0, 0, 4, 82, 10, 0, 0, kFailed, 0, (162 + 80) * 4},
      {"capot bid made: 250 + 250", 0, true, 1, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, 500, 0},
      {"capot bid made with declarations and belote", 0, true, 1, 152, 10, 50, 20, 8, 0, 0, 0, 0, kMade, 570, 0},
      {"capot bid failed on points enough for 160", 0, true, 1, 150, 10, 0, 0, 7, 2, 0, 0, 0, kFailed, 0, 500},
      {"capot bid coinched and made", 0, true, 2, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, 1000, 0},
      {"capot bid surcoinched and failed", 0, true, 4, 140, 10, 0, 20, 7, 12, 0, 0, 0, kFailed, 20, 2000},
      {"unbid capot: 250 (Bazar rules: capot 250) + bid", 80, false, 1, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, 330, 0},
      {"unbid capot coinched", 80, false, 2, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, (250 + 80) * 2, 0},
      {"defence capot", 80, false, 1, 0, 0, 0, 0, 0, 152, 10, 0, 0, kFailed, 0, 250 + 80},
      {"defence capot, coinched", 100, false, 2, 0, 0, 0, 0, 0, 152, 10, 0, 0, kFailed, 0, (250 + 100) * 2},
  };
  for (const ScoreCase& c : cases) check(c, CoincheScoring{});
}

TEST(CoincheScoring, CardsOnlyMakeTheContract) {
  // `contract_counts: cards_only`: declarations and belote are scored but do not help.
  CoincheScoring rules;
  rules.declarations_make_contract = false;
  const ScoreCase cases[] = {
      {"belote does not help", 100, false, 1, 82, 10, 0, 20, 5, 70, 0, 0, 0, kFailed, 20, 262},
      {"declarations do not help", 90, false, 1, 80, 0, 20, 0, 4, 72, 10, 0, 0, kFailed, 0, 162 + 90 + 20},
      {"defence declarations do not hurt", 80, false, 1, 82, 10, 0, 0, 5, 70, 0, 50, 0, kMade, 92 + 80, 120},
      {"82 still needed for 80", 80, false, 1, 71, 10, 0, 20, 4, 81, 0, 0, 0, kFailed, 20, 242},
      {"made, belote still scored", 80, false, 1, 82, 10, 0, 20, 5, 70, 0, 0, 0, kMade, 112 + 80, 70},
  };
  for (const ScoreCase& c : cases) check(c, rules);
}

TEST(CoincheScoring, ContractOnly) {
  CoincheScoring rules;
  rules.scheme = CoincheScheme::contract_only;
  const ScoreCase cases[] = {
      {"made: the bid", 110, false, 1, 100, 10, 0, 0, 5, 52, 0, 0, 0, kMade, 110, 0},
      {"failed: the bid to the defence", 110, false, 1, 90, 10, 0, 0, 5, 62, 0, 0, 0, kFailed, 0, 110},
      {"coinche made", 110, false, 2, 100, 10, 0, 0, 5, 52, 0, 0, 0, kMade, 220, 0},
      {"surcoinche failed", 110, false, 4, 90, 10, 0, 0, 5, 62, 0, 0, 0, kFailed, 0, 440},
      {"capot bid made", 0, true, 1, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, 250, 0},
      {"capot bid failed, coinched", 0, true, 2, 152, 0, 0, 0, 7, 0, 10, 0, 0, kFailed, 0, 500},
      {"belote kept by both", 110, false, 1, 80, 0, 0, 20, 4, 72, 10, 0, 20, kFailed, 20, 130},
      {"declarations are not scored", 80, false, 1, 92, 10, 50, 0, 5, 60, 0, 0, 0, kMade, 80, 0},
  };
  for (const ScoreCase& c : cases) check(c, rules);
}

TEST(CoincheScoring, CapotBonusIsTheDifferenceTo250) {
  const HandResult r = score({"", 80, false, 1, 152, 10, 0, 0, 8, 0, 0, 0, 0, kMade, 0, 0}, CoincheScoring{});
  EXPECT_EQ(r.teams[1].capot_bonus, 88);
  EXPECT_EQ(r.teams[1].raw, 250);
  EXPECT_EQ(r.teams[0].capot_bonus, 0);
}

}  // namespace
}  // namespace atout
