// The plain replay of a fuzz target, in the ordinary test build (no libFuzzer): every committed
// regression input and every seed of the target's corpus goes through the same
// LLVMFuzzerTestOneInput, which aborts on a failed property (and ASan builds check its memory).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_under(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().front() != '.') out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void replay_all(const fs::path& dir) {
  for (const fs::path& p : inputs_under(dir)) {
    SCOPED_TRACE(p.string());
    std::ifstream f(p, std::ios::binary);
    ASSERT_TRUE(f) << "cannot read " << p;
    const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}

TEST(FuzzReplay, RegressionsPass) { replay_all(fs::path(ATOUT_FUZZ_DIR) / "regressions" / ATOUT_FUZZ_TARGET); }

TEST(FuzzReplay, CorpusPasses) {
  const auto seeds = inputs_under(fs::path(ATOUT_FUZZ_DIR) / "corpus" / ATOUT_FUZZ_TARGET);
  EXPECT_FALSE(seeds.empty()) << "the target has no seed corpus";
  replay_all(fs::path(ATOUT_FUZZ_DIR) / "corpus" / ATOUT_FUZZ_TARGET);
}

TEST(FuzzReplay, EmptyAndTinyInputsPass) {
  EXPECT_EQ(LLVMFuzzerTestOneInput(nullptr, 0), 0);
  for (int b = 0; b < 256; b += 17) {
    const auto byte = static_cast<std::uint8_t>(b);
    EXPECT_EQ(LLVMFuzzerTestOneInput(&byte, 1), 0);
  }
}

}  // namespace
