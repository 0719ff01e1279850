// The bot workers: jobs run off the caller's thread, below the I/O threads' priority, and a full
// queue refuses a job instead of growing.
#include "atout/server/bot_pool.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace atout::server {
namespace {

constexpr auto kPatience = std::chrono::seconds(30);  // only a broken pool waits this long

TEST(BotPool, RunsJobsOnItsWorkersOnlyWhenACoreIsIdle) {
  BotPool pool(2, 16);
  std::promise<std::pair<std::thread::id, int>> ran;
  auto seen = ran.get_future();
  ASSERT_TRUE(pool.submit([&ran] {
    int policy = -1;
    sched_param param{};
    ::pthread_getschedparam(::pthread_self(), &policy, &param);
    ran.set_value({std::this_thread::get_id(), policy});
  }));
  ASSERT_EQ(seen.wait_for(kPatience), std::future_status::ready);
  const auto [worker, policy] = seen.get();
  EXPECT_NE(worker, std::this_thread::get_id());
  // The workers yield the cores to the threads that serve people.
  EXPECT_EQ(policy, SCHED_IDLE);
}

TEST(BotPool, AFullQueueRefusesAJobAndCountsIt) {
  auto metrics = std::make_shared<Metrics>();
  BotPool pool(1, 1, metrics);
  std::promise<void> started, release;
  auto running = started.get_future();
  auto go = release.get_future().share();
  ASSERT_TRUE(pool.submit([&started, go] {
    started.set_value();
    go.wait();
  }));
  ASSERT_EQ(running.wait_for(kPatience), std::future_status::ready);  // the worker is busy
  std::promise<void> second_ran;
  auto second = second_ran.get_future();
  EXPECT_TRUE(pool.submit([&second_ran] { second_ran.set_value(); }));  // queued
  EXPECT_FALSE(pool.submit([] {}));                                     // no room
  EXPECT_FALSE(pool.submit([] {}));
  EXPECT_EQ(pool.queued(), 1u);
  EXPECT_EQ(metrics->bot_queue_full.load(), 2u);
  EXPECT_EQ(metrics->bot_queue_depth.load(), 1);
  release.set_value();
  EXPECT_EQ(second.wait_for(kPatience), std::future_status::ready);
  // A stopped pool refuses too, but that is not a full queue.
  pool.stop();
  EXPECT_FALSE(pool.submit([] {}));
  EXPECT_EQ(metrics->bot_queue_full.load(), 2u);
}

}  // namespace
}  // namespace atout::server
