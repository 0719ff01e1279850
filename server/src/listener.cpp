// The accept loop.
#include "atout/server/listener.hpp"

#include <spdlog/spdlog.h>

#include "atout/server/http_session.hpp"

namespace atout::server {

Listener::Listener(net::io_context& ioc, std::shared_ptr<Context> ctx)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), backoff_(acceptor_.get_executor()), ctx_(std::move(ctx)) {}

beast::error_code Listener::open(const tcp::endpoint& endpoint) {
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  return ec;
}

tcp::endpoint Listener::local_endpoint() const {
  beast::error_code ec;
  return acceptor_.local_endpoint(ec);
}

void Listener::run() { do_accept(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ignored;
    self->acceptor_.close(ignored);
    self->backoff_.cancel();
  });
}

void Listener::do_accept() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted) return;
  if (ec) {
    // Running out of descriptors passes as connections close; wait a little rather than spin.
    spdlog::warn("accept failed: {}", ec.message());
    backoff_.expires_after(std::chrono::milliseconds(50));
    backoff_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      if (!wait_ec && self->acceptor_.is_open()) self->do_accept();
    });
    return;
  }
  // A connection over its address's cap is still read and answered (HTTP 429), then closed.
  beast::error_code peer_ec;
  const tcp::endpoint remote = socket.remote_endpoint(peer_ec);
  // An action's reply and its event go out as separate small writes; Nagle's algorithm would hold
  // the event back until the client acknowledges the reply.
  beast::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  if (!peer_ec) {
    std::optional<IpSlot> slot = ctx_->conns->admit(remote.address());
    if (tls_) {
      // The context of the moment: a reload changes it for the connections that follow.
      std::shared_ptr<ssl::context> tls = tls_->current();
      TlsStream stream(std::move(socket), *tls);
      std::make_shared<HttpSession<TlsStream>>(std::move(stream), ctx_, std::move(slot), std::move(tls))->run();
    } else {
      std::make_shared<HttpSession<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), ctx_, std::move(slot),
                                                       nullptr)
          ->run();
    }
  }
  do_accept();
}

}  // namespace atout::server
