// A table's two kinds of deadline: the turn of the seat to act, and each held seat's reconnect
// window. Plain state over an injected clock; the table calls it on its strand.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "atout/server/table_clock.hpp"

namespace atout::server {

class TableClocks {
 public:
  TableClocks(std::shared_ptr<TableClock> clock, net::strand<net::any_io_executor> strand, std::size_t seats);

  // Times turn number `turn` (any number that changes when another turn begins; the table uses its
  // event seq): `length` from when it began, or, while its seat is `absent` (its player
  // disconnected or away), no more than `absent_delay` from when it was first seen absent in this
  // turn. `on_timeout` runs on the strand when the time is up, unless the turn is timed again or
  // stopped first. Timing the same turn again never gives it more time: someone who sits, resumes,
  // watches or leaves cannot stretch the turn of the seat to act, and a seat that comes back gets
  // what is left of its turn. A turn whose time is up is not timed again.
  void time_turn(std::uint64_t turn, std::chrono::milliseconds length, bool absent,
                 std::chrono::milliseconds absent_delay, std::function<void()> on_timeout);
  // For `length` from now, a seat seen absent is timed as if present: after a restart or a
  // take-over every player is disconnected at once and needs a moment to come back (clients back
  // off for a few seconds), so their turns are not played for them at the absent delay meanwhile.
  void excuse_absence_for(std::chrono::milliseconds length);
  // Runs `then` on the strand after `length` on the turn's timer (a retry while the table's lease
  // is away); the next time_turn starts its turn afresh.
  void retry_turn(std::chrono::milliseconds length, std::function<void()> then);
  // Nobody's turn is timed (the match paused or ended, or a bot is to act). Timed again, the same
  // turn goes on with what was left of it: the time it was stopped does not count, and stopping
  // and timing it again gives it no more.
  void stop_turn();
  // What is left of the timed turn; none when no turn is timed.
  std::optional<std::chrono::milliseconds> turn_left() const;

  // Opens (or reopens) `seat`'s reconnect window; `on_expiry` runs on the strand when it closes
  // unless it is ended first.
  void open_window(std::size_t seat, std::chrono::milliseconds length, std::function<void()> on_expiry);
  void end_window(std::size_t seat);
  bool window_open(std::size_t seat) const;

  void stop_all();

  TableClock::TimePoint now() const { return clock_->now(); }

 private:
  // What the turn timer's pending wait will run: the turn's timeout, or a retry.
  enum class TurnWait { none, turn, retry };
  void arm_turn(TableClock::TimePoint deadline, TurnWait kind, std::function<void()> on_timeout);
  void wait_turn(std::function<void()> on_timeout);

  std::shared_ptr<TableClock> clock_;
  std::unique_ptr<TableTimer> turn_;
  TableClock::TimePoint turn_deadline_{};
  bool turn_armed_ = false;
  // The turn being timed: its number, when it began, when its seat was first seen absent in it,
  // and whether its time is up.
  std::optional<std::uint64_t> timed_turn_;
  TableClock::TimePoint turn_began_{};
  std::optional<TableClock::TimePoint> absent_since_;
  std::optional<TableClock::TimePoint> paused_at_;  // when the turn was stopped before its time
  bool turn_timed_out_ = false;
  TurnWait pending_ = TurnWait::none;
  TableClock::TimePoint absence_excused_until_{};
  std::vector<std::unique_ptr<TableTimer>> windows_;
};

}  // namespace atout::server
