// Native TLS over loopback: wss:// and https:// with the test certificates in tests/data/tls, a
// client that trusts another authority, plain clients on the TLS port, the reload that SIGHUP
// triggers, and the server's refusal to start with files it cannot use.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "atout/server/config.hpp"
#include "child_process.hpp"
#include "persist_support.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

const std::string kTlsData = std::string(ATOUT_SOURCE_DIR) + "/tests/data/tls/";
const ClientTls kTrustA{kTlsData + "server-a.crt"};
const ClientTls kTrustB{kTlsData + "server-b.crt"};

Config tls_config(const std::string& cert, const std::string& key) {
  Config c;
  c.tls_cert = cert;
  c.tls_key = key;
  return c;
}

Config tls_config_a() { return tls_config(kTlsData + "server-a.crt", kTlsData + "server-a.key"); }

void copy_file(const std::string& from, const std::string& to) {
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

// A request from `client` answered on its connection: the connection works.
bool answers(TestClient& client) {
  const json r = client.request({{"type", "ping"}});
  return r.value("type", "") == "pong";
}

TEST(Tls, AWssClientPlaysAWholeDuelAndHttpsServesTheVariants) {
  LiveServer server(tls_config_a());
  MessageLog log;
  const MatchSummary m = play_match(server.port(), "duel", &log, 7, &kTrustA);
  EXPECT_FALSE(m.table_id.empty());
  EXPECT_GT(m.actions, 0);
  EXPECT_GT(m.hand_results, 0);
  // play_match checks the result against the hands; here it must exist, with a winner.
  ASSERT_TRUE(m.match_result.is_object()) << m.match_result;
  EXPECT_TRUE(m.match_result.contains("winner")) << m.match_result;
  EXPECT_TRUE(log.validate());

  const HttpReply variants = http_get(server.port(), "/api/variants", &kTrustA);
  EXPECT_EQ(variants.status, 200u);
  EXPECT_EQ(variants.content_type, "application/json");
  EXPECT_NE(variants.body.find("\"duel\""), std::string::npos) << variants.body;
}

TEST(Tls, AClientTrustingAnotherAuthorityIsRefusedAndOthersAreStillServed) {
  LiveServer server(tls_config_a());
  EXPECT_ANY_THROW(TestClient(server.port(), nullptr, &kTrustB));
  EXPECT_ANY_THROW(http_get(server.port(), "/healthz", &kTrustB));
  TestClient good(server.port(), nullptr, &kTrustA);
  EXPECT_EQ(good.hello("after")["type"], "welcome");
  EXPECT_EQ(http_get(server.port(), "/healthz", &kTrustA).status, 200u);
}

TEST(Tls, PlainClientsOnTheTlsPortAreClosedAndTheServerCarriesOn) {
  LiveServer server(tls_config_a());
  TestClient before(server.port(), nullptr, &kTrustA);
  EXPECT_EQ(before.hello("before")["type"], "welcome");
  // Neither gets an HTTP answer: the TLS handshake fails and the connection is closed.
  EXPECT_ANY_THROW(http_get(server.port(), "/healthz"));
  EXPECT_ANY_THROW(TestClient(server.port(), nullptr));
  EXPECT_TRUE(answers(before));
  TestClient after(server.port(), nullptr, &kTrustA);
  EXPECT_EQ(after.hello("after")["type"], "welcome");
  const HttpReply metrics = http_get(server.port(), "/metrics", &kTrustA);
  EXPECT_EQ(metrics.status, 200u);
  EXPECT_NE(metrics.body.find("atout_tls_handshake_failures_total 2"), std::string::npos) << metrics.body;
}

TEST(Tls, ReloadServesTheNewCertificateToNewConnectionsAndKeepsOpenOnes) {
  TempDir dir;
  const std::string cert = dir.file("server.crt");
  const std::string key = dir.file("server.key");
  copy_file(kTlsData + "server-a.crt", cert);
  copy_file(kTlsData + "server-a.key", key);
  LiveServer server(tls_config(cert, key));
  TestClient old_conn(server.port(), nullptr, &kTrustA);
  EXPECT_EQ(old_conn.hello("old")["type"], "welcome");

  copy_file(kTlsData + "server-b.crt", cert);
  copy_file(kTlsData + "server-b.key", key);
  EXPECT_FALSE(server.get().reload_tls().has_value());
  EXPECT_TRUE(answers(old_conn));
  EXPECT_ANY_THROW(TestClient(server.port(), nullptr, &kTrustA));
  TestClient new_conn(server.port(), nullptr, &kTrustB);
  EXPECT_EQ(new_conn.hello("new")["type"], "welcome");

  // Files it cannot use: each reload fails, says why, and the certificate in use (b) stays.
  const auto fails_with = [&](const std::string& expected) {
    const std::optional<std::string> error = server.get().reload_tls();
    ASSERT_TRUE(error.has_value()) << expected;
    EXPECT_NE(error->find(expected), std::string::npos) << *error;
    TestClient still_b(server.port(), nullptr, &kTrustB);
    EXPECT_TRUE(answers(still_b));
  };
  copy_file(kTlsData + "server-a.crt", cert);  // a's certificate with b's key
  fails_with("does not match");
  std::ofstream(cert) << "not a certificate\n";
  fails_with("not a PEM certificate");
  std::filesystem::remove(cert);
  fails_with("no such file");
  EXPECT_TRUE(answers(old_conn));
  EXPECT_TRUE(answers(new_conn));
}

TEST(Tls, ReloadWithoutTlsSaysSo) {
  LiveServer server;
  const std::optional<std::string> error = server.get().reload_tls();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("not on"), std::string::npos) << *error;
}

