// A fake connection that records what a table or the lobby sends it (like spdlog's test sink).
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "atout/server/peer.hpp"

namespace atout::server::testing {

class RecordingPeer : public Peer {
 public:
  void send(std::shared_ptr<const std::string> message) override {
    std::lock_guard lock(mutex_);
    messages_.push_back(std::move(message));
  }
  void joined(const std::string& table_id, std::weak_ptr<Table>) override {
    std::lock_guard lock(mutex_);
    tables_.insert(table_id);
  }
  void departed(const std::string& table_id) override {
    std::lock_guard lock(mutex_);
    tables_.erase(table_id);
  }

  // Messages received since the last call.
  std::vector<std::shared_ptr<const std::string>> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(messages_, {});
  }
  std::set<std::string> tables() const {
    std::lock_guard lock(mutex_);
    return tables_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<const std::string>> messages_;
  std::set<std::string> tables_;
};

inline Member member_for(const std::shared_ptr<RecordingPeer>& p, std::uint64_t conn, std::string player_id) {
  Member m;
  m.conn = conn;
  m.player_id = player_id;
  m.name = "player " + player_id;
  m.link = p;
  return m;
}

}  // namespace atout::server::testing
