// The cluster's message bus: one Redis pub/sub channel that every node subscribes to, for what must
// reach the other nodes at once (lobby chat, a player's newer connection). The subscription runs
// on a thread of its own and comes back by itself after Redis does.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "atout/server/cluster/redis_client.hpp"

namespace atout::server::cluster {

class ClusterBus {
 public:
  static constexpr const char* kChannel = "atout:bus";

  // `on_message(kind, body)` is called on the bus thread for each message another node published.
  using Handler = std::function<void(const std::string& kind, const std::string& body)>;
  ClusterBus(RedisClient::Address address, std::string node_id, Handler on_message);
  ~ClusterBus();
  ClusterBus(const ClusterBus&) = delete;
  ClusterBus& operator=(const ClusterBus&) = delete;

  void start();
  void stop();

  // A message as published: "<node id>\n<kind>\n<body>".
  static std::string encode(const std::string& node_id, const std::string& kind, const std::string& body);
  // Splits a published message; false when it is not one.
  static bool decode(const std::string& text, std::string& node_id, std::string& kind, std::string& body);

 private:
  void run();
  // One subscription, until it fails or the bus stops.
  void listen();

  RedisClient::Address address_;
  std::string node_id_;
  Handler on_message_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace atout::server::cluster
