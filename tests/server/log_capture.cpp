// Under ctest, the in-process servers of every test log at debug level into a file of the run's
// record directory as well as to standard output (at the usual level), and child servers' output is
// kept there too. tests/server/secrets_not_logged.py then reads every log of the run.
#include "log_capture.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace atout::server::testing {

namespace {

std::filesystem::path record_dir() {
  const char* dir = std::getenv("ATOUT_SCHEMA_LOG_DIR");
  return dir && *dir ? std::filesystem::path(dir) : std::filesystem::path();
}

class LogCapture final : public ::testing::Environment {
 public:
  void SetUp() override {
    const auto dir = record_dir();
    if (dir.empty()) return;
    std::filesystem::create_directories(dir);
    auto console = std::make_shared<spdlog::sinks::stdout_color_sink_mt>();
    console->set_level(spdlog::default_logger()->level());
    const auto path = dir / ("atout-log-" + std::to_string(::getpid()) + ".log");
    auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path.string());
    file->set_level(spdlog::level::debug);
    auto logger = std::make_shared<spdlog::logger>("atout", spdlog::sinks_init_list{console, file});
    logger->set_level(spdlog::level::debug);
    logger->flush_on(spdlog::level::debug);
    spdlog::set_default_logger(logger);
  }
};

// Registered before main runs; gtest_main then sets it up before the first test.
[[maybe_unused]] const auto* const kLogCapture = ::testing::AddGlobalTestEnvironment(new LogCapture);

}  // namespace

void keep_child_log(const std::string& program, const std::string& output) {
  const auto dir = record_dir();
  if (dir.empty() || output.empty() || std::filesystem::path(program).filename() != "atout-server") return;
  static std::atomic<int> counter{0};
  std::filesystem::create_directories(dir);
  std::ofstream(dir / ("atout-child-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".log"))
      << output;
}

}  // namespace atout::server::testing
