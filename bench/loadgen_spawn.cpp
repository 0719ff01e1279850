// The server under load as a process: fork and exec, /proc, SIGTERM then SIGKILL.
#include "loadgen_spawn.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <thread>

namespace atout::loadgen {

long rss_kib(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return -1;
}

unsigned short free_port() {
  net::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

bool reachable(const tcp::endpoint& e) {
  net::io_context ioc;
  tcp::socket s(ioc);
  beast::error_code ec;
  s.connect(e, ec);
  return !ec;
}

Spawned spawn_server(const Options& o, unsigned short port) {
  Spawned s;
  std::vector<std::string> args = {o.spawn,
                                   "--bind",
                                   "127.0.0.1",
                                   "--port",
                                   std::to_string(port),
                                   "--threads",
                                   std::to_string(o.server_threads),
                                   "--max-conns-per-ip",
                                   "0"};
  const auto given = [&o](std::string_view flag) {
    return std::any_of(o.server_args.begin(), o.server_args.end(),
                       [flag](const std::string& a) { return a.rfind(flag, 0) == 0; });
  };
  if (!given("--log-level")) {
    args.emplace_back("--log-level");
    args.emplace_back("warn");
  }
  // A fresh SQLite file, removed at the end, unless a --server-arg names the database.
  if (!given("--db")) {
    s.db = std::filesystem::temp_directory_path() / ("atout-loadgen-" + std::to_string(::getpid()) + ".db");
    args.emplace_back("--db");
    args.emplace_back(s.db.string());
  }
  // A closed loop's players act far faster than people: at a few tables each connection sends
  // hundreds of messages a second and would be closed for flooding (--msg-burst, --msg-rate). So
  // those bounds are lifted, unless a --server-arg sets them or under --abuse, where they are part
  // of what is measured.
  for (const char* flag : {"--msg-burst", "--msg-rate"})
    if (!o.abuse && !given(flag)) {
      args.emplace_back(flag);
      args.emplace_back("1000000");
    }
  args.insert(args.end(), o.server_args.begin(), o.server_args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  s.pid = ::fork();
  if (s.pid == 0) {
    ::execv(argv[0], argv.data());
    std::perror("atout-loadgen: exec");
    ::_exit(127);
  }
  if (s.pid < 0) {
    std::perror("atout-loadgen: fork");
    std::exit(1);
  }
  return s;
}

void stop_server(Spawned& s) {
  if (s.pid <= 0) return;
  ::kill(s.pid, SIGTERM);
  for (int i = 0; i < 200; ++i) {
    int status = 0;
    if (::waitpid(s.pid, &status, WNOHANG) == s.pid) {
      s.pid = 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (s.pid > 0) {
    ::kill(s.pid, SIGKILL);
    ::waitpid(s.pid, nullptr, 0);
  }
  std::error_code ignored;
  if (!s.db.empty())
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(s.db.string() + suffix, ignored);
}

}  // namespace atout::loadgen
