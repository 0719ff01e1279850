// One WebSocket connection: reads requests, routes them to the lobby or a table, and writes what
// they send back through a bounded queue.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "atout/protocol/messages.hpp"
#include "atout/server/context.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"

namespace atout::server {

class ws_session : public peer, public std::enable_shared_from_this<ws_session> {
 public:
  // Requests are small; a larger frame closes the connection with 1009 (message too big).
  static constexpr std::size_t kMaxMessageBytes = 16 * 1024;
  // Chat: a burst of this many lines, then one per kChatInterval.
  static constexpr double kChatBurst = 5;
  static constexpr std::chrono::milliseconds kChatInterval{1000};
  // Close codes of the connections the server ends on purpose.
  static constexpr std::uint16_t kCloseReplaced = 4001;  // a newer connection took this identity
  static constexpr std::uint16_t kCloseShutdown = 1012;  // service restart

  // A client that lets ctx->limits.max_queue_messages or max_queue_bytes pile up is not reading; it
  // is disconnected rather than allowed to grow the server's memory.
  ws_session(tcp::socket&& socket, std::shared_ptr<context> ctx, ip_slot slot = {});
  ~ws_session() override;
  ws_session(const ws_session&) = delete;
  ws_session& operator=(const ws_session&) = delete;

  // Completes the upgrade that `request` asked for, then reads requests until the peer goes.
  void run(http::request<http::string_body> request);

  void send(std::shared_ptr<const std::string> message) override;
  void joined(const std::string& table_id, std::weak_ptr<table> t) override;
  void departed(const std::string& table_id) override;
  // Says goodbye, leaves the lobby and tables, and closes with `code` once the goodbye is written.
  void kick(protocol::Goodbye goodbye, std::uint16_t code);

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> message);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  // Keep-alive: a tick at half the idle timeout after the last frame heard pings the peer, one at
  // the full timeout drops it. (Beast's own idle timer is re-armed, and its wait cancelled, on
  // every read; this one is armed once per half period.)
  void arm_keepalive();
  void on_keepalive();
  // Leaves the lobby's subscribers and every table, once.
  void close_down();
  // Closes the socket outright (an idle peer, or a closed session past its grace) and stops the
  // keep-alive; the caller counts why.
  void drop_socket();
  // Leaves everything and closes with `code`, telling the client why.
  void close_with(websocket::close_code code, std::string_view reason);

  void handle(std::string_view text);
  void handle(const protocol::Hello& r, const protocol::RequestId& id);
  void handle(const protocol::ListVariants& r, const protocol::RequestId& id);
  void handle(const protocol::ListTables& r, const protocol::RequestId& id);
  void handle(const protocol::SubscribeLobby& r, const protocol::RequestId& id);
  void handle(const protocol::UnsubscribeLobby& r, const protocol::RequestId& id);
  void handle(const protocol::CreateTable& r, const protocol::RequestId& id);
  void handle(const protocol::Sit& r, const protocol::RequestId& id);
  void handle(const protocol::Spectate& r, const protocol::RequestId& id);
  void handle(const protocol::Stand& r, const protocol::RequestId& id);
  void handle(const protocol::Leave& r, const protocol::RequestId& id);
  void handle(const protocol::Act& r, const protocol::RequestId& id);
  void handle(const protocol::Ping& r, const protocol::RequestId& id);
  void handle(const protocol::Chat& r, const protocol::RequestId& id);
  // After a hello with a token: the welcome (with the seats held for the player), then the resumes.
  void welcome(protocol::Welcome w, std::vector<protocol::ResumeAt> resume, const protocol::RequestId& id);
  void handle(const protocol::GetProfile& r, const protocol::RequestId& id);
  void handle(const protocol::GetLeaderboard& r, const protocol::RequestId& id);
  void handle(const protocol::GetHistory& r, const protocol::RequestId& id);
  void handle(const protocol::GetReplay& r, const protocol::RequestId& id);
  // Asks the archive, off the I/O threads, and sends its reply.
  template <typename Request>
  void ask_archive(const Request& r, const protocol::RequestId& id);

  // Runs `fn` with the table `table_id` names: the one this connection joined, else the lobby's.
  template <typename Fn>
  void with_member_table(const std::string& table_id, const protocol::RequestId& id, Fn fn);
  member me();
  void reply_error(protocol::ErrorCode code, std::string message, const protocol::RequestId& id);

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::shared_ptr<context> ctx_;
  std::uint64_t conn_;
  std::optional<player> player_;
  protocol::Ack ack_ = protocol::Ack::reply;  // how its actions are acknowledged (hello's `ack`)
  std::unordered_map<std::string, std::weak_ptr<table>> tables_;
  bool closed_ = false;
  std::uint16_t close_after_write_ = 0;  // non-zero: close with this code once the queue drains
  double chat_credit_ = kChatBurst;
  std::chrono::steady_clock::time_point chat_refill_ = std::chrono::steady_clock::now();
  std::size_t queued_bytes_ = 0;
  message_credits credits_;
  ip_slot slot_;
  bool counted_ = false;  // counted among the open WebSocket connections
  net::steady_timer keepalive_;
  std::chrono::steady_clock::time_point last_heard_;  // the last frame read, control frames too
  bool pinging_ = false;                              // a ping is written or waits to be
  bool read_ended_ = false;                           // the read loop ended: the peer is gone
  std::chrono::steady_clock::time_point closed_at_;   // when closed_ was set
};

}  // namespace atout::server
