// Limits over real loopback sockets: oversized messages (1009), floods (1008), the per-address
// connection cap (HTTP 429), keep-alive pings that drop dead peers, and a slow consumer dropped
// while its table goes on; plus the limit flags and the message-credit bucket.
#include "atout/server/limits.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "atout/server/config.hpp"
#include "atout/server/ws_session.hpp"
#include "metrics_text.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// Polls until `pred` holds, for at most `limit`: server-side effects of a closed connection land
// a little after the client sees the close.
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (pred()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
}

double metric(unsigned short port, const std::string& sample) {
  const auto page = parse_metrics(http_get(port, "/metrics").body);
  if (!page.error.empty()) {
    ADD_FAILURE() << page.error;
    return -1;
  }
  const auto it = page.samples.find(sample);
  return it == page.samples.end() ? -1 : it->second;
}

// A WebSocket client that reads only when told to, so it can play a peer that stops reading.
class RawClient {
 public:
  explicit RawClient(unsigned short port, int receive_buffer = 0) : ws_(ioc_) {
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4());
    // A small receive buffer fills quickly, so the server's queue for us starts growing sooner.
    if (receive_buffer > 0) socket.set_option(net::socket_base::receive_buffer_size(receive_buffer));
    socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    ws_.text(true);
  }

  bool write(const std::string& text) {
    beast::error_code ec;
    ws_.write(net::buffer(text), ec);
    return !ec;
  }

  // Reads one message within `timeout`: its text, or nothing on a close, an error or no message.
  std::optional<std::string> read(std::chrono::milliseconds timeout) {
    if (timed_out_) return std::nullopt;
    // Owned by the handler too: a read that times out stays pending until the client goes.
    auto result = std::make_shared<std::optional<beast::error_code>>();
    ws_.async_read(buffer_, [result](beast::error_code ec, std::size_t) { *result = ec; });
    ioc_.restart();
    ioc_.run_for(timeout);
    if (!*result) {
      // The client is unusable from now on; the test has failed anyway.
      timed_out_ = true;
      return std::nullopt;
    }
    if (**result) {
      error_ = **result;
      return std::nullopt;
    }
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    return text;
  }

  // Reads until a message of `type` (replies to requests we sent come in order).
  std::optional<json> read_until(const std::string& type) {
    for (;;) {
      auto text = read(kReadTimeout);
      if (!text) return std::nullopt;
      json j = json::parse(*text);
      if (j["type"] == type) return j;
    }
  }

  // Keeps a read pending for `idle` (so Beast answers the server's pings), during which nothing may
  // arrive; then sends `probe` and returns the reply that the pending read gets.
  std::optional<std::string> idle_then(std::chrono::milliseconds idle, const std::string& probe) {
    std::optional<beast::error_code> result;
    ws_.async_read(buffer_, [&](beast::error_code ec, std::size_t) { result = ec; });
    ioc_.restart();
    ioc_.run_for(idle);
    if (result) {
      ADD_FAILURE() << "the read ended early: " << result->message();
      return std::nullopt;
    }
    if (!write(probe)) return std::nullopt;
    while (!result && !ioc_.stopped()) ioc_.run_one_for(kReadTimeout);
    if (!result || *result) return std::nullopt;
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    return text;
  }

  bool timed_out() const { return timed_out_; }
  beast::error_code error() const { return error_; }

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  bool timed_out_ = false;
  beast::error_code error_;
};

// The next event for `c`, skipping seat and table updates and acknowledgements.
std::optional<json> next_event(TestClient& c) {
  for (;;) {
    auto m = c.next();
    if (!m) return std::nullopt;
    if ((*m)["type"] == "event") return m;
  }
}

