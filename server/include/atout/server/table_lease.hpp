// Until when this node may change the tables it runs. In a cluster a node runs each of its tables
// under a lease in Redis that it renews every third of a lease. Once the time covered by its last
// renewal has passed (Redis is away, or this node is cut off from it), another node may take a
// table over and rebuild it from the shared log: from then on the node's own copy must change
// nothing that the log would keep, or the two copies would write two different histories. So a
// table whose lease has lapsed accepts no action, plays no move for an absent seat, seats no new
// player in a running match and abandons no match, until a renewal covers it again. A table that
// another node took meanwhile leaves this node (Table::moved). A single server has no lease: its
// tables are always held.
#pragma once

#include <atomic>
#include <chrono>

namespace atout::server {

class TableLease {
 public:
  using Clock = std::chrono::steady_clock;

  // `takeover`: the longest another node may take to take this node's tables over once this node
  // stops (what a `moving` answer tells clients to wait for).
  explicit TableLease(std::chrono::milliseconds takeover = {}) : takeover_(takeover) {}
  std::chrono::milliseconds takeover() const { return takeover_; }

  // A renewal begun at time T covers the node's tables until T + the lease: `until`.
  void renewed_until(Clock::time_point until) { until_.store(until.time_since_epoch().count()); }
  bool held(Clock::time_point now = Clock::now()) const { return now.time_since_epoch().count() < until_.load(); }

 private:
  std::atomic<Clock::rep> until_{0};
  const std::chrono::milliseconds takeover_;
};

}  // namespace atout::server
