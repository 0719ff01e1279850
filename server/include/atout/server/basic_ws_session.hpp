// One WebSocket connection's transport, over plain TCP or TLS: the upgrade, the read loop, a
// bounded write queue, the keep-alive and the one way a connection ends. What a request means is
// the request router's. Instantiated (in ws_session.cpp) for beast::tcp_stream and TlsStream only.
#pragma once

#include <boost/container/devector.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "atout/server/context.hpp"
#include "atout/server/keepalive.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"
#include "atout/server/request_router.hpp"
#include "atout/server/tls_context.hpp"
#include "atout/server/ws_session.hpp"

namespace atout::server {

template <typename Stream>
class BasicWsSession final : public WsSession, public std::enable_shared_from_this<BasicWsSession<Stream>> {
 public:
  // A client that lets ctx->limits.max_queue_messages or max_queue_bytes pile up is not reading; it
  // is disconnected rather than allowed to grow the server's memory. `tls` is the TLS context
  // `stream` was made with (null over plain TCP), kept while the session lives.
  BasicWsSession(Stream&& stream, std::shared_ptr<Context> ctx, IpSlot slot, std::shared_ptr<ssl::context> tls);
  ~BasicWsSession() override;
  BasicWsSession(const BasicWsSession&) = delete;
  BasicWsSession& operator=(const BasicWsSession&) = delete;

  // Completes the upgrade that `request` asked for, then reads requests until the peer goes.
  void run(http::request<http::string_body> request);

  void send(std::shared_ptr<const std::string> message) override;
  void joined(const std::string& table_id, std::weak_ptr<Table> t) override;
  void departed(const std::string& table_id) override;
  void kick(protocol::Goodbye goodbye, std::uint16_t code) override;

  std::uint64_t id() const override { return conn_; }
  bool open() const override { return state_ == State::open; }
  void reply(std::shared_ptr<const std::string> message) override { on_send(std::move(message)); }
  void post(std::function<void()> fn) override;
  net::any_io_executor executor() override { return ws_.get_executor(); }
  std::weak_ptr<Connection> weak() override { return this->weak_from_this(); }
  std::optional<std::chrono::milliseconds> spend(double credits, std::chrono::steady_clock::time_point now) override {
    if (credits_.take(now, credits)) return std::nullopt;
    return credits_.wait(credits);
  }
  RequestRouter& router() override { return router_; }

 private:
  // What the read that waits for a request asks for: enough for nearly every request (an action
  // is about 100 bytes), little for an idle connection to hold.
  static constexpr std::size_t kFirstReadBytes = 512;

  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> message);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  // Waits for the keep-alive's next deadline (Beast's own idle timer is re-armed, and its wait
  // cancelled, on every read; this one is armed once per half period).
  void arm_keepalive();
  void on_keepalive();
  // The one way a connection ends: leaves the lobby and tables once, closes as `why` requires and
  // counts it. Later calls only move a closing connection to ended.
  void end(EndReason why, std::uint16_t code = 0);
  void cut_socket();

  std::shared_ptr<ssl::context> tls_;  // declared before ws_, which uses it
  websocket::stream<Stream> ws_;
  beast::flat_buffer buffer_;
  // A devector rather than a std::deque: empty, it holds no memory (libstdc++'s deque allocates a
  // 512-byte block and its map as soon as it is made), and used as a queue it stays as small as
  // its longest backlog. Most connections are idle most of the time, so this is per-connection
  // memory saved for nothing.
  boost::container::devector<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  std::shared_ptr<Context> ctx_;
  std::uint64_t conn_;
  State state_ = State::upgrading;       // past upgrading: counted among the open WebSocket connections
  std::uint16_t close_after_write_ = 0;  // closing after a kick: the close code once the queue drains
  MessageCredits credits_;
  IpSlot slot_;
  net::steady_timer keepalive_timer_;
  Keepalive keepalive_;
  RequestRouter router_;
};

}  // namespace atout::server
