// A small blocking Redis client over hiredis, for the cluster's own threads (never an I/O thread):
// one connection, reopened on the next command after it fails, every command bounded by a timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct redisContext;

namespace atout::server::cluster {

// A Redis reply reduced to what the cluster uses.
struct RedisReply {
  enum class Kind : std::uint8_t { nil, text, integer, array, status } kind = Kind::nil;
  std::string text;  // text, status
  long long integer = 0;
  std::vector<RedisReply> items;  // array
};

class RedisClient {
 public:
  struct Address {
    std::string host;
    int port = 6379;
    int db = 0;
  };
  // Parses redis://host[:port][/db]; nullopt with `error` set when it is not one.
  static std::optional<Address> parse_url(const std::string& url, std::string& error);

  RedisClient(Address address, std::chrono::milliseconds timeout);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // Runs one command (its arguments, binary-safe); nullopt with `error` set when Redis cannot be
  // reached or answers an error. Safe from any thread: commands are serialised.
  std::optional<RedisReply> command(const std::vector<std::string>& args, std::string& error);
  std::optional<RedisReply> command(const std::vector<std::string>& args) {
    std::string ignored;
    return command(args, ignored);
  }

 private:
  bool connect(std::string& error);
  void drop();

  Address address_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  redisContext* ctx_ = nullptr;
};

}  // namespace atout::server::cluster
