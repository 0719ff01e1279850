// Loopback test tools: a live server on 127.0.0.1, a Beast WebSocket client with timeouts, an
// HTTP getter, a log of every message for the schema check, and a whole-match driver.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "atout/server/net.hpp"
#include "atout/server/server.hpp"
#include "atout/server/tls_context.hpp"

namespace atout::server::testing {

using nlohmann::json;

// Generous: sanitizer builds on a shared 2-core machine are slow.
inline constexpr std::chrono::milliseconds kReadTimeout{30000};

// Every message the tests' well-behaved clients sent and received, checked against
// protocol/schema by Debian's python3-jsonschema.
class MessageLog {
 public:
  void add(char direction, std::string_view text);
  std::size_t size() const;
  // Every line so far, in order: 'C' and a space before what the client sent, 'S' before what it
  // received.
  std::vector<std::string> lines() const;
  // Checks the log with tests/server/validate_messages.py. Under ctest, ATOUT_SCHEMA_LOG_DIR is
  // set: the log is written there and one run of the validator checks every test's log at the end
  // (the test server_messages_fit_schema), which saves a Python start-up per test.
  ::testing::AssertionResult validate() const;
  // Runs the validator now, whatever the environment says.
  ::testing::AssertionResult validate_now() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

class LiveServer {
 public:
  // With no `db`, the server gets a fresh database of its own, removed afterwards.
  explicit LiveServer(int threads = 2, std::string db = {});
  // A server on 127.0.0.1 with `c`'s limits (its bind, port and database are replaced).
  explicit LiveServer(Config c, std::string db = {});
  ~LiveServer();
  unsigned short port() const { return port_; }
  Server& get() { return *server_; }
  const std::string& db() const { return db_; }

 private:
  std::string db_;
  std::string own_dir_;  // removed with the server when the database was made for it
  std::unique_ptr<Server> server_;
  unsigned short port_ = 0;
};

// A client over TLS: it trusts the certificate authority in `ca_file` (PEM) alone, and checks that
// the server's certificate names 127.0.0.1. The test certificates are their own authority.
struct ClientTls {
  std::string ca_file;
};
// A client TLS context for `tls`.
std::unique_ptr<ssl::context> client_context(const ClientTls& tls);

class TestClient {
 public:
  // Connects and upgrades, over TLS (wss://) when `tls` is given; throws on failure, a refused
  // certificate or handshake included. Messages go to `log` when given.
  TestClient(unsigned short port, MessageLog* log, const ClientTls* tls = nullptr);
  ~TestClient();

  // Sends a well-formed message (logged for the schema check).
  void send(const json& message);
  // Sends bytes as they are (deliberately bad input; not logged).
  void send_raw(std::string_view text, bool binary = false);
  // The next message, from the backlog first; empty on timeout or close.
  std::optional<json> next(std::chrono::milliseconds timeout = kReadTimeout);
  // The next message of `type`, keeping others in the backlog; empty on timeout or close.
  std::optional<json> next_of(std::string_view type, std::chrono::milliseconds timeout = kReadTimeout);
  // The next message of `type` that satisfies `pred`, dropping other messages of that type; a
  // message {"type": "none"} (and a test failure) when none comes.
  template <typename Pred>
  json wait_for(std::string_view type, Pred pred) {
    for (;;) {
      auto m = next_of(type);
      if (!m) {
        ADD_FAILURE() << "no " << type << " message came";
        return json{{"type", "none"}};
      }
      if (pred(*m)) return *m;
    }
  }
  json wait_for(std::string_view type) {
    return wait_for(type, [](const json&) { return true; });
  }
  // Sends with a fresh id and returns the reply bearing it; other messages wait in the backlog.
  json request(json message);
  // The same for a deliberately bad message, which is kept out of the schema log.
  json request_unlogged(json message);
  // hello as a guest; returns the welcome.
  json hello(const std::string& name);
  // True when no table event reached this connection before the reply to a ping sent now. Events
  // already queued for it by then arrive first, so a refused action that wrongly produced one is
  // caught without waiting on a timer.
  bool no_events();
  bool open() const { return open_; }
  // The close code the server sent, once closed.
  int close_code() const { return close_code_; }
  std::string close_reason() const { return close_reason_; }

 private:
  std::optional<std::string> read_text(std::chrono::milliseconds timeout);
  json reply_to(std::int64_t id, const json& message);
  // Calls `f` with the WebSocket stream, plain or TLS.
  template <typename F>
  decltype(auto) with_ws(F&& f) {
    if (tls_ws_) return f(*tls_ws_);
    return f(*plain_ws_);
  }

  net::io_context ioc_;
  std::unique_ptr<ssl::context> ssl_ctx_;  // over TLS only
  std::optional<websocket::stream<beast::tcp_stream>> plain_ws_;
  std::optional<websocket::stream<TlsStream>> tls_ws_;
  beast::flat_buffer buffer_;
  std::deque<json> backlog_;
  MessageLog* log_;
  std::int64_t next_id_ = 1;
  bool open_ = true;
  int close_code_ = 0;
  std::string close_reason_;
};

// A shell command's exit status (-1 when it did not exit normally) and its standard output.
struct CommandResult {
  int exit_code = -1;
  std::string out;
};
CommandResult run_command(const std::string& command);

struct HttpReply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
  std::string retry_after;  // the Retry-After header, if any
};
// GET `target`, over TLS (https://) when `tls` is given; throws when the exchange fails.
HttpReply http_get(unsigned short port, const std::string& target, const ClientTls* tls = nullptr);
// Sends `req` (its Host set here) and reads the response, over TLS when `tls` is given; throws when
// the exchange fails.
HttpReply http_exchange(unsigned short port, http::request<http::string_body> req, const ClientTls* tls = nullptr);

struct MatchSummary {
  std::string table_id;
  int actions = 0;
  int hand_results = 0;
  json match_result;
};

// Plays a whole match of `variant` with one connection per seat plus a spectator, each seat
// choosing at random among the legal actions its own event offered. Checks that every recipient
// gets every event in sequence, that only the seat to act is offered actions, and that the match
// result agrees with the hand results. Fails the current test on any deviation.
// Over TLS when `tls` is given.
MatchSummary play_match(unsigned short port, const std::string& variant, MessageLog* log, std::uint64_t seed,
                        const ClientTls* tls = nullptr);

}  // namespace atout::server::testing
