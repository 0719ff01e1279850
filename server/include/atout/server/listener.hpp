// Accepts TCP connections and gives each an http_session on its own strand, over TLS when the
// server has a certificate.
#pragma once

#include <memory>

#include "atout/server/context.hpp"
#include "atout/server/net.hpp"
#include "atout/server/tls_context.hpp"

namespace atout::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, std::shared_ptr<Context> ctx);
  // Binds and listens; on failure says why.
  beast::error_code open(const tcp::endpoint& endpoint);
  tcp::endpoint local_endpoint() const;
  // From now on, connections speak TLS with `tls`'s current context (before run()).
  void use_tls(std::shared_ptr<TlsContext> tls) { tls_ = std::move(tls); }
  void run();
  void stop();

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer backoff_;
  std::shared_ptr<Context> ctx_;
  std::shared_ptr<TlsContext> tls_;  // null: plain HTTP and WebSocket
};

}  // namespace atout::server