// Server::open refuses files it cannot use, with the reason.
std::string open_error(const std::string& cert, const std::string& key) {
  TempDir dir;
  Config c = tls_config(cert, key);
  c.bind = "127.0.0.1";
  c.port = 0;
  c.db = dir.file("a.db");
  Server s(c);
  return s.open().value_or("");
}

TEST(Tls, TheServerRefusesToStartWithACertificateOrKeyItCannotUse) {
  TempDir dir;
  const std::string garbage = dir.file("garbage.pem");
  std::ofstream(garbage) << "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n";
  EXPECT_NE(open_error(dir.file("missing.crt"), kTlsData + "server-a.key").find("no such file"), std::string::npos);
  EXPECT_NE(open_error(kTlsData + "server-a.crt", dir.file("missing.key")).find("no such file"), std::string::npos);
  EXPECT_NE(open_error(garbage, kTlsData + "server-a.key").find("not a PEM certificate"), std::string::npos);
  EXPECT_NE(open_error(kTlsData + "server-a.crt", garbage).find("not a PEM private key"), std::string::npos);
  EXPECT_NE(open_error(kTlsData + "server-a.crt", kTlsData + "server-b.key").find("does not match"), std::string::npos);
  EXPECT_NE(open_error(dir.path().string(), kTlsData + "server-a.key").find("not a regular file"), std::string::npos);
  EXPECT_EQ(open_error(kTlsData + "server-a.crt", kTlsData + "server-a.key"), "");
}

TEST(Tls, TheBinaryExitsNonZeroWithAClearMessage) {
  TempDir dir;
  {
    ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", dir.file("a.db"), "--tls-cert",
                         kTlsData + "server-a.crt", "--tls-key", kTlsData + "server-b.key"});
    EXPECT_EQ(server.wait_exit(60s), 1) << server.output();
    EXPECT_NE(server.output().find("cannot serve TLS"), std::string::npos) << server.output();
    EXPECT_EQ(server.output().find("listening on"), std::string::npos) << server.output();
  }
  {
    ChildProcess server(
        {ATOUT_SERVER_BIN, "--port", "0", "--db", dir.file("a.db"), "--tls-cert", kTlsData + "server-a.crt"});
    EXPECT_EQ(server.wait_exit(60s), 2) << server.output();
    EXPECT_NE(server.output().find("--tls-cert needs --tls-key"), std::string::npos) << server.output();
  }
  {
    ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", dir.file("a.db"), "--tls-cert",
                         kTlsData + "server-a.crt", "--tls-key", kTlsData + "server-a.key"});
    EXPECT_NE(server.wait_for_port(60s), 0) << server.output();
    server.kill9();
    server.wait_exit(60s);
  }
}

TEST(Tls, TheCertificateAndKeyFlagsComeInPairs) {
  const ParseResult cert_only = parse_args({"--tls-cert", "a.crt"});
  EXPECT_FALSE(cert_only.cfg);
  EXPECT_EQ(cert_only.exit_code, 2);
  EXPECT_NE(cert_only.message.find("--tls-cert needs --tls-key"), std::string::npos) << cert_only.message;
  const ParseResult key_only = parse_args({"--tls-key", "a.key"});
  EXPECT_NE(key_only.message.find("--tls-key needs --tls-cert"), std::string::npos) << key_only.message;
}

}  // namespace
}  // namespace atout::server::testing
