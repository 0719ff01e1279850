// Table numbers: in memory from 1, or from durable blocks asked for ahead of need.
#include "atout/server/table_numbers.hpp"

#include <gtest/gtest.h>

#include <set>

namespace atout::server::testing {
namespace {

TEST(TableNumbers, InMemoryTheyCountFromOneAndNeverAskTheStore) {
  TableNumbers n;
  for (std::uint64_t want = 1; want <= 3000; ++want) {
    EXPECT_EQ(n.take(), want);
    EXPECT_FALSE(n.start_reservation());
  }
}

TEST(TableNumbers, FromTheStoreTheyComeFromReservedBlocksAndTheNextIsAskedForAtHalfway) {
  TableNumbers n(5001);
  std::set<std::uint64_t> given;
  for (std::uint64_t i = 0; i <= TableNumbers::kBlock / 2; ++i) {
    const auto got = n.take();
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, 5001 + i);
    given.insert(*got);
    // Half of the block or more is left until the last of these: nothing is asked for.
    if (i < TableNumbers::kBlock / 2) {
      EXPECT_FALSE(n.start_reservation()) << i;
    }
  }
  ASSERT_TRUE(n.start_reservation());
  EXPECT_FALSE(n.start_reservation()) << "one reservation at a time";
  n.reserved(90001);  // another server's blocks came in between: numbers need not be contiguous
  while (n.left() > 0) {
    const auto got = n.take();
    ASSERT_TRUE(got);
    EXPECT_TRUE(given.insert(*got).second) << *got;
  }
  EXPECT_EQ(given.size(), 2 * TableNumbers::kBlock);
  EXPECT_EQ(*given.rbegin(), 90001 + TableNumbers::kBlock - 1);
}

TEST(TableNumbers, WithNothingReservedNoneIsGivenUntilTheStoreAnswers) {
  TableNumbers n(1);
  for (std::uint64_t i = 0; i < TableNumbers::kBlock; ++i) ASSERT_TRUE(n.take());
  EXPECT_FALSE(n.take());
  ASSERT_TRUE(n.start_reservation());
  n.reserved(std::nullopt);  // the store failed: the next call asks again
  EXPECT_FALSE(n.take());
  ASSERT_TRUE(n.start_reservation());
  n.reserved(2001);
  EXPECT_EQ(n.take(), 2001u);
}

}  // namespace
}  // namespace atout::server::testing
