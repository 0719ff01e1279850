// `atout analyse`, `atout solve` and `atout hint`: the double-dummy solver on records, their
// agreement with each other and with what the deals scored, a bot's advice, and every way bad
// input fails.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

const Seed kDeal{0xa4a1, 3};
const Seed kPolicy{0x5017e, 3};

// A French match played at random until `hands` hands are over.
json french_record(int hands) {
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  EXPECT_TRUE(
      play_random(*s, rng, [&](const State& st) { return static_cast<int>(st.hand_results().size()) >= hands; }));
  return record_json(*s);
}

TEST(CliAnalyse, EveryCardOfEveryDealWithItsCostAndTheSeatsTotals) {
  const json record = french_record(2);
  const CliRun r = run_cli({"analyse", scratch_file(record_text(record))});
  ASSERT_TRUE(exited_with(r, kExitOk)) << describe(r);
  const json out = output_json(r);
  EXPECT_EQ(out["variant"], "french");
  // Two deals over, and the third dealt with nothing played yet.
  ASSERT_EQ(out["deals"].size(), 3u) << out;
  EXPECT_TRUE(out["deals"][2]["plays"].empty());
  std::vector<int> totals(4, 0);
  const json& actions = record["actions"];
  int cards = 0;
  for (const json& d : out["deals"]) {
    const json& plays = d["plays"];
    for (std::size_t k = 0; k < plays.size(); ++k) {
      const json& p = plays[k];
      const json& a = actions[p["action"].get<std::size_t>()];
      EXPECT_EQ(a["type"], "play");
      EXPECT_EQ(a["card"], p["card"]);
      EXPECT_EQ(a["seat"], p["seat"]);
      EXPECT_GE(p["cost"], 0);
      // Each card's value is the next card's best: both assume best play from there on.
      if (k + 1 < plays.size()) {
        EXPECT_EQ(plays[k + 1]["best"], p["value"]);
      }
      totals[p["seat"].get<std::size_t>()] += p["cost"].get<int>();
      ++cards;
    }
  }
  // Every card of the record is there (a deal everyone passed has none).
  int played = 0;
  for (const json& a : actions) played += a["type"] == "play" ? 1 : 0;
  EXPECT_EQ(cards, played);
  EXPECT_EQ(out["cost_by_seat"], totals);

  // --deal picks one deal, the same as in the whole run.
  const CliRun one = run_cli({"analyse", "-", "--deal", "1"}, record_text(record));
  ASSERT_TRUE(exited_with(one, kExitOk)) << describe(one);
  const json one_out = output_json(one);
  ASSERT_EQ(one_out["deals"].size(), 1u);
  EXPECT_EQ(one_out["deals"][0], out["deals"][1]);
}

TEST(CliSolve, TheSeatToPlaysCardsAndTheBestOfThemAgreeWithAnalyse) {
  // Stop at the second card of the first deal that is played.
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng, [](const State& st) {
    return st.phase() == Phase::playing && st.observation(kNoSeat).trick.count == 1;
  }));
  const json record = record_json(*s);
  const CliRun r = run_cli({"solve", "-"}, record_text(record));
  ASSERT_TRUE(exited_with(r, kExitOk)) << describe(r);
  const json out = output_json(r);
  EXPECT_EQ(out["seat"], s->current_player());
  // Exactly the engine's legal cards, each valued; the value is the side's best of them.
  std::vector<std::string> legal, valued;
  for (const Action& a : s->legal_actions()) legal.push_back(protocol::to_json(a.card).get<std::string>());
  int best = out["cards"][0]["value"];
  const bool declaring = out["seat"].get<int>() % 2 == out["declarer"].get<int>() % 2;
  for (const json& c : out["cards"]) {
    valued.push_back(c["card"]);
    best = declaring ? std::max(best, c["value"].get<int>()) : std::min(best, c["value"].get<int>());
  }
  std::sort(legal.begin(), legal.end());
  std::sort(valued.begin(), valued.end());
  EXPECT_EQ(valued, legal);
  EXPECT_EQ(out["value"], best);

  // Played on with the card solve calls best, the analysis of the deal finds it cost nothing and
  // gives the same value for the position.
  ASSERT_EQ(s->apply(Action::play(*protocol::parse_card(out["best"]).value)), Refusal::none);
  const CliRun a = run_cli({"analyse", "-", "--deal", std::to_string(s->deal().hand)}, record_text(record_json(*s)));
  ASSERT_TRUE(exited_with(a, kExitOk)) << describe(a);
  const json plays = output_json(a)["deals"][0]["plays"];
  ASSERT_EQ(plays.size(), 2u) << plays;
  EXPECT_EQ(plays[1]["best"], out["value"]);
  EXPECT_EQ(plays[1]["cost"], 0);
}

