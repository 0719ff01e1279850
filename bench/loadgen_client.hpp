// The load generator's clients: a WebSocket connection with a write queue, scripted tables that
// play random legal actions, and idle connections. Each lives on one worker's single-threaded
// io_context, so nothing here locks.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atout/rng.hpp"
#include "atout/server/net.hpp"
#include "atout/server/tls_context.hpp"

namespace atout::loadgen {

namespace net = server::net;
namespace beast = server::beast;
namespace websocket = server::websocket;
using tcp = server::tcp;
namespace ssl = server::ssl;
using Steady = std::chrono::steady_clock;

// What one worker counted; merged by the main thread once the workers have stopped.
struct WorkerStats {
  std::uint64_t actions = 0;      // accepted, inside the measuring window
  std::uint64_t all_actions = 0;  // accepted, ever
  std::uint64_t matches = 0;      // finished inside the measuring window
  std::uint64_t connect_failures = 0;
  std::uint64_t closed_early = 0;               // connections the server closed while the run went on
  std::uint64_t received_bytes = 0;             // the text of every message the tables' seats got, in the window
  std::map<std::string, std::uint64_t> errors;  // by protocol error code
  std::vector<std::uint32_t> rtt_us;            // request sent -> accepted, inside the window
  int tables_started = 0;
  int tables_failed = 0;  // a seat could not connect
  // Tables of one scripted player and server bots (--bot-tables): kept apart from the figures above.
  int bot_tables_started = 0;
  std::uint64_t bot_decisions = 0;      // events of an action by the tables' bot level, inside the window
  std::uint64_t bot_stand_ins = 0;      // events of an action by a quicker bot standing in (workers full)
  std::uint64_t bot_table_actions = 0;  // the scripted players' accepted actions there, inside the window
  std::uint64_t bot_fallbacks = 0;      // a bot's seat played by the server's cautious move (bots busy)
  int idle_ready = 0;
};

// Shared by every client of one worker.
struct WorkerState {
  net::io_context ioc{1};
  WorkerStats stats;
  tcp::endpoint server;
  std::vector<net::ip::address> sources;  // local addresses the connections bind to in turn; empty: any
  std::size_t next_source = 0;
  ssl::context* tls = nullptr;  // set: connections are wss:// and trust what this context trusts
  std::string variant;
  int turn_ms = 600'000;
  int think_ms = 0;        // a player's mean thinking time before each action; 0: none
  bool ack_event = false;  // hello with ack "event": an action's own event acknowledges it
  bool deltas = false;     // hello with views "delta": events after the first come as deltas
  bool measuring = false;  // set by the main thread through a post
  bool stopping = false;
  std::function<void()> on_action;  // counts accepted actions across workers (for --actions)
};

// One WebSocket connection.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using MessageFn = std::function<void(std::string_view)>;
  using OpenFn = std::function<void(bool ok)>;

  explicit Connection(WorkerState& w);
  void start(OpenFn on_open, MessageFn on_message);
  void send(std::string text);
  void close();
  bool is_open() const { return open_; }

 private:
  using PlainWs = websocket::stream<beast::tcp_stream>;
  using TlsWs = websocket::stream<server::TlsStream>;
  using Stream = std::variant<PlainWs, TlsWs>;

  static Stream make_stream(WorkerState& w);
  void upgrade(OpenFn on_open);
  void do_read();
  void do_write();
  tcp::socket& socket();
  // Calls `f` with the WebSocket stream, plain or over TLS.
  template <class F>
  decltype(auto) with_ws(F&& f) {
    return std::visit(std::forward<F>(f), ws_);
  }

  WorkerState& w_;
  Stream ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  MessageFn on_message_;
  bool open_ = false;
  bool writing_ = false;
};

// A table of scripted players: creates a table, seats everyone, and plays random legal actions
// until the run stops, starting a new match whenever one ends. With `server_bots` (a bot level),
// one scripted player creates each table with the server's bots in every other seat.
class TableBot : public std::enable_shared_from_this<TableBot> {
 public:
  TableBot(WorkerState& w, int players, std::uint64_t seed, std::string server_bots = {});
  // Connects the seats; `on_ready` runs once every seat is connected (or one failed).
  void connect(std::function<void(bool ok)> on_ready);
  void play();
  void close();

 private:
  void on_message(int seat, std::string_view text);
  void on_event(int seat, std::string_view text);
  void create_table();
  void act(int seat, std::string request, std::int64_t id);
  // The pending action of `seat` was accepted: counts it and its round trip.
  void accepted(std::size_t seat);

  WorkerState& w_;
  std::vector<std::shared_ptr<Connection>> seats_;
  std::vector<Steady::time_point> sent_;  // per seat: when its pending action went out
  std::vector<bool> pending_;
  std::vector<std::string> pending_mark_;  // per seat, with ack "event": `"id":N,"kind":` of its pending action
  std::vector<nlohmann::json> views_;      // per seat, with deltas: its last event, rebuilt whole
  std::string table_id_;
  std::string server_bots_;     // the level of the server bots in seats 1 and up; empty: none
  std::string own_level_mark_;  // `"by_bot":"<that level>"`, as an event names it
  Rng rng_;
  net::steady_timer think_;
  std::int64_t next_id_ = 1;
  int connected_ = 0;
  bool failed_ = false;
  bool started_ = false;
};

// CPU seconds process `pid` has used, user and system apart, or -1 for both.
struct CpuTimes {
  double user = -1;
  double system = -1;
};
CpuTimes cpu_times(int pid);
// CPU seconds (user + system) process `pid` has used, or -1.
double cpu_seconds(int pid);
// Raises the soft limit on open files to the hard limit.
void raise_fd_limit();
// The `p` quantile (0 to 1) of `sorted` round trips in µs, in ms; 0 when there are none.
double percentile(const std::vector<std::uint32_t>& sorted, double p);

// A client TLS context that trusts the certificates in `ca_file` (PEM) alone; throws when the file
// cannot be read.
std::unique_ptr<ssl::context> client_tls(const std::string& ca_file);

// Opens one connection, says hello and then only answers pings.
void open_idle(WorkerState& w, std::vector<std::shared_ptr<Connection>>& keep, std::function<void(bool)> done);

}  // namespace atout::loadgen
