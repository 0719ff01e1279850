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
#include "atout/server/players.hpp"
#include "atout/server/sessions.hpp"

namespace atout::server {

struct context {
  std::shared_ptr<server::lobby> lobby;
  std::shared_ptr<server::players> players;
  std::shared_ptr<server::sessions> sessions = std::make_shared<server::sessions>();
  // Set when a graceful shutdown begins: connections stop taking requests.
  std::atomic<bool> shutting_down{false};
  // WebSocket session objects alive (a session dies after its close handshake completes).
  std::atomic<std::size_t> live_sessions{0};
  std::atomic<std::uint64_t> next_conn{1};
  std::shared_ptr<server::archive> archive;  // profiles, leaderboards, histories, replays
  std::shared_ptr<server::metrics> metrics = std::make_shared<server::metrics>();
  session_limits limits;
  std::shared_ptr<conn_limiter> conns = std::make_shared<conn_limiter>(0, metrics);
};

}  // namespace atout::server
