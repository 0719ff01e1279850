// The live WebSocket connections: counted for shutdown, and found by player so that a second
// connection with the same token replaces the first.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace atout::server {

class WsSession;

class Sessions {
 public:
  void add(std::uint64_t conn, std::weak_ptr<WsSession> s);
  // The connection closed: forget it, and its player's binding if it is still the one bound.
  void remove(std::uint64_t conn, const std::string& player_id);
  // Binds `player_id` to `conn` and returns the connection it was bound to before, if any.
  std::shared_ptr<WsSession> bind(const std::string& player_id, std::uint64_t conn);
  // The connection `player_id` is bound to, if it is open.
  std::shared_ptr<WsSession> bound(const std::string& player_id) const;
  std::vector<std::shared_ptr<WsSession>> all() const;
  std::size_t count() const;

 private:
  // Touched once per connection open, hello and close: a mutex is simpler than an actor here.
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::weak_ptr<WsSession>> by_conn_;
  std::unordered_map<std::string, std::uint64_t> by_player_;
};

}  // namespace atout::server
