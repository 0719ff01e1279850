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

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "loadgen_client.hpp"

namespace atout::loadgen {
namespace {

// ---- The relay server (child process) ------------------------------------------------------------

class relay_session;

// Pairs by id; each member is registered by its first frame.
struct pairs {
  std::mutex mutex;
  std::unordered_map<std::string, std::weak_ptr<relay_session>[2]> members;
};

class relay_session : public std::enable_shared_from_this<relay_session> {
 public:
  relay_session(tcp::socket&& socket, pairs& p, std::size_t event_bytes)
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
  pairs& pairs_;
  std::size_t event_bytes_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::weak_ptr<relay_session> partner_;
  int seat_ = 0;
};

[[noreturn]] void serve(unsigned short port, int threads, std::size_t event_bytes) {
  net::io_context ioc(threads);
  tcp::acceptor acceptor(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  pairs p;
  std::function<void()> accept = [&] {
    acceptor.async_accept(net::make_strand(ioc), [&](beast::error_code ec, tcp::socket socket) {
      if (!ec) {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<relay_session>(std::move(socket), p, event_bytes)->run();
      }
      accept();
    });
  };
  accept();
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  std::exit(0);
}

// ---- The driver ----------------------------------------------------------------------------------

struct pair_bot {
  std::shared_ptr<connection> seats[2];
  steady::time_point sent[2];
  bool pending[2] = {false, false};
};

double cpu_seconds_of(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  unsigned long long ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i)
    if (i == 14 || i == 15) ticks += std::stoull(field);
  return static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int drive(const char* self_path, int pairs_count, double duration, std::size_t action_bytes, std::size_t event_bytes,
          int server_threads) {
  net::io_context probe;
  tcp::acceptor free(probe, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  const unsigned short port = free.local_endpoint().port();
  free.close();
  const pid_t child = ::fork();
  if (child == 0) {
    const std::string p = std::to_string(port), t = std::to_string(server_threads), e = std::to_string(event_bytes);
    ::execl(self_path, self_path, "--serve", p.c_str(), t.c_str(), e.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  worker_state w;
  w.server = tcp::endpoint(net::ip::make_address("127.0.0.1"), port);
  std::vector<pair_bot> bots(static_cast<std::size_t>(pairs_count));
  const std::string action =
      R"({"type":"action","pad":")" + std::string(action_bytes > 28 ? action_bytes - 28 : 0, 'y') + "\"}";
  int open = 0, failed = 0;
  for (std::size_t b = 0; b < bots.size(); ++b) {
    for (int s = 0; s < 2; ++s) {
      auto c = std::make_shared<connection>(w);
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
              ++w.stats.all_actions;
              if (w.measuring) {
                ++w.stats.actions;
                w.stats.rtt_us.push_back(static_cast<std::uint32_t>(
                    std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - bot.sent[s]).count()));
              }
            }
            if (w.stopping || text.size() < 9 || text[8] != static_cast<char>('0' + s)) return;
            bot.pending[s] = true;
            bot.sent[s] = steady::now();
            bot.seats[s]->send(action);
          });
    }
  }
  // Warm up for a second, then measure the window.
  net::steady_timer timer(w.ioc);
  double server_cpu0 = 0, own_cpu0 = 0, server_cpu1 = 0, own_cpu1 = 0;
  steady::time_point t0, t1;
  timer.expires_after(std::chrono::seconds(1));
  timer.async_wait([&](beast::error_code) {
    w.measuring = true;
    t0 = steady::now();
    server_cpu0 = cpu_seconds_of(child);
    own_cpu0 = own_cpu_seconds();
    timer.expires_after(std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(duration)));
    timer.async_wait([&](beast::error_code) {
      w.measuring = false;
      w.stopping = true;
      t1 = steady::now();
      server_cpu1 = cpu_seconds_of(child);
      own_cpu1 = own_cpu_seconds();
      for (auto& bot : bots)
        for (auto& c : bot.seats) c->close();
    });
  });
  w.ioc.run();
  ::kill(child, SIGTERM);
  ::waitpid(child, nullptr, 0);

  const double window = std::chrono::duration<double>(t1 - t0).count();
  const double n = static_cast<double>(w.stats.actions);
  auto& rtt = w.stats.rtt_us;
  std::sort(rtt.begin(), rtt.end());
  const auto pct = [&](double q) {
    return rtt.empty()
               ? 0.0
               : rtt[std::min(rtt.size() - 1, static_cast<std::size_t>(q * static_cast<double>(rtt.size())))] / 1000.0;
  };
  std::printf(
      "{\"pairs\":%d,\"open\":%d,\"failed\":%d,\"actions\":%.0f,\"actions_per_s\":%.1f,\"rtt_ms\":{\"p50\":%.3f,"
      "\"p99\":%.3f},\"cpu_us_per_action\":{\"server\":%.1f,\"client\":%.1f},\"event_bytes\":%zu,\"action_bytes\":%zu,"
      "\"closed_early\":%llu}\n",
      pairs_count, open, failed, n, n / window, pct(0.5), pct(0.99), 1e6 * (server_cpu1 - server_cpu0) / n,
      1e6 * (own_cpu1 - own_cpu0) / n, event_bytes, action.size(),
      static_cast<unsigned long long>(w.stats.closed_early));
  return n > 0 && failed == 0 && w.stats.closed_early == 0 ? 0 : 1;
}

template <typename T>
T arg(const char* text, T lo, T hi, const char* what) {
  T v{};
  const std::string_view s(text);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) {
    std::fprintf(stderr, "atout-wsfloor: %s must be a number from %s to %s, not '%s'\n", what,
                 std::to_string(lo).c_str(), std::to_string(hi).c_str(), text);
    std::exit(2);
  }
  return v;
}

}  // namespace
}  // namespace atout::loadgen

int main(int argc, char** argv) {
  using namespace atout::loadgen;
  if (argc == 5 && std::string_view(argv[1]) == "--serve")
    serve(arg<unsigned short>(argv[2], 1, 65535, "port"), arg(argv[3], 1, 64, "threads"),
          arg<std::size_t>(argv[4], 16, 1 << 20, "event bytes"));
  if (argc != 6) {
    std::fprintf(stderr,
                 "Usage: atout-wsfloor PAIRS SECONDS ACTION_BYTES EVENT_BYTES SERVER_THREADS\n"
                 "Relays a duel's message pattern (one frame up, one event to both seats) over PAIRS\n"
                 "pairs of loopback WebSockets, with no game and no store, and prints one JSON line:\n"
                 "actions/s, round trips and CPU per action of the relay and of the client.\n"
                 "atout-server's duel frames measured 87 (action) and 960 (event) bytes.\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  return drive(argv[0], arg(argv[1], 1, 100'000, "pairs"), arg(argv[2], 0.5, 600.0, "seconds"),
               arg<std::size_t>(argv[3], 8, 1 << 20, "action bytes"),
               arg<std::size_t>(argv[4], 16, 1 << 20, "event bytes"), arg(argv[5], 1, 64, "server threads"));
}
