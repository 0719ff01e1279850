// atout-server: parses flags, sets up logging and runs the server until a signal.
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <iostream>

#include "atout/server/json_log.hpp"
#include "atout/server/server.hpp"

int main(int argc, char** argv) {
  namespace srv = atout::server;
  // Every file the server creates (the database and its journal files) is its owner's only:
  // the database holds token hashes and the seeds of hands still being played.
  ::umask(0077);
  const srv::ParseResult parsed = srv::parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.cfg) {
    (parsed.exit_code == 0 ? std::cout : std::cerr) << parsed.message;
    return parsed.exit_code;
  }
  const srv::Config& cfg = *parsed.cfg;
  spdlog::set_level(spdlog::level::from_str(cfg.log_level));
  if (cfg.log_format == "json") spdlog::set_formatter(srv::make_json_log_formatter());
  try {
    srv::Server s(cfg);
    if (auto e = s.open()) {
      spdlog::critical("{}", *e);
      return s.bad_configuration() ? 2 : 1;
    }
    spdlog::info("atout-server listening on {}:{} ({} at /ws), {} thread(s), database {}", cfg.bind, s.port(),
                 cfg.tls_cert.empty() ? "WebSocket" : "TLS only: wss://", cfg.threads, cfg.db);
    s.run_until_signal();
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
  return 0;
}
