// What the request router needs of the connection it serves: a peer that can also be answered at
// once, run work on its executor, and say whether it is still open.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"

namespace atout::server {

class RequestRouter;

class Connection : public Peer {
 public:
  // Unique per connection.
  virtual std::uint64_t id() const = 0;
  // False once the connection has begun to end: it takes no new membership.
  virtual bool open() const = 0;
  // Queues `message` at once; called on the connection's executor (where requests are handled), so
  // a reply keeps its place before anything sent later.
  virtual void reply(std::shared_ptr<const std::string> message) = 0;
  // Runs `fn` on the connection's executor.
  virtual void post(std::function<void()> fn) = 0;
  // The connection's executor, for timers whose handlers then post() back to it.
  virtual net::any_io_executor executor() = 0;
  // For callbacks that must not keep the connection alive.
  virtual std::weak_ptr<Connection> weak() = 0;
  virtual RequestRouter& router() = 0;
  // Spends `credits` of the connection's message credits at `now` (a costly request pays more
  // than the one its message took); nothing when paid, else how long until it could be.
  virtual std::optional<std::chrono::milliseconds> spend(double credits, std::chrono::steady_clock::time_point now) = 0;
};

}  // namespace atout::server
