// Guest identities with 256-bit random tokens, of which only the SHA-256 is stored.
#include "atout/server/players.hpp"

#include "atout/server/random.hpp"
#include "atout/server/store_journal.hpp"
#include "atout/sha256.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

namespace {
constexpr std::size_t kTokenBytes = 32;
// Random rather than counted, so ids stay unique across restarts without asking the store; 64
// bits make a collision among even millions of guests very unlikely (the store refuses one).
constexpr std::size_t kPlayerIdBytes = 8;

std::string token_hash(const std::string& token) { return to_hex(sha256(token)); }
}  // namespace

Players::Players(std::shared_ptr<store::Store> store) : store_(std::move(store)) {}

Players::Issued Players::create_guest(const std::optional<std::string>& name) {
  Issued out;
  out.token = random_hex(kTokenBytes);
  out.who.id = "p" + random_hex(kPlayerIdBytes);
  out.who.name = name ? *name : "guest-" + out.who.id;
  const std::string h = token_hash(out.token);
  {
    std::lock_guard lock(mutex_);
    by_token_hash_.emplace(h, out.who);
  }
  if (store_) store_->add_player(out.who.id, out.who.name, h, unix_ms());
  return out;
}

std::optional<Player> Players::resume(const std::string& token) {
  const std::string h = token_hash(token);
  std::optional<Player> found;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = by_token_hash_.find(h); it != by_token_hash_.end()) found = it->second;
  }
  if (!found && store_) {
    // One indexed read, once per connection that resumes after a restart.
    if (auto row = store_->player_by_token_hash(h)) {
      found = Player{row->id, row->name};
      std::lock_guard lock(mutex_);
      by_token_hash_.emplace(h, *found);
    }
  }
  if (found && store_) store_->touch_player(found->id, unix_ms());
  return found;
}

}  // namespace atout::server
