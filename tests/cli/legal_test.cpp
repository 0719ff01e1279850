// `atout legal`: legal plays for a position given by hand, and legal actions at the end of a record.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

const Seed kDeal{0x1e6a1, 7};
const Seed kPolicy{0x9011c7, 7};

CliRun legal_of(const json& input) { return run_cli({"legal", "-"}, input.dump()); }

// The cards of a `legal` answer, in its order.
std::vector<std::string> legal_cards(const CliRun& r) {
  std::vector<std::string> cards;
  const json out = output_json(r);
  for (const json& a : out["legal"]) {
    EXPECT_EQ(a["type"], "play") << a;
    cards.push_back(a["card"]);
  }
  return cards;
}

json french_position(int seat, json hand, json trick, const std::string& trump = "hearts") {
  return {{"variant", "french"},
          {"contract", {{"trump", trump}}},
          {"seat", seat},
          {"hand", std::move(hand)},
          {"trick", {{"cards", std::move(trick)}}}};
}

using Cards = std::vector<std::string>;

// ---- positions ----------------------------------------------------------------------------------------

TEST(CliLegalPosition, VoidInTheSuitLedMustTrump) {
  // Seat 0 led a spade; seat 1 (an opponent of seat 0) has no spade but hearts, which are trumps.
  const CliRun r = legal_of(french_position(1, {"7H", "JH", "AC", "KD", "8D"}, {"AS"}));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(output_json(r)["seat"], 1);
  EXPECT_EQ(legal_cards(r), (Cards{"7H", "JH"}));
}

TEST(CliLegalPosition, PartnerHoldingTheTrickFreesThePlayer) {
  // Seat 0 led the ace of spades and holds the trick; seat 2, its partner, has no spade: any card.
  const CliRun r = legal_of(french_position(2, {"7H", "JH", "AC", "KD"}, {"AS", "7S"}));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(legal_cards(r), (Cards{"AC", "KD", "7H", "JH"}));
}

TEST(CliLegalPosition, MustFollowTheSuitLed) {
  const CliRun r = legal_of(french_position(1, {"7S", "KS", "JH", "AC"}, {"AS"}));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(legal_cards(r), (Cards{"7S", "KS"}));
}

TEST(CliLegalPosition, MustOvertrumpAnOpponentsTrump) {
  // Seat 0 led a spade, seat 1 trumped with the nine of hearts; seat 2 has no spade and must play over the nine.
  const CliRun r = legal_of(french_position(2, {"8H", "JH", "AC", "KD"}, {"AS", "9H"}));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(legal_cards(r), (Cards{"JH"}));
}

TEST(CliLegalPosition, TrumpsLedMustGoOver) {
  const CliRun r = legal_of(french_position(1, {"8H", "AH", "JH", "AC"}, {"9H"}));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(legal_cards(r), (Cards{"JH"}));
}

TEST(CliLegalPosition, LeadingAnyCard) {
  const CliRun r = legal_of(french_position(3, {"8H", "AC", "KD"}, json::array()));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(legal_cards(r), (Cards{"AC", "KD", "8H"}));
}

TEST(CliLegalPosition, UnknownVariant) {
  json p = french_position(1, {"7H"}, {"AS"});
  p["variant"] = "bridge";
  EXPECT_TRUE(fails_with(legal_of(p), kExitBadInput, {"bad position", "unknown variant 'bridge'"}));
}

TEST(CliLegalPosition, BadOption) {
  json p = french_position(1, {"7H"}, {"AS"});
  p["options"] = {{"undertrump", "sometimes"}};
  EXPECT_TRUE(fails_with(legal_of(p), kExitBadInput, {"bad position", "'undertrump'"}));
}

TEST(CliLegalPosition, BadTrump) {
  EXPECT_TRUE(
      fails_with(legal_of(french_position(1, {"7H"}, {"AS"}, "roses")), kExitBadInput, {"bad position", "'roses'"}));
}

TEST(CliLegalPosition, SeatOutOfRange) {
  EXPECT_TRUE(fails_with(legal_of(french_position(4, {"7H"}, {"AS"})), kExitBadInput, {"bad position", "'seat'"}));
}

TEST(CliLegalPosition, SeatThatOverflowsAnInt) {
  // 2^32 + 1 is no seat, whatever it becomes once truncated to an int.
  json p = french_position(1, {"7H", "AC"}, {"AS"});
  p["seat"] = 4294967297LL;
  EXPECT_TRUE(fails_with(legal_of(p), kExitBadInput, {"bad position", "'seat'"}));
  p["seat"] = -4294967295LL;
  EXPECT_TRUE(fails_with(legal_of(p), kExitBadInput, {"bad position", "'seat'"}));
}

TEST(CliLegalPosition, CardInBothHandAndTrick) {
  EXPECT_TRUE(fails_with(legal_of(french_position(1, {"7H", "AS"}, {"AS"})), kExitBadInput,
                         {"bad position", "both in the hand and in the trick"}));
}

TEST(CliLegalPosition, RepeatedCardInHand) {
  EXPECT_TRUE(
      fails_with(legal_of(french_position(1, {"7H", "7H"}, {"AS"})), kExitBadInput, {"bad position", "7H", "twice"}));
}

