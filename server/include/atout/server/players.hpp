// The player registry: who each token belongs to. In memory until persistence lands (issue 6).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace atout::server {

struct player {
  std::string id;
  std::string name;
};

class players {
 public:
  struct issued {
    player who;
    std::string token;  // handed to the client once; only its hash is kept
  };

  // A new guest identity. Without a name, the guest is called after its id.
  issued create_guest(const std::optional<std::string>& name);
  // The identity a token was issued for, if any.
  std::optional<player> resume(const std::string& token) const;

 private:
  // Sessions on any thread say hello; this is the only state they share, and it is touched once
  // per connection, so a mutex is simpler than an actor here.
  mutable std::mutex mutex_;
  std::unordered_map<std::string, player> by_token_hash_;
  std::uint64_t next_id_ = 1;
};

}  // namespace atout::server
