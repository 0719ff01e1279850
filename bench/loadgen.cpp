// atout-loadgen: holds idle WebSocket connections and plays many tables of random legal actions
// against an atout-server on loopback, then reports actions per second, round-trip latency, errors
// and the server's memory per connection.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <thread>

#include "atout/state.hpp"
#include "loadgen_client.hpp"

namespace atout::loadgen {
namespace {

namespace http = server::http;

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string spawn;       // an atout-server binary to start and stop
  int server_threads = 2;  // for --spawn
  std::vector<std::string> server_args;
  int server_pid = 0;
  int tables = 100;
  int bot_tables = 0;               // tables of one scripted player and server bots
  std::string bot_level = "rules";  // those bots' level
  std::string variant = "french";
  int idle = 0;
  double duration = 10;
  std::uint64_t actions = 0;  // 0: no bound but the duration
  int threads = 1;
  int sources = 0;  // connect from 127.0.0.2 .. 127.0.0.(1 + sources); 0: the kernel's choice
  std::uint64_t seed = 1;
  int think_ms = 0;
  bool ack_event = false;  // hello's ack: "event"
  bool deltas = false;     // hello's views: "delta"
  std::string tls_ca;      // set: wss://, trusting this certificate authority (PEM)
  // --abuse: the window is played in slices of abuse_slice_ms, every other one with an abuser (see
  // abuse_ws and abuse_http); the tables' p99 over the slices without and with it is reported, and
  // compared when abuse_check > 0. Alternating slices compare like with like: the hands of a
  // match do not all cost the same, and a noisy machine changes from second to second.
  bool abuse = false;
  int abuse_slice_ms = 1000;
  int abuse_tables = 1000;  // tables the abuser creates at most (the server may refuse sooner)
  double abuse_check = 0;   // fail when max(p99 abused, floor) / max(p99 quiet, floor) exceeds it
  double abuse_floor_ms = 5;
};

[[noreturn]] void bad_flag(const std::string& message) {
  std::cerr << "atout-loadgen: " << message << "\nTry 'atout-loadgen --help'.\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  CLI::App app(
      "Plays tables of random legal actions against an atout-server over loopback WebSockets and\n"
      "reports accepted actions per second, round-trip latency (action sent -> accepted), errors by\n"
      "code and the server's RSS per connection. Human text first, then one JSON line.\n"
      "Exit status: 0 when actions were accepted and there were no errors, 1 otherwise, 2 for bad\n"
      "flags.",
      "atout-loadgen");
  app.set_help_flag("-h,--help", "print this and exit");
  app.get_formatter()->column_width(30);
  const CLI::Validator loopback(
      [](std::string& v) -> std::string {
        beast::error_code ec;
        const auto address = net::ip::make_address(v, ec);
        return ec || !address.is_loopback() ? "must be a loopback address, not '" + v + "'" : std::string();
      },
      "ADDR");
  const CLI::Validator executable(
      [](std::string& v) { return ::access(v.c_str(), X_OK) != 0 ? v + " is not an executable" : std::string(); },
      "PATH");
  const CLI::Validator variant(
      [](std::string& v) { return find_variant(v) ? std::string() : "unknown variant '" + v + "'"; }, "V");
  app.add_option("--port", o.port, "the server's port (or use --spawn)")->check(CLI::Range(1, 65535));
  app.add_option("--host", o.host, "the server's address (loopback only)")->capture_default_str()->check(loopback);
  app.add_option("--spawn", o.spawn,
                 "start this atout-server on a free port (127.0.0.1, --max-conns-per-ip 0, a\nfresh SQLite file "
                 "unless a --server-arg gives --db, and unless --abuse no\nmessage-rate bound) and stop it at the end")
      ->check(executable);
  app.add_option("--server-threads", o.server_threads, "--threads for the spawned server")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option("--server-arg", o.server_args,
                 "one more argument for the spawned server (repeatable); write\n--server-arg=ARG when ARG "
                 "begins with a dash")
      ->expected(1)
      ->take_all()
      ->allow_extra_args(false);
  app.add_option("--server-pid", o.server_pid, "read this process's RSS (set by --spawn)")
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--tables", o.tables, "tables playing at once")->capture_default_str()->check(CLI::Range(0, 100'000));
  app.add_option("--bot-tables", o.bot_tables,
                 "more tables, each of one scripted player and the server's bots in\nthe other seats "
                 "(create_table's bots); reported apart, as the bots'\ndecisions per second, and left out "
                 "of the round trips")
      ->capture_default_str()
      ->check(CLI::Range(0, 100'000));
  app.add_option("--bot-level", o.bot_level, "the level of those bots")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "rules", "sampling"}));
  app.add_option("--variant", o.variant, "variant to play")->capture_default_str()->check(variant);
  app.add_option("--idle", o.idle, "extra connections that say hello and then stay idle")
      ->capture_default_str()
      ->check(CLI::Range(0, 1'000'000));
  app.add_option("--duration", o.duration, "seconds of measured play (at most 3600)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--actions", o.actions, "stop after N accepted actions (default: no bound but --duration)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}));
  app.add_option("--threads", o.threads, "load generator I/O threads")->capture_default_str()->check(CLI::Range(1, 64));
  app.add_option("--source-addresses", o.sources,
                 "bind each connection to one of N loopback source addresses,\n127.0.0.2 to 127.0.0.(N+1), in "
                 "turn: each source address has its own\nephemeral ports, so N addresses allow about N times as "
                 "many\nconnections as net.ipv4.ip_local_port_range")
      ->check(CLI::Range(0, 250));
  app.add_option("--seed", o.seed, "seed for the random choices")->capture_default_str();
  app.add_option("--think-ms", o.think_ms,
                 "each player thinks T ms on average (T/2 to 3T/2) before acting; 0\nacts at once, which "
                 "measures throughput rather than latency")
      ->capture_default_str()
      ->check(CLI::Range(0, 60'000));
  app.add_flag("--abuse", o.abuse,
               "play the window in slices, every other one while one connection\ncreates tables and "
               "polls list_tables and /api/tables as fast as\nthe server allows; report the tables' p99 "
               "without and with it");
  app.add_option("--abuse-slice-ms", o.abuse_slice_ms, "the length of each slice")
      ->capture_default_str()
      ->check(CLI::Range(100, 60'000));
  app.add_option("--abuse-tables", o.abuse_tables, "tables the abuser tries to create")
      ->capture_default_str()
      ->check(CLI::Range(0, 100'000));
  app.add_option("--abuse-check", o.abuse_check,
                 "with --abuse, fail when the p99 with the abuser is more than R times\nthe p99 without "
                 "(each taken as at least --abuse-floor-ms)")
      ->check(CLI::Range(1.0, 1000.0));
  app.add_option("--abuse-floor-ms", o.abuse_floor_ms, "the floor of both p99s in --abuse-check")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_flag("--deltas", o.deltas,
               "ask for per-seat deltas (hello's views: delta): each seat rebuilds its\nevents from them");
  app.add_option("--tls-ca", o.tls_ca,
                 "connect over TLS (wss://), trusting the certificate authority in\nthis PEM file alone; the "
                 "server's certificate must name --host.\nWith --spawn, give the server its certificate: "
                 "--server-arg=--tls-cert=F\n--server-arg=--tls-key=F")
      ->check(CLI::ExistingFile);
  std::string ack = "reply";
  app.add_option("--ack", ack,
                 "how actions are acknowledged (hello's ack): reply (an accepted\nreply, then the event), or "
                 "event (the actor's event carries the\nrequest id; one message fewer per action)")
      ->capture_default_str()
      ->check(CLI::IsMember({"reply", "event"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    bad_flag(e.what());
  }
  o.ack_event = ack == "event";
  if (o.port == 0 && o.spawn.empty()) bad_flag("give --port or --spawn");
  if (o.port != 0 && !o.spawn.empty()) bad_flag("give --port or --spawn, not both");
  if (o.tables == 0 && o.idle == 0 && o.bot_tables == 0)
    bad_flag("nothing to do: --tables, --bot-tables and --idle are all 0");
  if (o.abuse_check > 0 && !o.abuse) bad_flag("--abuse-check needs --abuse");
  if (o.abuse && !o.tls_ca.empty()) bad_flag("--abuse speaks plain HTTP and WebSocket: not with --tls-ca");
  return o;
}

// ---- The server process --------------------------------------------------------------------------

// VmRSS of `pid` in KiB, or -1.
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

struct Spawned {
  pid_t pid = 0;
  std::filesystem::path db;
};

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
                                   "0",
                                   "--log-level",
                                   "warn"};
  const auto given = [&o](std::string_view flag) {
    return std::any_of(o.server_args.begin(), o.server_args.end(),
                       [flag](const std::string& a) { return a.rfind(flag, 0) == 0; });
  };
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

// ---- The abuser ----------------------------------------------------------------------------------

struct AbuseStats {
  std::atomic<std::uint64_t> created{0};  // tables it made
  std::atomic<std::uint64_t> create_refused{0};
  std::atomic<std::uint64_t> lists{0};  // list_tables answered with a page
  std::atomic<std::uint64_t> list_bytes{0};
  std::atomic<std::uint64_t> too_fast{0};  // list_tables refused for its cost
  std::atomic<std::uint64_t> http_ok{0};
  std::atomic<std::uint64_t> http_limited{0};  // 429
  std::atomic<std::uint64_t> http_bytes{0};
  std::atomic<std::uint64_t> closed{0};  // its connections the server closed
};

// The `type` of a server message without parsing all of it: a json object keeps its keys sorted
// and `type` sorts after every other top-level key, so the last one in the text is the message's.
std::string message_type(const std::string& text) {
  const auto at = text.rfind("\"type\":\"");
  if (at == std::string::npos) return {};
  const auto start = at + 8;
  return text.substr(start, text.find('"', start) - start);
}

// Blocks while the abuser is paused; false once it is to stop.
bool abuse_gate(const std::atomic<bool>& active, const std::atomic<bool>& stop) {
  while (!active && !stop) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return !stop;
}

// One WebSocket client (one player; reconnected with its token if the server closes it): creates
// tables until refused (or `cap`), then asks for the largest page of the lobby over and over,
// waiting only as long as a too_fast reply says.
void abuse_ws(const tcp::endpoint& server, int cap, const std::atomic<bool>& active, const std::atomic<bool>& stop,
              AbuseStats& s) {
  std::string token;
  bool creating = true;
  while (abuse_gate(active, stop)) {
    try {
      net::io_context ioc;
      websocket::stream<beast::tcp_stream> ws(ioc);
      beast::get_lowest_layer(ws).connect(server);
      ws.read_message_max(std::uint64_t{1} << 30);
      ws.handshake("127.0.0.1", "/ws");
      beast::flat_buffer buffer;
      // Sends `request` and returns the reply (skipping any other message).
      auto ask = [&](const nlohmann::json& request) {
        ws.write(net::buffer(request.dump()));
        for (;;) {
          buffer.clear();
          ws.read(buffer);
          std::string text = beast::buffers_to_string(buffer.data());
          const std::string type = message_type(text);
          if (type != "table_update" && type != "lobby_update" && type != "lobby_remove") return text;
        }
      };
      nlohmann::json hello = {{"type", "hello"}, {"protocol", 1}, {"name", "abuser"}};
      if (!token.empty()) hello["token"] = token;
      const auto welcome = nlohmann::json::parse(ask(hello));
      token = welcome.value("token", token);
      for (int i = static_cast<int>(s.created); creating && i < cap && abuse_gate(active, stop); ++i) {
        const std::string r = ask({{"type", "create_table"}, {"variant", "duel"}});
        if (message_type(r) == "table_created") {
          ++s.created;
          continue;
        }
        ++s.create_refused;
        creating = false;
      }
      creating = false;
      while (abuse_gate(active, stop)) {
        const std::string r = ask({{"type", "list_tables"}, {"limit", 100}});
        if (message_type(r) == "tables") {
          ++s.lists;
          s.list_bytes += r.size();
          continue;
        }
        ++s.too_fast;
        // "... wait N ms ...": as long as the server says, and no longer.
        long wait_ms = 10;
        if (const auto at = r.find("wait "); at != std::string::npos)
          wait_ms = std::strtol(r.c_str() + at + 5, nullptr, 10);
        std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(wait_ms, 1L, 1000L)));
      }
      beast::error_code ignored;
      ws.close(websocket::close_code::normal, ignored);
    } catch (const std::exception&) {
      ++s.closed;  // closed by the server (for flooding, say): come back as the same player
    }
  }
}

// One HTTP client with keep-alive: GET /api/tables?limit=100 over and over, waiting only as long as
// a 429's Retry-After says.
void abuse_http(const tcp::endpoint& server, const std::atomic<bool>& active, const std::atomic<bool>& stop,
                AbuseStats& s) {
  net::io_context ioc;
  while (abuse_gate(active, stop)) {
    try {
      beast::tcp_stream stream(ioc);
      stream.connect(server);
      beast::flat_buffer buffer;
      for (bool open = true; open && abuse_gate(active, stop);) {
        http::request<http::empty_body> req(http::verb::get, "/api/tables?limit=100", 11);
        req.set(http::field::host, "127.0.0.1");
        req.keep_alive(true);
        http::write(stream, req);
        http::response_parser<http::string_body> parser;
        parser.body_limit(std::uint64_t{1} << 30);
        http::read(stream, buffer, parser);
        const auto& res = parser.get();
        open = res.keep_alive();
        if (res.result() == http::status::too_many_requests) {
          ++s.http_limited;
          const long seconds = std::strtol(std::string(res[http::field::retry_after]).c_str(), nullptr, 10);
          std::this_thread::sleep_for(std::chrono::seconds(std::clamp(seconds, 1L, 5L)));
        } else {
          ++s.http_ok;
          s.http_bytes += res.body().size();
        }
      }
    } catch (const std::exception&) {
      ++s.closed;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

// ---- Workers -------------------------------------------------------------------------------------

// Opens connections on one worker thread, at most kWindow handshakes at a time so the server's
// accept backlog never overflows.
struct Worker {
  static constexpr int kWindow = 64;
  using Opener = std::function<void(std::function<void(bool)>)>;

  WorkerState state;
  net::executor_work_guard<net::io_context::executor_type> guard{state.ioc.get_executor()};
  std::thread thread;
  std::vector<std::shared_ptr<Connection>> idle;
  std::vector<std::shared_ptr<TableBot>> bots;
  std::deque<Opener> to_open;  // worker thread only
  int in_flight = 0;
  std::atomic<int> opened{0};  // finished openings, failed ones included

  // On the worker thread.
  void pump() {
    while (in_flight < kWindow && !to_open.empty()) {
      Opener next = std::move(to_open.front());
      to_open.pop_front();
      ++in_flight;
      next([this](bool) {
        --in_flight;
        ++opened;
        pump();
      });
    }
  }
};

// Runs `fn` on the worker's thread and waits for it.
template <typename Fn>
void on_worker(Worker& w, Fn fn) {
  std::promise<void> done;
  net::post(w.state.ioc, [&] {
    fn();
    done.set_value();
  });
  done.get_future().wait();
}

// Waits until `pred` holds, for at most `limit`; false on time-out.
bool wait_until(const std::function<bool()>& pred, std::chrono::seconds limit) {
  const auto deadline = Steady::now() + limit;
  while (!pred()) {
    if (Steady::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

int run(const Options& o) {
  raise_fd_limit();
  // Read before any server is started, so that a bad file costs nothing.
  std::unique_ptr<ssl::context> tls;
  if (!o.tls_ca.empty()) {
    try {
      tls = client_tls(o.tls_ca);
    } catch (const std::exception& e) {
      std::cerr << "atout-loadgen: cannot read --tls-ca " << o.tls_ca << ": " << e.what() << "\n";
      return 2;
    }
  }
  Spawned server;
  int port = o.port;
  int pid = o.server_pid;
  if (!o.spawn.empty()) {
    port = free_port();
    server = spawn_server(o, static_cast<unsigned short>(port));
    pid = server.pid;
  }
  const tcp::endpoint endpoint(net::ip::make_address(o.host), static_cast<unsigned short>(port));
  if (!wait_until([&] { return reachable(endpoint); }, std::chrono::seconds(10))) {
    std::cerr << "atout-loadgen: no server at " << o.host << ":" << port << "\n";
    stop_server(server);
    return 1;
  }

  std::atomic<std::uint64_t> accepted{0};
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < o.threads; ++i) {
    auto w = std::make_unique<Worker>();
    w->state.server = endpoint;
    w->state.tls = tls.get();
    for (int a = 0; a < o.sources; ++a)
      w->state.sources.push_back(net::ip::address_v4(0x7f000002u + static_cast<unsigned>(a)));
    w->state.variant = o.variant;
    w->state.think_ms = o.think_ms;
    w->state.ack_event = o.ack_event;
    w->state.deltas = o.deltas;
    w->state.on_action = [&accepted] { accepted.fetch_add(1, std::memory_order_relaxed); };
    w->thread = std::thread([&ioc = w->state.ioc] { ioc.run(); });
    workers.push_back(std::move(w));
  }
  auto opened = [&] {
    int n = 0;
    for (auto& w : workers) n += w->opened.load();
    return n;
  };

  // Idle connections first, so the server's memory per idle connection is measured alone.
  const long rss_start = rss_kib(pid);
  for (int i = 0; i < o.idle; ++i) {
    Worker& w = *workers[static_cast<std::size_t>(i % o.threads)];
    net::post(w.state.ioc, [&w] {
      w.to_open.push_back([&w](std::function<void(bool)> done) { open_idle(w.state, w.idle, std::move(done)); });
      if (w.to_open.size() == 1) w.pump();
    });
  }
  const bool idle_ok = wait_until([&] { return opened() >= o.idle; }, std::chrono::seconds(300));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const long rss_idle = rss_kib(pid);

  // Tables: connect every seat, then play.
  const int players = find_variant(o.variant)->players;
  // The people's tables, then the tables of one scripted player and server bots.
  for (int t = 0; t < o.tables + o.bot_tables; ++t) {
    Worker& w = *workers[static_cast<std::size_t>(t % o.threads)];
    const std::uint64_t seed = o.seed * 1'000'003 + static_cast<std::uint64_t>(t);
    std::string server_bots = t < o.tables ? std::string() : o.bot_level;
    net::post(w.state.ioc, [&w, players, seed, server_bots = std::move(server_bots)] {
      auto bot = std::make_shared<TableBot>(w.state, players, seed, server_bots);
      w.bots.push_back(bot);
      w.to_open.push_back([bot](std::function<void(bool)> done) { bot->connect(std::move(done)); });
      if (w.to_open.size() == 1) w.pump();
    });
  }
  const auto setup_start = Steady::now();
  // Every seat connects before any table plays, so the connections open on an unloaded server.
  const bool connected_ok =
      wait_until([&] { return opened() >= o.idle + o.tables + o.bot_tables; }, std::chrono::seconds(300));
  for (auto& w : workers)
    on_worker(*w, [&] {
      for (auto& b : w->bots) b->play();
    });
  // Tables started, and tables that never will (a seat could not connect).
  auto settled = [&] {
    int started = 0, failed = 0;
    for (auto& w : workers)
      on_worker(*w, [&] {
        started += w->state.stats.tables_started + w->state.stats.bot_tables_started;
        failed += w->state.stats.tables_failed;
      });
    return std::pair{started, failed};
  };
  const bool tables_ok = connected_ok &&
                         wait_until(
                             [&] {
                               const auto [started, failed] = settled();
                               return started + failed >= o.tables + o.bot_tables;
                             },
                             std::chrono::seconds(300)) &&
                         settled().second == 0;
  const double setup_s = std::chrono::duration<double>(Steady::now() - setup_start).count();
  const long rss_tables = rss_kib(pid);

  // The measured window; with --abuse, its second half has the abuser.
  for (auto& w : workers) on_worker(*w, [&] { w->state.measuring = true; });
  const auto t0 = Steady::now();
  const double server_cpu0 = cpu_seconds(pid);
  const double self_cpu0 = cpu_seconds(::getpid());
  const std::uint64_t accepted_before = accepted.load();
  const auto limit = std::chrono::duration<double>(o.duration);
  AbuseStats abuse;
  std::atomic<bool> abuse_active{false}, abuse_stop{false};
  std::vector<std::thread> abusers;
  std::vector<std::uint32_t> quiet_rtts, abused_rtts;
  // The round trips gathered since the last call go to the slice that just ended.
  auto end_slice = [&](bool abused) {
    for (auto& w : workers)
      on_worker(*w, [&] {
        auto& into = abused ? abused_rtts : quiet_rtts;
        into.insert(into.end(), w->state.stats.rtt_us.begin(), w->state.stats.rtt_us.end());
        w->state.stats.rtt_us.clear();
      });
  };
  if (o.abuse) {
    abusers.emplace_back([&] { abuse_ws(endpoint, o.abuse_tables, abuse_active, abuse_stop, abuse); });
    abusers.emplace_back([&] { abuse_http(endpoint, abuse_active, abuse_stop, abuse); });
  }
  while (Steady::now() - t0 < limit && (o.actions == 0 || accepted.load() - accepted_before < o.actions)) {
    if (o.abuse) {
      const auto slice =
          std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - t0).count() / o.abuse_slice_ms;
      const bool abused = slice % 2 == 1;
      if (abused != abuse_active) {
        end_slice(abuse_active);
        abuse_active = abused;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (auto& w : workers) on_worker(*w, [&] { w->state.measuring = false; });
  if (o.abuse) end_slice(abuse_active);
  abuse_stop = true;
  for (auto& t : abusers) t.join();
  const double window_s = std::chrono::duration<double>(Steady::now() - t0).count();
  const double server_cpu = pid > 0 ? cpu_seconds(pid) - server_cpu0 : -1;
  const double self_cpu = cpu_seconds(::getpid()) - self_cpu0;
  const long rss_end = rss_kib(pid);

  // Stop, then merge what the workers counted.
  WorkerStats total;
  std::vector<std::uint32_t> rtts;
  for (auto& w : workers) {
    on_worker(*w, [&] {
      w->state.stopping = true;
      for (auto& b : w->bots) b->close();
      for (auto& c : w->idle) c->close();
    });
    w->guard.reset();
    w->state.ioc.stop();
    w->thread.join();
    const WorkerStats& s = w->state.stats;
    total.actions += s.actions;
    total.all_actions += s.all_actions;
    total.matches += s.matches;
    total.connect_failures += s.connect_failures;
    total.closed_early += s.closed_early;
    total.received_bytes += s.received_bytes;
    total.tables_started += s.tables_started;
    total.tables_failed += s.tables_failed;
    total.bot_tables_started += s.bot_tables_started;
    total.bot_decisions += s.bot_decisions;
    total.bot_table_actions += s.bot_table_actions;
    total.bot_fallbacks += s.bot_fallbacks;
    total.idle_ready += s.idle_ready;
    for (const auto& [code, n] : s.errors) total.errors[code] += n;
    rtts.insert(rtts.end(), s.rtt_us.begin(), s.rtt_us.end());
  }
  workers.clear();
  stop_server(server);
  std::sort(rtts.begin(), rtts.end());
  std::sort(quiet_rtts.begin(), quiet_rtts.end());
  std::sort(abused_rtts.begin(), abused_rtts.end());
  if (o.abuse) {
    // Every round trip of the window is in one of the two.
    rtts = quiet_rtts;
    rtts.insert(rtts.end(), abused_rtts.begin(), abused_rtts.end());
    std::sort(rtts.begin(), rtts.end());
  }
  const double p99_quiet = percentile(quiet_rtts, 0.99);
  const double p99_abused = percentile(abused_rtts, 0.99);
  const double abuse_ratio =
      std::max(p99_abused, o.abuse_floor_ms) / std::max(std::max(p99_quiet, o.abuse_floor_ms), 1e-9);
  const bool abuse_ok = !o.abuse || (!abusers.empty() && (o.abuse_check <= 0 || abuse_ratio <= o.abuse_check));

  std::uint64_t error_count = 0;
  for (const auto& [code, n] : total.errors) error_count += n;
  const double per_second = window_s > 0 ? static_cast<double>(total.actions) / window_s : 0;
  auto per_conn = [](long before, long after, int conns) -> double {
    if (before < 0 || after < 0 || conns <= 0) return -1;
    return static_cast<double>(after - before) / conns;
  };
  const double idle_kib = per_conn(rss_start, rss_idle, total.idle_ready);
  const double table_kib = per_conn(rss_idle, rss_tables, total.tables_started * players + total.bot_tables_started);

  std::printf(
      "atout-loadgen: %d table(s) of %s (%d connections), %d idle connection(s), %d thread(s), think %d ms, ack "
      "%s, views %s, %s\n",
      o.tables, o.variant.c_str(), o.tables * players, o.idle, o.threads, o.think_ms, o.ack_event ? "event" : "reply",
      o.deltas ? "delta" : "full", o.tls_ca.empty() ? "plain ws://" : "TLS wss://");
  std::printf("  set-up        %.1f s; tables started %d of %d; idle connections ready %d of %d\n", setup_s,
              total.tables_started, o.tables, total.idle_ready, o.idle);
  std::printf("  window        %.2f s; accepted actions %llu (%.0f /s); matches finished %llu\n", window_s,
              static_cast<unsigned long long>(total.actions), per_second,
              static_cast<unsigned long long>(total.matches));
  const double bot_decisions_per_s = window_s > 0 ? static_cast<double>(total.bot_decisions) / window_s : 0;
  if (o.bot_tables > 0)
    std::printf(
        "  bot tables    %d of %d started (%s bots); bot decisions %llu (%.0f /s); played by the server for a "
        "busy bot %llu; their players' actions %llu\n",
        total.bot_tables_started, o.bot_tables, o.bot_level.c_str(),
        static_cast<unsigned long long>(total.bot_decisions), bot_decisions_per_s,
        static_cast<unsigned long long>(total.bot_fallbacks), static_cast<unsigned long long>(total.bot_table_actions));
  std::printf("  action RTT    p50 %.3f ms, p99 %.3f ms, p999 %.3f ms, max %.3f ms (%zu samples)\n",
              percentile(rtts, 0.5), percentile(rtts, 0.99), percentile(rtts, 0.999), percentile(rtts, 1.0),
              rtts.size());
  std::printf("  errors        %llu", static_cast<unsigned long long>(error_count));
  for (const auto& [code, n] : total.errors) std::printf(" %s=%llu", code.c_str(), static_cast<unsigned long long>(n));
  std::printf("; connect failures %llu; closed by the server %llu\n",
              static_cast<unsigned long long>(total.connect_failures),
              static_cast<unsigned long long>(total.closed_early));
  const double actions_d = static_cast<double>(std::max<std::uint64_t>(total.actions, 1));
  std::printf("  received      %llu bytes by the seats (%.0f per action)\n",
              static_cast<unsigned long long>(total.received_bytes),
              static_cast<double>(total.received_bytes) / actions_d);
  std::printf("  CPU in window server %.2f s (%.0f us per action), load generator %.2f s (%.0f us per action)\n",
              server_cpu, server_cpu * 1e6 / actions_d, self_cpu, self_cpu * 1e6 / actions_d);
  if (pid > 0)
    std::printf(
        "  server RSS    %ld KiB at start, %ld with idle connections (%.1f KiB each), %ld with tables "
        "(%.1f KiB per table connection), %ld at the end\n",
        rss_start, rss_idle, idle_kib, rss_tables, table_kib, rss_end);

  if (o.abuse) {
    std::printf(
        "  abuse         p99 %.3f ms in slices without the abuser (%zu samples), %.3f ms with it (%zu samples): "
        "%.2f x "
        "(floor %.1f ms)%s\n",
        p99_quiet, quiet_rtts.size(), p99_abused, abused_rtts.size(), abuse_ratio, o.abuse_floor_ms,
        o.abuse_check > 0 ? (abuse_ok ? ", within the bound" : ", OVER THE BOUND") : "");
    std::printf(
        "  abuser        created %llu table(s) (refused %llu); list_tables %llu pages (%.1f MB), too_fast %llu; "
        "/api/tables %llu (%.1f MB), 429 %llu; connections closed %llu\n",
        static_cast<unsigned long long>(abuse.created.load()),
        static_cast<unsigned long long>(abuse.create_refused.load()),
        static_cast<unsigned long long>(abuse.lists.load()), static_cast<double>(abuse.list_bytes.load()) / 1e6,
        static_cast<unsigned long long>(abuse.too_fast.load()), static_cast<unsigned long long>(abuse.http_ok.load()),
        static_cast<double>(abuse.http_bytes.load()) / 1e6, static_cast<unsigned long long>(abuse.http_limited.load()),
        static_cast<unsigned long long>(abuse.closed.load()));
  }

  nlohmann::json report = {{"tables", o.tables},
                           {"variant", o.variant},
                           {"idle", o.idle},
                           {"threads", o.threads},
                           {"think_ms", o.think_ms},
                           {"ack", o.ack_event ? "event" : "reply"},
                           {"views", o.deltas ? "delta" : "full"},
                           {"tls", !o.tls_ca.empty()},
                           {"received_bytes", total.received_bytes},
                           {"tables_started", total.tables_started},
                           {"idle_ready", total.idle_ready},
                           {"setup_s", setup_s},
                           {"window_s", window_s},
                           {"actions", total.actions},
                           {"actions_per_s", per_second},
                           {"matches", total.matches},
                           {"bot_tables", o.bot_tables},
                           {"bot_level", o.bot_level},
                           {"bot_tables_started", total.bot_tables_started},
                           {"bot_decisions", total.bot_decisions},
                           {"bot_decisions_per_s", bot_decisions_per_s},
                           {"bot_table_actions", total.bot_table_actions},
                           {"bot_fallbacks", total.bot_fallbacks},
                           {"rtt_ms",
                            {{"p50", percentile(rtts, 0.5)},
                             {"p99", percentile(rtts, 0.99)},
                             {"p999", percentile(rtts, 0.999)},
                             {"max", percentile(rtts, 1.0)},
                             {"samples", rtts.size()}}},
                           {"errors", total.errors},
                           {"cpu_s", {{"server", server_cpu}, {"loadgen", self_cpu}}},
                           {"error_count", error_count},
                           {"connect_failures", total.connect_failures},
                           {"closed_by_server", total.closed_early},
                           {"server_rss_kib",
                            {{"start", rss_start},
                             {"idle", rss_idle},
                             {"tables", rss_tables},
                             {"end", rss_end},
                             {"per_idle_connection", idle_kib},
                             {"per_table_connection", table_kib}}}};
  if (o.abuse)
    report["abuse"] = {{"p99_quiet_ms", p99_quiet},
                       {"p99_abused_ms", p99_abused},
                       {"quiet_samples", quiet_rtts.size()},
                       {"abused_samples", abused_rtts.size()},
                       {"slice_ms", o.abuse_slice_ms},
                       {"ratio", abuse_ratio},
                       {"floor_ms", o.abuse_floor_ms},
                       {"created", abuse.created.load()},
                       {"create_refused", abuse.create_refused.load()},
                       {"lists", abuse.lists.load()},
                       {"list_bytes", abuse.list_bytes.load()},
                       {"too_fast", abuse.too_fast.load()},
                       {"http_ok", abuse.http_ok.load()},
                       {"http_bytes", abuse.http_bytes.load()},
                       {"http_429", abuse.http_limited.load()},
                       {"closed", abuse.closed.load()}};
  std::printf("%s\n", report.dump().c_str());
  const bool ok = idle_ok && tables_ok && total.actions + (o.tables == 0 ? 1 : 0) > 0 && error_count == 0 &&
                  (o.bot_tables == 0 || total.bot_decisions > 0) && total.connect_failures == 0 &&
                  total.closed_early == 0 && abuse_ok;
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace atout::loadgen

int main(int argc, char** argv) {
  const atout::loadgen::Options o = atout::loadgen::parse(argc, argv);
  try {
    return atout::loadgen::run(o);
  } catch (const std::exception& e) {
    std::cerr << "atout-loadgen: " << e.what() << "\n";
    return 1;
  }
}
