// The keep-alive's decisions for one connection, over time points the caller supplies, so that tests
// drive it with a fake clock and the session drives it with a real timer.
#pragma once

#include <chrono>

namespace atout::server {

class Keepalive {
 public:
  using Clock = std::chrono::steady_clock;

  // What a tick asks the connection to do.
  enum class Step {
    wait,  // nothing yet: wait for the next deadline
    ping,  // silent for half the idle timeout: ping the peer
    drop,  // silent for the whole idle timeout: drop the peer
    cut,   // the server closed the connection and the peer has not finished closing within the grace
  };

  Keepalive(std::chrono::milliseconds idle_timeout, std::chrono::milliseconds close_grace, Clock::time_point now);

  // A frame was read from the peer (control frames too).
  void heard(Clock::time_point now) { last_heard_ = now; }
  // The server closed the connection: from now on no ping is sent, and the close grace runs.
  void closing(Clock::time_point now);
  // The ping asked for by `tick` has been written (or failed): another may be sent.
  void ping_done() { pinging_ = false; }

  // When the next tick is due: the ping, or once it is due or out, the drop; for a closing
  // connection, the end of its grace if that comes first.
  Clock::time_point deadline(Clock::time_point now) const;
  // What to do at `now`.
  Step tick(Clock::time_point now);

 private:
  std::chrono::milliseconds idle_timeout_;
  std::chrono::milliseconds close_grace_;
  Clock::time_point last_heard_;
  bool closing_ = false;
  Clock::time_point closed_at_;
  bool pinging_ = false;  // a ping is written or waits to be
};

}  // namespace atout::server
