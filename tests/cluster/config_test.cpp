// The cluster's flags (--redis, --node-id, --public-url, --lease-ms), the Redis URL parser, and a
// node that cannot reach Redis: each refused with a clear message (exit 2 for the binary). The
// cluster against a live Redis is tested by tests/server/cluster_match.py.
#include "atout/server/config.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>

#include "atout/server/cluster/cluster_node.hpp"
#include "atout/server/cluster/redis_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// Runs `command` through the shell; its exit status and what it wrote (stdout and stderr).
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) out += buf.data();
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A loopback port nothing listens on: bound, then closed.
int closed_port() {
  net::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  const int port = a.local_endpoint().port();
  a.close();
  return port;
}

std::vector<std::string> cluster_args(const std::string& redis) {
  return {"--redis", redis, "--node-id", "node-1", "--public-url", "ws://10.0.0.1:8080/ws"};
}

void expect_refused(const std::vector<std::string>& args, const std::string& says) {
  const ParseResult r = parse_args(args);
  EXPECT_FALSE(r.cfg);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find(says), std::string::npos) << r.message;
}

TEST(ClusterConfig, TheFlagsAreReadTogether) {
  std::vector<std::string> args = cluster_args("redis://127.0.0.1:6380/2");
  args.insert(args.end(), {"--lease-ms", "1500"});
  const ParseResult r = parse_args(args);
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->redis, "redis://127.0.0.1:6380/2");
  EXPECT_EQ(r.cfg->node_id, "node-1");
  EXPECT_EQ(r.cfg->public_url, "ws://10.0.0.1:8080/ws");
  EXPECT_EQ(r.cfg->lease, 1500ms);
  // Without --redis: one server, as before.
  const ParseResult alone = parse_args({});
  ASSERT_TRUE(alone.cfg);
  EXPECT_TRUE(alone.cfg->redis.empty());
  EXPECT_EQ(alone.cfg->lease, 10'000ms);
}

TEST(ClusterConfig, IncompleteOrBadFlagsAreRefused) {
  expect_refused({"--redis", "redis://127.0.0.1"}, "--redis needs --node-id");
  expect_refused({"--redis", "redis://127.0.0.1", "--node-id", "n"}, "--redis needs --public-url");
  expect_refused({"--node-id", "n"}, "--node-id needs --redis");
  expect_refused({"--public-url", "ws://h/ws"}, "--public-url needs --redis");
  expect_refused(cluster_args("http://127.0.0.1"), "redis://host[:port][/db]");
  std::vector<std::string> bad_id = cluster_args("redis://127.0.0.1");
  bad_id[3] = "node one";
  expect_refused(bad_id, "must be 1 to 64 letters");
  std::vector<std::string> bad_url = cluster_args("redis://127.0.0.1");
  bad_url[5] = "http://10.0.0.1/ws";
  expect_refused(bad_url, "--public-url needs a ws:// or wss:// URL");
  std::vector<std::string> short_lease = cluster_args("redis://127.0.0.1");
  short_lease.insert(short_lease.end(), {"--lease-ms", "100"});
  expect_refused(short_lease, "--lease-ms");
}

TEST(ClusterConfig, RedisUrlsAreParsed) {
  std::string error;
  auto a = cluster::RedisClient::parse_url("redis://cache.internal:6390/3", error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->host, "cache.internal");
  EXPECT_EQ(a->port, 6390);
  EXPECT_EQ(a->db, 3);
  auto plain = cluster::RedisClient::parse_url("redis://127.0.0.1", error);
  ASSERT_TRUE(plain) << error;
  EXPECT_EQ(plain->port, 6379);
  EXPECT_EQ(plain->db, 0);
  for (const std::string bad : {"127.0.0.1:6379", "redis://", "redis://h:0", "redis://h:70000", "redis://h:12a",
                                "redis://h/x", "redis://:6379"}) {
    SCOPED_TRACE(bad);
    error.clear();
    EXPECT_FALSE(cluster::RedisClient::parse_url(bad, error));
    EXPECT_FALSE(error.empty());
  }
}

TEST(ClusterConfig, AnUnreachableRedisIsReportedNotThrown) {
  const std::string redis = "redis://127.0.0.1:" + std::to_string(closed_port());
  std::string error;
  auto address = cluster::RedisClient::parse_url(redis, error);
  ASSERT_TRUE(address);
  cluster::RedisClient client(*address, 500ms);
  EXPECT_FALSE(client.command({"PING"}, error));
  EXPECT_NE(error.find("cannot reach Redis"), std::string::npos) << error;
  // And again: a failed connection is retried on the next command, not kept broken.
  error.clear();
  EXPECT_FALSE(client.command({"PING"}, error));
  EXPECT_NE(error.find("cannot reach Redis"), std::string::npos) << error;

  error.clear();
  EXPECT_FALSE(cluster::ClusterNode::join({redis, "n", "ws://h/ws", 1000ms}, error));
  EXPECT_NE(error.find("--redis " + redis), std::string::npos) << error;
}

TEST(ClusterConfig, TheBinaryExitsWithTwoWhenRedisIsUnreachable) {
  const auto dir = std::filesystem::temp_directory_path() / ("atout-cluster-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string command =
      std::string(ATOUT_SERVER_BIN) + " --port 0 --bind 127.0.0.1 --db " + (dir / "atout.db").string();
  for (const std::string& a : cluster_args("redis://127.0.0.1:" + std::to_string(closed_port()))) command += " " + a;
  const auto [code, out] = run(command);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(code, 2) << out;
  EXPECT_NE(out.find("cannot reach Redis"), std::string::npos) << out;
  EXPECT_EQ(out.find("listening on"), std::string::npos) << out;
}

}  // namespace
}  // namespace atout::server::testing