// From event `seq` on, plays `actions` actions (fewer if the match ends) at `table_id`, each seat
// choosing its first legal action; checks every player receives every event in order. Returns the
// actions played; the last one's event is left unread.
int play_some(std::vector<std::unique_ptr<TestClient>>& seats, const std::string& table_id, std::uint64_t seq,
              int actions) {
  int played = 0;
  while (played < actions) {
    std::vector<json> events;
    for (auto& c : seats) {
      auto e = next_event(*c);
      if (!e) {
        ADD_FAILURE() << "a player got no event " << seq;
        return played;
      }
      EXPECT_EQ((*e)["seq"], seq);
      events.push_back(std::move(*e));
    }
    if (events[0].contains("match_result")) return played;
    bool acted = false;
    for (std::size_t s = 0; s < seats.size() && !acted; ++s) {
      const json& legal = events[s]["observation"]["legal"];
      if (legal.empty()) continue;
      seats[s]->send({{"type", "action"}, {"table_id", table_id}, {"action", legal[0]}});
      acted = true;
    }
    if (!acted) {
      ADD_FAILURE() << "nobody may act at seq " << seq;
      return played;
    }
    ++played;
    ++seq;
  }
  return played;
}

// ---- Frame size ----------------------------------------------------------------------------------

TEST(LimitsLoopback, OversizedMessageClosesWith1009AndTheLimitItselfIsAccepted) {
  LiveServer server;
  TestClient c(server.port(), nullptr);
  c.hello("big");
  // A message of exactly the limit is read and answered.
  std::string at_limit = R"({"type":"ping","id":"at-limit","pad":")";
  at_limit += std::string(WsSession::kMaxMessageBytes - at_limit.size() - 2, 'x') + "\"}";
  ASSERT_EQ(at_limit.size(), WsSession::kMaxMessageBytes);
  c.send_raw(at_limit);
  const auto answer = c.next();
  ASSERT_TRUE(answer);
  EXPECT_EQ((*answer)["id"], "at-limit") << *answer;
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");

  TestClient other(server.port(), nullptr);
  other.hello("bystander");
  c.send_raw(std::string(WsSession::kMaxMessageBytes + 1, ' '));
  EXPECT_FALSE(c.next());
  EXPECT_EQ(c.close_code(), 1009);
  EXPECT_EQ(other.request({{"type", "ping"}})["type"], "pong");
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_oversized_closes_total") == 1; }));
}

// A connection waits for a request with a small read (512 bytes) and reads a longer one on. Requests
// of every size around that read and around Beast's own read buffer (1,536 bytes), sent back to
// back so several arrive in one segment, are each read whole and answered in order.
TEST(LimitsLoopback, RequestsOfEverySizeAroundTheFirstReadAreReadWholeAndInOrder) {
  LiveServer server;
  TestClient c(server.port(), nullptr);
  c.hello("sizes");
  const std::vector<std::size_t> sizes = {40, 511, 512, 513, 1023, 1024, 1025, 1535, 1536, 1537, 3000, 9000, 200};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::string text = R"({"type":"ping","id":"s)" + std::to_string(i) + R"(","pad":")";
    ASSERT_LT(text.size() + 2, sizes[i]);
    text += std::string(sizes[i] - text.size() - 2, 'x') + "\"}";
    ASSERT_EQ(text.size(), sizes[i]);
    c.send_raw(text);
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto answer = c.next();
    ASSERT_TRUE(answer) << "no answer to the request of " << sizes[i] << " bytes";
    EXPECT_EQ((*answer)["type"], "pong") << *answer;
    EXPECT_EQ((*answer)["id"], "s" + std::to_string(i)) << *answer;
  }
  EXPECT_EQ(c.request({{"type", "ping"}})["type"], "pong");
}

// ---- Floods --------------------------------------------------------------------------------------

TEST(LimitsLoopback, FloodClosesWith1008WhileAClientWithinItsCreditsStays) {
  Config cfg;
  cfg.msg_burst = 10;
  cfg.msg_rate = 1;
  LiveServer server(cfg);

  TestClient polite(server.port(), nullptr);
  polite.hello("polite");  // one credit
  for (int i = 0; i < 8; ++i) EXPECT_EQ(polite.request({{"type", "ping"}})["type"], "pong");

  TestClient flooder(server.port(), nullptr);
  flooder.hello("flooder");
  for (int i = 0; i < 40; ++i) flooder.send_raw(R"({"type":"ping"})");
  int pongs = 0;
  while (auto m = flooder.next()) {
    if ((*m)["type"] == "pong") ++pongs;
  }
  EXPECT_EQ(flooder.close_code(), 1008);
  EXPECT_NE(flooder.close_reason().find("too many messages"), std::string::npos) << flooder.close_reason();
  // Nine credits were left after hello (a slow machine may earn one or two more meanwhile); replies
  // still queued when the connection closes are dropped.
  EXPECT_GE(pongs, 1);
  EXPECT_LE(pongs, 12);

  EXPECT_EQ(polite.request({{"type", "ping"}})["type"], "pong");
  EXPECT_TRUE(polite.open());
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_flood_closes_total") == 1; }));
}

