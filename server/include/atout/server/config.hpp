// Flags of atout-server (command line, environment, config file) and their checking.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace atout::server {

struct Config {
  std::string bind = "0.0.0.0";
  unsigned short port = 8080;  // 0: any free port (logged at start-up)
  int threads = 2;
  int bot_threads = 0;                 // workers where the server's bots think, below the I/O threads; 0: auto
  std::string db = "./data/atout.db";  // the SQLite database (players, matches, ratings)
  std::string log_level = "info";
  std::string log_format = "text";             // "text" (spdlog's default lines) or "json" (one object a line)
  std::string web_root;                        // the built web client (web/dist); empty: no page, only /ws and the API
  std::chrono::milliseconds commit_window{2};  // the store writer's gathering window
  std::string tls_cert;                        // PEM certificate chain; with tls_key: https:// and wss:// only
  std::string tls_key;                         // PEM private key of tls_cert
  std::string allowed_origins;                 // page origins allowed to open a WebSocket, "a,b"; "*": any
  // Limits: see docs/operations.md.
  int max_conns_per_ip = 64;                           // 0: no cap
  double msg_burst = 200;                              // messages a connection may send at once
  double msg_rate = 100;                               // messages per second it earns back
  std::chrono::milliseconds idle_timeout{60'000};      // silent peer dropped; pinged at half of it
  std::chrono::milliseconds close_grace{10'000};       // a connection the server closes is gone by then
  std::size_t max_queue_messages = 1024;               // unread messages before a client is dropped
  std::size_t max_queue_bytes = 4 * 1024 * 1024;       // unread bytes before a client is dropped
  double http_burst = 20;                              // /api/ requests an address may make at once
  double http_rate = 5;                                // /api/ requests per second it earns back
  int max_open_tables = 4;                             // unstarted tables a player may own; 0: no bound
  std::chrono::milliseconds empty_table_ttl{600'000};  // an unstarted table nobody is at closes then
  // Several nodes (docs/operations.md): empty redis, one node alone.
  std::string redis;                        // redis://host[:port][/db]
  std::string node_id;                      // this node's id, unique in the cluster
  std::string public_url;                   // where clients reach this node: ws[s]://host:port/ws
  std::chrono::milliseconds lease{10'000};  // registration and table leases expire after this
};

struct ParseResult {
  std::optional<Config> cfg;  // empty: exit with `exit_code` after printing `message`
  int exit_code = 0;
  std::string message;  // usage (to stdout) when exit_code is 0, else an error (to stderr)
};

// The --help text: every flag with its default, its environment variable and what it does.
std::string usage();
// Reads `args` (argv without the program name), the environment (ATOUT_PORT, ...) and the config
// file named by --config or ATOUT_CONFIG, in that order of precedence over the defaults. A bad
// value, from any of them, gives exit code 2 and a message naming the flag (and the variable or
// the file it came from).
ParseResult parse_args(const std::vector<std::string>& args);
// Bot threads when --bot-threads is 0: one per core the I/O threads leave, at least one. `cores`
// is the machine's (0 when unknown).
int auto_bot_threads(int io_threads, unsigned cores = std::thread::hardware_concurrency());
// The environment variable of a flag: "max-conns-per-ip" gives ATOUT_MAX_CONNS_PER_IP.
std::string env_name(const std::string& flag);

}  // namespace atout::server
