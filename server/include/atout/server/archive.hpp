// Reads of what the store keeps (profiles, leaderboards, histories, replays) for the WebSocket
// requests and the HTTP API. Reads run on the archive's own thread, never on an I/O thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "atout/protocol/messages.hpp"
#include "atout/server/net.hpp"

namespace atout::store {
class Store;
}

namespace atout::server {

class Archive {
 public:
  using Reply =
      std::variant<protocol::Profile, protocol::Leaderboard, protocol::History, protocol::Replay, protocol::Error>;

  explicit Archive(std::shared_ptr<store::Store> store);
  ~Archive();
  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

  // Runs the read on the archive's thread and calls `then` there with the reply.
  template <typename Request>
  void ask(Request request, std::function<void(Reply)> then) {
    net::post(pool_, [this, request = std::move(request), then = std::move(then)] { then(read(request)); });
  }
  // Finishes the reads under way; later ones are dropped. Call before the store goes.
  void stop();

  // The reads themselves (any thread; the store serialises them).
  Reply read(const protocol::GetProfile& r);
  Reply read(const protocol::GetLeaderboard& r);
  Reply read(const protocol::GetHistory& r);
  Reply read(const protocol::GetReplay& r);

  // The reply as a WebSocket message, and as an HTTP status and body ({"error": code,
  // "message": ...} for an error).
  static std::string message(const Reply& r, const protocol::RequestId& id);
  static std::pair<http::status, std::string> http_response(const Reply& r);

 private:
  std::shared_ptr<store::Store> store_;
  // One thread: reads are short indexed queries, and the store has one reading connection.
  net::thread_pool pool_{1};
};

// Answers GET /api/players/<id>, /api/players/<id>/matches, /api/leaderboard/<ladder> and
// /api/matches/<id>/replay (`target` with its query); false when `target` is none of these.
bool http_api(Archive& a, std::string_view target, std::function<void(http::status, std::string)> respond);

}  // namespace atout::server
