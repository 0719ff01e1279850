// The pub/sub subscription: hiredis in blocking mode, its socket polled with a short timeout so
// that the thread notices a stop, and a new subscription after any failure.
#include "atout/server/cluster/cluster_bus.hpp"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <spdlog/spdlog.h>

#include <chrono>

namespace atout::server::cluster {

namespace {
constexpr int kPollMs = 200;
constexpr auto kRetry = std::chrono::milliseconds(500);
}  // namespace

ClusterBus::ClusterBus(RedisClient::Address address, std::string node_id, Handler on_message)
    : address_(std::move(address)), node_id_(std::move(node_id)), on_message_(std::move(on_message)) {}

ClusterBus::~ClusterBus() { stop(); }

void ClusterBus::start() {
  thread_ = std::thread([this] { run(); });
}

void ClusterBus::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

std::string ClusterBus::encode(const std::string& node_id, const std::string& kind, const std::string& body) {
  return node_id + "\n" + kind + "\n" + body;
}

bool ClusterBus::decode(const std::string& text, std::string& node_id, std::string& kind, std::string& body) {
  const auto first = text.find('\n');
  if (first == std::string::npos) return false;
  const auto second = text.find('\n', first + 1);
  if (second == std::string::npos) return false;
  node_id = text.substr(0, first);
  kind = text.substr(first + 1, second - first - 1);
  body = text.substr(second + 1);
  return true;
}

void ClusterBus::run() {
  bool warned = false;
  while (!stopping_) {
    listen();
    if (stopping_) break;
    if (!warned) spdlog::warn("cluster: the bus subscription to Redis is down; retrying");
    warned = true;
    std::this_thread::sleep_for(kRetry);
  }
}

void ClusterBus::listen() {
  timeval tv{};
  tv.tv_sec = 2;
  redisContext* c = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (!c || c->err) {
    if (c) redisFree(c);
    return;
  }
  auto* ok = static_cast<redisReply*>(redisCommand(c, "SUBSCRIBE %s", kChannel));
  if (!ok) {
    redisFree(c);
    return;
  }
  freeReplyObject(ok);
  while (!stopping_) {
    void* raw = nullptr;
    if (redisGetReplyFromReader(c, &raw) != REDIS_OK) break;
    if (!raw) {
      pollfd p{c->fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, kPollMs);
      if (ready < 0) break;
      if (ready == 0) continue;
      if (redisBufferRead(c) != REDIS_OK) break;
      continue;
    }
    auto* r = static_cast<redisReply*>(raw);
    // ["message", channel, payload]
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 && r->element[2]->type == REDIS_REPLY_STRING) {
      std::string node, kind, body;
      if (decode(std::string(r->element[2]->str, r->element[2]->len), node, kind, body) && node != node_id_)
        on_message_(kind, body);
    }
    freeReplyObject(r);
  }
  redisFree(c);
}

}  // namespace atout::server::cluster