TEST(CliAnalyse, BadInputFailsClearly) {
  const std::string record = record_text(french_record(1));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-", "--deal", "x"}, record), kExitBadInput, {"--deal"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-", "--deal", "-1"}, record), kExitBadInput, {"--deal"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-", "--deal", "7"}, record), kExitBadInput, {"no deal 7"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-", "--deal"}, record), kExitBadInput, {"--deal"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse"}, record), kExitBadInput, {"exactly one input"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-"}, "{"), kExitBadInput, {"analyse"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-"}, "{\"variant\": \"whist\"}"), kExitBadInput, {"analyse"}));
  EXPECT_TRUE(fails_with(run_cli({"analyse", "/no/such/file"}), kExitBadInput, {"cannot read"}));
  // A record whose actions the rules refuse: exit 1, naming the action.
  json refused = json::parse(record);
  refused["actions"].push_back(refused["actions"][refused["actions"].size() - 1]);
  EXPECT_TRUE(fails_with(run_cli({"analyse", "-"}, refused.dump()), kExitRefused, {"refused"}));
  EXPECT_TRUE(exited_with(run_cli({"analyse", "--help"}), kExitOk));
}

TEST(CliSolve, BadInputFailsClearly) {
  // A record that ends in the auction has no card to play.
  auto s = new_match("french", json::object(), kDeal);
  EXPECT_TRUE(fails_with(run_cli({"solve", "-"}, record_text(record_json(*s))), kExitBadInput, {"bidding"}));
  EXPECT_TRUE(fails_with(run_cli({"solve", "-"}, "[]"), kExitBadInput, {"solve"}));
  EXPECT_TRUE(fails_with(run_cli({"solve", "a", "b"}), kExitBadInput, {"exactly one input"}));
  EXPECT_TRUE(
      fails_with(run_cli({"solve", "-", "--deal", "1"}, record_text(record_json(*s))), kExitBadInput, {"one input"}));
  EXPECT_TRUE(exited_with(run_cli({"solve", "--help"}), kExitOk));
}

TEST(CliHint, ABotsChoiceForTheSeatToActWithItsReasons) {
  // Mid-play: the sampling bot solves its worlds and names each legal card's average.
  auto s = new_match("french", json::object(), kDeal);
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng, [](const State& st) {
    return st.phase() == Phase::playing && st.observation(kNoSeat).trick.count == 1;
  }));
  const std::string record = record_text(record_json(*s));
  const CliRun r = run_cli({"hint", "-", "--worlds", "6", "--seed", "9"}, record);
  ASSERT_TRUE(exited_with(r, kExitOk)) << describe(r);
  const json out = output_json(r);
  EXPECT_EQ(out["seat"], s->current_player());
  EXPECT_EQ(out["level"], "sampling");
  std::vector<json> legal;
  for (const Action& a : s->legal_actions()) legal.push_back(protocol::to_json(a));
  EXPECT_NE(std::find(legal.begin(), legal.end(), out["action"]), legal.end()) << out;
  const std::string reason = out["reason"];
  if (legal.size() > 1) {
    EXPECT_NE(reason.find("6 worlds"), std::string::npos) << reason;
    for (const json& a : legal) EXPECT_NE(reason.find(a["card"].get<std::string>()), std::string::npos) << reason;
  }
  // The same seed gives the same hint.
  EXPECT_EQ(run_cli({"hint", "-", "--worlds", "6", "--seed", "9"}, record).out, r.out);

  // In the auction, the rules bot's bid, a legal one.
  auto bidding = new_match("french", json::object(), kDeal);
  const CliRun b = run_cli({"hint", "-", "--level", "rules"}, record_text(record_json(*bidding)));
  ASSERT_TRUE(exited_with(b, kExitOk)) << describe(b);
  legal.clear();
  for (const Action& a : bidding->legal_actions()) legal.push_back(protocol::to_json(a));
  EXPECT_NE(std::find(legal.begin(), legal.end(), output_json(b)["action"]), legal.end()) << b.out;
  EXPECT_FALSE(output_json(b)["reason"].get<std::string>().empty());
}

TEST(CliHint, BadInputFailsClearly) {
  auto s = new_match("french", json::object(), kDeal);
  const std::string record = record_text(record_json(*s));
  EXPECT_TRUE(fails_with(run_cli({"hint", "-", "--level", "expert"}, record), kExitBadInput, {"--level", "expert"}));
  EXPECT_TRUE(fails_with(run_cli({"hint", "-", "--worlds", "0"}, record), kExitBadInput, {"--worlds"}));
  EXPECT_TRUE(fails_with(run_cli({"hint", "-", "--worlds", "many"}, record), kExitBadInput, {"--worlds"}));
  EXPECT_TRUE(fails_with(run_cli({"hint", "-", "--seed", "-4"}, record), kExitBadInput, {"--seed"}));
  EXPECT_TRUE(fails_with(run_cli({"hint"}, record), kExitBadInput, {"exactly one input"}));
  // A finished match has nobody to advise.
  Rng rng(kPolicy);
  ASSERT_TRUE(play_random(*s, rng));
  EXPECT_TRUE(fails_with(run_cli({"hint", "-"}, record_text(record_json(*s))), kExitBadInput, {"over"}));
  EXPECT_TRUE(exited_with(run_cli({"hint", "--help"}), kExitOk));
}

}  // namespace
}  // namespace atout::cli_test
