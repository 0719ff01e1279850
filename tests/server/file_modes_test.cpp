// The files the server and `atout backup` create are readable by their owner only: the database
// holds the hashes of players' tokens and the seeds of hands still being played.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "child_process.hpp"
#include "persist_support.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The permission bits that let anyone but the owner read or write.
fs::perms shared_bits(const std::string& path) {
  return fs::status(path).permissions() & (fs::perms::group_all | fs::perms::others_all);
}

TEST(FileModes, DatabaseAndBackupAreTheOwnersOnlyWhateverTheUmask) {
  TempDir dir;
  const std::string db = dir.file("atout.db");
  const std::string copy = dir.file("copy.db");
  // A permissive umask, as a careless service manager might leave it; the children inherit it.
  const mode_t before = ::umask(0);
  {
    ChildProcess server({ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--db", db});
    const unsigned short port = server.wait_for_port(60s);
    ASSERT_NE(port, 0) << server.output();
    TestClient client(port, nullptr);
    EXPECT_EQ(client.hello("ann")["type"], "welcome");  // a player: the database gets a token hash
    ChildProcess backup({ATOUT_CLI, "backup", "--db", db, "--to", copy});
    EXPECT_EQ(backup.wait_exit(60s), 0) << backup.output();
  }
  ::umask(before);
  ASSERT_TRUE(fs::exists(db));
  ASSERT_TRUE(fs::exists(copy));
  EXPECT_EQ(shared_bits(db), fs::perms::none);
  EXPECT_EQ(shared_bits(copy), fs::perms::none);
  for (const char* suffix : {"-wal", "-shm"}) {
    if (fs::exists(db + suffix)) {
      EXPECT_EQ(shared_bits(db + suffix), fs::perms::none) << suffix;
    }
  }
}

}  // namespace
}  // namespace atout::server::testing
