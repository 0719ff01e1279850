// One HTTP connection, over plain TCP or TLS: answers /healthz and the JSON API, and hands WebSocket
// upgrades on /ws, from an allowed origin, to a BasicWsSession over the same stream.
// Instantiated (in http_session.cpp) for beast::tcp_stream and TlsStream only.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <type_traits>

#include "atout/server/context.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/net.hpp"
#include "atout/server/tls_context.hpp"

namespace atout::server {

template <typename Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  static constexpr std::uint32_t kMaxRequestBytes = 8 * 1024;

  // Over TLS, "https" and "wss"; the scheme of the server's own origin.
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  // Without a slot the connection is over its address's cap: its request is answered 429. `tls` is
  // the TLS context `stream` was made with (null over plain TCP), kept while the connection lives.
  HttpSession(Stream&& stream, std::shared_ptr<Context> ctx, std::optional<IpSlot> slot,
              std::shared_ptr<ssl::context> tls);
  void run();

 private:
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void respond(http::status status, std::string body, std::string_view content_type = "application/json");
  // A file of the web client (or its 400/404), with its caching, encoding and security headers.
  void respond_static(std::string_view path, std::string_view accept_encoding);
  void send();
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();
  // The Origin check of a WebSocket upgrade.
  bool origin_allowed(const http::request<http::string_body>& req) const;

  std::shared_ptr<ssl::context> tls_;  // declared before stream_, which uses it
  Stream stream_;
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
