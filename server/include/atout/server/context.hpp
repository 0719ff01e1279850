// What every connection shares: the lobby, the player registry, connection numbering, metrics
// and limits.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "atout/server/limits.hpp"
#include "atout/server/lobby.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/players.hpp"

namespace atout::server {

struct context {
  std::shared_ptr<server::lobby> lobby;
  std::shared_ptr<server::players> players;
  std::atomic<std::uint64_t> next_conn{1};
  std::shared_ptr<server::metrics> metrics = std::make_shared<server::metrics>();
  session_limits limits;
  std::shared_ptr<conn_limiter> conns = std::make_shared<conn_limiter>(0, metrics);
};

}  // namespace atout::server
