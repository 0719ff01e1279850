// `atout replay`: bad input exits 2 naming the problem, refused actions exit 1 naming the index, and an
// unfinished record is not an error.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

const Seed kDeal{0x5eed, 0xc11};
const Seed kPolicy{0x9011c7, 0xc11};

// A finished French match played by the random policy.
json full_match() {
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  play_random(*s, rng);
  return record_json(*s);
}

// A French match stopped when `stop` first holds.
std::unique_ptr<State> match_until(const std::function<bool(const State&)>& stop, Seed deal = kDeal,
                                   Seed policy = kPolicy) {
  auto s = new_match("french", json::object(), deal);
  Rng rng(policy);
  play_random(*s, rng, stop);
  return s;
}

CliRun replay_text(const std::string& text) { return run_cli({"replay", "-"}, text); }
CliRun replay_json(const json& record) { return replay_text(record_text(record)); }

// A header whose single deal is an explicit deck of all 32 cards in index order.
json deck_record() {
  json deck = json::array();
  for (Card c : CardSet::deck32()) deck.push_back(to_string(c));
  return {
      {"format", "atout-record/1"}, {"variant", "french"}, {"deal", {{"decks", {deck}}}}, {"hands", 1}, {"dealer", 0},
      {"actions", json::array()}};
}

// ---- input that is not a well-formed record: exit 2 ------------------------------------------------------

TEST(CliReplayBadInput, TruncatedTextIsMalformedJson) {
  const std::string text = record_text(full_match());
  const CliRun r = replay_text(text.substr(0, text.size() / 2));
  EXPECT_TRUE(fails_with(r, kExitBadInput, {"malformed JSON", "byte"}));
}

TEST(CliReplayBadInput, EmptyInputIsMalformedJson) {
  EXPECT_TRUE(fails_with(replay_text(""), kExitBadInput, {"malformed JSON"}));
}

TEST(CliReplayBadInput, TrailingGarbageIsMalformedJson) {
  EXPECT_TRUE(fails_with(replay_text(record_text(full_match()) + "}"), kExitBadInput, {"malformed JSON"}));
}

TEST(CliReplayBadInput, RecordThatIsNotAnObject) {
  for (const char* text : {"[1, 2, 3]", "\"french\"", "42", "null"})
    EXPECT_TRUE(fails_with(replay_text(text), kExitBadInput, {"bad record", "must be a JSON object"})) << text;
}

TEST(CliReplayBadInput, MissingVariant) {
  json rec = full_match();
  rec.erase("variant");
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad record", "'variant'"}));
}

TEST(CliReplayBadInput, VariantThatIsNotAString) {
  json rec = full_match();
  rec["variant"] = 4;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"'variant'"}));
}

TEST(CliReplayBadInput, UnknownVariantListsTheKnownOnes) {
  json rec = full_match();
  rec["variant"] = "klaverjas";
  const CliRun r = replay_json(rec);
  EXPECT_TRUE(fails_with(r, kExitBadInput, {"unknown_variant", "'klaverjas'"}));
  for (const VariantInfo& v : variants()) EXPECT_TRUE(err_mentions(r, {v.id}));
}

TEST(CliReplayBadInput, UnknownFormat) {
  json rec = full_match();
  rec["format"] = "atout-record/9";
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"format", "atout-record/1"}));
}

TEST(CliReplayBadInput, BadOptionName) {
  json rec = full_match();
  rec["options"]["trumps_everywhere"] = true;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_option", "'trumps_everywhere'"}));
}

TEST(CliReplayBadInput, BadOptionValueListsTheAllowedOnes) {
  json rec = full_match();
  rec["options"]["target"] = 600;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_option", "'target'", "600", "501"}));
}

TEST(CliReplayBadInput, BadOptionChoice) {
  json rec = full_match();
  rec["options"]["tie"] = "coin_flip";
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_option", "'tie'", "coin_flip", "litige"}));
}

TEST(CliReplayBadInput, BadOptionType) {
  json rec = full_match();
  rec["options"]["declarations"] = "yes";
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_option", "'declarations'", "true or false"}));
  rec["options"]["declarations"] = 1.5;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"'declarations'"}));
}

TEST(CliReplayBadInput, BadSeedString) {
  for (const char* seed : {"not-a-seed", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdeg", ""}) {
    json rec = full_match();
    rec["deal"]["seed"] = seed;
    EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"deal.seed", "32 hexadecimal digits"})) << seed;
  }
  json rec = full_match();
  rec["deal"]["seed"] = 12345;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"deal.seed"}));
}

TEST(CliReplayBadInput, MissingDeal) {
  json rec = full_match();
  rec.erase("deal");
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"'deal'"}));
}

