// GET /metrics: the page parses as Prometheus text (by a strict reader here and by the Prometheus
// client library's parser) and its counters move when actions and errors happen.
#include "atout/server/metrics.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "atout/server/error_wire.hpp"
#include "metrics_text.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

MetricsPage fetch(unsigned short port) {
  const HttpReply r = http_get(port, "/metrics");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.content_type, kMetricsContentType);
  MetricsPage page = parse_metrics(r.body);
  EXPECT_EQ(page.error, "") << r.body;
  return page;
}

// Refetches until `pred` holds (counters are bumped on the strands, a moment after the reply).
MetricsPage fetch_until(unsigned short port, const std::function<bool(MetricsPage&)>& pred) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  for (;;) {
    MetricsPage page = fetch(port);
    if (pred(page) || std::chrono::steady_clock::now() > deadline) return page;
    std::this_thread::sleep_for(20ms);
  }
}

::testing::AssertionResult python_parses(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("atout-metrics-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(path) << text;
  const std::string command = std::string(ATOUT_PYTHON) + " '" + ATOUT_SOURCE_DIR +
                              "/tests/server/parse_metrics.py' '" + path.string() + "' 2>&1";
  const CommandResult r = run_command(command);
  std::filesystem::remove(path);
  const std::string& output = r.out;
  if (r.exit_code != 0) return ::testing::AssertionFailure() << output;
  if (output.find("atout_action_latency_seconds histogram") == std::string::npos)
    return ::testing::AssertionFailure() << "no latency histogram in\n" << output;
  return ::testing::AssertionSuccess();
}

double at(const MetricsPage& p, const std::string& key) {
  const auto it = p.samples.find(key);
  return it == p.samples.end() ? -1 : it->second;
}

TEST(MetricsLoopback, PageParsesAsPrometheusTextAndCountersMove) {
  LiveServer server;
  const MetricsPage before = fetch(server.port());
  for (const char* family :
       {"atout_connections_open", "atout_connections_total", "atout_websocket_connections_open",
        "atout_websocket_connections_total", "atout_tables", "atout_actions_accepted_total", "atout_errors_total",
        "atout_action_latency_seconds", "atout_outbound_queue_drops_total", "atout_flood_closes_total",
        "atout_oversized_closes_total", "atout_ip_refusals_total", "atout_idle_drops_total", "atout_closing_cuts_total",
        "atout_http_rate_limited_total", "atout_bot_queue_full_total"})
    EXPECT_TRUE(before.types.count(family)) << family;
  EXPECT_EQ(at(before, "atout_actions_accepted_total"), 0);
  EXPECT_EQ(at(before, "atout_errors_total{code=\"illegal_action\"}"), 0);

  TestClient a(server.port(), nullptr);
  TestClient b(server.port(), nullptr);
  a.hello("a");
  b.hello("b");
  const std::string table_id = a.request({{"type", "create_table"}, {"variant", "duel"}})["table"]["table_id"];
  EXPECT_EQ(a.request({{"type", "sit"}, {"table_id", table_id}, {"seat", 0}})["type"], "seated");
  EXPECT_EQ(b.request({{"type", "sit"}, {"table_id", table_id}, {"seat", 1}})["type"], "seated");
  json ea = a.wait_for("event");
  json eb = b.wait_for("event");
  TestClient& actor = ea["observation"]["legal"].empty() ? b : a;
  TestClient& idle = ea["observation"]["legal"].empty() ? a : b;
  const json legal = (ea["observation"]["legal"].empty() ? eb : ea)["observation"]["legal"];
  ASSERT_FALSE(legal.empty());

  // Errors, one found by each part of the server: an action out of turn (the table), bad JSON (the
  // protocol), an unknown variant (the lobby) and a table that is not there (the lobby's search,
  // answered by the router).
  EXPECT_EQ(idle.request({{"type", "action"}, {"table_id", table_id}, {"action", legal[0]}})["code"], "illegal_action");
  idle.send_raw("{not json");
  EXPECT_EQ(idle.wait_for("error")["code"], "bad_json");
  EXPECT_EQ(idle.request({{"type", "create_table"}, {"variant", "skat"}})["code"], "unknown_variant");
  EXPECT_EQ(idle.request({{"type", "spectate"}, {"table_id", "no-such-table"}})["code"], "unknown_table");
  EXPECT_EQ(actor.request({{"type", "action"}, {"table_id", table_id}, {"action", legal[0]}})["type"], "accepted");

  const MetricsPage after = fetch_until(server.port(), [](MetricsPage& p) {
    return at(p, "atout_actions_accepted_total") == 1 && at(p, R"(atout_tables{variant="duel",status="playing"})") == 1;
  });
  EXPECT_EQ(at(after, "atout_actions_accepted_total"), 1);
  EXPECT_EQ(at(after, "atout_action_latency_seconds_count"), 1);
  EXPECT_GT(at(after, "atout_action_latency_seconds_sum"), 0);
  EXPECT_EQ(at(after, "atout_errors_total{code=\"illegal_action\"}"), 1);
  EXPECT_EQ(at(after, "atout_errors_total{code=\"bad_json\"}"), 1);
  EXPECT_EQ(at(after, "atout_errors_total{code=\"unknown_variant\"}"), 1);
  EXPECT_EQ(at(after, "atout_errors_total{code=\"unknown_table\"}"), 1);
  EXPECT_EQ(at(after, "atout_errors_total{code=\"table_full\"}"), 0);
  EXPECT_EQ(at(after, R"(atout_tables{variant="duel",status="playing"})"), 1);
  EXPECT_EQ(at(after, "atout_websocket_connections_open"), 2);
  EXPECT_EQ(at(after, "atout_websocket_connections_total"), 2);
  // Both WebSockets and this fetch are open; at least one earlier fetch has come and gone.
  EXPECT_EQ(at(after, "atout_connections_open"), 3);
  EXPECT_GE(at(after, "atout_connections_total"), 4);

  EXPECT_TRUE(python_parses(http_get(server.port(), "/metrics").body));
}

TEST(Metrics, AnErrorIsCountedByItsCodeAsItIsMadeIntoAMessage) {
  Metrics m;
  for (const protocol::ErrorCode code : protocol::all_error_codes()) {
    const protocol::Error e = protocol::make_error(code, "m", "t1");
    const protocol::RequestId id{std::int64_t{7}};
    EXPECT_EQ(*error_wire(e, id, &m), protocol::serialize(e, id));
    EXPECT_EQ(m.errors(code), 1u) << protocol::to_string(code);
    error_wire(e, {}, &m);
    EXPECT_EQ(m.errors(code), 2u) << protocol::to_string(code);
  }
  // Without metrics (a table in a test) the message is made all the same.
  const protocol::Error e = protocol::make_error(protocol::ErrorCode::bad_json, "m");
  EXPECT_EQ(*error_wire(e, {}, nullptr), protocol::serialize(e));
}

TEST(Metrics, HistogramBucketsAreCumulativeAndEndAtTheCount) {
  Metrics m;
  m.action_latency.observe(30us);  // first bucket
  m.action_latency.observe(2ms);   // le 0.0025
  m.action_latency.observe(2s);    // only +Inf
  const MetricsPage page = parse_metrics(m.render({{{"duel", protocol::TableStatus::waiting}, 2}}));
  ASSERT_EQ(page.error, "");
  EXPECT_EQ(at(page, R"(atout_action_latency_seconds_bucket{le="5e-05"})"), 1);
  EXPECT_EQ(at(page, R"(atout_action_latency_seconds_bucket{le="0.001"})"), 1);
  EXPECT_EQ(at(page, R"(atout_action_latency_seconds_bucket{le="0.0025"})"), 2);
  EXPECT_EQ(at(page, R"(atout_action_latency_seconds_bucket{le="1"})"), 2);
  EXPECT_EQ(at(page, R"(atout_action_latency_seconds_bucket{le="+Inf"})"), 3);
  EXPECT_EQ(at(page, "atout_action_latency_seconds_count"), 3);
  EXPECT_NEAR(at(page, "atout_action_latency_seconds_sum"), 2.00203, 1e-9);
  EXPECT_EQ(at(page, R"(atout_tables{variant="duel",status="waiting"})"), 2);
}

TEST(Metrics, TheStrictReaderRefusesMalformedPages) {
  EXPECT_NE(parse_metrics("x 1\n").error, "");                         // undeclared
  EXPECT_NE(parse_metrics("# TYPE x counter\nx 1").error, "");         // no final newline
  EXPECT_NE(parse_metrics("# TYPE x counter\nx one\n").error, "");     // bad value
  EXPECT_NE(parse_metrics("# TYPE x counter\nx{a=b} 1\n").error, "");  // unquoted label
  EXPECT_NE(parse_metrics("# TYPE x counter\nx 1\nx 2\n").error, "");  // duplicate
  EXPECT_NE(parse_metrics("# TYPE x counter\n# TYPE x gauge\nx 1\n").error, "");
  EXPECT_NE(parse_metrics("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n").error, "");
  EXPECT_NE(parse_metrics("# TYPE h histogram\nh_count 2\nh_bucket{le=\"+Inf\"} 1\n").error, "");  // count first
  EXPECT_NE(parse_metrics("# TYPE h histogram\nh_count 1\nh_bucket{le=\"1\"} 1\n").error, "");     // no +Inf
  EXPECT_EQ(parse_metrics("# TYPE h histogram\nh_count 1\nh_sum 2\nh_bucket{le=\"+Inf\"} 1\n").error, "");
  EXPECT_EQ(parse_metrics("# HELP x a thing\n# TYPE x gauge\nx{a=\"q\\\"\"} -1.5\n").error, "");
}

}  // namespace
}  // namespace atout::server::testing
