// A cluster node's records of its private tables in a real Redis (started by the test): each
// private table's invite code and the players it seats. A node that has lost a table to another
// node (it was cut off from Redis, and the other took the table over) must write nothing more of
// it: neither when its players change, nor when it restores the table, nor in the heartbeat that
// finds the table gone, nor when it closes its copy. Otherwise a stale list of players would stand
// in for the new owner's, and other nodes would send the wrong players to the table.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "redis_nodes.hpp"

namespace atout::server::testing {
namespace {

using cluster::ClusterNode;
using namespace std::chrono_literals;

class PrivateRecords : public RedisNodes {};

TEST_F(PrivateRecords, ANodeThatLostItsTableToAnotherWritesNothingMoreOfIt) {
  HeartbeatWatch heartbeat;  // before x, whose heartbeat thread uses it
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
  x->start(heartbeat.hooks());
  ASSERT_TRUE(heartbeat.wait_rounds_after_losing("t1", 2, 20s))
      << "x's heartbeat never reported t1 lost and then ran two rounds";
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t1"), "cat\n");
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code1"), std::nullopt);
  // Closing it there does not touch y's records either.
  x->release("t1", true);
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
  x->release("t2", true);
  EXPECT_EQ(hget(ClusterNode::kSeatedKey, "t2"), std::nullopt);
  EXPECT_EQ(hget(ClusterNode::kPrivateKey, "t2"), std::nullopt);
  EXPECT_EQ(hget(ClusterNode::kInvitesKey, "code2"), std::nullopt);
}

}  // namespace
}  // namespace atout::server::testing
