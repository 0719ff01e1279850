// Unpredictable values from the operating system: tokens, invite codes and deal seeds.
#pragma once

#include <cstddef>
#include <string>

#include "atout/rng.hpp"

namespace atout::server {

// `bytes` random bytes from the kernel's CSPRNG, as lower-case hex.
std::string random_hex(std::size_t bytes);
Seed random_seed();

// For tests that record a session (the example in docs/protocol.md): while one lives, random_hex
// and random_seed draw from a generator seeded with `seed` instead of the kernel, so the same
// requests get the same tokens, ids and deals on every run. Never made by the server itself.
class DeterministicRandom {
 public:
  explicit DeterministicRandom(Seed seed);
  ~DeterministicRandom();
  DeterministicRandom(const DeterministicRandom&) = delete;
  DeterministicRandom& operator=(const DeterministicRandom&) = delete;
};

}  // namespace atout::server