TEST(CliLegalPosition, StringThatIsNotACard) {
  EXPECT_TRUE(fails_with(legal_of(french_position(1, {"7H", "QX"}, {"AS"})), kExitBadInput,
                         {"bad position", "'QX' is not a card"}));
}

TEST(CliLegalPosition, FullTrick) {
  EXPECT_TRUE(fails_with(legal_of(french_position(0, {"7H"}, {"AS", "KS", "QS", "JS"})), kExitBadInput,
                         {"bad position", "every seat"}));
}

TEST(CliLegalPosition, EmptyHand) {
  EXPECT_TRUE(
      fails_with(legal_of(french_position(1, json::array(), {"AS"})), kExitBadInput, {"bad position", "empty"}));
}

// ---- records ----------------------------------------------------------------------------------------

// The engine's legal actions as the CLI prints them.
json engine_legal(const State& s) {
  json legal = json::array();
  for (const Action& a : s.legal_actions()) legal.push_back(protocol::to_json(a));
  return legal;
}

void expect_legal_matches_engine(const State& s) {
  const CliRun r = run_cli({"legal", scratch_file(record_text(record_json(s)))});
  ASSERT_TRUE(exited_with(r, kExitOk));
  const json out = output_json(r);
  EXPECT_EQ(out["phase"], to_string(s.phase()));
  EXPECT_EQ(out["seat"], s.current_player());
  EXPECT_EQ(out["legal"], engine_legal(s)) << "after " << s.record().actions.size() << " actions";
}

TEST(CliLegalRecord, EndOfRecordMatchesTheEngine) {
  // Several stopping points: first-round bidding, second-round bidding, mid-trick, a new hand.
  const std::vector<std::function<bool(const State&)>> stops = {
      [](const State& s) { return s.record().actions.empty(); },
      [](const State& s) { return s.phase() == Phase::bidding && s.observation(kNoSeat).bids.size() == 5; },
      [](const State& s) { return s.phase() == Phase::playing && s.observation(kNoSeat).trick.count == 2; },
      [](const State& s) { return s.phase() == Phase::playing && s.observation(kNoSeat).tricks.size() == 7; },
      [](const State& s) { return s.hand_results().size() == 1; },
  };
  for (std::size_t i = 0; i < stops.size(); ++i) {
    SCOPED_TRACE("stop " + std::to_string(i));
    // Second-round bidding needs four passes first; try policies until one gets there.
    bool reached = false;
    for (std::uint64_t k = 0; k < 64 && !reached; ++k) {
      auto s = new_match("french", json::object(), Seed{kDeal.hi, kDeal.lo + k});
      Rng rng(Seed{kPolicy.hi, kPolicy.lo + k});
      ASSERT_TRUE(play_random(*s, rng, stops[i]));
      if (s->is_terminal() || !stops[i](*s)) continue;
      reached = true;
      expect_legal_matches_engine(*s);
    }
    EXPECT_TRUE(reached);
  }
}

TEST(CliLegalRecord, DuelMatchesTheEngine) {
  auto s = new_match("duel", json::object(), kDeal);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng, [](const State& st) { return st.record().actions.size() == 40; }));
  ASSERT_FALSE(s->is_terminal());
  expect_legal_matches_engine(*s);
}

TEST(CliLegalRecord, FinishedMatchHasNoLegalAction) {
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng));
  const CliRun r = run_cli({"legal", "-"}, record_text(record_json(*s)));
  ASSERT_TRUE(exited_with(r, kExitOk));
  const json out = output_json(r);
  EXPECT_EQ(out["phase"], "match_over");
  EXPECT_TRUE(out["seat"].is_null());
  EXPECT_EQ(out["legal"], json::array());
}

TEST(CliLegalRecord, RefusedActionExitsOne) {
  auto s = new_match("french", json::object(), kDeal);
  const Seat other = static_cast<Seat>((s->current_player() + 1) % 4);
  json rec = record_json(*s);
  rec["actions"].push_back({{"type", "pass"}, {"seat", other}});
  EXPECT_TRUE(fails_with(run_cli({"legal", "-"}, record_text(rec)), kExitRefused, {"action 0", "not_your_turn"}));
}

TEST(CliLegalBadInput, MalformedJson) {
  EXPECT_TRUE(fails_with(run_cli({"legal", "-"}, "{\"variant\": \"french\", "), kExitBadInput, {"malformed JSON"}));
}

TEST(CliLegalBadInput, NotAnObject) {
  EXPECT_TRUE(fails_with(run_cli({"legal", "-"}, "[\"7H\"]"), kExitBadInput, {"must be a JSON object"}));
}

TEST(CliLegalBadInput, NoArgumentAndTwoArguments) {
  EXPECT_TRUE(fails_with(run_cli({"legal"}), kExitBadInput, {"expected exactly one input"}));
  EXPECT_TRUE(fails_with(run_cli({"legal", "a.json", "b.json"}), kExitBadInput, {"expected exactly one input"}));
}

TEST(CliLegalBadInput, NonexistentFile) {
  EXPECT_TRUE(fails_with(run_cli({"legal", "/nonexistent/position.json"}), kExitBadInput, {"cannot read"}));
}

}  // namespace
}  // namespace atout::cli_test
