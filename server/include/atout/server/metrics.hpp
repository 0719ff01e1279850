// Server metrics for GET /metrics: counters, gauges and a histogram in a prometheus-cpp registry,
// bumped from any strand, rendered by its text serializer (exposition format 0.0.4).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "atout/protocol/messages.hpp"

namespace prometheus {
class Counter;
class Gauge;
class Histogram;
class Registry;
}  // namespace prometheus

namespace atout::server {

// A counter of the registry behind the interface of the atomic it replaced, so callers keep
// writing `fetch_add(1, std::memory_order_relaxed)`. It holds the metric itself: no lookup by
// label when it is bumped.
class MetricCounter {
 public:
  explicit MetricCounter(prometheus::Counter& c) : c_(&c) {}
  void fetch_add(std::uint64_t n, std::memory_order = std::memory_order_relaxed);
  std::uint64_t load(std::memory_order = std::memory_order_relaxed) const;

 private:
  prometheus::Counter* c_;
};

// A gauge of the registry, likewise.
class MetricGauge {
 public:
  explicit MetricGauge(prometheus::Gauge& g) : g_(&g) {}
  void fetch_add(std::int64_t n, std::memory_order = std::memory_order_relaxed);
  void fetch_sub(std::int64_t n, std::memory_order = std::memory_order_relaxed);
  std::int64_t load(std::memory_order = std::memory_order_relaxed) const;

 private:
  prometheus::Gauge* g_;
};

// The action latency histogram, with fixed bucket bounds.
class LatencyHistogram {
 public:
  // Upper bounds in seconds, from 50 µs to 1 s; observations above go only to +Inf.
  static constexpr std::array<double, 14> kBounds = {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                     0.01,    0.025,  0.05,    0.1,    0.25,  0.5,    1.0};

  explicit LatencyHistogram(prometheus::Histogram& h) : h_(&h) {}
  void observe(std::chrono::nanoseconds d);
  // Appends the histogram's lines (the family's HELP and TYPE included) to `out`.
  void render(std::string& out, std::string_view name, std::string_view help) const;
  std::uint64_t count() const;

 private:
  prometheus::Histogram* h_;
};

// Open tables by variant and status, as the lobby last heard from each.
using TableCensus = std::map<std::pair<std::string, protocol::TableStatus>, int>;

class Metrics {
 public:
  using Counter = MetricCounter;
  using Gauge = MetricGauge;

  Metrics();
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

 private:
  // First, so the metrics below can be registered in it.
  std::shared_ptr<prometheus::Registry> registry_;

 public:
  Gauge connections_open;     // TCP connections (HTTP and WebSocket) open now
  Counter connections_total;  // accepted TCP connections, refused ones included
  Gauge websockets_open;
  Counter websockets_total;
  Counter actions_accepted;        // client actions the engine took
  Counter queue_drops;             // connections dropped for not reading (outbound queue full)
  Counter flood_closes;            // closed with 1008 for sending faster than their credits allow
  Counter oversized_closes;        // closed with 1009 for a message over the size limit
  Counter ip_refusals;             // connections refused by the per-address cap
  Counter idle_drops;              // WebSocket peers dropped for not answering keep-alive pings
  Counter closing_cuts;            // closed by the server, then cut for not finishing the close in time
  Counter http_rate_limited;       // HTTP /api/ reads answered 429 by the per-address read limit
  Counter tls_handshake_failures;  // connections to a TLS port that failed the TLS handshake
  Counter origin_refusals;         // WebSocket upgrades refused 403 for their Origin
  LatencyHistogram action_latency;
  Gauge bot_queue_depth;   // bot decisions waiting for a worker
  Counter bot_queue_full;  // bot decisions refused by a full queue (a quick bot chose on the strand)

  // A server bot of `level` decided an action in `took`.
  void bot_decided(protocol::BotLevel level, std::chrono::nanoseconds took);
  std::uint64_t bot_decisions(protocol::BotLevel level) const;
  std::uint64_t bot_decision_count() const;  // observations of the decision-time histogram

  // An action accepted by a table, `started` when the table's `act` was called.
  void action_done(std::chrono::steady_clock::time_point started);
  // One error sent to a client (see error_wire).
  void count_error(protocol::ErrorCode code);
  std::uint64_t errors(protocol::ErrorCode code) const;

  // The whole exposition, with `tables` for the table gauge.
  std::string render(const TableCensus& tables) const;

 private:
  static constexpr std::size_t kMaxCodes = 64;
  std::array<prometheus::Counter*, kMaxCodes> errors_{};  // by ErrorCode; null past the last code
  std::array<prometheus::Counter*, 3> bot_decisions_{};   // by BotLevel
  prometheus::Histogram* bot_time_ = nullptr;
};

// The content type of the exposition format rendered above.
inline constexpr std::string_view kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace atout::server
