// A cluster node's records of its private tables in a real Redis (started by the test): each
// private table's invite code and the players it seats. A node that has lost a table to another
// node (it was cut off from Redis, and the other took the table over) must write nothing more of
// it: neither when its players change, nor when it restores the table, nor in the heartbeat that
// finds the table gone, nor when it closes its copy. Otherwise a stale list of players would stand
// in for the new owner's, and other nodes would send the wrong players to the table.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "atout/server/cluster/cluster_node.hpp"
#include "child_process.hpp"

namespace atout::server::testing {
namespace {

using cluster::ClusterNode;
using cluster::RedisClient;
using cluster::RedisReply;
using namespace std::chrono_literals;

// A port free on 127.0.0.1 a moment ago.
int free_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

class PrivateRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    // The port was free a moment ago; another process may have taken it since: try a few.
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = free_port();
      redis_ = std::make_unique<ChildProcess>(std::vector<std::string>{ATOUT_REDIS_SERVER, "--port",
                                                                       std::to_string(port_), "--bind", "127.0.0.1",
                                                                       "--save", "", "--appendonly", "no"});
      if (redis_->wait_for_output("Ready to accept connections", 10s)) break;
      redis_.reset();
    }
    ASSERT_TRUE(redis_) << "redis-server did not start on any of five ports";
    raw_ = std::make_unique<RedisClient>(RedisClient::Address{"127.0.0.1", port_, 0}, 2s);
  }

  // A node whose leases last `lease`: long enough that no stall of a loaded machine lets one lapse
  // between two writes, unless the test wants heartbeats to come quickly.
  std::unique_ptr<ClusterNode> join(const std::string& id, std::chrono::milliseconds lease = 10s) {
    std::string error;
    auto node = ClusterNode::join(
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
    if (!r || r->kind != RedisReply::Kind::text) return std::nullopt;
    return r->text;
  }

  int port_ = 0;
  std::unique_ptr<ChildProcess> redis_;
  std::unique_ptr<RedisClient> raw_;
};

TEST_F(PrivateRecords, ANodeThatLostItsTableToAnotherWritesNothingMoreOfIt) {
  // What x's heartbeat reports (declared before x, whose heartbeat thread uses them until x goes).
  std::mutex m;
  std::condition_variable cv;
  std::set<std::string> lost;
  int rounds_after = 0;
  // Heartbeats every third of two seconds.
  auto x = join("x", 2s);
  ASSERT_TRUE(x);
  // A new table's invite is written at once, before its lease is taken: from the moment the lease
  // names x, every node knows the table is private.
  x->put_invite("t1", "code1", false);
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code1"), "t1");
  EXPECT_EQ(hget(ClusterNode::kPrivateKey, "t1"), "code1");
  x->own("t1");
  x->put_seated("t1", {"ann", "bob"});
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t1"), "ann\nbob\n");

  // Node y takes the table over (x was cut off, say): the lease is y's, and so is the list. The
  // invite is removed here only so that a write of x's would show.
  command({"SET", ClusterNode::table_key("t1"), "y", "PX", "60000"});
  command({"HSET", ClusterNode::kSeatedKey, "t1", "cat\n"});
  command({"HDEL", ClusterNode::kInvitesKey, "code1"});

  // x's players change, or x restores the table: both are refused for want of the lease.
  x->put_seated("t1", {"ann"});
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t1"), "cat\n");
  x->put_invite("t1", "code1", true);
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code1"), std::nullopt);

  // x's heartbeat learns that the table is y's and forgets it (with the refused writes it had
  // marked to try again): y's records stand after two more rounds.
  x->start(ClusterNode::Hooks{{},
                              [&] {
                                std::lock_guard lock(m);
                                if (lost.contains("t1")) ++rounds_after;
                                cv.notify_all();
                              },
                              {},
                              [&](const std::vector<std::string>& tables) {
                                std::lock_guard lock(m);
                                lost.insert(tables.begin(), tables.end());
                                cv.notify_all();
                              }});
  {
    std::unique_lock lock(m);
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return rounds_after >= 2; }))
        << "x's heartbeat never reported t1 lost and then ran two rounds";
  }
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t1"), "cat\n");
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code1"), std::nullopt);
  // Closing it there does not touch y's records either.
  x->release("t1");
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t1"), "cat\n");
  EXPECT_EQ(hget(ClusterNode::kPrivateKey, "t1"), "code1");
}

TEST_F(PrivateRecords, WhileItHoldsTheLeaseANodeKeepsTheListAndRemovesItWithTheTable) {
  auto x = join("x");
  ASSERT_TRUE(x);
  x->put_invite("t2", "code2", false);
  x->own("t2");
  x->put_seated("t2", {"ann"});
  x->put_seated("t2", {"ann", "bob"});
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t2"), "ann\nbob\n");
  // Nobody seated: the field goes.
  x->put_seated("t2", {});
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t2"), std::nullopt);
  x->put_seated("t2", {"bob"});
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t2"), "bob\n");
  x->release("t2");
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t2"), std::nullopt);
  EXPECT_EQ(hget(ClusterNode::kPrivateKey, "t2"), std::nullopt);
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code2"), std::nullopt);
}

}  // namespace
}  // namespace atout::server::testing
