// The keep-alive's decisions: ping at half the idle timeout, drop at the whole, cut after the grace.
#include "atout/server/keepalive.hpp"

#include <algorithm>

namespace atout::server {

keepalive::keepalive(std::chrono::milliseconds idle_timeout, std::chrono::milliseconds close_grace,
                     clock::time_point now)
    : idle_timeout_(idle_timeout), close_grace_(close_grace), last_heard_(now) {}

void keepalive::closing(clock::time_point now) {
  if (closing_) return;
  closing_ = true;
  closed_at_ = now;
}

keepalive::clock::time_point keepalive::deadline(clock::time_point now) const {
  const auto half = idle_timeout_ / 2;
  auto next = last_heard_ + (now - last_heard_ < half ? half : idle_timeout_);
  if (closing_) next = std::min(next, closed_at_ + close_grace_);
  return next;
}

keepalive::step keepalive::tick(clock::time_point now) {
  const auto silent = now - last_heard_;
  // Closing connections too: a kicked peer that neither reads its goodbye nor says anything goes.
  if (silent >= idle_timeout_) return step::drop;
  // A closing connection whose peer keeps talking without answering the close frame, or never
  // reads what precedes it.
  if (closing_ && now - closed_at_ >= close_grace_) return step::cut;
  // Beast allows one ping at a time beside a write; a ping still waiting behind a backlog counts.
  if (!closing_ && silent >= idle_timeout_ / 2 && !pinging_) {
    pinging_ = true;
    return step::ping;
  }
  return step::wait;
}

}  // namespace atout::server
