// Abuse limits: a per-address connection cap with an RAII slot per connection, and per-connection
// message credits (a token bucket).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "atout/server/metrics.hpp"
#include "atout/server/net.hpp"

namespace atout::server {

// What each WebSocket session is held to (from config; see docs/operations.md).
struct session_limits {
  double msg_burst = 200;
  double msg_rate = 100;
  std::chrono::milliseconds idle_timeout{60'000};
  std::size_t max_queue_messages = 1024;
  std::size_t max_queue_bytes = 4 * 1024 * 1024;
  // A connection the server has closed (kicked, replaced) has this long to finish the closing
  // handshake, whatever it keeps sending; then its socket is closed.
  std::chrono::milliseconds close_grace{10'000};
};

// Message credits: `burst` at most, `rate` more each second, starting full at `start`. A
// connection holds one bucket for all its messages (a client that asks for a credit when none is
// left is flooding) and one for its chat lines.
class message_credits {
 public:
  message_credits(double burst, double rate,
                  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  // Spends one credit, refilled up to `now`; false when there is none.
  bool take(std::chrono::steady_clock::time_point now);
  // How long after the last `take` until a credit is back (zero if one is left).
  std::chrono::milliseconds wait() const;

 private:
  double burst_;
  double rate_;
  double credits_;
  std::chrono::steady_clock::time_point last_;
};

class conn_limiter;

// One accepted connection: counted as open (and against its address, under a cap) until the slot
// is destroyed with the last session that owns the socket.
class ip_slot {
 public:
  ip_slot() = default;
  ip_slot(std::shared_ptr<conn_limiter> owner, net::ip::address address, bool capped);
  ip_slot(ip_slot&& other) noexcept;
  ip_slot& operator=(ip_slot&& other) noexcept;
  ip_slot(const ip_slot&) = delete;
  ip_slot& operator=(const ip_slot&) = delete;
  ~ip_slot();

 private:
  void release();

  std::shared_ptr<conn_limiter> owner_;
  net::ip::address address_;
  bool capped_ = false;
};

class conn_limiter : public std::enable_shared_from_this<conn_limiter> {
 public:
  // `max_per_ip` 0: no cap (addresses are then not even counted).
  conn_limiter(int max_per_ip, std::shared_ptr<server::metrics> m);

  // A slot for a new connection from `address`, or nothing when that address is at its cap.
  std::optional<ip_slot> admit(const net::ip::address& address);
  // Connections open now from `address` (under a cap; 0 without one).
  int open_from(const net::ip::address& address) const;

 private:
  friend class ip_slot;
  void release(const net::ip::address& address, bool capped);

  int max_per_ip_;
  std::shared_ptr<server::metrics> metrics_;
  mutable std::mutex mutex_;
  std::unordered_map<net::ip::address, int> open_;
};

}  // namespace atout::server
