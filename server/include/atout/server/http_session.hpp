// One HTTP connection: answers /healthz and the JSON API, and hands WebSocket upgrades on /ws to a
// ws_session.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "atout/server/context.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"

namespace atout::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  static constexpr std::uint32_t kMaxRequestBytes = 8 * 1024;

  // Without a slot the connection is over its address's cap: its request is answered 429.
  HttpSession(tcp::socket&& socket, std::shared_ptr<Context> ctx, std::optional<IpSlot> slot);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void respond(http::status status, std::string body, std::string_view content_type = "application/json");
  // A file of the web client (or its 400/404), with its caching, encoding and security headers.
  void respond_static(std::string_view path, std::string_view accept_encoding);
  void send();
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<Context> ctx_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false;  // a HEAD request: headers and length only
  std::optional<IpSlot> slot_;
  std::optional<std::chrono::seconds> retry_after_;  // sent with the next response (a 429)
};

}  // namespace atout::server
