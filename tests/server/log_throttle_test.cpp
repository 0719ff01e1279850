// The log throttle: the first occurrence is reported at once, later ones within the interval are
// held back and reported, counted, with the first occurrence after it; nothing is lost or counted
// twice when many threads note at once.
#include "atout/server/log_throttle.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace atout::server {
namespace {

using namespace std::chrono_literals;
using Clock = LogThrottle::Clock;

const Clock::time_point kStart = Clock::time_point{} + 1000h;

TEST(LogThrottle, ReportsTheFirstAtOnceThenOneLineAnIntervalWithTheCount) {
  LogThrottle t(10s);
  EXPECT_EQ(t.note(kStart), 1u);
  EXPECT_EQ(t.note(kStart + 1s), 0u);
  EXPECT_EQ(t.note(kStart + 9s), 0u);
  EXPECT_EQ(t.note(kStart + 9999ms), 0u);
  // Due: this one and the three held back.
  EXPECT_EQ(t.note(kStart + 10s), 4u);
  EXPECT_EQ(t.note(kStart + 10s), 0u);
  // A quiet spell: the next occurrence is reported alone, at once.
  EXPECT_EQ(t.note(kStart + 1h), 2u);
  EXPECT_EQ(t.note(kStart + 1h + 1ms), 0u);
}

TEST(LogThrottle, AClockBeforeTheEpochStillReportsTheFirst) {
  LogThrottle t(1s);
  EXPECT_EQ(t.note(Clock::time_point{} - 5h), 1u);
  EXPECT_EQ(t.note(Clock::time_point{} - 5h), 0u);
}

TEST(LogThrottle, ManyThreadsLoseNoOccurrence) {
  LogThrottle t(10s);
  constexpr int kThreads = 4;
  constexpr int kEach = 20000;
  std::atomic<std::uint64_t> reported{0};
  std::atomic<int> reports{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      for (int n = 0; n < kEach; ++n) {
        // Each thread's clock moves on by 1 ms a note: about 20 intervals in all.
        if (const std::uint64_t r = t.note(kStart + std::chrono::milliseconds(n) + std::chrono::microseconds(i))) {
          reported += r;
          ++reports;
        }
      }
    });
  for (auto& th : threads) th.join();
  // What is still held back comes out with the next report.
  reported += t.note(kStart + 1h);
  EXPECT_EQ(reported.load(), static_cast<std::uint64_t>(kThreads) * kEach + 1);
  // About one report an interval (each thread's clock reaches 20 s), not one a note.
  EXPECT_GE(reports.load(), 2);
  EXPECT_LE(reports.load(), 2 * 20 + 2);
}

}  // namespace
}  // namespace atout::server
