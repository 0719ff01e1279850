// Command-line flags of atout-server and their checking.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace atout::server {

struct config {
  std::string bind = "0.0.0.0";
  unsigned short port = 8080;  // 0: any free port (logged at start-up)
  int threads = 2;
  std::string db = "./data/atout.db";  // the SQLite database (players, matches, ratings)
  std::string log_level = "info";
};

struct parse_result {
  std::optional<config> cfg;  // empty: exit with `exit_code` after printing `message`
  int exit_code = 0;
  std::string message;  // usage (to stdout) when exit_code is 0, else an error (to stderr)
};

std::string usage();
parse_result parse_args(const std::vector<std::string>& args);

}  // namespace atout::server
