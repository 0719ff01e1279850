// The Origin check of WebSocket upgrades: the default (no Origin, or the server's own), an explicit
// --allowed-origins list, "*", and the list's parsing.
#include <gtest/gtest.h>

#include "atout/server/config.hpp"
#include "atout/server/origin_policy.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

const std::string kTlsData = std::string(ATOUT_SOURCE_DIR) + "/tests/data/tls/";
const ClientTls kTrustA{kTlsData + "server-a.crt"};

// A WebSocket upgrade on /ws with `origin` (none when empty) and `host`; the server's answer.
HttpReply upgrade(unsigned short port, const std::string& origin, const std::string& host,
                  const ClientTls* tls = nullptr, const std::string& forwarded_proto = {}) {
  http::request<http::string_body> req(http::verb::get, "/ws", 11);
  req.set(http::field::host, host);
  req.set(http::field::upgrade, "websocket");
  req.set(http::field::connection, "Upgrade");
  req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  req.set(http::field::sec_websocket_version, "13");
  if (!origin.empty()) req.set(http::field::origin, origin);
  if (!forwarded_proto.empty()) req.set("X-Forwarded-Proto", forwarded_proto);
  return http_exchange(port, std::move(req), tls);
}

void expect_refused(const HttpReply& r) {
  EXPECT_EQ(r.status, 403u) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(json::parse(r.body).value("error", ""), "origin_not_allowed") << r.body;
}

TEST(Origins, ByDefaultOnlyNoOriginAndTheServersOwnAreAccepted) {
  LiveServer server;
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(upgrade(server.port(), "", host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "http://" + host, host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "HTTP://" + host, host).status, 101u);  // case does not matter
  expect_refused(upgrade(server.port(), "https://evil.example", host));
  expect_refused(upgrade(server.port(), "http://127.0.0.1:1", host));  // another port is another origin
  expect_refused(upgrade(server.port(), "https://" + host, host));     // and so is another scheme
  expect_refused(upgrade(server.port(), "null", host));                // a sandboxed page or a file
  // Behind a proxy that ends TLS, the page is https:// and the proxy says so.
  EXPECT_EQ(upgrade(server.port(), "https://" + host, host, nullptr, "https").status, 101u);
  // The refusals are counted, and a client without Origin still plays.
  const HttpReply metrics = http_get(server.port(), "/metrics");
  EXPECT_NE(metrics.body.find("atout_origin_refusals_total 4"), std::string::npos) << metrics.body;
  TestClient client(server.port(), nullptr);
  EXPECT_EQ(client.hello("program")["type"], "welcome");
}

TEST(Origins, OverTlsTheServersOwnOriginIsHttps) {
  Config c;
  c.tls_cert = kTlsData + "server-a.crt";
  c.tls_key = kTlsData + "server-a.key";
  LiveServer server(c);
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(upgrade(server.port(), "https://" + host, host, &kTrustA).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "", host, &kTrustA).status, 101u);
  expect_refused(upgrade(server.port(), "http://" + host, host, &kTrustA));
  expect_refused(upgrade(server.port(), "https://evil.example", host, &kTrustA));
}

TEST(Origins, AnExplicitListAddsItsOriginsToTheServersOwn) {
  Config c;
  c.allowed_origins = "https://play.example.org, http://localhost:5173/";
  LiveServer server(c);
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(upgrade(server.port(), "https://play.example.org", host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "https://PLAY.example.org", host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "http://localhost:5173", host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "http://" + host, host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "", host).status, 101u);
  expect_refused(upgrade(server.port(), "http://play.example.org", host));
  expect_refused(upgrade(server.port(), "https://play.example.org.evil.example", host));
  expect_refused(upgrade(server.port(), "http://localhost:5174", host));
}

TEST(Origins, AStarAcceptsAnyOrigin) {
  Config c;
  c.allowed_origins = "*";
  LiveServer server(c);
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(upgrade(server.port(), "https://evil.example", host).status, 101u);
  EXPECT_EQ(upgrade(server.port(), "null", host).status, 101u);
}

TEST(Origins, TheListIsParsedAndABadEntryIsRefusedByName) {
  std::string error;
  EXPECT_EQ(OriginPolicy::parse_list(" https://a.example , http://b.example:8080/ ,,*", error),
            (std::vector<std::string>{"https://a.example", "http://b.example:8080", "*"}));
  EXPECT_EQ(error, "");
  for (const char* bad : {"a.example", "https://a.example/path", "://a", "https://", "https://user@a.example"}) {
    error.clear();
    EXPECT_TRUE(OriginPolicy::parse_list(bad, error).empty()) << bad;
    EXPECT_NE(error.find(bad), std::string::npos) << error;
  }
  const ParseResult r = parse_args({"--allowed-origins", "https://ok.example,nonsense"});
  EXPECT_FALSE(r.cfg);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("nonsense"), std::string::npos) << r.message;
  const ParseResult ok = parse_args({"--allowed-origins", "https://ok.example"});
  ASSERT_TRUE(ok.cfg) << ok.message;
  EXPECT_EQ(ok.cfg->allowed_origins, "https://ok.example");
}

}  // namespace
}  // namespace atout::server::testing
