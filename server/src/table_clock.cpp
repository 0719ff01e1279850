// The production table clock: steady_timers whose stale completions are dropped.
#include "atout/server/table_clock.hpp"

#include <cstdint>

namespace atout::server {

namespace {

class SteadyTimer final : public TableTimer {
 public:
  explicit SteadyTimer(net::strand<net::any_io_executor> strand)
      : s_(std::make_shared<Shared>(net::steady_timer(std::move(strand)))) {}
  ~SteadyTimer() override { cancel(); }

  void wait_until(TimePoint when, std::function<void()> fn) override {
    // Setting the expiry cancels a pending wait; its completion then carries a stale number. A
    // completion already queued before the cancel is told apart by that number too.
    s_->timer.expires_at(when);
    s_->pending = true;
    s_->timer.async_wait([s = s_, wait = ++s_->wait, fn = std::move(fn)](beast::error_code ec) {
      if (ec || wait != s->wait) return;
      s->pending = false;
      fn();
    });
  }
  void cancel() override {
    if (!s_->pending) return;
    s_->timer.cancel();
    ++s_->wait;
    s_->pending = false;
  }
  TimePoint due() const override { return s_->pending ? s_->timer.expiry() : TimePoint::max(); }

 private:
  // Kept alive by a pending completion, so one that runs after the table is gone finds its timer.
  struct Shared {
    explicit Shared(net::steady_timer t) : timer(std::move(t)) {}
    net::steady_timer timer;
    std::uint64_t wait = 0;
    bool pending = false;
  };
  std::shared_ptr<Shared> s_;
};

class SteadyClock final : public TableClock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  std::unique_ptr<TableTimer> make_timer(net::strand<net::any_io_executor> strand) override {
    return std::make_unique<SteadyTimer>(std::move(strand));
  }
};

}  // namespace

std::shared_ptr<TableClock> steady_table_clock() {
  static const std::shared_ptr<TableClock> clock = std::make_shared<SteadyClock>();
  return clock;
}

}  // namespace atout::server
