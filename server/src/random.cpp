// Reads the kernel's CSPRNG (getrandom), which never returns predictable bytes once booted.
#include "atout/server/random.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

namespace atout::server {

namespace {
std::mutex test_mutex;
std::optional<Rng> test_rng;  // set only while a DeterministicRandom lives

void fill(std::uint8_t* out, std::size_t n) {
  {
    std::lock_guard lock(test_mutex);
    if (test_rng) {
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(test_rng->next() >> 56);
      return;
    }
  }
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = getrandom(out + done, n - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("getrandom failed");
    }
    done += static_cast<std::size_t>(got);
  }
}
}  // namespace

std::string random_hex(std::size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::vector<std::uint8_t> raw(bytes);
  fill(raw.data(), raw.size());
  std::string out;
  out.reserve(bytes * 2);
  for (std::uint8_t b : raw) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

Seed random_seed() {
  std::array<std::uint8_t, 16> raw{};
  fill(raw.data(), raw.size());
  Seed s;
  for (std::size_t i = 0; i < 8; ++i) {
    s.hi = (s.hi << 8) | raw[i];
    s.lo = (s.lo << 8) | raw[8 + i];
  }
  return s;
}

DeterministicRandom::DeterministicRandom(Seed seed) {
  std::lock_guard lock(test_mutex);
  test_rng.emplace(seed);
}

DeterministicRandom::~DeterministicRandom() {
  std::lock_guard lock(test_mutex);
  test_rng.reset();
}

}  // namespace atout::server