TEST(LimitsLoopback, AFlooderThatIgnoresTheCloseIsCountedOnceAsAFloodClose) {
  Config cfg;
  cfg.msg_burst = 10;
  cfg.msg_rate = 1;
  cfg.idle_timeout = 1s;
  LiveServer server(cfg);
  RawClient flooder(server.port());
  ASSERT_TRUE(flooder.write(R"({"type":"hello","protocol":1,"name":"flooder"})"));
  ASSERT_TRUE(flooder.read_until("welcome"));
  // Past its credits, and then it reads nothing, so the closing handshake never completes.
  for (int i = 0; i < 40 && flooder.write(R"({"type":"ping"})"); ++i) {
  }
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_flood_closes_total") == 1; }, 5s));
  // Two idle timeouts later it was counted once: as a flood close, not also as an idle drop.
  std::this_thread::sleep_for(2s);
  EXPECT_EQ(metric(server.port(), "atout_idle_drops_total"), 0);
  EXPECT_EQ(metric(server.port(), "atout_flood_closes_total"), 1);
}

TEST(Limits, MessageCreditsRefillAtTheirRateUpToTheBurst) {
  MessageCredits credits(3, 2);  // 3 at once, 2 per second
  const auto t0 = std::chrono::steady_clock::now() + 1s;
  EXPECT_TRUE(credits.take(t0));
  EXPECT_TRUE(credits.take(t0));
  EXPECT_TRUE(credits.take(t0));
  EXPECT_FALSE(credits.take(t0));
  EXPECT_FALSE(credits.take(t0 + 400ms));  // 0.8 earned
  EXPECT_TRUE(credits.take(t0 + 500ms));   // 1.0
  EXPECT_FALSE(credits.take(t0 + 500ms));
  // A long pause earns no more than the burst.
  const auto later = t0 + 100s;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(credits.take(later));
  EXPECT_FALSE(credits.take(later));
}

// ---- Connections per address ---------------------------------------------------------------------

