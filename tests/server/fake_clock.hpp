// A table clock that moves only when the test advances it: timer tests run without sleeping.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "atout/server/table_clock.hpp"

namespace atout::server::testing {

class FakeClock : public TableClock {
 public:
  TimePoint now() const override { return now_; }

  std::unique_ptr<TableTimer> make_timer(net::strand<net::any_io_executor> strand) override {
    auto t = std::make_unique<Timer>(std::move(strand));
    waits_.push_back(t->wait_);
    return t;
  }

  // Drops every pending wait without running it, as destroying an io_context destroys its queued
  // handlers. A wait holds its table (the table holds its timers and so the wait), so a test ends
  // with this to break that cycle.
  void drop_pending() {
    std::vector<std::shared_ptr<Wait>> live;
    for (const auto& weak : waits_)
      if (auto w = weak.lock()) live.push_back(std::move(w));
    waits_.clear();
    for (const auto& w : live) {
      w->fn = nullptr;
      ++w->gen;
    }
  }

  // Moves the clock on by `d` and posts every wait now due to its strand, earliest first; the
  // test then runs the io_context to handle them.
  void advance(std::chrono::milliseconds d) {
    now_ += d;
    std::vector<std::shared_ptr<Wait>> due;
    std::erase_if(waits_, [](const std::weak_ptr<Wait>& w) { return w.expired(); });
    for (const auto& weak : waits_)
      if (auto w = weak.lock(); w && w->fn && w->when <= now_) due.push_back(w);
    std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a->when < b->when; });
    // A wait cancelled or replaced after it was posted is dropped, as a steady_timer's is.
    for (const auto& w : due)
      net::post(w->strand, [w, gen = w->gen, fn = std::exchange(w->fn, nullptr)] {
        if (w->gen == gen) fn();
      });
  }

 private:
  struct Wait {
    explicit Wait(net::strand<net::any_io_executor> s) : strand(std::move(s)) {}
    net::strand<net::any_io_executor> strand;
    TimePoint when{};
    std::uint64_t gen = 0;
    std::function<void()> fn;  // empty when nothing is pending
  };

  class Timer : public TableTimer {
   public:
    explicit Timer(net::strand<net::any_io_executor> strand) : wait_(std::make_shared<Wait>(std::move(strand))) {}
    void wait_until(TimePoint when, std::function<void()> fn) override {
      wait_->when = when;
      wait_->fn = std::move(fn);
      ++wait_->gen;
    }
    void cancel() override {
      wait_->fn = nullptr;
      ++wait_->gen;
    }
    TimePoint due() const override { return wait_->fn ? wait_->when : TimePoint::max(); }

    std::shared_ptr<Wait> wait_;
  };

  TimePoint now_ = TimePoint{} + std::chrono::hours(1);
  std::vector<std::weak_ptr<Wait>> waits_;
};

}  // namespace atout::server::testing
