// One HTTP connection: answers /healthz and the JSON API, and hands WebSocket upgrades on /ws to a
// ws_session.
#pragma once

#include <memory>
#include <optional>

#include "atout/server/context.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"

namespace atout::server {

class http_session : public std::enable_shared_from_this<http_session> {
 public:
  static constexpr std::uint32_t kMaxRequestBytes = 8 * 1024;

  // Without a slot the connection is over its address's cap: its request is answered 429.
  http_session(tcp::socket&& socket, std::shared_ptr<context> ctx, std::optional<ip_slot> slot);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void respond(http::status status, std::string body, std::string_view content_type = "application/json");
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<context> ctx_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
  unsigned version_ = 11;
  bool keep_alive_ = false;
  std::optional<ip_slot> slot_;
};

}  // namespace atout::server
