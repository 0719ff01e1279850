// The time of one dependent random read from a block of memory, by block size: a pointer chase
// through one 64-byte line after another in a random cycle, so that no read can start before the
// one before it ends and the prefetchers cannot guess the next. It shows where a block stops
// fitting the caches; the solver's table is sized by it. Usage: atout_memory_latency [reads]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "atout/rng.hpp"

int main(int argc, char** argv) {
  const long reads = argc > 1 ? std::atol(argv[1]) : 20'000'000;
  if (reads <= 0) {
    std::fprintf(stderr, "usage: atout_memory_latency [reads > 0]\n");
    return 2;
  }
  constexpr std::size_t kLine = 64 / sizeof(std::size_t);  // words per cache line
  std::printf("%10s %10s\n", "KiB", "ns/read");
  for (const std::size_t kib : {32, 256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 16384, 65536}) {
    const std::size_t lines = kib * 1024 / 64;
    // A random cycle through every line: line order[i] points at line order[i + 1].
    std::vector<std::size_t> order(lines);
    std::iota(order.begin(), order.end(), std::size_t{0});
    atout::Rng rng(atout::Seed{0x1a7e9c7, kib});
    for (std::size_t i = lines - 1; i > 1; --i) std::swap(order[i], order[1 + rng.below(static_cast<std::uint32_t>(i))]);
    std::vector<std::size_t> next(lines * kLine);
    for (std::size_t i = 0; i < lines; ++i) next[order[i] * kLine] = order[(i + 1) % lines] * kLine;
    std::size_t at = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < reads; ++i) at = next[at];
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(reads);
    // `at` is printed so that the chase cannot be optimised away.
    std::printf("%10zu %10.1f%s\n", kib, ns, at == static_cast<std::size_t>(-1) ? " " : "");
  }
  return 0;
}
