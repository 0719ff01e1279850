// atout-wsfloor: the transport floor under atout-loadgen's duel figures. A relay server with the
// same WebSocket stack as atout-server (Beast over tcp_stream, one strand per connection, a write
// queue of shared messages, two I/O threads, its own process) but no game and no store, driven by
// atout-loadgen's own client connection in the pattern of a duel with ack "event": pairs of
// connections take turns; each action (one small frame up) is answered by one event (a larger frame)
// to both members of the pair. Whatever rate this reaches on the machine bounds what any server on
// this stack can accept with the generator beside it.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "loadgen_client.hpp"

namespace atout::loadgen {
namespace {

// ---- The relay server (child process) ------------------------------------------------------------

class RelaySession;

// Pairs by id; each member is registered by its first frame.
struct Pairs {
  std::mutex mutex;
  std::unordered_map<std::string, std::weak_ptr<RelaySession>[2]> members;
};

class RelaySession : public std::enable_shared_from_this<RelaySession> {
 public:
  RelaySession(tcp::socket&& socket, Pairs& p, std::size_t event_bytes)
      : ws_(std::move(socket)), pairs_(p), event_bytes_(event_bytes) {}

  void run() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->do_read();
    });
  }

  void send(std::shared_ptr<const std::string> message) {
    net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
      self->queue_.push_back(std::move(message));
      if (self->queue_.size() == 1) self->do_write();
    });
  }

 private:
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      const std::string request = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      self->on_frame(request);
      self->do_read();
    });
  }

  // "join PAIR SEAT" first; then any frame is an action of this seat, answered to both members.
  void on_frame(const std::string& request) {
    if (partner_.expired() && request.rfind("join ", 0) == 0) {
      std::istringstream in(request.substr(5));
      std::string pair;
      in >> pair >> seat_;
      seat_ = std::clamp(seat_, 0, 1);
      std::lock_guard lock(pairs_.mutex);
      auto& members = pairs_.members[pair];
      members[seat_] = weak_from_this();
      if (auto other = members[1 - seat_].lock()) {
        partner_ = other;
        // The partner's own strand links it back, then starts the pair: neither seat acts before
        // the start event, so both links are in place by then.
        net::post(other->ws_.get_executor(), [other, self = shared_from_this()] {
          other->partner_ = self;
          auto start = std::make_shared<const std::string>(other->event(0));
          other->send(start);
          self->send(std::move(start));
        });
      }
      return;
    }
    auto partner = partner_.lock();
    if (!partner) return;
    auto message = std::make_shared<const std::string>(event(1 - seat_));
    send(message);
    partner->send(std::move(message));
  }

  // An event of about the size of atout-server's duel events: whose turn it is, then padding.
  std::string event(int next) const {
    std::string text = R"({"next":)" + std::to_string(next) + R"(,"pad":")";
    text.append(event_bytes_ > text.size() + 2 ? event_bytes_ - text.size() - 2 : 0, 'x');
    return text.append("\"}");
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->queue_.clear();
      self->queue_.pop_front();
      if (!self->queue_.empty()) self->do_write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  Pairs& pairs_;
  std::size_t event_bytes_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::weak_ptr<RelaySession> partner_;
  int seat_ = 0;
};

