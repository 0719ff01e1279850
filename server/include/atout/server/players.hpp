// The player registry: who each token belongs to. Guests are kept in the store (id, name and the
// token's hash, never the token), so a token still works after a restart.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace atout::store {
class Store;
}

namespace atout::server {

struct Player {
  std::string id;
  std::string name;
};

class Players {
 public:
  // `store` may be null: identities then last as long as the process.
  explicit Players(std::shared_ptr<store::Store> store = nullptr);

  struct Issued {
    Player who;
    std::string token;  // handed to the client once; only its hash is kept
  };

  // A new guest identity. Without a name, the guest is called after its id.
  Issued create_guest(const std::optional<std::string>& name);
  // The identity a token was issued for, if any: from memory, else from the store (a token issued
  // before a restart). A resumed player's last_seen is updated.
  std::optional<Player> resume(const std::string& token);

 private:
  std::shared_ptr<store::Store> store_;
  // Sessions on any thread say hello; this is the only state they share, and it is touched once
  // per connection, so a mutex is simpler than an actor here.
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Player> by_token_hash_;
};

}  // namespace atout::server
