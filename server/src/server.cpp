// Wiring: one io_context run by --threads threads; strands give each connection, table and the
// lobby their own serial order.
#include "atout/server/server.hpp"

#include <spdlog/spdlog.h>

#include "atout/server/ws_session.hpp"

namespace atout::server {

server::server(config cfg) : cfg_(std::move(cfg)), ioc_(cfg_.threads), ctx_(std::make_shared<context>()) {
  ctx_->lobby = std::make_shared<lobby>(ioc_.get_executor());
  ctx_->players = std::make_shared<players>();
  listener_ = std::make_shared<listener>(ioc_, ctx_);
}

server::~server() { stop(); }

std::optional<std::string> server::open() {
  beast::error_code ec;
  const auto address = net::ip::make_address(cfg_.bind, ec);
  if (ec) return "bad address " + cfg_.bind + ": " + ec.message();
  ec = listener_->open(tcp::endpoint(address, cfg_.port));
  if (ec) return "cannot listen on " + cfg_.bind + ":" + std::to_string(cfg_.port) + ": " + ec.message();
  listener_->run();
  return std::nullopt;
}

unsigned short server::port() const { return listener_->local_endpoint().port(); }

void server::start() {
  for (int i = 0; i < cfg_.threads; ++i) threads_.emplace_back([this] { ioc_.run(); });
}

void server::run_until_signal() {
  // The signal is awaited on a context of its own, so that the shutdown below can wait for the
  // I/O threads without being one of them.
  net::io_context signal_ioc;
  net::signal_set signals(signal_ioc, SIGINT, SIGTERM);
  int received = 0;
  signals.async_wait([&](beast::error_code ec, int sig) {
    if (!ec) received = sig;
  });
  start();
  signal_ioc.run();
  spdlog::info("signal {}: shutting down (at most {} ms)", received, kShutdownGrace.count());
  const std::size_t left = shutdown(kShutdownGrace);
  if (left > 0) spdlog::warn("{} connection(s) did not close in time; dropped", left);
  spdlog::info("stopped");
}

std::size_t server::shutdown(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  ctx_->shutting_down = true;
  listener_->stop();
  flush_persistence();
  for (const auto& s : ctx_->sessions->all())
    s->kick(protocol::Goodbye{protocol::Goodbye::Reason::shutdown, "the server is shutting down; reconnect later"},
            ws_session::kCloseShutdown);
  // A session object lives until its close handshake and its last handler are done.
  while (ctx_->live_sessions.load() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::size_t left = ctx_->live_sessions.load();
  stop();
  return left;
}

void server::flush_persistence() {
  // Every accepted action is already journaled; the store's flush lands with persistence.
}

void server::stop() {
  listener_->stop();
  ioc_.stop();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace atout::server
