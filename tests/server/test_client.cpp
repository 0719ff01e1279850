// The loopback test tools: live server, WebSocket client, HTTP getter, schema log, match driver.
#include "test_client.hpp"

#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace atout::server::testing {

namespace {

// Tests print failures, not the server's routine log.
const bool kQuietLogs = [] {
  spdlog::set_level(spdlog::level::warn);
  return true;
}();

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

// ---- message_log ---------------------------------------------------------------------------------

std::vector<std::string> MessageLog::lines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

void MessageLog::add(char direction, std::string_view text) {
  std::string line;
  line.reserve(text.size() + 2);
  line += direction;
  line += ' ';
  line += text;
  std::lock_guard lock(mutex_);
  lines_.push_back(std::move(line));
}

std::size_t MessageLog::size() const {
  std::lock_guard lock(mutex_);
  return lines_.size();
}

namespace {
std::filesystem::path write_log(const std::filesystem::path& dir, const std::vector<std::string>& lines) {
  static std::atomic<int> counter{0};
  std::filesystem::create_directories(dir);
  const auto path = dir / ("atout-messages-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".txt");
  std::ofstream out(path);
  for (const std::string& l : lines) out << l << '\n';
  return path;
}
}  // namespace

::testing::AssertionResult MessageLog::validate() const {
  const char* dir = std::getenv("ATOUT_SCHEMA_LOG_DIR");
  if (!dir || !*dir) return validate_now();
  std::lock_guard lock(mutex_);
  if (lines_.empty()) return ::testing::AssertionFailure() << "no messages were logged";
  write_log(dir, lines_);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult MessageLog::validate_now() const {
  std::filesystem::path path;
  {
    std::lock_guard lock(mutex_);
    path = write_log(std::filesystem::temp_directory_path(), lines_);
  }
  const std::string source = ATOUT_SOURCE_DIR;
  const std::string command = std::string(ATOUT_PYTHON) + " " +
                              shell_quote(source + "/tests/server/validate_messages.py") + " " +
                              shell_quote(source + "/protocol/schema") + " " + shell_quote(path.string()) + " 2>&1";
  const CommandResult r = run_command(command);
  std::filesystem::remove(path);
  if (r.exit_code != 0) return ::testing::AssertionFailure() << "schema check failed:\n" << r.out;
  return ::testing::AssertionSuccess() << r.out;
}

// ---- Commands ------------------------------------------------------------------------------------

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  char chunk[4096];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0) r.out.append(chunk, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// ---- live_server ---------------------------------------------------------------------------------

LiveServer::LiveServer(int threads, std::string db)
    : LiveServer(
          [threads] {
            Config c;
            c.threads = threads;
            return c;
          }(),
          std::move(db)) {}

LiveServer::LiveServer(Config c, std::string db) : db_(std::move(db)) {
  if (db_.empty()) {
    static std::atomic<int> counter{0};
    own_dir_ = (std::filesystem::temp_directory_path() /
                ("atout-live-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                   .string();
    std::filesystem::remove_all(own_dir_);
    db_ = own_dir_ + "/atout.db";
  }
  c.bind = "127.0.0.1";
  c.port = 0;
  c.db = db_;
  server_ = std::make_unique<Server>(c);
  if (auto e = server_->open()) throw std::runtime_error(*e);
  port_ = server_->port();
  server_->start();
}

LiveServer::~LiveServer() {
  server_->stop();
  server_.reset();
  std::error_code ignored;
  if (!own_dir_.empty()) std::filesystem::remove_all(own_dir_, ignored);
}

// ---- test_client ---------------------------------------------------------------------------------

std::unique_ptr<ssl::context> client_context(const ClientTls& tls) {
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
  ctx->set_verify_mode(ssl::verify_peer);
  ctx->load_verify_file(tls.ca_file);
  return ctx;
}

TestClient::TestClient(unsigned short port, MessageLog* log, const ClientTls* tls) : log_(log) {
  const tcp::endpoint server(net::ip::make_address("127.0.0.1"), port);
  const std::string host = "127.0.0.1:" + std::to_string(port);
  if (tls) {
    ssl_ctx_ = client_context(*tls);
    tls_ws_.emplace(ioc_, *ssl_ctx_);
    beast::get_lowest_layer(*tls_ws_).connect(server);
    tls_ws_->next_layer().set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    tls_ws_->next_layer().handshake(ssl::stream_base::client);
    tls_ws_->handshake(host, "/ws");
  } else {
    plain_ws_.emplace(ioc_);
    beast::get_lowest_layer(*plain_ws_).connect(server);
    plain_ws_->handshake(host, "/ws");
  }
}

TestClient::~TestClient() {
  if (!open_) return;
  with_ws([](auto& ws) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
  });
}

void TestClient::send(const json& message) {
  const std::string text = message.dump();
  if (log_) log_->add('C', text);
  send_raw(text);
}

void TestClient::send_raw(std::string_view text, bool binary) {
  with_ws([&](auto& ws) {
    ws.binary(binary);
    ws.text(!binary);
    ws.write(net::buffer(text.data(), text.size()));
  });
}

std::optional<std::string> TestClient::read_text(std::chrono::milliseconds timeout) {
  if (!open_) return std::nullopt;
  bool done = false;
  beast::error_code result;
  with_ws([&](auto& ws) {
    ws.async_read(buffer_, [&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
  });
  ioc_.restart();
  ioc_.run_for(timeout);
  if (!done) {
    // A read cut short leaves the stream unusable; the test has failed anyway.
    with_ws([](auto& ws) { beast::get_lowest_layer(ws).socket().cancel(); });
    ioc_.restart();
    ioc_.run();
    open_ = false;
    return std::nullopt;
  }
  if (result) {
    open_ = false;
    const websocket::close_reason reason = with_ws([](auto& ws) { return ws.reason(); });
    close_code_ = reason.code;
    close_reason_ = std::string(reason.reason.data(), reason.reason.size());
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  if (log_) log_->add('S', text);
  return text;
}

std::optional<json> TestClient::next(std::chrono::milliseconds timeout) {
  if (!backlog_.empty()) {
    json j = std::move(backlog_.front());
    backlog_.pop_front();
    return j;
  }
  auto text = read_text(timeout);
  if (!text) return std::nullopt;
  return json::parse(*text);
}

std::optional<json> TestClient::next_of(std::string_view type, std::chrono::milliseconds timeout) {
  for (auto it = backlog_.begin(); it != backlog_.end(); ++it) {
    if ((*it)["type"] == type) {
      json j = std::move(*it);
      backlog_.erase(it);
      return j;
    }
  }
  for (;;) {
    auto text = read_text(timeout);
    if (!text) return std::nullopt;
    json j = json::parse(*text);
    if (j["type"] == type) return j;
    backlog_.push_back(std::move(j));
  }
}

json TestClient::request(json message) {
  message["id"] = next_id_;
  send(message);
  return reply_to(next_id_++, message);
}

json TestClient::request_unlogged(json message) {
  message["id"] = next_id_;
  send_raw(message.dump());
  return reply_to(next_id_++, message);
}

json TestClient::reply_to(std::int64_t id, const json& message) {
  for (auto it = backlog_.begin(); it != backlog_.end(); ++it) {
    if (it->contains("id") && (*it)["id"] == id) {
      json j = std::move(*it);
      backlog_.erase(it);
      return j;
    }
  }
  for (;;) {
    auto text = read_text(kReadTimeout);
    if (!text) return json{{"type", "no_reply"}, {"request", message}};
    json j = json::parse(*text);
    if (j.contains("id") && j["id"] == id) return j;
    backlog_.push_back(std::move(j));
  }
}

json TestClient::hello(const std::string& name) {
  return request({{"type", "hello"}, {"protocol", 1}, {"name", name}});
}

bool TestClient::no_events() {
  const json pong = request({{"type", "ping"}});
  if (pong["type"] != "pong") return false;
  for (const json& m : backlog_)
    if (m["type"] == "event") return false;
  return true;
}

// ---- HTTP ----------------------------------------------------------------------------------------

HttpReply http_get(unsigned short port, const std::string& target, const ClientTls* tls) {
  return http_exchange(port, http::request<http::string_body>(http::verb::get, target, 11), tls);
}

HttpReply http_exchange(unsigned short port, http::request<http::string_body> req, const ClientTls* tls) {
  net::io_context ioc;
  const tcp::endpoint server(net::ip::make_address("127.0.0.1"), port);
  if (!req.count(http::field::host)) req.set(http::field::host, "127.0.0.1");
  req.prepare_payload();
  http::response<http::string_body> res;
  beast::flat_buffer buffer;
  if (tls) {
    const std::unique_ptr<ssl::context> ctx = client_context(*tls);
    TlsStream stream(ioc, *ctx);
    beast::get_lowest_layer(stream).connect(server);
    stream.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    stream.handshake(ssl::stream_base::client);
    http::write(stream, req);
    http::read(stream, buffer, res);
    beast::error_code ignored;
    beast::get_lowest_layer(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
  } else {
    beast::tcp_stream stream(ioc);
    stream.connect(server);
    http::write(stream, req);
    http::read(stream, buffer, res);
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  }
  return {static_cast<unsigned>(res.result_int()), std::string(res[http::field::content_type]), res.body(),
          std::string(res[http::field::retry_after])};
}

// ---- The match driver ----------------------------------------------------------------------------

MatchSummary play_match(unsigned short port, const std::string& variant, MessageLog* log, std::uint64_t seed,
                        const ClientTls* tls) {
  MatchSummary out;
  const VariantInfo* info = find_variant(variant);
  EXPECT_NE(info, nullptr) << variant;
  if (!info) return out;
  const int players = info->players;
  Rng rng(Seed{0xB07u, seed});

  std::vector<std::unique_ptr<TestClient>> clients;  // seats 0..players-1, then the spectator
  for (int i = 0; i <= players; ++i) {
    clients.push_back(std::make_unique<TestClient>(port, log, tls));
    const json w = clients.back()->hello("bot-" + std::to_string(i));
    EXPECT_EQ(w["type"], "welcome") << w;
  }
  const json created = clients[0]->request({{"type", "create_table"}, {"variant", variant}});
  EXPECT_EQ(created["type"], "table_created") << created;
  if (created["type"] != "table_created") return out;
  out.table_id = created["table"]["table_id"];
  const json watching = clients.back()->request({{"type", "spectate"}, {"table_id", out.table_id}});
  EXPECT_EQ(watching["type"], "watching") << watching;
  for (int s = 0; s < players; ++s) {
    const json seated =
        clients[static_cast<std::size_t>(s)]->request({{"type", "sit"}, {"table_id", out.table_id}, {"seat", s}});
    EXPECT_EQ(seated["type"], "seated") << seated;
    EXPECT_EQ(seated["seat"], s);
  }

  std::uint64_t seq = 1;  // the start event
  std::vector<json> events(clients.size());
  for (;;) {
    // Every recipient sees event `seq` next: nothing skipped, nothing out of order.
    for (std::size_t c = 0; c < clients.size(); ++c) {
      for (;;) {
        auto m = clients[c]->next();
        if (!m) {
          ADD_FAILURE() << "recipient " << c << " got no event " << seq << " in " << variant;
          return out;
        }
        const std::string type = (*m)["type"];
        if (type == "table_update" || type == "accepted") continue;
        if (type != "event") {
          ADD_FAILURE() << "recipient " << c << " got " << *m;
          return out;
        }
        if ((*m)["seq"] != seq) {
          ADD_FAILURE() << "recipient " << c << " expected event " << seq << ", got " << *m;
          return out;
        }
        events[c] = std::move(*m);
        break;
      }
    }
    const bool over = events[0].contains("match_result");
    if (events[0].contains("hand_result")) ++out.hand_results;
    for (const json& e : events) {
      EXPECT_EQ(e.contains("match_result"), over);
      EXPECT_EQ(e["observation"]["phase"] == "match_over", over);
    }
    if (over) {
      out.match_result = events[0]["match_result"];
      break;
    }
    int actor = -1;
    for (int s = 0; s < players; ++s) {
      if (events[static_cast<std::size_t>(s)]["observation"]["legal"].empty()) continue;
      EXPECT_EQ(actor, -1) << "two seats offered actions at seq " << seq;
      actor = s;
    }
    EXPECT_TRUE(events.back()["observation"]["legal"].empty()) << "the spectator was offered actions";
    if (actor < 0) {
      ADD_FAILURE() << "nobody may act at seq " << seq << " of " << variant;
      return out;
    }
    const json& legal = events[static_cast<std::size_t>(actor)]["observation"]["legal"];
    const json action = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    clients[static_cast<std::size_t>(actor)]->send(
        {{"type", "action"}, {"table_id", out.table_id}, {"action", action}, {"id", static_cast<std::int64_t>(seq)}});
    ++out.actions;
    ++seq;
  }

  const json& result = out.match_result;
  EXPECT_EQ(static_cast<int>(result["hands"].size()), out.hand_results);
  EXPECT_FALSE(result["hands"].empty());
  if (!result["hands"].empty()) {
    EXPECT_EQ(result["hands"].back()["match_score"], result["match_score"]);
  }
  const int winner = result["winner"];
  EXPECT_TRUE(winner == 0 || winner == 1) << result;
  if (winner == 0 || winner == 1) {
    EXPECT_GT(result["match_score"][winner].get<int>(), result["match_score"][1 - winner].get<int>());
  }
  // Done with the table, everyone leaves it. (A connection that merely closed this soon after the
  // end would keep its seat for the reconnect window: the end might not have reached it.)
  for (auto& c : clients) {
    const json left = c->request({{"type", "leave"}, {"table_id", out.table_id}});
    EXPECT_EQ(left["type"], "ok") << left;
  }
  return out;
}

}  // namespace atout::server::testing