// Listens on a free loopback port, writes it to `ready` and relays until killed.
[[noreturn]] void serve(int ready, int threads, std::size_t event_bytes) {
  net::io_context ioc(threads);
  tcp::acceptor acceptor(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  const unsigned short port = acceptor.local_endpoint().port();
  if (::write(ready, &port, sizeof port) != static_cast<ssize_t>(sizeof port)) std::_Exit(1);
  ::close(ready);
  Pairs p;
  net::steady_timer backoff(ioc);
  std::function<void()> accept = [&] {
    acceptor.async_accept(net::make_strand(ioc), [&](beast::error_code ec, tcp::socket socket) {
      if (ec) {
        // Out of descriptors, say: try again a little later rather than spin.
        backoff.expires_after(std::chrono::milliseconds(50));
        return backoff.async_wait([&](beast::error_code) { accept(); });
      }
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<RelaySession>(std::move(socket), p, event_bytes)->run();
      accept();
    });
  };
  accept();
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  std::_Exit(0);
}

// ---- The driver ----------------------------------------------------------------------------------

struct PairBot {
  std::shared_ptr<Connection> seats[2];
  Steady::time_point sent[2];
  bool pending[2] = {false, false};
  std::uint64_t answered = 0;  // actions of this pair answered, ever
};

double own_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int drive(int pairs_count, double duration, std::size_t action_bytes, std::size_t event_bytes, int server_threads) {
  raise_fd_limit();  // inherited by the relay: 2 descriptors per pair on each side
  // The relay is forked before any thread starts, and says its port once it listens.
  int ready[2];
  if (::pipe(ready) != 0) {
    std::perror("atout-wsfloor: pipe");
    return 1;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    std::perror("atout-wsfloor: fork");
    return 1;
  }
  if (child == 0) {
    ::close(ready[0]);
    serve(ready[1], server_threads, event_bytes);
  }
  ::close(ready[1]);
  unsigned short port = 0;
  const bool listening = ::read(ready[0], &port, sizeof port) == static_cast<ssize_t>(sizeof port);
  ::close(ready[0]);
  if (!listening) {
    std::fprintf(stderr, "atout-wsfloor: the relay did not start\n");
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    return 1;
  }

  WorkerState w;
  w.server = tcp::endpoint(net::ip::make_address("127.0.0.1"), port);
  std::vector<PairBot> bots(static_cast<std::size_t>(pairs_count));
  // Exactly `action_bytes` of payload: 26 of them are the text around the padding.
  const std::string action =
      R"({"type":"action","pad":")" + std::string(action_bytes > 26 ? action_bytes - 26 : 0, 'y') + "\"}";
  int open = 0, failed = 0;
  for (std::size_t b = 0; b < bots.size(); ++b) {
    for (int s = 0; s < 2; ++s) {
      auto c = std::make_shared<Connection>(w);
      bots[b].seats[s] = c;
      c->start(
          [&, b, s](bool ok) {
            if (!ok) return void(++failed);
            ++open;
            bots[b].seats[s]->send("join " + std::to_string(b) + " " + std::to_string(s));
          },
          [&, b, s](std::string_view text) {
            auto& bot = bots[b];
            if (bot.pending[s]) {  // this seat's action is answered
              bot.pending[s] = false;
              ++bot.answered;
              ++w.stats.all_actions;
              if (w.measuring) {
                ++w.stats.actions;
                w.stats.rtt_us.push_back(static_cast<std::uint32_t>(
                    std::chrono::duration_cast<std::chrono::microseconds>(Steady::now() - bot.sent[s]).count()));
              }
            }
            if (w.stopping || text.size() < 9 || text[8] != static_cast<char>('0' + s)) return;
            bot.pending[s] = true;
            bot.sent[s] = Steady::now();
            bot.seats[s]->send(action);
          });
    }
  }
  // Warm up for a second, then measure the window.
  net::steady_timer timer(w.ioc);
  double server_cpu0 = 0, own_cpu0 = 0, server_cpu1 = 0, own_cpu1 = 0, server_sys0 = 0, server_sys1 = 0;
  Steady::time_point t0, t1;
  timer.expires_after(std::chrono::seconds(1));
  timer.async_wait([&](beast::error_code) {
    w.measuring = true;
    t0 = Steady::now();
    server_cpu0 = cpu_seconds(child);
    server_sys0 = cpu_times(child).system;
    own_cpu0 = own_cpu_seconds();
    timer.expires_after(std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(duration)));
    timer.async_wait([&](beast::error_code) {
      w.measuring = false;
      w.stopping = true;
      t1 = Steady::now();
      server_cpu1 = cpu_seconds(child);
      server_sys1 = cpu_times(child).system;
      own_cpu1 = own_cpu_seconds();
      for (auto& bot : bots)
        for (auto& c : bot.seats) c->close();
    });
  });
  w.ioc.run();
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  // Killed by our SIGTERM is the one good end: anything else (a sanitizer's report, a crash, an
  // exit of its own) means the relay failed during the run.
  const bool relay_ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
  const bool every_pair_played =
      std::all_of(bots.begin(), bots.end(), [](const PairBot& bot) { return bot.answered > 0; });

  const double window = std::chrono::duration<double>(t1 - t0).count();
  const double n = static_cast<double>(w.stats.actions);
  const auto per_action = [n](double seconds) { return n > 0 ? 1e6 * seconds / n : 0.0; };
  auto& rtt = w.stats.rtt_us;
  std::sort(rtt.begin(), rtt.end());
  std::printf(
      "{\"pairs\":%d,\"open\":%d,\"failed\":%d,\"every_pair_played\":%s,\"relay_ok\":%s,\"actions\":%.0f,"
      "\"actions_per_s\":%.1f,\"rtt_ms\":{\"p50\":%.3f,\"p99\":%.3f},\"cpu_us_per_action\":{\"server\":%.1f,"
      "\"client\":%.1f},\"server_sys_us_per_action\":%.1f,\"event_bytes\":%zu,\"action_bytes\":%zu,\"closed_early\":%"
      "llu}\n",
      pairs_count, open, failed, every_pair_played ? "true" : "false", relay_ok ? "true" : "false", n,
      window > 0 ? n / window : 0.0, percentile(rtt, 0.5), percentile(rtt, 0.99), per_action(server_cpu1 - server_cpu0),
      per_action(own_cpu1 - own_cpu0), per_action(server_sys1 - server_sys0), event_bytes, action.size(),
      static_cast<unsigned long long>(w.stats.closed_early));
  const bool ok =
      n > 0 && failed == 0 && open == 2 * pairs_count && every_pair_played && relay_ok && w.stats.closed_early == 0;
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace atout::loadgen

