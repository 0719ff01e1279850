// Metrics: atomic counters and the Prometheus text rendering of them.
#include "atout/server/metrics.hpp"

#include <cstdio>

namespace atout::server {

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

// Prometheus label values escape backslash, double quote and newline.
std::string escape_label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

template <typename T>
void single(std::string& out, std::string_view name, std::string_view type, std::string_view help,
            const std::atomic<T>& value) {
  family(out, name, type, help);
  out.append(name).append(" ").append(std::to_string(value.load(kRelaxed))).append("\n");
}

}  // namespace

// ---- latency_histogram ---------------------------------------------------------------------------

void latency_histogram::observe(std::chrono::nanoseconds d) {
  const double seconds = std::chrono::duration<double>(d).count();
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    if (seconds <= kBounds[i]) {
      buckets_[i].fetch_add(1, kRelaxed);
      break;
    }
  }
  count_.fetch_add(1, kRelaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(d.count() < 0 ? 0 : d.count()), kRelaxed);
}

void latency_histogram::render(std::string& out, std::string_view name, std::string_view help) const {
  family(out, name, "histogram", help);
  // Read the count first: buckets bumped after it can only make the +Inf line a little low, never
  // leave a finite bucket above it.
  const std::uint64_t count = count_.load(kRelaxed);
  const std::uint64_t sum_ns = sum_ns_.load(kRelaxed);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += buckets_[i].load(kRelaxed);
    if (cumulative > count) cumulative = count;
    out.append(name).append("_bucket{le=\"").append(number(kBounds[i])).append("\"} ");
    out.append(std::to_string(cumulative)).append("\n");
  }
  out.append(name).append("_bucket{le=\"+Inf\"} ").append(std::to_string(count)).append("\n");
  out.append(name).append("_sum ").append(number(static_cast<double>(sum_ns) / 1e9)).append("\n");
  out.append(name).append("_count ").append(std::to_string(count)).append("\n");
}

// ---- metrics -------------------------------------------------------------------------------------

void metrics::action_done(std::chrono::steady_clock::time_point started) {
  actions_accepted.fetch_add(1, kRelaxed);
  action_latency.observe(std::chrono::steady_clock::now() - started);
}

void metrics::count_if_error(std::string_view message) {
  // protocol::serialize writes keys in sorted order, so an error, and only an error, begins with
  // its code (tests/server/metrics_test.cpp checks this for every code and message kind).
  constexpr std::string_view kPrefix = R"({"code":")";
  if (message.substr(0, kPrefix.size()) != kPrefix) return;
  const std::string_view rest = message.substr(kPrefix.size());
  const std::string_view code = rest.substr(0, rest.find('"'));
  for (const protocol::ErrorCode c : protocol::all_error_codes()) {
    if (protocol::to_string(c) == code) {
      const auto i = static_cast<std::size_t>(c);
      if (i < kMaxCodes) errors_[i].fetch_add(1, kRelaxed);
      return;
    }
  }
}

std::uint64_t metrics::errors(protocol::ErrorCode code) const {
  const auto i = static_cast<std::size_t>(code);
  return i < kMaxCodes ? errors_[i].load(kRelaxed) : 0;
}

std::string metrics::render(const table_census& tables) const {
  std::string out;
  out.reserve(4096);
  single(out, "atout_connections_open", "gauge", "TCP connections (HTTP and WebSocket) open now.", connections_open);
  single(out, "atout_connections_total", "counter", "TCP connections accepted, refused ones included.",
         connections_total);
  single(out, "atout_websocket_connections_open", "gauge", "WebSocket connections open now.", websockets_open);
  single(out, "atout_websocket_connections_total", "counter", "WebSocket upgrades accepted.", websockets_total);

  family(out, "atout_tables", "gauge", "Open tables by variant and status.");
  for (const auto& [key, n] : tables) {
    out.append("atout_tables{variant=\"").append(escape_label(key.first)).append("\",status=\"");
    out.append(protocol::to_string(key.second)).append("\"} ").append(std::to_string(n)).append("\n");
  }

  single(out, "atout_actions_accepted_total", "counter", "Client actions accepted by a table.", actions_accepted);
  family(out, "atout_errors_total", "counter", "Error messages sent to clients, by code.");
  for (const protocol::ErrorCode c : protocol::all_error_codes()) {
    out.append("atout_errors_total{code=\"").append(protocol::to_string(c)).append("\"} ");
    out.append(std::to_string(errors(c))).append("\n");
  }
  action_latency.render(out, "atout_action_latency_seconds",
                        "From a table receiving an action to its event being queued to every recipient.");
  single(out, "atout_outbound_queue_drops_total", "counter",
         "Connections dropped because their outbound queue was full (a client that does not read).", queue_drops);
  single(out, "atout_flood_closes_total", "counter", "WebSocket connections closed with 1008 for flooding.",
         flood_closes);
  single(out, "atout_oversized_closes_total", "counter",
         "WebSocket connections closed with 1009 for a message over the size limit.", oversized_closes);
  single(out, "atout_ip_refusals_total", "counter", "Connections refused by the per-address cap (HTTP 429).",
         ip_refusals);
  single(out, "atout_idle_drops_total", "counter", "WebSocket peers dropped for not answering keep-alive pings.",
         idle_drops);
  single(out, "atout_closing_cuts_total", "counter",
         "WebSocket connections the server closed, then cut for not finishing the close in time.", closing_cuts);
  return out;
}

}  // namespace atout::server