TEST(CliReplayBadInput, DealerThatIsNotASeatOfTheVariant) {
  auto s = new_match("duel", json::object(), kDeal);
  json rec = record_json(*s);
  rec["dealer"] = 3;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_deal", "dealer 3", "duel"}));
  rec["dealer"] = 9;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"'dealer'"}));
}

TEST(CliReplayBadInput, ExplicitDeckIsAccepted) {
  // The control for the deck tests below: the same record with a sound deck replays.
  const CliRun r = replay_json(deck_record());
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_EQ(output_json(r)["complete"], false);
}

TEST(CliReplayBadInput, DeckWithARepeatedCard) {
  json rec = deck_record();
  rec["deal"]["decks"][0][5] = rec["deal"]["decks"][0][4];
  const std::string repeated = rec["deal"]["decks"][0][4];
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_deal", "deck 0", "repeats", repeated}));
}

TEST(CliReplayBadInput, DeckWithAMissingCard) {
  json rec = deck_record();
  rec["deal"]["decks"][0].erase(rec["deal"]["decks"][0].size() - 1);
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"bad_deal", "31"}));
}

TEST(CliReplayBadInput, DeckWithAStringThatIsNotACard) {
  json rec = deck_record();
  rec["deal"]["decks"][0][3] = "1X";
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"deal.decks", "'1X' is not a card"}));
}

TEST(CliReplayBadInput, PlayedCardThatIsNotACard) {
  auto s = match_until([](const State& st) { return st.phase() == Phase::playing; });
  json rec = record_json(*s);
  const std::size_t index = rec["actions"].size();
  rec["actions"].push_back({{"type", "play"}, {"card", "ZZ"}, {"seat", s->current_player()}});
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"action " + std::to_string(index), "'ZZ' is not a card"}));
  rec["actions"][index]["card"] = 7;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"action " + std::to_string(index), "card"}));
}

TEST(CliReplayBadInput, UnknownActionType) {
  json rec = full_match();
  rec["actions"][3]["type"] = "trump_it";
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"action 3", "unknown action type 'trump_it'"}));
}

TEST(CliReplayBadInput, ActionWithoutAType) {
  json rec = full_match();
  rec["actions"][2].erase("type");
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"action 2", "'type'"}));
}

TEST(CliReplayBadInput, ActionSeatOutOfRange) {
  json rec = full_match();
  rec["actions"][1]["seat"] = 7;
  EXPECT_TRUE(fails_with(replay_json(rec), kExitBadInput, {"action 1", "'seat'"}));
}

TEST(CliReplayBadInput, NonexistentFile) {
  const std::string path = "/nonexistent/atout/record.json";
  EXPECT_TRUE(fails_with(run_cli({"replay", path}), kExitBadInput, {"cannot read", path}));
}

TEST(CliReplayBadInput, DirectoryInsteadOfAFile) {
  // A directory opens but cannot be read; the message must say so rather than blame the JSON.
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_TRUE(fails_with(run_cli({"replay", dir}), kExitBadInput, {"cannot read", dir}));
}

TEST(CliReplayBadInput, NoArgument) {
  EXPECT_TRUE(fails_with(run_cli({"replay"}), kExitBadInput, {"expected exactly one input"}));
}

TEST(CliReplayBadInput, TwoArguments) {
  const std::string a = scratch_file(record_text(full_match()));
  const std::string b = scratch_file(record_text(full_match()));
  EXPECT_TRUE(fails_with(run_cli({"replay", a, b}), kExitBadInput, {"expected exactly one input"}));
}

// ---- rule refusals: exit 1, naming the index of the refused action and the reason ------------------------

TEST(CliReplayRefused, CardAlreadyPlayed) {
  // Stop as the winner of the first trick is about to lead the second, and have them lead again the card they
  // won the first trick with.
  auto s = match_until([](const State& st) {
    const Observation o = st.observation(kNoSeat);
    return st.phase() == Phase::playing && o.tricks.size() == 1 && o.trick.count == 0;
  });
  ASSERT_EQ(s->phase(), Phase::playing);
  const Observation o = s->observation(kNoSeat);
  const Seat seat = s->current_player();
  const Trick& first = o.tricks[0];
  const Card again = first.cards[static_cast<std::size_t>((seat - first.leader + 4) % 4)];
  json rec = record_json(*s);
  const std::size_t index = rec["actions"].size();
  rec["actions"].push_back(play_json(again, seat));
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused,
                         {"action " + std::to_string(index), "play " + to_string(again), "seat " + std::to_string(seat),
                          "card_not_in_hand"}));
}

