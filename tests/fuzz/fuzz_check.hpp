// What every fuzz target shares: a check that ends the run loudly when a property fails. Under
// libFuzzer the abort is reported as a crash with its input saved; in the plain replay tests it
// fails the test, so a committed regression input keeps failing until the bug is fixed.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace atout::fuzz {

inline void require(bool ok, std::string_view what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property failed: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace atout::fuzz
