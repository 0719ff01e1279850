// `atout verify-deal`: an honest deal passes, any tampering fails with exit 1, bad input exits 2.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

constexpr const char* kSeed = "00112233445566778899aabbccddeeff";
// Computed outside Atout: printf 'atout-deal-commit/1\n<seed>\nm1\n0' | sha256sum
constexpr const char* kCommitment = "fceaa8554ab34133d68281bd06449465f93639d12ea45c4a51254ecf098b1237";

std::vector<std::string> args(const std::string& seed, const std::string& match, const std::string& hand,
                              const std::string& commitment) {
  return {"verify-deal", "--seed", seed, "--match", match, "--hand", hand, "--commitment", commitment};
}

TEST(CliVerifyDeal, HonestDealMatchesItsCommitment) {
  const CliRun r = run_cli(args(kSeed, "m1", "0", kCommitment));
  ASSERT_TRUE(exited_with(r, kExitOk));
  const json j = output_json(r);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["recomputed"], kCommitment);
}

TEST(CliVerifyDeal, PrintsTheDealTheEngineDeals) {
  auto a = args(kSeed, "m1", "0", kCommitment);
  a.insert(a.end(), {"--variant", "french", "--dealer", "2"});
  const CliRun r = run_cli(a);
  ASSERT_TRUE(exited_with(r, kExitOk));
  const json j = output_json(r);
  Record rec;
  rec.variant = "french";
  rec.deal.seeds = {*Seed::parse(kSeed)};
  rec.hand_limit = 1;
  rec.first_dealer = 2;
  auto s = create_state(rec).state;
  ASSERT_TRUE(s);
  const auto hands = s->hands();
  ASSERT_EQ(j["first_cards"].size(), 4u);
  for (std::size_t i = 0; i < hands.size(); ++i) EXPECT_EQ(j["first_cards"][i], protocol::to_json(hands[i]));
  EXPECT_EQ(j["deck"].size(), 32u);
  EXPECT_EQ(j["turn_up"], to_string(*s->observation(kNoSeat).turn_up));
}

TEST(CliVerifyDeal, TamperingIsDetected) {
  // Another seed, match, hand or commitment: each breaks the check.
  for (const auto& a :
       {args("10112233445566778899aabbccddeeff", "m1", "0", kCommitment), args(kSeed, "m2", "0", kCommitment),
        args(kSeed, "m1", "1", kCommitment), args(kSeed, "m1", "0", std::string(kCommitment).replace(0, 1, "0"))}) {
    const CliRun r = run_cli(a);
    EXPECT_TRUE(fails_with(r, kExitRefused, {"does not match", "commits to"}));
  }
}

TEST(CliVerifyDeal, BadInput) {
  EXPECT_TRUE(fails_with(run_cli({"verify-deal"}), kExitBadInput, {"--seed is required"}));
  EXPECT_TRUE(fails_with(run_cli(args("xyz", "m1", "0", kCommitment)), kExitBadInput, {"32 hex digits"}));
  EXPECT_TRUE(fails_with(run_cli(args(kSeed, "m1", "-1", kCommitment)), kExitBadInput, {"--hand"}));
  EXPECT_TRUE(fails_with(run_cli(args(kSeed, "m1", "0", "abc")), kExitBadInput, {"64 hex digits"}));
  auto a = args(kSeed, "m1", "0", kCommitment);
  a.insert(a.end(), {"--variant", "chess"});
  EXPECT_TRUE(fails_with(run_cli(a), kExitBadInput, {"unknown variant"}));
  a = args(kSeed, "m1", "0", kCommitment);
  a.insert(a.end(), {"--variant", "duel", "--dealer", "2"});
  EXPECT_TRUE(fails_with(run_cli(a), kExitBadInput, {"--dealer"}));
  EXPECT_TRUE(fails_with(run_cli({"verify-deal", "--seed"}), kExitBadInput, {"needs a value"}));
  EXPECT_TRUE(fails_with(run_cli({"verify-deal", "--bogus", "1"}), kExitBadInput, {"unknown argument"}));
}

}  // namespace
}  // namespace atout::cli_test