TEST(CliReplayRefused, MoveOutOfTurn) {
  auto s = match_until(
      [](const State& st) { return st.phase() == Phase::playing && st.observation(kNoSeat).tricks.size() == 2; });
  ASSERT_EQ(s->phase(), Phase::playing);
  const Seat other = static_cast<Seat>((s->current_player() + 1) % 4);
  const Card card = s->hands()[static_cast<std::size_t>(other)].first();
  json rec = record_json(*s);
  const std::size_t index = rec["actions"].size();
  rec["actions"].push_back(play_json(card, other));
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused,
                         {"action " + std::to_string(index), "seat " + std::to_string(other), "not_your_turn"}));
}

TEST(CliReplayRefused, PlayDuringBidding) {
  auto s = new_match("french", json::object(), kDeal);
  const Seat seat = s->current_player();
  const Card card = s->hands()[static_cast<std::size_t>(seat)].first();
  json rec = record_json(*s);
  rec["actions"].push_back(play_json(card, seat));
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action 0", "wrong_phase"}));
  // Without an explicit seat, the action is the current player's: the same refusal.
  rec["actions"][0].erase("seat");
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action 0", "wrong_phase"}));
}

TEST(CliReplayRefused, SecondRoundTakeOfTheTurnedUpSuit) {
  auto s = new_match("french", json::object(), kDeal);
  const Card turn_up = *s->observation(kNoSeat).turn_up;
  for (int k = 0; k < 4; ++k) ASSERT_EQ(s->apply(Action::pass()), Refusal::none);
  json rec = record_json(*s);
  rec["actions"].push_back({{"type", "take"}, {"trump", to_string(turn_up.suit())}, {"seat", s->current_player()}});
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action 4", "invalid_trump"}));
  // Another suit is a legal second-round take.
  const Suit other = turn_up.suit() == Suit::clubs ? Suit::hearts : Suit::clubs;
  rec["actions"][4]["trump"] = to_string(other);
  EXPECT_TRUE(exited_with(replay_json(rec), kExitOk));
}

TEST(CliReplayRefused, FirstRoundTakeOfAnotherSuit) {
  auto s = new_match("french", json::object(), kDeal);
  const Card turn_up = *s->observation(kNoSeat).turn_up;
  const Suit other = turn_up.suit() == Suit::spades ? Suit::diamonds : Suit::spades;
  json rec = record_json(*s);
  rec["actions"].push_back({{"type", "take"}, {"trump", to_string(other)}});
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action 0", "invalid_trump"}));
}

TEST(CliReplayRefused, DiscardWhileHoldingTheSuitLed) {
  auto holds_led_and_other = [](const State& st) {
    if (st.phase() != Phase::playing) return false;
    const Observation o = st.observation(kNoSeat);
    if (o.trick.count == 0) return false;
    const CardSet hand = st.hands()[static_cast<std::size_t>(st.current_player())];
    return !hand.in_suit(o.trick.led()).empty() && !(hand - hand.in_suit(o.trick.led())).empty();
  };
  auto s = match_until(holds_led_and_other);
  ASSERT_TRUE(holds_led_and_other(*s));
  const Seat seat = s->current_player();
  const CardSet hand = s->hands()[static_cast<std::size_t>(seat)];
  const Card off = (hand - hand.in_suit(s->observation(kNoSeat).trick.led())).first();
  json rec = record_json(*s);
  const std::size_t index = rec["actions"].size();
  rec["actions"].push_back(play_json(off, seat));
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action " + std::to_string(index), "must_follow_suit"}));
}

TEST(CliReplayRefused, ActionAfterTheMatchIsOver) {
  json rec = full_match();
  const std::size_t index = rec["actions"].size();
  rec["actions"].push_back({{"type", "pass"}});
  EXPECT_TRUE(fails_with(replay_json(rec), kExitRefused, {"action " + std::to_string(index), "game_over"}));
}

// ---- records that replay --------------------------------------------------------------------------------

TEST(CliReplay, FullMatchIsComplete) {
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng));
  const CliRun r = run_cli({"replay", scratch_file(record_text(record_json(*s)))});
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_TRUE(r.err.empty()) << describe(r);
  const json out = output_json(r);
  EXPECT_EQ(out["complete"], true);
  EXPECT_EQ(out["phase"], "match_over");
  EXPECT_EQ(out["actions"], s->record().actions.size());
  EXPECT_EQ(out["winner"], *s->winner());
  EXPECT_TRUE(out["next"].is_null());
  EXPECT_EQ(out["match_score"], json(s->match_score()));
  EXPECT_EQ(out["hands"].size(), s->hand_results().size());
}

