// A table that a node has closed is not taken back by another node that still runs an old copy
// of it, against a real Redis (started by the test). The old copy's node was cut off from Redis
// for longer than a lease; another node took the table over from the shared log, and closed it
// (its match ended, its players left). Back in touch, the cut-off node finds the lease free: were
// it to take it, its stale copy would play on, and players would be sent to a match that ended.
// A lease lost with Redis's data, or given back by a node that claimed it and then found nothing to
// take over (nobody closed the table), is still taken back.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>

#include "redis_nodes.hpp"

namespace atout::server::testing {
namespace {

using cluster::ClusterNode;
using namespace std::chrono_literals;

class ClosedTables : public RedisNodes {};

TEST_F(ClosedTables, ANodeThatWasCutOffDoesNotTakeBackATableAnotherNodeClosed) {
  HeartbeatWatch heartbeat;  // before x, whose heartbeat thread uses it
  auto x = join("x", 2s);
  auto y = join("y");
  ASSERT_TRUE(x && y);
  for (const char* t : {"t1", "t2", "t3"}) x->own(t);
  ASSERT_EQ(get(ClusterNode::table_key("t1")), "x");
  // x is cut off, and its leases lapse. y takes t1 over, then closes it. y also claims t3, but
  // gives it back (a take-over that found nothing to rebuild, say): that is no close. t2's lease
  // is simply gone (Redis lost it, say).
  command({"DEL", ClusterNode::table_key("t1"), ClusterNode::table_key("t2"), ClusterNode::table_key("t3")});
  ASSERT_TRUE(y->claim("t1"));
  y->release("t1", true);
  ASSERT_TRUE(y->claim("t3"));
  y->release("t3", false);
  EXPECT_EQ(get(ClusterNode::table_key("t1")), std::nullopt);
  EXPECT_EQ(get(ClusterNode::closed_key("t1")), "1");
  EXPECT_EQ(get(ClusterNode::closed_key("t3")), std::nullopt);

  x->start(heartbeat.hooks());
  ASSERT_TRUE(heartbeat.wait_rounds(2, 20s)) << "x's heartbeat did not run two rounds";
  EXPECT_EQ(heartbeat.lost(), std::set<std::string>{"t1"}) << "x must let its stale t1 go, and keep t2 and t3";
  EXPECT_EQ(get(ClusterNode::table_key("t1")), std::nullopt) << "x took back a table that y had closed";
  EXPECT_EQ(get(ClusterNode::table_key("t2")), "x") << "x did not take back the lease Redis had lost";
  EXPECT_EQ(get(ClusterNode::table_key("t3")), "x") << "x did not take back the lease y gave back";
  // The mark expires after a day, long past any lease.
  const auto ttl = raw_->command({"PTTL", ClusterNode::closed_key("t1")});
  ASSERT_TRUE(ttl && ttl->kind == cluster::RedisReply::Kind::integer);
  EXPECT_GT(ttl->integer, ClusterNode::kClosedMs.count() - 60'000);
  EXPECT_LE(ttl->integer, ClusterNode::kClosedMs.count());
}

}  // namespace
}  // namespace atout::server::testing
