// OpenSkill (Weng-Lin, Plackett-Luce) against the published values of openskill.js's test suite
// and the properties the ladders rely on.
#include "atout/store/rating.hpp"

#include <gtest/gtest.h>

namespace atout::store {
namespace {

TEST(Rating, OneVersusOneFromDefaults) {
  const auto r = rate({{Rating{}}, {Rating{}}}, {1, 2});
  EXPECT_NEAR(r[0][0].mu, 27.635389493140497, 1e-12);
  EXPECT_NEAR(r[0][0].sigma, 8.06590141354368, 1e-12);
  EXPECT_NEAR(r[1][0].mu, 22.364610506859503, 1e-12);
  EXPECT_NEAR(r[1][0].sigma, 8.06590141354368, 1e-12);
}

TEST(Rating, TwoVersusTwoIndividualRatings) {
  const auto r =
      rate({{Rating{29.182, 4.782}, Rating{27.174, 4.922}}, {Rating{16.672, 6.217}, Rating{25, 25.0 / 3}}}, {1, 2});
  EXPECT_NEAR(r[0][0].mu, 29.607340941337068, 1e-12);
  EXPECT_NEAR(r[0][0].sigma, 4.755311788972862, 1e-12);
  EXPECT_NEAR(r[0][1].mu, 27.624602782532037, 1e-12);
  EXPECT_NEAR(r[0][1].sigma, 4.892807828777459, 1e-12);
  EXPECT_NEAR(r[1][0].mu, 15.953170429143093, 1e-12);
  EXPECT_NEAR(r[1][0].sigma, 6.125902065139878, 1e-12);
  EXPECT_NEAR(r[1][1].mu, 23.70858117648013, 1e-12);
  EXPECT_NEAR(r[1][1].sigma, 8.111707446126035, 1e-12);
}

TEST(Rating, ModelDefaultsAreOpenSkillsPlackettLuceConstants) {
  const RatingModel m;
  EXPECT_DOUBLE_EQ(m.mu, 25.0);
  EXPECT_DOUBLE_EQ(m.sigma, 25.0 / 3);
  EXPECT_DOUBLE_EQ(m.beta, 25.0 / 6);
  EXPECT_DOUBLE_EQ(m.tau, 25.0 / 300);
  EXPECT_DOUBLE_EQ(Rating{}.ordinal(), 0.0);  // 25 - 3 * 25/3
  EXPECT_DOUBLE_EQ((Rating{30, 2}).ordinal(), 24.0);
}

TEST(Rating, DrawBetweenEqualsMovesNobodysMean) {
  const auto r = rate({{Rating{}}, {Rating{}}}, {1, 1});
  EXPECT_NEAR(r[0][0].mu, 25.0, 1e-12);
  EXPECT_NEAR(r[1][0].mu, 25.0, 1e-12);
  EXPECT_LT(r[0][0].sigma, 25.0 / 3 + 25.0 / 300);
}

TEST(Rating, UpsetMovesMoreThanExpectedWin) {
  const Rating strong{35, 3}, weak{15, 3};
  const auto expected = rate({{strong}, {weak}}, {1, 2});
  const auto upset = rate({{weak}, {strong}}, {1, 2});
  EXPECT_GT(upset[0][0].mu - weak.mu, expected[0][0].mu - strong.mu);
  EXPECT_GT(expected[0][0].mu, strong.mu);
  EXPECT_LT(expected[1][0].mu, weak.mu);
}

}  // namespace
}  // namespace atout::store
