// The keep-alive's decisions: ping at half the idle timeout, drop at the whole, cut after the grace.
#include "atout/server/keepalive.hpp"

#include <algorithm>

namespace atout::server {

Keepalive::Keepalive(std::chrono::milliseconds idle_timeout, std::chrono::milliseconds close_grace,
                     Clock::time_point now)
    : idle_timeout_(idle_timeout), close_grace_(close_grace), last_heard_(now) {}

void Keepalive::closing(Clock::time_point now) {
  if (closing_) return;
  closing_ = true;
  closed_at_ = now;
}

Keepalive::Clock::time_point Keepalive::deadline(Clock::time_point now) const {
  const auto half = idle_timeout_ / 2;
  auto next = last_heard_ + (now - last_heard_ < half ? half : idle_timeout_);
  if (closing_) next = std::min(next, closed_at_ + close_grace_);
  return next;
}

Keepalive::Step Keepalive::tick(Clock::time_point now) {
  const auto silent = now - last_heard_;
  // Closing connections too: a kicked peer that neither reads its goodbye nor says anything goes.
  if (silent >= idle_timeout_) return Step::drop;
  // A closing connection whose peer keeps talking without answering the close frame, or never
  // reads what precedes it.
  if (closing_ && now - closed_at_ >= close_grace_) return Step::cut;
  // Beast allows one ping at a time beside a write; a ping still waiting behind a backlog counts.
  if (!closing_ && silent >= idle_timeout_ / 2 && !pinging_) {
    pinging_ = true;
    return Step::ping;
  }
  return Step::wait;
}

}  // namespace atout::server
