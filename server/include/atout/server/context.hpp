// What every connection shares: the lobby, the player registry and connection numbering.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "atout/server/lobby.hpp"
#include "atout/server/players.hpp"

namespace atout::server {

struct context {
  std::shared_ptr<server::lobby> lobby;
  std::shared_ptr<server::players> players;
  std::atomic<std::uint64_t> next_conn{1};
};

}  // namespace atout::server
