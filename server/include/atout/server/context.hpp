// What every connection shares: the lobby, the player registry, the archive, the live connections,
// their numbering, metrics and limits.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "atout/server/archive.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/lobby.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/origin_policy.hpp"
#include "atout/server/players.hpp"
#include "atout/server/sessions.hpp"
#include "atout/server/static_files.hpp"
#include "atout/server/table_clock.hpp"

namespace atout::server {

namespace cluster {
class ClusterNode;
}

struct Context {
  std::shared_ptr<server::Lobby> lobby;
  std::shared_ptr<server::Players> players;
  std::shared_ptr<server::Sessions> sessions = std::make_shared<server::Sessions>();
  // Set when a graceful shutdown begins: connections stop taking requests.
  std::atomic<bool> shutting_down{false};
  // WebSocket session objects alive (a session dies after its close handshake completes).
  std::atomic<std::size_t> live_sessions{0};
  std::atomic<std::uint64_t> next_conn{1};
  std::shared_ptr<server::Archive> archive;  // profiles, leaderboards, histories, replays
  std::shared_ptr<const StaticFiles> web;    // the web client; null: none is served
  std::shared_ptr<server::Metrics> metrics = std::make_shared<server::Metrics>();
  SessionLimits limits;
  // Which page origins may open a WebSocket (--allowed-origins).
  std::shared_ptr<const OriginPolicy> origins = std::make_shared<const OriginPolicy>();
  std::shared_ptr<ConnLimiter> conns = std::make_shared<ConnLimiter>(0, metrics);
  // This node of a cluster (--redis); null: a single server.
  std::shared_ptr<cluster::ClusterNode> cluster;
  // A hello whose token is unknown is looked up again a few times, a few milliseconds apart: set in
  // a cluster, where a guest made on another node a moment ago may not be committed yet.
  bool retry_unknown_tokens = false;
  // What those waits are timed by (tests pass a fake clock).
  std::shared_ptr<TableClock> clock = steady_table_clock();
  std::shared_ptr<HttpReadLimiter> http_reads =
      std::make_shared<HttpReadLimiter>(SessionLimits{}.http_burst, SessionLimits{}.http_rate);
};

}  // namespace atout::server