int main(int argc, char** argv) {
  using namespace atout::loadgen;
  CLI::App app(
      "Relays a duel's message pattern (one frame up, one event to both seats) over PAIRS\n"
      "pairs of loopback WebSockets, with no game and no store, after one second of warm-up,\n"
      "and prints one JSON line: actions/s, round trips, CPU per action of the relay and of\n"
      "the client. The sizes are payload bytes; atout-server's duel frames measured 87 and\n"
      "960 bytes on the wire (81 and 956 of payload). Exit status 0 when every pair played\n"
      "and nothing failed, 1 otherwise, 2 for bad arguments.",
      "atout-wsfloor");
  app.set_help_flag("-h,--help", "print this and exit");
  int pair_count = 0, server_threads = 0;
  double seconds = 0;
  std::size_t action_bytes = 0, event_bytes = 0;
  app.add_option("PAIRS", pair_count, "pairs of connections")->required()->check(CLI::Range(1, 100'000));
  app.add_option("SECONDS", seconds, "seconds of measured relaying")->required()->check(CLI::Range(0.5, 600.0));
  app.add_option("ACTION_BYTES", action_bytes, "payload of an action frame")
      ->required()
      ->check(CLI::Range(std::size_t{26}, std::size_t{1} << 20));
  app.add_option("EVENT_BYTES", event_bytes, "payload of an event frame")
      ->required()
      ->check(CLI::Range(std::size_t{19}, std::size_t{1} << 20));
  app.add_option("SERVER_THREADS", server_threads, "I/O threads of the relay")->required()->check(CLI::Range(1, 64));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "atout-wsfloor: %s\n%s", e.what(), app.help().c_str());
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  return drive(pair_count, seconds, action_bytes, event_bytes, server_threads);
}
