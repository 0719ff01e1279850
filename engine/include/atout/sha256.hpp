// SHA-256 (FIPS 180-4), used to derive deal seeds one-way and for fair-dealing commitments.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace atout {

using Digest = std::array<std::uint8_t, 32>;

Digest sha256(std::span<const std::uint8_t> data);
Digest sha256(std::string_view data);
std::string to_hex(const Digest& d);

}  // namespace atout
