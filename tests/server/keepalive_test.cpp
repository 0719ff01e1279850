// The keep-alive's decisions on a fake clock: ping at half the idle timeout, drop at the whole, one
// ping at a time, and the close grace of a connection the server closed.
#include "atout/server/keepalive.hpp"

#include <gtest/gtest.h>

#include "atout/server/limits.hpp"

namespace atout::server {
namespace {

using namespace std::chrono_literals;
using step = keepalive::step;

constexpr auto kIdle = 60'000ms;
constexpr auto kGrace = 10'000ms;
const keepalive::clock::time_point kStart = keepalive::clock::time_point{} + 1h;

TEST(Keepalive, PingsAtHalfTheIdleTimeoutThenDrops) {
  keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.deadline(kStart), kStart + 30s);
  EXPECT_EQ(k.tick(kStart + 29'999ms), step::wait);
  EXPECT_EQ(k.tick(kStart + 30s), step::ping);
  // Past half the timeout the next deadline is the drop.
  EXPECT_EQ(k.deadline(kStart + 30s), kStart + 60s);
  EXPECT_EQ(k.tick(kStart + 59'999ms), step::wait) << "one ping at a time";
  EXPECT_EQ(k.tick(kStart + 60s), step::drop);
}

TEST(Keepalive, AFrameHeardPutsTheDeadlinesBack) {
  keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.tick(kStart + 30s), step::ping);
  k.ping_done();
  k.heard(kStart + 31s);  // the pong
  EXPECT_EQ(k.deadline(kStart + 31s), kStart + 61s);
  EXPECT_EQ(k.tick(kStart + 60s), step::wait);
  EXPECT_EQ(k.tick(kStart + 61s), step::ping);
  EXPECT_EQ(k.tick(kStart + 91s), step::drop);
}

TEST(Keepalive, AnotherPingOnlyOnceTheLastIsWritten) {
  keepalive k(kIdle, kGrace, kStart);
  EXPECT_EQ(k.tick(kStart + 30s), step::ping);
  EXPECT_EQ(k.tick(kStart + 40s), step::wait);
  k.ping_done();
  EXPECT_EQ(k.tick(kStart + 40s), step::ping);
}

TEST(Keepalive, AClosingConnectionIsCutAfterTheGraceWhateverItSays) {
  keepalive k(kIdle, kGrace, kStart);
  k.closing(kStart + 5s);
  EXPECT_EQ(k.deadline(kStart + 5s), kStart + 15s);
  k.heard(kStart + 14s);
  EXPECT_EQ(k.tick(kStart + 14s), step::wait);
  EXPECT_EQ(k.tick(kStart + 15s), step::cut);
  // Closing again does not restart the grace.
  k.closing(kStart + 14s);
  EXPECT_EQ(k.deadline(kStart + 14s), kStart + 15s);
}

TEST(Keepalive, AClosingConnectionIsNotPingedAndASilentOneIsDropped) {
  keepalive k(kIdle, 120s, kStart);
  k.closing(kStart + 1s);
  EXPECT_EQ(k.tick(kStart + 30s), step::wait);
  EXPECT_EQ(k.deadline(kStart + 30s), kStart + 60s);
  EXPECT_EQ(k.tick(kStart + 60s), step::drop);
}

TEST(MessageCredits, SaysHowLongUntilTheNextCredit) {
  message_credits c(2, 4, kStart);
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