TEST(LimitsLoopback, ConnectionsOverTheAddressCapAreAnswered429UntilOneCloses) {
  Config cfg;
  cfg.max_conns_per_ip = 3;
  LiveServer server(cfg);
  auto a = std::make_unique<TestClient>(server.port(), nullptr);
  auto b = std::make_unique<TestClient>(server.port(), nullptr);
  auto c = std::make_unique<TestClient>(server.port(), nullptr);
  a->hello("a");
  b->hello("b");
  c->hello("c");

  EXPECT_THROW(TestClient(server.port(), nullptr), std::exception);
  const HttpReply refused = http_get(server.port(), "/healthz");
  EXPECT_EQ(refused.status, 429u);
  EXPECT_EQ(json::parse(refused.body)["error"], "too_many_connections");
  // The connections already open are untouched.
  EXPECT_EQ(a->request({{"type", "ping"}})["type"], "pong");

  // Closing one frees its slot (once the server has seen the close).
  c.reset();
  EXPECT_TRUE(eventually([&] { return http_get(server.port(), "/healthz").status == 200; }));
  // That probe's own slot is freed a moment after it closes, so the next connection may have to
  // try again.
  std::unique_ptr<TestClient> d;
  EXPECT_TRUE(eventually([&] {
    try {
      d = std::make_unique<TestClient>(server.port(), nullptr);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->hello("d")["type"], "welcome");

  a.reset();
  b.reset();
  // Two refusals at least (the polls above may add more); every slot comes back.
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_connections_open") == 2; }));
  EXPECT_GE(metric(server.port(), "atout_ip_refusals_total"), 2);
}

TEST(LimitsLoopback, NoCapWhenTheLimitIsZero) {
  Config cfg;
  cfg.max_conns_per_ip = 0;
  LiveServer server(cfg);
  std::vector<std::unique_ptr<TestClient>> clients;
  for (int i = 0; i < 70; ++i) clients.push_back(std::make_unique<TestClient>(server.port(), nullptr));
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200u);
  EXPECT_EQ(metric(server.port(), "atout_ip_refusals_total"), 0);
}

// ---- Keep-alive ----------------------------------------------------------------------------------

TEST(LimitsLoopback, APeerThatStopsAnsweringPingsIsDroppedOneThatAnswersIsKept) {
  Config cfg;
  cfg.idle_timeout = 2s;  // a ping after 1 s of silence, dropped at 2 s: 1 s to answer it
  LiveServer server(cfg);
  RawClient silent(server.port());
  ASSERT_TRUE(silent.write(R"({"type":"hello","protocol":1,"name":"silent"})"));
  RawClient answering(server.port());
  ASSERT_TRUE(answering.write(R"({"type":"hello","protocol":1,"name":"answering"})"));
  ASSERT_TRUE(answering.read(kReadTimeout));  // welcome
  // A pending read answers the server's pings; nothing else arrives, so the read stays pending
  // for the whole three idle periods unless the server drops us.
  const auto pong = answering.idle_then(6s, R"({"type":"ping","id":"still-there"})");
  ASSERT_TRUE(pong);
  EXPECT_EQ(json::parse(*pong)["id"], "still-there");
  EXPECT_EQ(metric(server.port(), "atout_idle_drops_total"), 1);

  // The silent peer's welcome (and pings) wait in its buffer, then the connection is gone.
  for (int i = 0; i < 4 && silent.read(5s); ++i) {
  }
  EXPECT_FALSE(silent.timed_out());
  EXPECT_TRUE(silent.error());
}

// Says hello on `peer` and returns the welcome, with the player's token.
std::optional<json> raw_hello(RawClient& peer) {
  if (!peer.write(R"({"type":"hello","protocol":1,"name":"kicked"})")) return std::nullopt;
  return peer.read_until("welcome");
}

// Resumes the player `welcome` names on a new connection, which replaces (kicks) the older one.
std::unique_ptr<TestClient> replace(const LiveServer& server, const json& welcome) {
  auto newer = std::make_unique<TestClient>(server.port(), nullptr);
  if (newer->request({{"type", "hello"}, {"protocol", 1}, {"token", welcome["token"]}})["type"] != "welcome")
    return nullptr;
  return newer;
}

// A replaced (kicked) connection is closed by the server, whose close frame waits for the peer's
// answer. A peer that neither reads it nor says anything goes at the idle timeout, not at the
// 30 s closing-handshake timeout.
TEST(LimitsLoopback, AKickedPeerThatStaysSilentIsDroppedAtTheIdleTimeout) {
  Config cfg;
  cfg.idle_timeout = 1s;
  LiveServer server(cfg);
  RawClient kicked(server.port());
  const auto welcome = raw_hello(kicked);
  ASSERT_TRUE(welcome);
  // The newer connection closes as it should once welcomed: it is no idle drop.
  ASSERT_TRUE(replace(server, *welcome));
  // The kicked peer reads nothing more: its goodbye and close frame stay in its buffer.
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_idle_drops_total") == 1; }, 5s));
  // Only the metrics request itself is left open.
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_connections_open") == 1; }, 5s));
}

// Sends a ping every 100 ms (inside its credits, and keeping it from being idle) until the server
// cuts the socket, so that the writes fail: true when that comes within 5 s of the end of the grace
// that began at `kicked_at` (by the client's clock; the server's began a little earlier). Early in
// the grace, nothing may have been cut yet.
bool talks_until_cut(const LiveServer& server, RawClient& peer, std::chrono::steady_clock::time_point kicked_at,
                     std::chrono::milliseconds grace) {
  // Early in the grace, nothing is cut yet.
  std::this_thread::sleep_for(300ms);
  const double early = metric(server.port(), "atout_closing_cuts_total");
  const bool early_in_time = std::chrono::steady_clock::now() - kicked_at < grace;
  EXPECT_TRUE(!early_in_time || early == 0) << "cut before its grace was over";
  while (std::chrono::steady_clock::now() - kicked_at < grace + 5s) {
    if (!peer.write(R"({"type":"ping"})")) return true;
    std::this_thread::sleep_for(100ms);
  }
  ADD_FAILURE() << "still connected 5 s after its grace of " << grace.count() << " ms ended";
  return false;
}

// A kicked peer that reads its goodbye, then keeps sending but never answers the close frame: it
// is cut after the close grace, not after Beast's 30 s closing-handshake timeout.
// The close grace, as docs/operations.md describes --close-grace.
TEST(LimitsLoopback, AKickedPeerThatKeepsTalkingButNeverClosesIsCutAfterTheCloseGrace) {
  Config cfg;
  cfg.close_grace = 3s;  // the idle timeout stays 60 s: talking keeps the peer from being idle
  LiveServer server(cfg);
  RawClient kicked(server.port());
  const auto welcome = raw_hello(kicked);
  ASSERT_TRUE(welcome);
  const auto newer = replace(server, *welcome);
  ASSERT_TRUE(newer);
  // The goodbye is read, the close frame after it is not.
  ASSERT_TRUE(kicked.read_until("goodbye"));
  const auto kicked_at = std::chrono::steady_clock::now();

  EXPECT_TRUE(talks_until_cut(server, kicked, kicked_at, 3s));
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_closing_cuts_total") == 1; }, 5s));
  EXPECT_EQ(metric(server.port(), "atout_idle_drops_total"), 0);
  EXPECT_EQ(metric(server.port(), "atout_flood_closes_total"), 0);
  // The newer connection is untouched.
  EXPECT_EQ(newer->request({{"type", "ping"}})["type"], "pong");
}

// A peer that stops reading while its replies pile up in the socket buffers, then is kicked: its
// goodbye and close frame wait behind that backlog, unread. Returns the newer connection.
std::unique_ptr<TestClient> kick_a_peer_that_stopped_reading(const LiveServer& server, RawClient& peer) {
  const auto welcome = raw_hello(peer);
  if (!welcome) return nullptr;
  // Each variant list is a few KiB: 6,000 of them pile up far beyond a 4 KiB receive buffer.
  for (int i = 0; i < 6000; ++i)
    if (!peer.write(R"({"type":"list_variants"})")) return nullptr;
  return replace(server, *welcome);
}

Config backlog_config() {
  Config cfg;
  cfg.max_queue_messages = 100'000;  // the backlog is not what these tests drop it for
  cfg.max_queue_bytes = 1u << 30;
  cfg.msg_burst = 1e6;  // nor are credits
  cfg.msg_rate = 1e6;
  return cfg;
}

// A slow consumer never grows memory without bound; the close grace, as docs/operations.md
// describes --close-grace.
TEST(LimitsLoopback, AKickedPeerThatNeverReadsButKeepsTalkingIsCutAfterTheCloseGrace) {
  Config cfg = backlog_config();
  cfg.close_grace = 3s;
  LiveServer server(cfg);
  RawClient kicked(server.port(), 4096);
  const auto newer = kick_a_peer_that_stopped_reading(server, kicked);
  ASSERT_TRUE(newer);
  const auto kicked_at = std::chrono::steady_clock::now();
  EXPECT_TRUE(talks_until_cut(server, kicked, kicked_at, 3s));
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_closing_cuts_total") == 1; }, 5s));
  EXPECT_EQ(metric(server.port(), "atout_idle_drops_total"), 0);
  EXPECT_EQ(metric(server.port(), "atout_outbound_queue_drops_total"), 0);
  EXPECT_EQ(newer->request({{"type", "ping"}})["type"], "pong");
}

// ---- Slow consumers ------------------------------------------------------------------------------

TEST(LimitsLoopback, ASlowConsumerIsDroppedWhileItsTableGoesOn) {
  Config cfg;
  cfg.max_queue_messages = 256;
  cfg.max_queue_bytes = 64 * 1024;
  cfg.msg_burst = 1e6;  // the slow consumer asks for a lot; credits are not what this tests
  cfg.msg_rate = 1e6;
  LiveServer server(cfg);

  std::vector<std::unique_ptr<TestClient>> seats;
  for (int i = 0; i < 4; ++i) {
    seats.push_back(std::make_unique<TestClient>(server.port(), nullptr));
    seats.back()->hello("p" + std::to_string(i));
  }
  const std::string table_id =
      seats[0]->request({{"type", "create_table"}, {"variant", "french"}})["table"]["table_id"];

  RawClient slow(server.port(), 4096);
  ASSERT_TRUE(slow.write(R"({"type":"hello","protocol":1,"name":"slow"})"));
  ASSERT_TRUE(slow.read_until("welcome"));
  ASSERT_TRUE(slow.write(json({{"type", "spectate"}, {"table_id", table_id}}).dump()));
  ASSERT_TRUE(slow.read_until("watching"));

  for (int s = 0; s < 4; ++s)
    ASSERT_EQ(
        seats[static_cast<std::size_t>(s)]->request({{"type", "sit"}, {"table_id", table_id}, {"seat", s}})["type"],
        "seated");
  // The match starts; the table plays on while the watcher stops reading and keeps asking for the
  // variant list (a few KiB each), so the server's queue for it outgrows every buffer.
  const int first = play_some(seats, table_id, 1, 10);
  EXPECT_EQ(first, 10);
  const std::string ask = R"({"type":"list_variants"})";
  for (int i = 0; i < 20000 && slow.write(ask); ++i) {
    if (i % 500 == 0 && metric(server.port(), "atout_outbound_queue_drops_total") == 1) break;
  }
  EXPECT_TRUE(eventually([&] { return metric(server.port(), "atout_outbound_queue_drops_total") == 1; }));

  // Everyone at the table still gets every event, and the match goes on.
  EXPECT_EQ(play_some(seats, table_id, 11, 30), 30);
  const json listed = seats[0]->request({{"type", "list_tables"}});
  ASSERT_EQ(listed["tables"].size(), 1u);
  EXPECT_EQ(listed["tables"][0]["spectators"], 0);
  EXPECT_EQ(listed["tables"][0]["status"], "playing");
}

// ---- Flags ---------------------------------------------------------------------------------------

TEST(LimitFlags, DefaultsAndValues) {
  ParseResult r = parse_args({});
  ASSERT_TRUE(r.cfg);
  EXPECT_EQ(r.cfg->max_conns_per_ip, 64);
  EXPECT_EQ(r.cfg->msg_burst, 200);
  EXPECT_EQ(r.cfg->msg_rate, 100);
  EXPECT_EQ(r.cfg->idle_timeout, 60s);
  EXPECT_EQ(r.cfg->max_queue_messages, 1024u);
  EXPECT_EQ(r.cfg->max_queue_bytes, 4u * 1024 * 1024);
  EXPECT_EQ(r.cfg->close_grace, 10s);

  r = parse_args({"--max-conns-per-ip", "0", "--msg-burst=5", "--msg-rate", "7", "--idle-timeout", "2",
                  "--max-queue-messages", "10", "--max-queue-bytes", "70000", "--close-grace", "3"});
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->max_conns_per_ip, 0);
  EXPECT_EQ(r.cfg->msg_burst, 5);
  EXPECT_EQ(r.cfg->msg_rate, 7);
  EXPECT_EQ(r.cfg->idle_timeout, 2s);
  EXPECT_EQ(r.cfg->max_queue_messages, 10u);
  EXPECT_EQ(r.cfg->max_queue_bytes, 70000u);
  EXPECT_EQ(r.cfg->close_grace, 3s);

  const std::string help = usage();
  for (const char* flag : {"--max-conns-per-ip", "--msg-burst", "--msg-rate", "--idle-timeout", "--max-queue-messages",
                           "--max-queue-bytes", "--close-grace"})
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
}

TEST(LimitFlags, BadValuesAreRefusedWithAReason) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--max-conns-per-ip", "-1"},
                                                                                    {"--max-conns-per-ip", "x"},
                                                                                    {"--msg-burst", "0"},
                                                                                    {"--msg-rate", "1.5"},
                                                                                    {"--idle-timeout", "0"},
                                                                                    {"--idle-timeout", "3601"},
                                                                                    {"--max-queue-messages", "0"},
                                                                                    {"--max-queue-bytes", "1024"},
                                                                                    {"--close-grace", "0"},
                                                                                    {"--close-grace", "301"},
                                                                                    {"--msg-rate"}}) {
    const ParseResult r = parse_args(args);
    EXPECT_FALSE(r.cfg) << args[0];
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.message.find(args[0]), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace atout::server::testing
