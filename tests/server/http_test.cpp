// HTTP endpoints on the WebSocket port, and the command-line flags of atout-server.
#include <gtest/gtest.h>

#include <filesystem>

#include "atout/server/config.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

TEST(Http, HealthzSaysOk) {
  LiveServer server;
  const HttpReply r = http_get(server.port(), "/healthz");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(json::parse(r.body), json({{"status", "ok"}}));
}

TEST(Http, ApiTablesIsTheLobbyAndFitsTheSchema) {
  LiveServer server;
  MessageLog log;
  TestClient c(server.port(), &log);
  c.hello("ann");
  const json created = c.request({{"type", "create_table"}, {"variant", "french"}});
  c.request({{"type", "create_table"}, {"variant", "duel"}, {"private", true}});
  const HttpReply r = http_get(server.port(), "/api/tables?verbose=1");
  EXPECT_EQ(r.status, 200u);
  const json tables = json::parse(r.body);
  ASSERT_EQ(tables["tables"].size(), 1u);  // the private one is not listed
  EXPECT_EQ(tables["tables"][0], created["table"]);
  log.add('S', r.body);
  const HttpReply v = http_get(server.port(), "/api/variants");
  EXPECT_EQ(v.status, 200u);
  log.add('S', v.body);
  EXPECT_TRUE(log.validate());
}

TEST(Http, UnknownPathsAndPlainRequestsToTheSocketPath) {
  LiveServer server;
  EXPECT_EQ(http_get(server.port(), "/nope").status, 404u);
  EXPECT_EQ(http_get(server.port(), "/ws").status, 426u);  // upgrade required
  // The server is unaffected.
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200u);
}

ParseResult parse(std::vector<std::string> args) { return parse_args(args); }

TEST(Flags, DefaultsAreTheDocumentedOnes) {
  const ParseResult r = parse({});
  ASSERT_TRUE(r.cfg);
  EXPECT_EQ(r.cfg->port, 8080);
  EXPECT_EQ(r.cfg->bind, "0.0.0.0");
  EXPECT_EQ(r.cfg->db, "./data/atout.db");
  EXPECT_EQ(r.cfg->log_level, "info");
  EXPECT_EQ(r.cfg->threads, 2);
}

TEST(Flags, EveryFlagIsRead) {
  const auto db = (std::filesystem::temp_directory_path() / "atout-flags-test.db").string();
  const ParseResult r =
      parse({"--port", "9001", "--bind=127.0.0.1", "--threads", "3", "--db", db, "--log-level", "debug"});
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->port, 9001);
  EXPECT_EQ(r.cfg->bind, "127.0.0.1");
  EXPECT_EQ(r.cfg->threads, 3);
  EXPECT_EQ(r.cfg->db, db);
  EXPECT_EQ(r.cfg->log_level, "debug");
}

TEST(Flags, HelpPrintsUsageAndExitsZero) {
  const ParseResult r = parse({"--help"});
  EXPECT_FALSE(r.cfg);
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--port", "--bind", "--threads", "--db", "--log-level", "--help"})
    EXPECT_NE(r.message.find(flag), std::string::npos) << flag;
}

TEST(Flags, BadValuesAreRefusedWithAReason) {
  const auto dir = std::filesystem::temp_directory_path().string();
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--port", "70000"},
                                                                                    {"--port", "80a"},
                                                                                    {"--port"},
                                                                                    {"--bind", "localhost:1"},
                                                                                    {"--threads", "0"},
                                                                                    {"--threads", "many"},
                                                                                    {"--log-level", "loud"},
                                                                                    {"--db", dir},
                                                                                    {"--db", ""},
                                                                                    {"--verbose"}}) {
    const ParseResult r = parse(args);
    EXPECT_FALSE(r.cfg) << args[0];
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.message.find("atout-server: "), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace atout::server::testing
