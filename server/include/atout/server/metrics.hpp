// Server counters for GET /metrics: lock-free atomics bumped from any strand, rendered in the
// Prometheus text exposition format 0.0.4.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "atout/protocol/messages.hpp"

namespace atout::server {

// A histogram with fixed bucket bounds: one atomic per bucket, so observing never locks.
class latency_histogram {
 public:
  // Upper bounds in seconds, from 50 µs to 1 s; observations above go only to +Inf.
  static constexpr std::array<double, 14> kBounds = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                     0.01,    0.025,  0.05,    0.1,    0.25,  0.5,    1.0};

  void observe(std::chrono::nanoseconds d);
  // Appends the histogram's lines (the family's HELP and TYPE included) to `out`.
  void render(std::string& out, std::string_view name, std::string_view help) const;
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size()> buckets_{};  // not cumulative
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_ns_{0};
};

// Open tables by variant and status, as the lobby last heard from each.
using table_census = std::map<std::pair<std::string, protocol::TableStatus>, int>;

class metrics {
 public:
  using counter = std::atomic<std::uint64_t>;
  using gauge = std::atomic<std::int64_t>;

  gauge connections_open{0};     // TCP connections (HTTP and WebSocket) open now
  counter connections_total{0};  // accepted TCP connections, refused ones included
  gauge websockets_open{0};
  counter websockets_total{0};
  counter actions_accepted{0};  // client actions the engine took
  counter queue_drops{0};       // connections dropped for not reading (outbound queue full)
  counter flood_closes{0};      // closed with 1008 for sending faster than their credits allow
  counter oversized_closes{0};  // closed with 1009 for a message over the size limit
  counter ip_refusals{0};       // connections refused by the per-address cap
  counter idle_drops{0};        // WebSocket peers dropped for not answering keep-alive pings
  counter closing_cuts{0};      // closed by the server, then cut for not finishing the close in time
  latency_histogram action_latency;

  // An action accepted by a table, `started` when the table's `act` was called.
  void action_done(std::chrono::steady_clock::time_point started);
  // Counts `message` (a server message in wire form) if it is an error.
  void count_if_error(std::string_view message);
  std::uint64_t errors(protocol::ErrorCode code) const;

  // The whole exposition, with `tables` for the table gauge.
  std::string render(const table_census& tables) const;

 private:
  static constexpr std::size_t kMaxCodes = 64;
  std::array<counter, kMaxCodes> errors_{};
};

// The content type of the exposition format rendered above.
inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace atout::server
