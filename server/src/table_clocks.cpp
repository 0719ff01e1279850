// Turn and reconnect deadlines over a table_clock.
#include "atout/server/table_clocks.hpp"

namespace atout::server {

TableClocks::TableClocks(std::shared_ptr<TableClock> clock, net::strand<net::any_io_executor> strand, std::size_t seats)
    : clock_(std::move(clock)), turn_(clock_->make_timer(strand)) {
  for (std::size_t s = 0; s < seats; ++s) windows_.push_back(clock_->make_timer(strand));
}

void TableClocks::time_turn(std::uint64_t turn, std::chrono::milliseconds length, bool absent,
                            std::chrono::milliseconds absent_delay, std::function<void()> on_timeout) {
  const TableClock::TimePoint now = clock_->now();
  if (now < absence_excused_until_) absent = false;
  if (timed_turn_ != turn) {
    timed_turn_ = turn;
    turn_began_ = now;
    absent_since_.reset();
    turn_timed_out_ = false;
    paused_at_.reset();
  } else if (turn_timed_out_) {
    return;
  } else if (paused_at_) {
    // The same turn after a pause: the pause did not count, so the turn has what was left of it.
    const auto paused = now - *paused_at_;
    turn_began_ += paused;
    if (absent_since_) *absent_since_ += paused;
    paused_at_.reset();
  }
  if (!absent) {
    absent_since_.reset();
  } else if (!absent_since_) {
    absent_since_ = now;
  }
  TableClock::TimePoint deadline = turn_began_ + length;
  if (absent_since_) deadline = std::min(deadline, *absent_since_ + absent_delay);
  arm_turn(deadline, TurnWait::turn, std::move(on_timeout));
}

void TableClocks::excuse_absence_for(std::chrono::milliseconds length) {
  absence_excused_until_ = clock_->now() + length;
}

void TableClocks::retry_turn(std::chrono::milliseconds length, std::function<void()> then) {
  timed_turn_.reset();
  arm_turn(clock_->now() + length, TurnWait::retry, std::move(then));
}

void TableClocks::arm_turn(TableClock::TimePoint deadline, TurnWait kind, std::function<void()> on_timeout) {
  turn_deadline_ = deadline;
  turn_armed_ = true;
  // Most actions push the deadline later: a wait of the same kind under way stays (no
  // cancellation and new wait per action) and, when it comes early, waits again for the deadline.
  // A wait of the other kind carries the other callback (a retry's instead of a turn's, or the
  // reverse), so it is replaced: otherwise the deadline would run the wrong one.
  if (pending_ == kind && turn_->due() <= turn_deadline_) return;
  pending_ = kind;
  wait_turn(std::move(on_timeout));
}

void TableClocks::wait_turn(std::function<void()> on_timeout) {
  // The wait holds `on_timeout`, which holds the table and so this object.
  turn_->wait_until(turn_deadline_, [this, on_timeout = std::move(on_timeout)]() mutable {
    if (!turn_armed_) return;
    if (clock_->now() < turn_deadline_) return wait_turn(std::move(on_timeout));
    turn_armed_ = false;
    if (pending_ == TurnWait::turn) turn_timed_out_ = true;
    pending_ = TurnWait::none;
    on_timeout();
  });
}

void TableClocks::stop_turn() {
  // A turn stopped before its time was up keeps its place: timed again, it goes on from there.
  if (timed_turn_ && turn_armed_ && pending_ == TurnWait::turn && !paused_at_) paused_at_ = clock_->now();
  turn_armed_ = false;
  pending_ = TurnWait::none;
  turn_->cancel();  // nothing to time: the wait goes, and with it its hold on the table
}

std::optional<std::chrono::milliseconds> TableClocks::turn_left() const {
  if (!turn_armed_) return std::nullopt;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(turn_deadline_ - clock_->now());
  return std::max(left, std::chrono::milliseconds(0));
}

void TableClocks::open_window(std::size_t seat, std::chrono::milliseconds length, std::function<void()> on_expiry) {
  windows_[seat]->wait_until(clock_->now() + length, std::move(on_expiry));
}

void TableClocks::end_window(std::size_t seat) { windows_[seat]->cancel(); }

bool TableClocks::window_open(std::size_t seat) const { return windows_[seat]->due() != TableClock::TimePoint::max(); }

void TableClocks::stop_all() {
  stop_turn();
  for (auto& w : windows_) w->cancel();
}

}  // namespace atout::server
