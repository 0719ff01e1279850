// The clock a table times turns and reconnect windows by: steady_timers on the table's strand in
// production, a clock the test advances by hand in tests (so no test sleeps for a timer).
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "atout/server/net.hpp"

namespace atout::server {

// One pending wake-up at a time, on the strand the timer was made for.
class TableTimer {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~TableTimer() = default;
  // Runs `fn` on the strand at or after `when`, unless the wait is cancelled or replaced by a
  // newer one first: then `fn` never runs.
  virtual void wait_until(TimePoint when, std::function<void()> fn) = 0;
  virtual void cancel() = 0;
  // When the pending wait is due; time_point::max() when none is pending.
  virtual TimePoint due() const = 0;
};

class TableClock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~TableClock() = default;
  virtual TimePoint now() const = 0;
  virtual std::unique_ptr<TableTimer> make_timer(net::strand<net::any_io_executor> strand) = 0;
};

// The production clock: std::chrono::steady_clock, and a net::steady_timer per table_timer.
std::shared_ptr<TableClock> steady_table_clock();

}  // namespace atout::server
