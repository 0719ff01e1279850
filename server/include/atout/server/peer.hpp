// What tables and the lobby know of a connection: somewhere to send messages, and its identity.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "atout/protocol/messages.hpp"

namespace atout::server {

class Table;

class Peer {
 public:
  virtual ~Peer() = default;
  // Queues one serialized message. Called from any strand; never blocks.
  virtual void send(std::shared_ptr<const std::string> message) = 0;
  // The table counts this connection among its members (seated, watching or owner) from now on,
  // so the connection must detach from it when it closes.
  virtual void joined(const std::string& table_id, std::weak_ptr<Table> t) = 0;
  // The connection is no longer a member of that table.
  virtual void departed(const std::string& table_id) = 0;
};

// A connection as seen from a table: held by weak_ptr so a table never keeps a socket alive.
struct Member {
  std::uint64_t conn = 0;  // unique per connection
  std::string player_id;
  std::string name;
  std::weak_ptr<Peer> link;
  protocol::Ack ack = protocol::Ack::reply;       // as its hello asked
  protocol::Views views = protocol::Views::full;  // events whole, or as deltas (hello's `views`)
};

// A message in its wire form, shared by every recipient it goes to.
template <typename M, typename... Id>
std::shared_ptr<const std::string> wire(const M& m, const Id&... id) {
  return std::make_shared<const std::string>(protocol::serialize(m, id...));
}

// Sends `text` to `p` if it is still there.
inline void deliver(const std::weak_ptr<Peer>& p, const std::shared_ptr<const std::string>& text) {
  if (auto s = p.lock()) s->send(text);
}

}  // namespace atout::server
