// The bot workers: a mutex-guarded queue of bounded length and the threads that drain it.
#include "atout/server/bot_pool.hpp"

#include <pthread.h>
#include <sched.h>
#include <spdlog/spdlog.h>

#include <exception>

namespace atout::server {

BotPool::BotPool(std::size_t threads, std::size_t max_queue, std::shared_ptr<Metrics> metrics)
    : max_queue_(max_queue), metrics_(std::move(metrics)) {
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() { stop(); }

bool BotPool::submit(Job job) {
  bool full = false;
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return false;
    full = queue_.size() >= max_queue_;
    if (!full) queue_.push_back(std::move(job));
  }
  if (full) {
    if (metrics_) metrics_->bot_queue_full.fetch_add(1);
    if (const std::uint64_t refused = full_log_.note(LogThrottle::Clock::now()))
      spdlog::warn(
          "the bot workers are full: {} decision(s) refused since the last report; the rules (or random) "
          "bot chose for those seats on their tables' strands",
          refused);
    return false;
  }
  if (metrics_) metrics_->bot_queue_depth.fetch_add(1);
  ready_.notify_one();
  return true;
}

std::size_t BotPool::queued() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

void BotPool::stop() {
  std::size_t dropped = 0;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped = queue_.size();
    queue_.clear();
  }
  if (metrics_ && dropped > 0) metrics_->bot_queue_depth.fetch_sub(static_cast<std::int64_t>(dropped));
  ready_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void BotPool::work() {
  // Below the I/O threads: a person's action, a reply or an event is never kept waiting for a
  // core by a bot that thinks. SCHED_IDLE runs a worker only when no other thread of the machine
  // wants the core (Linux; elsewhere, or if refused, the workers keep the process's priority).
  sched_param idle{};
  ::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &idle);
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    if (metrics_) metrics_->bot_queue_depth.fetch_sub(1);
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("bot worker: a job failed: {}", e.what());
    }
  }
}

}  // namespace atout::server
