// Wiring: one io_context run by --threads threads; strands give each connection, table and the
// lobby their own serial order.
#include "atout/server/server.hpp"

#include <spdlog/spdlog.h>

namespace atout::server {

server::server(config cfg) : cfg_(std::move(cfg)), ioc_(cfg_.threads), ctx_(std::make_shared<context>()) {
  ctx_->lobby = std::make_shared<lobby>(ioc_.get_executor());
  ctx_->players = std::make_shared<players>();
  ctx_->limits =
      session_limits{cfg_.msg_burst, cfg_.msg_rate, cfg_.idle_timeout, cfg_.max_queue_messages, cfg_.max_queue_bytes};
  ctx_->conns = std::make_shared<conn_limiter>(cfg_.max_conns_per_ip, ctx_->metrics);
  ctx_->lobby->use_metrics(ctx_->metrics);
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
  net::signal_set signals(ioc_, SIGINT, SIGTERM);
  signals.async_wait([this](beast::error_code ec, int sig) {
    if (ec) return;
    spdlog::info("signal {}: stopping", sig);
    listener_->stop();
    ioc_.stop();
  });
  for (int i = 1; i < cfg_.threads; ++i) threads_.emplace_back([this] { ioc_.run(); });
  ioc_.run();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void server::stop() {
  listener_->stop();
  ioc_.stop();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace atout::server
