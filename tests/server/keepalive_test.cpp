// The keep-alive's decisions on a fake clock: ping at half the idle timeout, drop at the whole, one
// ping at a time, and the close grace of a connection the server closed.
#include "atout/server/keepalive.hpp"

#include <gtest/gtest.h>

#include "atout/server/limits.hpp"

namespace atout::server {
namespace {

using namespace std::chrono_literals;
using Step = Keepalive::Step;

constexpr auto kIdle = 60'000ms;
constexpr auto kGrace = 10'000ms;
const Keepalive::Clock::time_point kStart = Keepalive::Clock::time_point{} + 1h;

TEST(Keepalive, PingsAtHalfTheIdleTimeoutThenDrops) {
  Keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.deadline(kStart), kStart + 30s);
  EXPECT_EQ(k.tick(kStart + 29'999ms), Step::wait);
  EXPECT_EQ(k.tick(kStart + 30s), Step::ping);
  // Past half the timeout the next deadline is the drop.
  EXPECT_EQ(k.deadline(kStart + 30s), kStart + 60s);
  EXPECT_EQ(k.tick(kStart + 59'999ms), Step::wait) << "one ping at a time";
  EXPECT_EQ(k.tick(kStart + 60s), Step::drop);
}

TEST(Keepalive, AFrameHeardPutsTheDeadlinesBack) {
  Keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.tick(kStart + 30s), Step::ping);
  k.ping_done();
  k.heard(kStart + 31s);  // the pong
  EXPECT_EQ(k.deadline(kStart + 31s), kStart + 61s);
  EXPECT_EQ(k.tick(kStart + 60s), Step::wait);
  EXPECT_EQ(k.tick(kStart + 61s), Step::ping);
  EXPECT_EQ(k.tick(kStart + 91s), Step::drop);
}

TEST(Keepalive, AnotherPingOnlyOnceTheLastIsWritten) {
  Keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.tick(kStart + 30s), Step::ping);
  EXPECT_EQ(k.tick(kStart + 40s), Step::wait);
  k.ping_done();
  EXPECT_EQ(k.tick(kStart + 40s), Step::ping);
}

TEST(Keepalive, AClosingConnectionIsCutAfterTheGraceWhateverItSays) {
  Keepalive k(kIdle, kGrace, kStart);
  k.closing(kStart + 5s);
  EXPECT_EQ(k.deadline(kStart + 5s), kStart + 15s);
  k.heard(kStart + 14s);
  EXPECT_EQ(k.tick(kStart + 14s), Step::wait);
  EXPECT_EQ(k.tick(kStart + 15s), Step::cut);
  // Closing again does not restart the grace.
  k.closing(kStart + 14s);
  EXPECT_EQ(k.deadline(kStart + 14s), kStart + 15s);
}

TEST(Keepalive, AClosingConnectionIsNotPingedAndASilentOneIsDropped) {
  Keepalive k(kIdle, 120s, kStart);
  k.closing(kStart + 1s);
  EXPECT_EQ(k.tick(kStart + 30s), Step::wait);
  EXPECT_EQ(k.deadline(kStart + 30s), kStart + 60s);
  EXPECT_EQ(k.tick(kStart + 60s), Step::drop);
}

TEST(MessageCredits, SaysHowLongUntilTheNextCredit) {
  MessageCredits c(2, 4, kStart);
  EXPECT_TRUE(c.take(kStart));
  EXPECT_EQ(c.wait(), 0ms);
  EXPECT_TRUE(c.take(kStart));
  EXPECT_FALSE(c.take(kStart));
  EXPECT_EQ(c.wait(), 250ms);
  EXPECT_FALSE(c.take(kStart + 100ms));
  EXPECT_EQ(c.wait(), 150ms);
  EXPECT_TRUE(c.take(kStart + 250ms));
}

}  // namespace
}  // namespace atout::server
