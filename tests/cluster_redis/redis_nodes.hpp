// A redis-server of the test's own, on a free port of 127.0.0.1, and cluster nodes joined to it:
// the fixture of the tests that check a node's Lua scripts against a real Redis.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "atout/server/cluster/cluster_node.hpp"
#include "child_process.hpp"

namespace atout::server::testing {

// A port free on 127.0.0.1 a moment ago.
inline int free_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

// What a node's heartbeat reports: each round it runs, and the tables it lets go (found another
// node's, or closed by one). Declare it before the node, whose heartbeat thread uses it until the
// node goes.
class HeartbeatWatch {
 public:
  cluster::ClusterNode::Hooks hooks() {
    return {{},
            [this] {
              std::lock_guard lock(m_);
              ++rounds_;
              cv_.notify_all();
            },
            {},
            [this](const std::vector<std::string>& tables) {
              std::lock_guard lock(m_);
              for (const std::string& t : tables) lost_.emplace(t, rounds_);
              cv_.notify_all();
            }};
  }
  // Waits at most `limit` for the heartbeat to have run `n` rounds; false when it did not.
  bool wait_rounds(int n, std::chrono::seconds limit) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, limit, [&] { return rounds_ >= n; });
  }
  // Waits at most `limit` for the heartbeat to let `table` go and to run `n` rounds from the one
  // that let it go; false when it did not.
  bool wait_rounds_after_losing(const std::string& table, int n, std::chrono::seconds limit) {
    std::unique_lock lock(m_);
    return cv_.wait_for(lock, limit, [&] {
      const auto it = lost_.find(table);
      return it != lost_.end() && rounds_ - it->second >= n;
    });
  }
  std::set<std::string> lost() {
    std::lock_guard lock(m_);
    std::set<std::string> out;
    for (const auto& [t, round] : lost_) out.insert(t);
    return out;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int rounds_ = 0;
  std::map<std::string, int> lost_;  // each table let go, and the rounds run before
};

class RedisNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    // The port was free a moment ago; another process may have taken it since: try a few.
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = free_port();
      redis_ = std::make_unique<ChildProcess>(std::vector<std::string>{ATOUT_REDIS_SERVER, "--port",
                                                                       std::to_string(port_), "--bind", "127.0.0.1",
                                                                       "--save", "", "--appendonly", "no"});
      if (redis_->wait_for_output("Ready to accept connections", std::chrono::seconds(10))) break;
      redis_.reset();
    }
    ASSERT_TRUE(redis_) << "redis-server did not start on any of five ports";
    raw_ = std::make_unique<cluster::RedisClient>(cluster::RedisClient::Address{"127.0.0.1", port_, 0},
                                                  std::chrono::seconds(2));
  }

  // A node whose leases last `lease`: long enough that no stall of a loaded machine lets one lapse
  // between two writes, unless the test wants heartbeats to come quickly.
  std::unique_ptr<cluster::ClusterNode> join(const std::string& id,
                                             std::chrono::milliseconds lease = std::chrono::seconds(10)) {
    std::string error;
    auto node = cluster::ClusterNode::join(
        {"redis://127.0.0.1:" + std::to_string(port_), id, "ws://127.0.0.1:1/ws/" + id, lease}, error);
    EXPECT_TRUE(node) << error;
    return node;
  }
  void command(const std::vector<std::string>& args) {
    std::string error;
    ASSERT_TRUE(raw_->command(args, error)) << error;
  }
  // A hash field as Redis has it; nullopt when absent.
  std::optional<std::string> hget(const std::string& key, const std::string& field) {
    const auto r = raw_->command({"HGET", key, field});
    if (!r || r->kind != cluster::RedisReply::Kind::text) return std::nullopt;
    return r->text;
  }

  // A plain key's value as Redis has it; nullopt when absent.
  std::optional<std::string> get(const std::string& key) {
    const auto r = raw_->command({"GET", key});
    if (!r || r->kind != cluster::RedisReply::Kind::text) return std::nullopt;
    return r->text;
  }

  int port_ = 0;
  std::unique_ptr<ChildProcess> redis_;
  std::unique_ptr<cluster::RedisClient> raw_;
};

}  // namespace atout::server::testing
