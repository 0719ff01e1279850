// Where server bots think: a few worker threads behind a bounded queue, off the I/O threads and
// below them (scheduled only when a core is otherwise idle). A table hands a decision to a
// BotRunner and gets the answer back on its own strand; it never waits for one.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "atout/server/log_throttle.hpp"
#include "atout/server/metrics.hpp"

namespace atout::server {

// Runs jobs somewhere other than the caller's thread. Tests inject one that runs them when told.
class BotRunner {
 public:
  using Job = std::function<void()>;
  virtual ~BotRunner() = default;
  // Queues `job`; false when there is no room (the job will not run and the caller decides).
  virtual bool submit(Job job) = 0;
};

class BotPool final : public BotRunner {
 public:
  static constexpr std::size_t kDefaultQueue = 256;

  // `metrics` (may be null) gets the queue depth and the jobs refused for want of room.
  BotPool(std::size_t threads, std::size_t max_queue, std::shared_ptr<Metrics> metrics = nullptr);
  ~BotPool() override;
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  bool submit(Job job) override;
  // Jobs waiting for a worker.
  std::size_t queued() const;
  // Takes no more jobs, drops those not yet started and joins the workers.
  void stop();

 private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Job> queue_;
  std::size_t max_queue_;
  bool stopping_ = false;
  std::shared_ptr<Metrics> metrics_;
  // A full queue refuses a job at every bot turn while the load lasts: one warning per interval.
  LogThrottle full_log_{std::chrono::seconds(10)};
  std::vector<std::thread> threads_;
};

}  // namespace atout::server
