// The rules and sampling bots on hand-made views, and the sampling bot's determinism.
#include "atout/bots/bot.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "match_driver.hpp"

namespace atout::bots {
namespace {

CardSet cards(const std::string& text) {
  CardSet out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    out.insert(*parse_card(text.substr(at, end - at)));
    at = end + 1;
  }
  return out;
}

Options french_options() {
  Options o;
  normalise_options(*find_variant("french"), o);
  return o;
}

// A french play-phase view for `seat`: `own` cards, hearts-or-other `trump` taken by `taker`, the
// trick so far led by `leader`; its legal cards from the engine's rules.
Observation play_view(Seat seat, const std::string& own, Trump trump, Seat taker, Seat leader,
                      const std::vector<std::string>& trick) {
  Observation v;
  v.variant = "french";
  v.seat = seat;
  v.players = 4;
  v.phase = Phase::playing;
  v.current = seat;
  v.own = cards(own);
  Contract c;
  c.taker = taker;
  c.trump = trump;
  v.contract = c;
  v.trick.leader = leader;
  for (const std::string& t : trick) v.trick.add(*parse_card(t), trump);
  for (int s = 0; s < 4; ++s) v.hand_sizes[static_cast<std::size_t>(s)] = 8 - (s == seat ? 8 - v.own.size() : 0);
  for (int i = 0; i < v.trick.count; ++i) --v.hand_sizes[static_cast<std::size_t>(seat_of(v.trick, i, 4))];
  v.hand_sizes[static_cast<std::size_t>(seat)] = v.own.size();
  for (Card c2 : legal_plays(v.own, v.trick, trump, PlayRules{})) v.legal.push_back(Action::play(c2));
  return v;
}

Decision rules_decide(const Observation& v, const Options& o) {
  Request r;
  r.level = Level::rules;
  r.view = &v;
  r.options = &o;
  return decide(r);
}

TEST(RulesBot, GivesPointsToThePartnersMasterCard) {
  // The partner (seat 2) leads the ace of spades; seat 3 follows; seat 0 has no spade.
  const Options o = french_options();
  const Observation v = play_view(0, "TH 7H AC 8D QD 9D 7C 8H", Trump::of(Suit::clubs), 1, 2, {"AS", "7S"});
  const Decision d = rules_decide(v, o);
  EXPECT_EQ(d.action, Action::play(*parse_card("TH"))) << d.reason;
}

TEST(RulesBot, TheTakerDrawsTrumpsWithTheMaster) {
  const Options o = french_options();
  const Observation v = play_view(0, "JH 9H 7H AS TS 8D 7D KC", Trump::of(Suit::hearts), 0, 0, {});
  const Decision d = rules_decide(v, o);
  EXPECT_EQ(d.action, Action::play(*parse_card("JH"))) << d.reason;
}

TEST(RulesBot, ALostTrickGetsTheCheapestCard) {
  // An opponent's jack of trumps holds the trick; seat 0 must follow hearts and cannot beat it.
  const Options o = french_options();
  const Observation v = play_view(0, "AH 7H AS TS 8D 7D KC QC", Trump::of(Suit::hearts), 1, 3, {"JH"});
  const Decision d = rules_decide(v, o);
  EXPECT_EQ(d.action, Action::play(*parse_card("7H"))) << d.reason;
}

TEST(RulesBot, TakesTheLastPlaceTrickAsCheaplyAsPossible) {
  // Seat 0 plays last to a trick held by an opponent's king of spades: the ace wins, so does the ten;
  // the ten is worth less.
  const Options o = french_options();
  const Observation v = play_view(0, "AS TS 8D 7D KC QC 7H 8H", Trump::of(Suit::hearts), 1, 1, {"KS", "7S", "QS"});
  const Decision d = rules_decide(v, o);
  EXPECT_EQ(d.action, Action::play(*parse_card("TS"))) << d.reason;
}

Observation bidding_view(const std::string& own, const std::string& turn_up) {
  Observation v;
  v.variant = "french";
  v.seat = 1;
  v.players = 4;
  v.phase = Phase::bidding;
  v.current = 1;
  v.dealer = 0;
  v.own = cards(own);
  v.hand_sizes = {5, 5, 5, 5};
  v.turn_up = *parse_card(turn_up);
  v.legal = {Action::pass(), Action::take()};
  return v;
}

TEST(RulesBot, TakesWithTheJackAndAnAceAndPassesWithNothing) {
  const Options o = french_options();
  EXPECT_EQ(rules_decide(bidding_view("9H AH AS TS 7D", "JH"), o).action.type, ActionType::take);
  EXPECT_EQ(rules_decide(bidding_view("7C 8D 9S QH KD", "7H"), o).action.type, ActionType::pass);
}

// A head-to-head player's first-round view (seat 1, the non-dealer, speaks first) with six cards.
Observation duel_bidding_view(const std::string& own, const std::string& turn_up) {
  Observation v = bidding_view(own, turn_up);
  v.variant = "duel";
  v.players = 2;
  v.hand_sizes = {6, 6};
  return v;
}

// Head-to-head deals 18 of 32 cards, so trump length and control win the hand and plain masters
// count for less than in the four-seat game: the rules bot takes five trumps headed by the jack
// and the nine without a side ace, and passes three side aces with a single small trump.
TEST(RulesBot, HeadToHeadTakesOnTrumpLengthAndControlNotSideAces) {
  Options o;
  normalise_options(*find_variant("duel"), o);
  EXPECT_EQ(rules_decide(duel_bidding_view("JH QH 8H 7H TS 8C", "9H"), o).action.type, ActionType::take);
  EXPECT_EQ(rules_decide(duel_bidding_view("AS AD AC KS TD 8C", "7H"), o).action.type, ActionType::pass);
}

TEST(RulesBot, CoincheBidsItsStrengthInItsSuit) {
  Options o;
  normalise_options(*find_variant("coinche"), o);
  Observation v;
  v.variant = "coinche";
  v.seat = 1;
  v.players = 4;
  v.phase = Phase::bidding;
  v.current = 1;
  v.own = cards("JH 9H AH TH AS AC 7D 8D");
  v.hand_sizes = {8, 8, 8, 8};
  v.legal.push_back(Action::pass());
  for (int value = 80; value <= 160; value += 10)
    for (Trump t : {Trump::of(Suit::clubs), Trump::of(Suit::hearts), Trump::no_trumps(), Trump::all_trumps()})
      v.legal.push_back(Action::bid(value, t));
  const Decision d = rules_decide(v, o);
  ASSERT_EQ(d.action.type, ActionType::bid) << d.reason;
  EXPECT_EQ(d.action.trump, Trump::of(Suit::hearts)) << d.reason;
  EXPECT_GE(d.action.value, 100) << d.reason;
  // A hand with nothing passes.
  v.own = cards("7H 8H 7S 8S 9S 7C 8C 9D");
  EXPECT_EQ(rules_decide(v, o).action.type, ActionType::pass);
}

TEST(Bots, RulesAndSamplingNeedOptionsOrPlayTheStandIn) {
  const Observation v = play_view(0, "JH 9H 7H AS TS 8D 7D KC", Trump::of(Suit::hearts), 0, 0, {});
  Request r;
  r.view = &v;
  for (Level level : {Level::rules, Level::sampling}) {
    r.level = level;
    const Decision d = decide(r);
    EXPECT_NE(std::find(v.legal.begin(), v.legal.end(), d.action), v.legal.end());
    EXPECT_NE(d.reason.find("stand-in"), std::string::npos);
  }
  Observation none = v;
  none.legal.clear();
  r.view = &none;
  EXPECT_THROW(decide(r), std::invalid_argument);
}

// Positions in play from random matches of `variant`, current seat's view.
std::vector<std::pair<std::unique_ptr<State>, Observation>> play_positions(const std::string& variant, int count) {
  std::vector<std::pair<std::unique_ptr<State>, Observation>> out;
  testing::MatchCase c{variant, 9, 0, {}};
  testing::RandomMatch match(c, "determinism");
  Rng rng(Seed{9, 9});
  while (static_cast<int>(out.size()) < count) {
    match.step(rng);
    const State& s = match.state();
    if (s.phase() != Phase::playing || rng.below(5) != 0) continue;
    Observation v = s.observation(s.current_player());
    int plays = 0, others = 0;
    for (const Action& a : v.legal) {
      plays += a.type == ActionType::play ? 1 : 0;
      others += a.type == ActionType::announce || a.type == ActionType::show ? 1 : 0;
    }
    if (plays >= 2 && others == 0) out.emplace_back(s.clone(), std::move(v));
  }
  return out;
}

TEST(SamplingBot, TheSameSeedAndWorldsGiveTheSameCard) {
  for (const std::string variant : {"french", "coinche", "duel", "simple"}) {
    const auto positions = play_positions(variant, 12);
    for (const auto& [state, view] : positions) {
      Request r;
      r.level = Level::sampling;
      r.view = &view;
      r.options = &state->record().options;
      r.seed = 42;
      r.budget.worlds = 3;
      const Decision a = decide(r);
      const Decision b = decide(r);
      EXPECT_EQ(a.action, b.action);
      EXPECT_EQ(a.reason, b.reason);
      EXPECT_EQ(a.reason.rfind("3 worlds", 0), 0u) << a.reason;
      // The reason lists every legal card's average.
      for (const Action& x : view.legal)
        if (x.type == ActionType::play) {
          EXPECT_NE(a.reason.find(to_string(x.card)), std::string::npos) << a.reason;
        }
      EXPECT_NE(std::find(view.legal.begin(), view.legal.end(), a.action), view.legal.end());
    }
  }
}

// A time budget is never overrun by a world: with no time at all, every world is given up and the
// rules bot decides, saying so.
TEST(SamplingBot, AWorldUnsolvedWhenTheTimeIsSpentIsGivenUp) {
  const auto positions = play_positions("french", 3);
  int checked = 0;
  for (const auto& [state, view] : positions) {
    Request r;
    r.level = Level::sampling;
    r.view = &view;
    r.options = &state->record().options;
    r.budget.time = std::chrono::milliseconds(0);
    const Decision d = decide(r);
    EXPECT_NE(std::find(view.legal.begin(), view.legal.end(), d.action), view.legal.end());
    const bool all_cards =
        std::all_of(view.legal.begin(), view.legal.end(), [](const Action& a) { return a.type == ActionType::play; });
    if (view.legal.size() < 2 || !all_cards) continue;  // the only card, or not only cards: no world
    ++checked;
    EXPECT_EQ(d.reason.rfind("no world solved in time; rules: ", 0), 0u) << d.reason;
  }
  EXPECT_GT(checked, 0);
}

// The time budget is kept by not starting a world that the slowest one so far says would end
// past it; an overrun is then at most the first world's own time.
TEST(SamplingBot, StartsAnotherWorldOnlyWhenTheSlowestSoFarWouldStillFit) {
  using std::chrono::milliseconds;
  const Budget b{.worlds = 0, .time = milliseconds(300)};
  EXPECT_TRUE(b.fits(milliseconds(100), milliseconds(50)));
  EXPECT_TRUE(b.fits(milliseconds(249), milliseconds(50)));
  EXPECT_FALSE(b.fits(milliseconds(250), milliseconds(50)));
  EXPECT_FALSE(b.fits(milliseconds(200), milliseconds(120)));
  EXPECT_FALSE(b.fits(milliseconds(0), milliseconds(301)));
  const Budget none{.worlds = 0, .time = milliseconds(0)};
  EXPECT_FALSE(none.fits(milliseconds(0), milliseconds(0)));
}

// Rules (seats 0 and 2) against random (1 and 3) over whole french matches: practice must win
// nearly all of them.
TEST(RulesBot, BeatsRandomPlay) {
  int rules_won = 0;
  const int matches = 20;
  for (int m = 0; m < matches; ++m) {
    Record header;
    header.variant = "french";
    header.deal.seed = Seed{77, static_cast<std::uint64_t>(m)};
    std::unique_ptr<State> state = create_state(header).state;
    const Options& o = state->record().options;
    std::uint64_t n = 0;
    while (!state->is_terminal()) {
      const Observation v = state->observation(state->current_player());
      Request r;
      r.level = state->current_player() % 2 == 0 ? Level::rules : Level::random;
      r.view = &v;
      r.options = &o;
      r.seed = ++n;
      ASSERT_EQ(state->apply(decide(r).action), Refusal::none);
    }
    rules_won += state->winner() == 0 ? 1 : 0;
  }
  EXPECT_GE(rules_won, 17) << rules_won << " of " << matches;
}

}  // namespace
}  // namespace atout::bots
