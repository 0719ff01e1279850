// `atout arena`: duplicate deals between two bot levels (or a level and the server's fallback);
// bad arguments exit 2 naming the argument.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

// The JSON line of an arena run (its last line).
protocol::json summary_of(const CliRun& r) {
  std::string text = r.out;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return protocol::json::parse(text.substr(text.rfind('\n') + 1));
}

TEST(CliArena, RulesBeatRandomOnDuplicateDeals) {
  const CliRun r = run_cli({"arena", "--variant", "french", "--a", "rules", "--b", "random", "--deals", "40"});
  ASSERT_TRUE(exited_with(r, kExitOk)) << r.err;
  const protocol::json j = summary_of(r);
  EXPECT_EQ(j.at("hands"), 80);
  EXPECT_GT(j.at("mean_diff").get<double>(), 0.0);
  EXPECT_GT(j.at("hand_share").get<double>(), 0.5);
  EXPECT_GT(j.at("deal_share").get<double>(), 0.5);
  EXPECT_GT(j.at("elo_low").get<double>(), 0.0);
  EXPECT_LE(j.at("elo_low").get<double>(), j.at("elo").get<double>());
  EXPECT_LE(j.at("elo").get<double>(), j.at("elo_high").get<double>());
  // The same seed gives the same run; a level against itself is even on duplicate deals.
  EXPECT_EQ(run_cli({"arena", "--variant", "french", "--a", "rules", "--b", "random", "--deals", "40"}).out, r.out);
  const CliRun same = run_cli({"arena", "--variant", "coinche", "--a", "rules", "--b", "rules", "--deals", "10"});
  ASSERT_TRUE(exited_with(same, kExitOk)) << same.err;
  EXPECT_EQ(summary_of(same).at("mean_diff").get<double>(), 0.0);
  // Both hands of a deal played by the same bot mirror each other: every deal is a tie.
  EXPECT_EQ(summary_of(same).at("deal_share").get<double>(), 0.5);
  EXPECT_EQ(summary_of(same).at("elo").get<double>(), 0.0);
}

TEST(CliArena, SamplingPlaysWithAFixedWorldCount) {
  const CliRun r =
      run_cli({"arena", "--variant", "duel", "--a", "sampling", "--b", "rules", "--deals", "2", "--worlds", "2"});
  ASSERT_TRUE(exited_with(r, kExitOk)) << r.err;
  EXPECT_EQ(summary_of(r).at("worlds"), 2);
  EXPECT_FALSE(summary_of(r).contains("budget_ms"));
}

// --worlds 0: the sampling bot plays under its default time budget, and the summary says so.
TEST(CliArena, SamplingPlaysUnderItsTimeBudgetWithZeroWorlds) {
  const CliRun r =
      run_cli({"arena", "--variant", "duel", "--a", "sampling", "--b", "rules", "--deals", "1", "--worlds", "0"});
  ASSERT_TRUE(exited_with(r, kExitOk)) << r.err;
  EXPECT_EQ(summary_of(r).at("worlds"), 0);
  EXPECT_EQ(summary_of(r).at("budget_ms"), 300);
}

// `fallback` is the server's cautious stand-in (no lookahead), which the rules bot beats.
TEST(CliArena, TheRulesBotBeatsTheServersFallback) {
  const CliRun r = run_cli({"arena", "--variant", "duel", "--a", "rules", "--b", "fallback", "--deals", "200"});
  ASSERT_TRUE(exited_with(r, kExitOk)) << r.err;
  const protocol::json j = summary_of(r);
  EXPECT_EQ(j.at("b"), "fallback");
  EXPECT_FALSE(j.contains("worlds"));
  EXPECT_GT(j.at("deal_share").get<double>(), 0.5);
  EXPECT_GT(j.at("elo_low").get<double>(), 0.0);
  // Against itself, as for a bot level, every duplicate deal is a tie.
  const CliRun same = run_cli({"arena", "--variant", "french", "--a", "fallback", "--b", "fallback", "--deals", "10"});
  ASSERT_TRUE(exited_with(same, kExitOk)) << same.err;
  EXPECT_EQ(summary_of(same).at("elo").get<double>(), 0.0);
}

TEST(CliArenaBadInput, NamesTheArgument) {
  EXPECT_TRUE(fails_with(run_cli({"arena", "--a", "rules", "--b", "random"}), kExitBadInput, {"--variant"}));
  EXPECT_TRUE(fails_with(run_cli({"arena", "--variant", "skat", "--a", "rules", "--b", "random"}), kExitBadInput,
                         {"unknown variant"}));
  EXPECT_TRUE(fails_with(run_cli({"arena", "--variant", "french", "--a", "genius", "--b", "random"}), kExitBadInput,
                         {"--a and --b"}));
  for (const char* deals : {"0", "-1", "x", "1.5"})
    EXPECT_TRUE(fails_with(run_cli({"arena", "--variant", "french", "--a", "rules", "--b", "random", "--deals", deals}),
                           kExitBadInput, {"--deals"}))
        << deals;
  for (const char* worlds : {"-1", "10001", "x"})
    EXPECT_TRUE(fails_with(
        run_cli({"arena", "--variant", "duel", "--a", "sampling", "--b", "rules", "--deals", "1", "--worlds", worlds}),
        kExitBadInput, {"--worlds"}))
        << worlds;
}

}  // namespace
}  // namespace atout::cli_test
