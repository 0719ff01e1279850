// atout-loadgen's abuser (--abuse): clients that create tables until refused and ask for the
// lobby as fast as the server lets them, over WebSocket and HTTP, while the tables play.
#pragma once

#include <atomic>
#include <cstdint>

#include "loadgen_client.hpp"

namespace atout::loadgen {

struct AbuseStats {
  std::atomic<std::uint64_t> created{0};  // tables it made
  std::atomic<std::uint64_t> create_refused{0};
  std::atomic<std::uint64_t> lists{0};  // list_tables answered with a page
  std::atomic<std::uint64_t> list_bytes{0};
  std::atomic<std::uint64_t> too_fast{0};  // list_tables refused for its cost
  std::atomic<std::uint64_t> http_ok{0};
  std::atomic<std::uint64_t> http_limited{0};  // 429
  std::atomic<std::uint64_t> http_bytes{0};
  std::atomic<std::uint64_t> closed{0};  // its connections the server closed
};

// One WebSocket client (one player; reconnected with its token if the server closes it): creates
// tables until refused (or `cap`), then asks for the largest page of the lobby over and over,
// waiting only as long as a too_fast reply says. Runs while `stop` is false, paused while `active`
// is false.
void abuse_ws(const tcp::endpoint& server, int cap, const std::atomic<bool>& active, const std::atomic<bool>& stop,
              AbuseStats& s);
// One HTTP client with keep-alive: GET /api/tables?limit=100 over and over, waiting only as long as
// a 429's Retry-After says.
void abuse_http(const tcp::endpoint& server, const std::atomic<bool>& active, const std::atomic<bool>& stop,
                AbuseStats& s);

}  // namespace atout::loadgen
