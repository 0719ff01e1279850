// A fake connection for the request router: records what it is sent and replied, runs posted work
// on a test io_context, and owns the router under test (like recording_peer, with a router).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "atout/server/connection.hpp"
#include "atout/server/net.hpp"
#include "atout/server/request_router.hpp"

namespace atout::server::testing {

class RecordingConnection : public Connection, public std::enable_shared_from_this<RecordingConnection> {
 public:
  RecordingConnection(std::shared_ptr<Context> ctx, net::io_context& ioc, std::uint64_t id,
                      RequestRouter::Clock::time_point now)
      : ioc_(ioc),
        id_(id),
        credits_(ctx->limits.msg_burst, ctx->limits.msg_rate, now),
        router_(std::move(ctx), *this, now) {}

  // From tables and the lobby, on their strands.
  void send(std::shared_ptr<const std::string> message) override { record(std::move(message)); }
  void joined(const std::string& table_id, std::weak_ptr<Table> t) override {
    post([self = shared_from_this(), table_id, t = std::move(t)] { self->router_.joined(table_id, t); });
  }
  void departed(const std::string& table_id) override {
    post([self = shared_from_this(), table_id] { self->router_.departed(table_id); });
  }

  std::uint64_t id() const override { return id_; }
  bool open() const override { return open_; }
  void reply(std::shared_ptr<const std::string> message) override { record(std::move(message)); }
  void post(std::function<void()> fn) override { net::post(ioc_, std::move(fn)); }
  net::any_io_executor executor() override { return ioc_.get_executor(); }
  std::weak_ptr<Connection> weak() override { return weak_from_this(); }
  RequestRouter& router() override { return router_; }
  // The connection's message credits, as a session holds them (the transport's own one per message
  // is not taken here: only what the router charges on top).
  std::optional<std::chrono::milliseconds> spend(double credits, RequestRouter::Clock::time_point now) override {
    if (credits_.take(now, credits)) return std::nullopt;
    return credits_.wait(credits);
  }

  // Ends the connection as the transport would: it stops being open and leaves everything.
  void end() {
    open_ = false;
    router_.leave_all();
  }

  // Messages received since the last call, parsed.
  std::vector<nlohmann::json> take() {
    std::lock_guard lock(mutex_);
    std::vector<nlohmann::json> out;
    for (const auto& m : messages_) out.push_back(nlohmann::json::parse(*m));
    messages_.clear();
    return out;
  }

 private:
  void record(std::shared_ptr<const std::string> message) {
    std::lock_guard lock(mutex_);
    messages_.push_back(std::move(message));
  }

  net::io_context& ioc_;
  std::uint64_t id_;
  bool open_ = true;
  MessageCredits credits_;
  RequestRouter router_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<const std::string>> messages_;
};

}  // namespace atout::server::testing
