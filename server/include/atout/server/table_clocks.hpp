// A table's two kinds of deadline: the turn of the seat to act, and each held seat's reconnect
// window. Plain state over an injected clock; the table calls it on its strand.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "atout/server/table_clock.hpp"

namespace atout::server {

class TableClocks {
 public:
  TableClocks(std::shared_ptr<TableClock> clock, net::strand<net::any_io_executor> strand, std::size_t seats);

  // Times a turn of `length`; `on_timeout` runs on the strand when it is up, unless the turn is
  // timed again or stopped first.
  void time_turn(std::chrono::milliseconds length, std::function<void()> on_timeout);
  void stop_turn();
  // What is left of the timed turn; none when no turn is timed.
  std::optional<std::chrono::milliseconds> turn_left() const;

  // Opens (or reopens) `seat`'s reconnect window; `on_expiry` runs on the strand when it closes
  // unless it is ended first.
  void open_window(std::size_t seat, std::chrono::milliseconds length, std::function<void()> on_expiry);
  void end_window(std::size_t seat);
  bool window_open(std::size_t seat) const;

  void stop_all();

 private:
  void wait_turn(std::function<void()> on_timeout);

  std::shared_ptr<TableClock> clock_;
  std::unique_ptr<TableTimer> turn_;
  TableClock::TimePoint turn_deadline_{};
  bool turn_armed_ = false;
  std::vector<std::unique_ptr<TableTimer>> windows_;
};

}  // namespace atout::server
