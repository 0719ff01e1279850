// Metrics: the prometheus-cpp registry behind the server's counters, and its text rendering.
#include "atout/server/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

namespace atout::server {

namespace {

prometheus::Counter& new_counter(prometheus::Registry& r, const std::string& name, const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(r).Add({});
}

prometheus::Gauge& new_gauge(prometheus::Registry& r, const std::string& name, const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(r).Add({});
}

constexpr const char* kLatencyName = "atout_action_latency_seconds";
constexpr const char* kLatencyHelp = "From a table receiving an action to its event being queued to every recipient.";

prometheus::Histogram& new_latency(prometheus::Registry& r) {
  return prometheus::BuildHistogram()
      .Name(kLatencyName)
      .Help(kLatencyHelp)
      .Register(r)
      .Add({},
           prometheus::Histogram::BucketBoundaries(LatencyHistogram::kBounds.begin(), LatencyHistogram::kBounds.end()));
}

// The table gauge is a snapshot of the lobby's census at render time, so it is built here rather
// than kept in the registry, with its labels in the order the page has always shown them.
prometheus::MetricFamily tables_family(const TableCensus& tables) {
  prometheus::MetricFamily f{"atout_tables", "Open tables by variant and status.", prometheus::MetricType::Gauge, {}};
  for (const auto& [key, n] : tables) {
    prometheus::ClientMetric m;
    m.label = {{"variant", key.first}, {"status", std::string(protocol::to_string(key.second))}};
    m.gauge.value = n;
    f.metric.push_back(std::move(m));
  }
  return f;
}

}  // namespace

// ---- metric_counter, metric_gauge ----------------------------------------------------------------

void MetricCounter::fetch_add(std::uint64_t n, std::memory_order) { c_->Increment(static_cast<double>(n)); }
std::uint64_t MetricCounter::load(std::memory_order) const { return static_cast<std::uint64_t>(c_->Value()); }

void MetricGauge::fetch_add(std::int64_t n, std::memory_order) { g_->Increment(static_cast<double>(n)); }
void MetricGauge::fetch_sub(std::int64_t n, std::memory_order) { g_->Decrement(static_cast<double>(n)); }
std::int64_t MetricGauge::load(std::memory_order) const { return static_cast<std::int64_t>(g_->Value()); }

// ---- latency_histogram ---------------------------------------------------------------------------

void LatencyHistogram::observe(std::chrono::nanoseconds d) {
  h_->Observe(d.count() < 0 ? 0.0 : std::chrono::duration<double>(d).count());
}

std::uint64_t LatencyHistogram::count() const { return h_->Collect().histogram.sample_count; }

void LatencyHistogram::render(std::string& out, std::string_view name, std::string_view help) const {
  prometheus::MetricFamily f{std::string(name), std::string(help), prometheus::MetricType::Histogram, {h_->Collect()}};
  out += prometheus::TextSerializer().Serialize({f});
}

// ---- metrics -------------------------------------------------------------------------------------

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      connections_open(
          new_gauge(*registry_, "atout_connections_open", "TCP connections (HTTP and WebSocket) open now.")),
      connections_total(
          new_counter(*registry_, "atout_connections_total", "TCP connections accepted, refused ones included.")),
      websockets_open(new_gauge(*registry_, "atout_websocket_connections_open", "WebSocket connections open now.")),
      websockets_total(new_counter(*registry_, "atout_websocket_connections_total", "WebSocket upgrades accepted.")),
      actions_accepted(new_counter(*registry_, "atout_actions_accepted_total", "Client actions accepted by a table.")),
      queue_drops(new_counter(*registry_, "atout_outbound_queue_drops_total",
                              "Connections dropped because their outbound queue was full (a client that does not "
                              "read).")),
      flood_closes(
          new_counter(*registry_, "atout_flood_closes_total", "WebSocket connections closed with 1008 for flooding.")),
      oversized_closes(new_counter(*registry_, "atout_oversized_closes_total",
                                   "WebSocket connections closed with 1009 for a message over the size limit.")),
      ip_refusals(
          new_counter(*registry_, "atout_ip_refusals_total", "Connections refused by the per-address cap (HTTP 429).")),
      idle_drops(new_counter(*registry_, "atout_idle_drops_total",
                             "WebSocket peers dropped for not answering keep-alive pings.")),
      closing_cuts(new_counter(*registry_, "atout_closing_cuts_total",
                               "WebSocket connections the server closed, then cut for not finishing the close in "
                               "time.")),
      http_rate_limited(new_counter(*registry_, "atout_http_rate_limited_total",
                                    "HTTP /api/ requests answered 429 by the per-address read rate limit.")),
      tls_handshake_failures(new_counter(*registry_, "atout_tls_handshake_failures_total",
                                         "Connections to the TLS port that failed the TLS handshake.")),
      origin_refusals(new_counter(*registry_, "atout_origin_refusals_total",
                                  "WebSocket upgrades refused (HTTP 403) for a page origin not allowed.")),
      action_latency(new_latency(*registry_)),
      bot_queue_depth(new_gauge(*registry_, "atout_bot_queue_depth", "Bot decisions waiting for a bot worker.")),
      bot_queue_full(new_counter(*registry_, "atout_bot_queue_full_total",
                                 "Bot decisions refused because every bot worker was busy and the queue full; the "
                                 "server played its fallback action instead.")) {
  auto& decisions = prometheus::BuildCounter()
                        .Name("atout_bot_decisions_total")
                        .Help("Actions chosen by server bots, by level.")
                        .Register(*registry_);
  for (const protocol::BotLevel l :
       {protocol::BotLevel::random, protocol::BotLevel::rules, protocol::BotLevel::sampling})
    bot_decisions_[static_cast<std::size_t>(l)] = &decisions.Add({{"level", protocol::to_string(l)}});
  static const std::vector<double> kBotBounds = {0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0};
  bot_time_ = &prometheus::BuildHistogram()
                   .Name("atout_bot_decision_seconds")
                   .Help("Time a server bot took to choose an action, on a bot worker.")
                   .Register(*registry_)
                   .Add({}, prometheus::Histogram::BucketBoundaries(kBotBounds));
  // Every code is present from the start, at 0, so a rate over it never begins with a gap.
  auto& family = prometheus::BuildCounter()
                     .Name("atout_errors_total")
                     .Help("Error messages sent to clients, by code.")
                     .Register(*registry_);
  for (const protocol::ErrorCode c : protocol::all_error_codes()) {
    const auto i = static_cast<std::size_t>(c);
    if (i < kMaxCodes) errors_[i] = &family.Add({{"code", std::string(protocol::to_string(c))}});
  }
}

Metrics::~Metrics() = default;

void Metrics::action_done(std::chrono::steady_clock::time_point started) {
  actions_accepted.fetch_add(1);
  action_latency.observe(std::chrono::steady_clock::now() - started);
}

void Metrics::bot_decided(protocol::BotLevel level, std::chrono::nanoseconds took) {
  bot_decisions_[static_cast<std::size_t>(level)]->Increment();
  bot_time_->Observe(took.count() < 0 ? 0.0 : std::chrono::duration<double>(took).count());
}

std::uint64_t Metrics::bot_decisions(protocol::BotLevel level) const {
  return static_cast<std::uint64_t>(bot_decisions_[static_cast<std::size_t>(level)]->Value());
}

std::uint64_t Metrics::bot_decision_count() const { return bot_time_->Collect().histogram.sample_count; }

void Metrics::count_error(protocol::ErrorCode code) {
  const auto i = static_cast<std::size_t>(code);
  if (i < kMaxCodes && errors_[i]) errors_[i]->Increment();
}

std::uint64_t Metrics::errors(protocol::ErrorCode code) const {
  const auto i = static_cast<std::size_t>(code);
  return i < kMaxCodes && errors_[i] ? static_cast<std::uint64_t>(errors_[i]->Value()) : 0;
}

std::string Metrics::render(const TableCensus& tables) const {
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  families.push_back(tables_family(tables));
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace atout::server
