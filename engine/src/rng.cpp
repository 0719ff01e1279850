// Seed parsing, xoshiro256**, SplitMix64 expansion, shuffle and cut.
#include "atout/rng.hpp"

#include <algorithm>
#include <bit>

#include "atout/sha256.hpp"

namespace atout {

namespace {
constexpr char kHex[] = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string Seed::hex() const {
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(i)] = kHex[(hi >> (60 - 4 * i)) & 0xF];
    out[static_cast<std::size_t>(16 + i)] = kHex[(lo >> (60 - 4 * i)) & 0xF];
  }
  return out;
}

std::optional<Seed> Seed::parse(std::string_view text) {
  if (text.size() != 32) return std::nullopt;
  Seed s;
  for (std::size_t i = 0; i < 32; ++i) {
    const int v = hex_value(text[i]);
    if (v < 0) return std::nullopt;
    std::uint64_t& word = i < 16 ? s.hi : s.lo;
    word = (word << 4) | static_cast<std::uint64_t>(v);
  }
  return s;
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Seed derive_deal_seed(Seed match_seed, std::uint64_t index) {
  // SHA-256 of the text "atout-deal:<32 hex digits>:<index>", first 16 bytes: revealing one
  // deal's seed tells nothing of the next.
  const Digest d = sha256("atout-deal:" + match_seed.hex() + ":" + std::to_string(index));
  Seed out;
  for (int i = 0; i < 8; ++i) {
    out.hi = (out.hi << 8) | d[static_cast<std::size_t>(i)];
    out.lo = (out.lo << 8) | d[static_cast<std::size_t>(8 + i)];
  }
  return out;
}

Rng::Rng(Seed seed) {
  std::uint64_t x = seed.hi;
  s_[0] = splitmix64(x);
  s_[1] = splitmix64(x);
  x = seed.lo;
  s_[2] = splitmix64(x);
  s_[3] = splitmix64(x);
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;  // xoshiro must not start at all zeros
}

std::uint64_t Rng::next() {
  const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

std::uint32_t Rng::below(std::uint32_t n) {
  std::uint64_t m = (next() >> 32) * n;
  auto low = static_cast<std::uint32_t>(m);
  if (low < n) {
    const std::uint32_t threshold = (0u - n) % n;
    while (low < threshold) {
      m = (next() >> 32) * n;
      low = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

void shuffle(std::span<Card> cards, Rng& rng) {
  for (std::size_t i = cards.size(); i > 1; --i) {
    const std::size_t j = rng.below(static_cast<std::uint32_t>(i));
    std::swap(cards[i - 1], cards[j]);
  }
}

void cut(std::span<Card> cards, Rng& rng) {
  if (cards.size() < 6) return;
  const std::size_t at = 3 + rng.below(static_cast<std::uint32_t>(cards.size() - 5));
  std::rotate(cards.begin(), cards.begin() + static_cast<std::ptrdiff_t>(at), cards.end());
}

}  // namespace atout
