// Unpredictable values from the operating system: tokens, invite codes and deal seeds.
#pragma once

#include <cstddef>
#include <string>

#include "atout/rng.hpp"

namespace atout::server {

// `bytes` random bytes from the kernel's CSPRNG, as lower-case hex.
std::string random_hex(std::size_t bytes);
Seed random_seed();

}  // namespace atout::server
