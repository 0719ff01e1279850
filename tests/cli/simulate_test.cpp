// `atout simulate`: argument errors exit 2 naming the argument; runs are deterministic and finish.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

TEST(CliSimulateBadInput, MissingVariant) {
  EXPECT_TRUE(fails_with(run_cli({"simulate", "--games", "3"}), kExitBadInput, {"--variant is required"}));
}

TEST(CliSimulateBadInput, UnknownVariantListsTheKnownOnes) {
  const CliRun r = run_cli({"simulate", "--variant", "skat"});
  EXPECT_TRUE(fails_with(r, kExitBadInput, {"unknown_variant", "'skat'"}));
  for (const VariantInfo& v : variants()) EXPECT_TRUE(err_mentions(r, {v.id}));
}

TEST(CliSimulateBadInput, BadGames) {
  for (const char* games : {"abc", "0", "-3", "10x", "", "1.5", "99999999999999999999"})
    EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--games", games}), kExitBadInput, {"--games"}))
        << "--games '" << games << "'";
}

TEST(CliSimulateBadInput, BadSeed) {
  for (const char* seed : {"xyz", "-1", "0x10", "123456789012345678901234567890123", ""})
    EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--seed", seed}), kExitBadInput, {"--seed"}))
        << "--seed '" << seed << "'";
}

TEST(CliSimulateBadInput, MissingValue) {
  for (const char* flag : {"--variant", "--games", "--seed", "--options"})
    EXPECT_TRUE(fails_with(run_cli({"simulate", flag}), kExitBadInput, {flag, "needs a value"})) << flag;
}

TEST(CliSimulateBadInput, UnknownArgument) {
  EXPECT_TRUE(
      fails_with(run_cli({"simulate", "--variant", "french", "--fast"}), kExitBadInput, {"unknown argument '--fast'"}));
}

TEST(CliSimulateBadInput, MalformedOptions) {
  EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--options", "{\"target\": "}), kExitBadInput,
                         {"--options", "malformed JSON"}));
  EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--options", "[1]"}), kExitBadInput,
                         {"--options", "object"}));
}

TEST(CliSimulateBadInput, BadOptionNameAndValue) {
  EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--options", R"({"trumps": 3})"}), kExitBadInput,
                         {"bad_option", "'trumps'"}));
  EXPECT_TRUE(fails_with(run_cli({"simulate", "--variant", "french", "--options", R"({"capot": 300})"}), kExitBadInput,
                         {"bad_option", "'capot'", "250"}));
}

// Checks the summary's own arithmetic and returns it.
json checked_summary(const CliRun& r, long long games) {
  EXPECT_TRUE(exited_with(r, kExitOk));
  EXPECT_TRUE(r.err.empty()) << describe(r);
  const json s = output_json(r);
  EXPECT_EQ(s["games"], games);
  EXPECT_EQ(s["wins"][0].get<long long>() + s["wins"][1].get<long long>(), games) << s.dump(2);
  long long hands = 0;
  for (const auto& [outcome, n] : s["outcomes"].items()) hands += n.get<long long>();
  EXPECT_EQ(s["hands"], hands) << s.dump(2);
  EXPECT_LE(s["capots"].get<long long>(), hands);
  EXPECT_GT(s["actions"].get<long long>(), hands);
  return s;
}

TEST(CliSimulate, SameSeedSameGames) {
  const std::vector<std::string> args = {"simulate", "--variant", "french", "--games", "20", "--seed", "42"};
  const CliRun a = run_cli(args);
  const CliRun b = run_cli(args);
  const json s = checked_summary(a, 20);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(s["seed"], "0000000000000000000000000000002a");
  EXPECT_EQ(s["variant"], "french");
}

TEST(CliSimulate, DecimalAndHexSeedsAgree) {
  const CliRun dec = run_cli({"simulate", "--variant", "duel", "--games", "5", "--seed", "42"});
  const CliRun hex =
      run_cli({"simulate", "--variant", "duel", "--games", "5", "--seed", "0000000000000000000000000000002A"});
  checked_summary(dec, 5);
  EXPECT_EQ(dec.out, hex.out);
}

TEST(CliSimulate, DifferentSeedsDifferentGames) {
  const CliRun a = run_cli({"simulate", "--variant", "french", "--games", "20", "--seed", "1"});
  const CliRun b = run_cli({"simulate", "--variant", "french", "--games", "20", "--seed", "2"});
  checked_summary(a, 20);
  checked_summary(b, 20);
  EXPECT_NE(a.out, b.out);
}

TEST(CliSimulate, EveryVariantAndOptionSetFinishes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"french", "{}"},
      {"french", R"({"declarations": false, "capot": 252, "tie": "tie_loses", "deal": "cut", "target": 701})"},
      {"french", R"({"undertrump": "free", "target": 1001})"},
      {"duel", "{}"},
      {"duel", R"({"deal": "cut", "tie": "tie_loses"})"},
  };
  for (const auto& [variant, options] : cases) {
    const CliRun r = run_cli({"simulate", "--variant", variant, "--games", "200", "--seed", "9", "--options", options},
                             {}, std::chrono::seconds(60));
    SCOPED_TRACE(variant + " " + options);
    checked_summary(r, 200);
  }
}

TEST(CliSimulate, CutDealsAfterAllPassedHandsFinish) {
  // Enough games that some hands are passed by everybody (about one French hand in 4096 under the random
  // policy), so that the next deal is a cut of a passed deal. A lost card there leaves a seat with no legal
  // action: the run must neither crash nor hang.
  for (const std::string variant : {"french", "duel"}) {
    SCOPED_TRACE(variant);
    const CliRun r =
        run_cli({"simulate", "--variant", variant, "--games", "4000", "--seed", "3", "--options", R"({"deal": "cut"})"},
                {}, std::chrono::seconds(120));
    const json s = checked_summary(r, 4000);
    EXPECT_GT(s["outcomes"].value("all_passed", 0), 0) << "the run never reached a cut after a passed deal";
  }
}

}  // namespace
}  // namespace atout::cli_test
