// At most one log line per interval for an event that can repeat thousands of times a second.
//
// Under overload some events recur at the rate of the load itself (a full bot queue refuses a
// decision at every bot turn of every table). A line for each would cost the I/O threads a
// formatted write apiece, and would bury the log. A LogThrottle says when to write: the first
// occurrence at once, then one line an interval later with the count of those held back. The
// caller gives the time, so tests need no clock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace atout::server {

class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LogThrottle(Clock::duration interval) : interval_(interval.count()) {}

  // Records one occurrence at `now`. Returns the number of occurrences to report now (this one and
  // every one held back since the last report), or 0 when the caller writes nothing. Safe to call
  // from any thread.
  std::uint64_t note(Clock::time_point now) {
    held_.fetch_add(1, std::memory_order_relaxed);
    const Clock::rep t = now.time_since_epoch().count();
    Clock::rep due = due_.load(std::memory_order_relaxed);
    if (t < due) return 0;
    // One caller wins the report; the others' occurrences go into the next one.
    if (!due_.compare_exchange_strong(due, t + interval_, std::memory_order_relaxed)) return 0;
    return held_.exchange(0, std::memory_order_relaxed);
  }

 private:
  Clock::rep interval_;
  std::atomic<Clock::rep> due_{std::numeric_limits<Clock::rep>::min()};
  std::atomic<std::uint64_t> held_{0};
};

}  // namespace atout::server
