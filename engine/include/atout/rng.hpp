// The deal generator: 128-bit seeds, xoshiro256** expanded by SplitMix64, and our own Fisher-Yates.
// The exact algorithm is part of the record format (docs/records.md): the same seed must give the
// same deal on every platform, so nothing here uses <random> or std::shuffle.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "atout/card.hpp"

namespace atout {

struct Seed {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;

  // 32 lower-case hex digits, hi first.
  std::string hex() const;
  // Exactly 32 hex digits (either case).
  static std::optional<Seed> parse(std::string_view text);
  bool operator==(const Seed&) const = default;
};

// The seed of deal number `index` (0-based) of a match whose record gives one match seed.
Seed derive_deal_seed(Seed match_seed, std::uint64_t index);

std::uint64_t splitmix64(std::uint64_t& state);

class Rng {
 public:
  explicit Rng(Seed seed);
  std::uint64_t next();
  // Uniform in [0, n), n > 0: Lemire's multiply-shift with rejection, on the top 32 bits.
  std::uint32_t below(std::uint32_t n);

 private:
  std::uint64_t s_[4];
};

// Fisher-Yates from the last position down: swap cards[i] with cards[below(i + 1)].
void shuffle(std::span<Card> cards, Rng& rng);

// Cut: the `deal: cut` option, as French rules deal from the gathered pack. At least three cards are lifted and at
// least three stay; the cut point is 3 + below(n - 5).
void cut(std::span<Card> cards, Rng& rng);

}  // namespace atout
