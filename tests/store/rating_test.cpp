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

// A match as the stores read it: seats in seat order, teams interleaved.
TEST(RateMatch, GivesEachSeatItsTeamsUpdateInSeatOrder) {
  const std::vector<SeatRating> seats = {{0, 11, Rating{29.182, 4.782}, 3},
                                         {1, 12, Rating{16.672, 6.217}, 0},
                                         {0, 13, Rating{27.174, 4.922}, 7},
                                         {1, 14, Rating{}, 1}};
  std::vector<Rating> after;
  ASSERT_EQ(rate_match(seats, 1, after), std::nullopt);
  const auto r = rate({{Rating{29.182, 4.782}, Rating{27.174, 4.922}}, {Rating{16.672, 6.217}, Rating{}}}, {2, 1});
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[0].mu, r[0][0].mu);
  EXPECT_EQ(after[1].mu, r[1][0].mu);
  EXPECT_EQ(after[2].mu, r[0][1].mu);
  EXPECT_EQ(after[3].sigma, r[1][1].sigma);
  EXPECT_GT(after[1].mu, 16.672);  // team 1 won

  // No winner is a draw between equals: nobody's mean moves.
  ASSERT_EQ(rate_match({{0, 1, Rating{}, 0}, {1, 2, Rating{}, 0}}, std::nullopt, after), std::nullopt);
  EXPECT_NEAR(after[0].mu, 25.0, 1e-12);
  EXPECT_NEAR(after[1].mu, 25.0, 1e-12);
}

// A server bot may hold several seats: written once, with the side where it holds more seats, and
// not at all when it holds as many on each side.
TEST(RateMatch, EachPlayerIsWrittenOnceWithTheSideWhereItHoldsMoreSeats) {
  EXPECT_EQ(seats_to_write({{0, 1, Rating{}, 0}, {1, 2, Rating{}, 0}}), (std::vector<bool>{true, true}));
  EXPECT_EQ(seats_to_write({{0, 1, Rating{}, 0}, {1, 1, Rating{}, 0}}), (std::vector<bool>{false, false}));
  // Player 6 holds both seats of team 1: its first seat is written.
  EXPECT_EQ(seats_to_write({{0, 5, Rating{}, 0}, {1, 6, Rating{}, 0}, {0, 7, Rating{}, 0}, {1, 6, Rating{}, 0}}),
            (std::vector<bool>{true, true, true, false}));
  // Player 9 is the partner of player 8 (seat 2) and both opponents (seats 1 and 3): rated once,
  // as an opponent.
  EXPECT_EQ(seats_to_write({{0, 8, Rating{}, 0}, {1, 9, Rating{}, 0}, {0, 9, Rating{}, 0}, {1, 9, Rating{}, 0}}),
            (std::vector<bool>{true, true, false, false}));
  // One seat on each side: not rated; the others are.
  EXPECT_EQ(seats_to_write({{0, 8, Rating{}, 0}, {1, 9, Rating{}, 0}, {0, 9, Rating{}, 0}, {1, 7, Rating{}, 0}}),
            (std::vector<bool>{true, false, false, true}));
}

TEST(RateMatch, RefusesATeamOutsideZeroAndOneOrAnEmptyTeam) {
  std::vector<Rating> after;
  EXPECT_EQ(rate_match({{0, 1, Rating{}, 0}, {2, 2, Rating{}, 0}}, 0, after), "has a seat in team 2");
  EXPECT_TRUE(after.empty());
  EXPECT_EQ(rate_match({{0, 1, Rating{}, 0}, {-1, 2, Rating{}, 0}}, 0, after), "has a seat in team -1");
  EXPECT_EQ(rate_match({{0, 1, Rating{}, 0}, {0, 2, Rating{}, 0}}, 0, after), "lacks a team");
  EXPECT_EQ(rate_match({}, std::nullopt, after), "lacks a team");
  EXPECT_TRUE(after.empty());
}

}  // namespace
}  // namespace atout::store