TEST(CliReplay, RecordCutMidHandIsNotAnError) {
  auto s = match_until([](const State& st) {
    return st.phase() == Phase::playing && st.hand_results().size() == 1 && st.observation(kNoSeat).tricks.size() == 3;
  });
  ASSERT_EQ(s->phase(), Phase::playing);
  const CliRun r = replay_json(record_json(*s));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_TRUE(r.err.empty()) << describe(r);
  const json out = output_json(r);
  EXPECT_EQ(out["complete"], false);
  EXPECT_EQ(out["phase"], "playing");
  EXPECT_EQ(out["next"], s->current_player());
  EXPECT_TRUE(out["winner"].is_null());
  EXPECT_EQ(out["actions"], s->record().actions.size());
  EXPECT_EQ(out["hands"].size(), 1u);
  EXPECT_EQ(out["match_score"], json(s->match_score()));
}

TEST(CliReplay, SeatsMayBeLeftOut) {
  const json rec = full_match();
  json bare = rec;
  for (json& a : bare["actions"]) a.erase("seat");
  const CliRun with = replay_json(rec);
  const CliRun without = replay_json(bare);
  ASSERT_TRUE(exited_with(with, kExitOk));
  ASSERT_TRUE(exited_with(without, kExitOk));
  EXPECT_EQ(with.out, without.out);
}

TEST(CliReplay, FileAndStandardInputAgree) {
  const std::string text = record_text(full_match());
  const CliRun from_file = run_cli({"replay", scratch_file(text)});
  const CliRun from_stdin = replay_text(text);
  ASSERT_TRUE(exited_with(from_file, kExitOk));
  ASSERT_TRUE(exited_with(from_stdin, kExitOk));
  EXPECT_EQ(from_file.out, from_stdin.out);
}

TEST(CliReplay, CutDealAfterAllPassedKeepsEveryCard) {
  // deal: cut gathers the last deal's cards, turned-up card included, and cuts them. After a hand that everybody
  // passed, the next hand must still be played with all 32 cards: 162 points with the last trick.
  auto s = new_match("french", {{"deal", "cut"}}, kDeal);
  for (int k = 0; k < 8; ++k) ASSERT_EQ(s->apply(Action::pass()), Refusal::none);
  ASSERT_EQ(s->hand_results().size(), 1u);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng, [](const State& st) { return st.hand_results().size() == 2; }));
  const CliRun r = replay_json(record_json(*s));
  ASSERT_TRUE(exited_with(r, kExitOk));
  const json hands = output_json(r)["hands"];
  ASSERT_EQ(hands.size(), 2u);
  EXPECT_EQ(hands[0]["outcome"], "all_passed");
  const json& h = hands[1];
  ASSERT_NE(h["outcome"], "all_passed");
  int total = 0, tricks = 0;
  for (const json& t : h["teams"]) {
    total += t["card_points"].get<int>() + t["last_trick"].get<int>();
    tricks += t["tricks"].get<int>();
  }
  EXPECT_EQ(total, 162) << h.dump(2);
  EXPECT_EQ(tricks, 8) << h.dump(2);
}

// ---- the top-level command line -----------------------------------------------------------------------

TEST(CliCommandLine, UnknownSubcommand) {
  EXPECT_TRUE(fails_with(run_cli({"frobnicate", "x.json"}), kExitBadInput, {"unknown command 'frobnicate'"}));
}

TEST(CliCommandLine, NoSubcommandIsAUsageError) {
  // A usage error: exit 2, and the usage goes to standard error, where errors go, so that
  // `atout > out.json` does not fill the output with help text.
  const CliRun r = run_cli({});
  EXPECT_TRUE(exited_with(r, kExitBadInput));
  EXPECT_TRUE(err_mentions(r, {"usage: atout"}));
}

TEST(CliCommandLine, HelpOfEachSubcommand) {
  for (const std::string cmd : {"replay", "legal", "simulate"}) {
    for (const std::string flag : {"--help", "-h"}) {
      const CliRun r = run_cli({cmd, flag});
      EXPECT_TRUE(exited_with(r, kExitOk));
      EXPECT_NE(r.out.find("usage: atout " + cmd), std::string::npos) << describe(r);
      EXPECT_TRUE(r.err.empty()) << describe(r);
    }
  }
  const CliRun top = run_cli({"--help"});
  EXPECT_TRUE(exited_with(top, kExitOk));
  for (const char* cmd : {"replay", "legal", "simulate"}) EXPECT_NE(top.out.find(cmd), std::string::npos);
}

}  // namespace
}  // namespace atout::cli_test
