// One WebSocket connection's transport: the upgrade, the read loop, a bounded write queue, the
// keep-alive and the one way a connection ends. What a request means is the request router's.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "atout/protocol/messages.hpp"
#include "atout/server/connection.hpp"
#include "atout/server/context.hpp"
#include "atout/server/keepalive.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"
#include "atout/server/request_router.hpp"

namespace atout::server {

class WsSession : public Connection, public std::enable_shared_from_this<WsSession> {
 public:
  // Requests are small; a larger frame closes the connection with 1009 (message too big).
  static constexpr std::size_t kMaxMessageBytes = 16 * 1024;
  // Close codes of the connections the server ends on purpose.
  static constexpr std::uint16_t kCloseReplaced = RequestRouter::kCloseReplaced;  // a newer connection took over
  static constexpr std::uint16_t kCloseShutdown = 1012;                           // service restart

  // Where a connection is in its life.
  enum class State {
    upgrading,  // the HTTP upgrade is not complete
    open,       // requests are read and handled
    closing,    // the server closed it (left its lobby and tables); the peer has the close grace to finish
    ended,      // nothing more is read or timed: the peer went, or the socket was cut
  };
  // Why a connection ends; each reason has its close (a frame, a cut, or none) and its counter.
  enum class EndReason {
    peer_gone,      // the read failed: the peer closed or vanished
    too_big,        // a frame over kMaxMessageBytes (Beast has sent 1009)
    flooding,       // more messages than its credits allow: closed with 1008
    not_reading,    // its outbound queue is full: cut without a close frame
    silent,         // no frame for the idle timeout: cut
    close_timeout,  // closing for the close grace without finishing: cut
    write_failed,   // a write failed: what is queued is dropped
    kicked,         // replaced or shut down: the goodbye and what precedes it are written, then the close
  };

  // A client that lets ctx->limits.max_queue_messages or max_queue_bytes pile up is not reading; it
  // is disconnected rather than allowed to grow the server's memory.
  WsSession(tcp::socket&& socket, std::shared_ptr<Context> ctx, IpSlot slot = {});
  ~WsSession() override;
  WsSession(const WsSession&) = delete;
  WsSession& operator=(const WsSession&) = delete;

  // Completes the upgrade that `request` asked for, then reads requests until the peer goes.
  void run(http::request<http::string_body> request);

  void send(std::shared_ptr<const std::string> message) override;
  void joined(const std::string& table_id, std::weak_ptr<Table> t) override;
  void departed(const std::string& table_id) override;
  // Says goodbye, leaves the lobby and tables, and closes with `code` once the goodbye is written.
  void kick(protocol::Goodbye goodbye, std::uint16_t code);

  std::uint64_t id() const override { return conn_; }
  bool open() const override { return state_ == State::open; }
  void reply(std::shared_ptr<const std::string> message) override { on_send(std::move(message)); }
  void post(std::function<void()> fn) override;
  std::weak_ptr<Connection> weak() override { return weak_from_this(); }
  std::optional<std::chrono::milliseconds> spend(double credits, std::chrono::steady_clock::time_point now) override {
    if (credits_.take(now, credits)) return std::nullopt;
    return credits_.wait(credits);
  }
  RequestRouter& router() override { return router_; }

 private:
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

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
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
