// What every connection shares: the lobby, the player registry, the archive and connection numbering.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "atout/server/archive.hpp"
#include "atout/server/lobby.hpp"
#include "atout/server/players.hpp"

namespace atout::server {

struct context {
  std::shared_ptr<server::lobby> lobby;
  std::shared_ptr<server::players> players;
  std::atomic<std::uint64_t> next_conn{1};
  std::shared_ptr<server::archive> archive;  // profiles, leaderboards, histories, replays
};

}  // namespace atout::server
