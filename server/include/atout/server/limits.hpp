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
struct SessionLimits {
  double msg_burst = 200;
  double msg_rate = 100;
  std::chrono::milliseconds idle_timeout{60'000};
  std::size_t max_queue_messages = 1024;
  std::size_t max_queue_bytes = 4 * 1024 * 1024;
  // A connection the server has closed (kicked, replaced) has this long to finish the closing
  // handshake, whatever it keeps sending; then its socket is closed.
  std::chrono::milliseconds close_grace{10'000};
  // HTTP /api/ reads from one address: `http_burst` at once, `http_rate` more each second; one
  // more is answered 429 with Retry-After.
  double http_burst = 20;
  double http_rate = 5;
};

// What the lobby holds players to (from config; see docs/operations.md).
struct LobbyLimits {
  // Tables one player may own that have not started (0: no bound); one more is `too_many_tables`.
  int max_open_tables = 4;
  // An unstarted table with nobody seated or watching is closed after this long.
  std::chrono::milliseconds empty_table_ttl{600'000};
  // A lobby listing (list_tables, subscribe_lobby) costs one message credit more for each this
  // many tables its page may hold, on top of the credit its message took.
  static constexpr int kTablesPerCredit = 10;
};

// Message credits: `burst` at most, `rate` more each second, starting full at `start`. A
// connection holds one bucket for all its messages (a client that asks for a credit when none is
// left is flooding) and one for its chat lines.
class MessageCredits {
 public:
  MessageCredits(double burst, double rate,
                 std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  // Spends `n` credits, refilled up to `now`; false (and nothing spent) when fewer are left.
  bool take(std::chrono::steady_clock::time_point now, double n = 1);
  // How long after the last `take` until `n` credits are back (zero if they are there).
  std::chrono::milliseconds wait(double n = 1) const;

 private:
  double burst_;
  double rate_;
  double credits_;
  std::chrono::steady_clock::time_point last_;
};

// HTTP reads by address: one MessageCredits bucket per address, made on its first request and
// forgotten once it has refilled, so the table stays as small as the set of recent readers.
class HttpReadLimiter {
 public:
  HttpReadLimiter(double burst, double rate) : burst_(burst), rate_(rate) {}
  // Nothing when `address` may read now (a credit is spent); else how long until it may.
  std::optional<std::chrono::milliseconds> admit(const net::ip::address& address,
                                                 std::chrono::steady_clock::time_point now);
  std::size_t tracked() const;

 private:
  struct Bucket {
    MessageCredits credits;
    std::chrono::steady_clock::time_point last;
  };
  // Above this many addresses, those whose bucket has refilled are dropped.
  static constexpr std::size_t kPruneAbove = 4096;

  double burst_;
  double rate_;
  mutable std::mutex mutex_;
  std::unordered_map<net::ip::address, Bucket> buckets_;
};

class ConnLimiter;

// One accepted connection: counted as open (and against its address, under a cap) until the slot
// is destroyed with the last session that owns the socket.
class IpSlot {
 public:
  IpSlot() = default;
  IpSlot(std::shared_ptr<ConnLimiter> owner, net::ip::address address, bool capped);
  IpSlot(IpSlot&& other) noexcept;
  IpSlot& operator=(IpSlot&& other) noexcept;
  IpSlot(const IpSlot&) = delete;
  IpSlot& operator=(const IpSlot&) = delete;
  ~IpSlot();

 private:
  void release();

  std::shared_ptr<ConnLimiter> owner_;
  net::ip::address address_;
  bool capped_ = false;
};

class ConnLimiter : public std::enable_shared_from_this<ConnLimiter> {
 public:
  // `max_per_ip` 0: no cap (addresses are then not even counted).
  ConnLimiter(int max_per_ip, std::shared_ptr<server::Metrics> m);

  // A slot for a new connection from `address`, or nothing when that address is at its cap.
  std::optional<IpSlot> admit(const net::ip::address& address);
  // Connections open now from `address` (under a cap; 0 without one).
  int open_from(const net::ip::address& address) const;

 private:
  friend class IpSlot;
  void release(const net::ip::address& address, bool capped);

  int max_per_ip_;
  std::shared_ptr<server::Metrics> metrics_;
  mutable std::mutex mutex_;
  std::unordered_map<net::ip::address, int> open_;
};

}  // namespace atout::server
