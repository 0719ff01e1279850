// `atout backup`: a consistent copy of a live database; refuses to overwrite and bad paths.
#include <gtest/gtest.h>

#include "atout/store/store.hpp"
#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

TEST(CliBackup, CopiesALiveDatabase) {
  const auto dir = std::filesystem::temp_directory_path() / ("atout_cli_backup_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string db = (dir / "live.db").string(), copy = (dir / "copy.db").string();
  std::string error;
  auto live = store::Store::open(db, {}, error);  // stays open: the copy is taken online
  ASSERT_TRUE(live) << error;
  live->add_player("p_x", "X", std::string(32, 'x'), 1);
  live->flush();
  const CliRun r = run_cli({"backup", "--db", db, "--to", copy});
  ASSERT_TRUE(exited_with(r, kExitOk));
  auto restored = store::Store::open(copy, {}, error);
  ASSERT_TRUE(restored) << error;
  EXPECT_TRUE(restored->player("p_x"));
  EXPECT_TRUE(fails_with(run_cli({"backup", "--db", db, "--to", copy}), kExitBadInput, {"already exists"}));
  EXPECT_TRUE(fails_with(run_cli({"backup", "--db", (dir / "none.db").string(), "--to", (dir / "c2.db").string()}),
                         kExitBadInput, {"does not exist"}));
  EXPECT_TRUE(fails_with(run_cli({"backup", "--db", db}), kExitBadInput, {"--to are required"}));
  live.reset();
  restored.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace atout::cli_test
