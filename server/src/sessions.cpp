// The registry of live connections (server/include/atout/server/sessions.hpp).
#include "atout/server/sessions.hpp"

namespace atout::server {

void Sessions::add(std::uint64_t conn, std::weak_ptr<WsSession> s) {
  std::lock_guard lock(mutex_);
  by_conn_[conn] = std::move(s);
}

void Sessions::remove(std::uint64_t conn, const std::string& player_id) {
  std::lock_guard lock(mutex_);
  by_conn_.erase(conn);
  if (player_id.empty()) return;
  const auto it = by_player_.find(player_id);
  if (it != by_player_.end() && it->second == conn) by_player_.erase(it);
}

std::shared_ptr<WsSession> Sessions::bind(const std::string& player_id, std::uint64_t conn) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<WsSession> previous;
  const auto it = by_player_.find(player_id);
  if (it != by_player_.end() && it->second != conn) {
    if (const auto s = by_conn_.find(it->second); s != by_conn_.end()) previous = s->second.lock();
  }
  by_player_[player_id] = conn;
  return previous;
}

std::shared_ptr<WsSession> Sessions::bound(const std::string& player_id) const {
  std::lock_guard lock(mutex_);
  const auto it = by_player_.find(player_id);
  if (it == by_player_.end()) return nullptr;
  const auto s = by_conn_.find(it->second);
  return s == by_conn_.end() ? nullptr : s->second.lock();
}

std::vector<std::shared_ptr<WsSession>> Sessions::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<WsSession>> out;
  out.reserve(by_conn_.size());
  for (const auto& [conn, weak] : by_conn_)
    if (auto s = weak.lock()) out.push_back(std::move(s));
  return out;
}

std::size_t Sessions::count() const {
  std::lock_guard lock(mutex_);
  return by_conn_.size();
}

}  // namespace atout::server
