// Guest identities with 256-bit random tokens, of which only the SHA-256 is stored.
#include "atout/server/players.hpp"

#include "atout/server/random.hpp"
#include "atout/sha256.hpp"

namespace atout::server {

namespace {
constexpr std::size_t kTokenBytes = 32;

std::string token_hash(const std::string& token) { return to_hex(sha256(token)); }
}  // namespace

players::issued players::create_guest(const std::optional<std::string>& name) {
  issued out;
  out.token = random_hex(kTokenBytes);
  std::lock_guard lock(mutex_);
  out.who.id = "p" + std::to_string(next_id_++);
  out.who.name = name ? *name : "guest-" + out.who.id;
  by_token_hash_.emplace(token_hash(out.token), out.who);
  return out;
}

std::optional<player> players::resume(const std::string& token) const {
  const std::string h = token_hash(token);
  std::lock_guard lock(mutex_);
  const auto it = by_token_hash_.find(h);
  if (it == by_token_hash_.end()) return std::nullopt;
  return it->second;
}

}  // namespace atout::server
