// Reads of what the store keeps (profiles, leaderboards, histories, replays) for the WebSocket
// requests and the HTTP API. Reads run on the archive's own thread, never on an I/O thread.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
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
  using Reply = std::variant<protocol::Profile, protocol::Leaderboard, protocol::History, protocol::Replay,
                             protocol::Analysis, protocol::Error>;
  // Analyses waiting or running at once; more are refused with too_fast until one is done.
  static constexpr int kMaxAnalyses = 4;
  // Deals whose analysis is kept, the most recently asked first.
  static constexpr std::size_t kCachedAnalyses = 64;

  explicit Archive(std::shared_ptr<store::Store> store, int max_analyses = kMaxAnalyses);
  ~Archive();
  Archive(const Archive&) = delete;
  Archive& operator=(const Archive&) = delete;

  // Runs the read on the archive's thread and calls `then` there with the reply. The read sees
  // every write the server queued before the call: a match is known from the moment its id is
  // (as one not finished), and over from the moment its last event is sent. `viewer`: the player
  // asking (empty over HTTP), for what only a match's own players may see.
  template <typename Request>
  void ask(Request request, std::string viewer, std::function<void(Reply)> then) {
    net::post(pool_, [this, request = std::move(request), viewer = std::move(viewer), then = std::move(then)] {
      settle();
      then(read(request, viewer));
    });
  }
  // An analysis runs on a thread of its own: it may take seconds, and the other reads stay quick.
  // Past `max_analyses` at once, `then` gets too_fast at once, on the caller's thread.
  void ask(protocol::GetAnalysis request, std::string viewer, std::function<void(Reply)> then);
  // Finishes the reads under way; later ones are dropped. Call before the store goes.
  void stop();

  // The reads themselves (any thread; the store serialises them). A private match still being
  // played is in a history only when `viewer` sat in it.
  Reply read(const protocol::GetProfile& r, const std::string& viewer = {});
  Reply read(const protocol::GetLeaderboard& r, const std::string& viewer = {});
  Reply read(const protocol::GetHistory& r, const std::string& viewer = {});
  Reply read(const protocol::GetReplay& r, const std::string& viewer = {});
  // Solves the deal (or finds it solved before): up to seconds of CPU.
  Reply read(const protocol::GetAnalysis& r, const std::string& viewer = {});

  // The reply as a WebSocket message, and as an HTTP status and body ({"error": code,
  // "message": ...} for an error).
  static std::string message(const Reply& r, const protocol::RequestId& id);
  static std::pair<http::status, std::string> http_response(const Reply& r);

 private:
  // Waits until the writes queued so far are committed.
  void settle();

  std::shared_ptr<store::Store> store_;
  // One thread: reads are short indexed queries, and the store has one reading connection.
  net::thread_pool pool_{1};
  // Analyses: one at a time, bounded, and the latest kept.
  net::thread_pool analysis_pool_{1};
  const int max_analyses_;
  std::atomic<int> analyses_{0};
  std::mutex cache_mutex_;
  std::list<protocol::Analysis> cache_;  // most recently asked first
};

// Answers GET /api/players/<id>, /api/players/<id>/matches, /api/leaderboard/<ladder>,
// /api/matches/<id>/replay and /api/matches/<id>/analysis?deal=<n> (`target` with its query);
// false when `target` is none of these.
bool http_api(Archive& a, std::string_view target, std::function<void(http::status, std::string)> respond);

}  // namespace atout::server
