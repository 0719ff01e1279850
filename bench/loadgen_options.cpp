// atout-loadgen's command line, read with CLI11.
#include "loadgen_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "atout/state.hpp"
#include "loadgen_client.hpp"

namespace atout::loadgen {
namespace {

[[noreturn]] void bad_flag(const std::string& message) {
  std::cerr << "atout-loadgen: " << message << "\nTry 'atout-loadgen --help'.\n";
  std::exit(2);
}

}  // namespace

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

}  // namespace atout::loadgen
