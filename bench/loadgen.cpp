// atout-loadgen: holds idle WebSocket connections and plays many tables of random legal actions
// against an atout-server on loopback, then reports actions per second, round-trip latency, errors
// and the server's memory per connection.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "atout/state.hpp"
#include "loadgen_abuse.hpp"
#include "loadgen_client.hpp"
#include "loadgen_options.hpp"
#include "loadgen_spawn.hpp"

namespace atout::loadgen {
namespace {

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
  const double server_sys0 = cpu_times(pid).system;
  const double self_sys0 = cpu_times(::getpid()).system;
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
  // The system (kernel) part of each, apart: most of it is the sockets' work.
  const double server_sys = pid > 0 ? cpu_times(pid).system - server_sys0 : -1;
  const double self_sys = cpu_times(::getpid()).system - self_sys0;
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
    total.bot_stand_ins += s.bot_stand_ins;
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
        "busy bot %llu (of which chosen by a quicker bot %llu); their players' actions %llu\n",
        total.bot_tables_started, o.bot_tables, o.bot_level.c_str(),
        static_cast<unsigned long long>(total.bot_decisions), bot_decisions_per_s,
        static_cast<unsigned long long>(total.bot_fallbacks + total.bot_stand_ins),
        static_cast<unsigned long long>(total.bot_stand_ins), static_cast<unsigned long long>(total.bot_table_actions));
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
                           {"bot_stand_ins", total.bot_stand_ins},
                           {"rtt_ms",
                            {{"p50", percentile(rtts, 0.5)},
                             {"p99", percentile(rtts, 0.99)},
                             {"p999", percentile(rtts, 0.999)},
                             {"max", percentile(rtts, 1.0)},
                             {"samples", rtts.size()}}},
                           {"errors", total.errors},
                           {"cpu_s", {{"server", server_cpu}, {"loadgen", self_cpu}}},
                           {"cpu_sys_s", {{"server", server_sys}, {"loadgen", self_sys}}},
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
