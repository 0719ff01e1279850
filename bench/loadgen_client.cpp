// The load generator's connections and scripted tables. Server messages are read with cheap
// substring checks (protocol::serialize writes keys sorted), and only the legal actions of the
// seat to act are parsed as JSON: the generator must cost the shared cores less than the server.
#include "loadgen_client.hpp"

#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "atout/protocol/view_delta.hpp"

namespace atout::loadgen {

namespace {

// glibc's memmem (two-way search) rather than string_view::find, which calls memcmp at every
// occurrence of the first character: in JSON, every quote (12 % of the generator's time).
std::size_t find(std::string_view text, std::string_view what) {
  const void* at = memmem(text.data(), text.size(), what.data(), what.size());
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - text.data()) : std::string_view::npos;
}

bool contains(std::string_view text, std::string_view what) { return find(text, what) != std::string_view::npos; }

// The value of the last "table_id" key: the top-level one, as keys are sorted and nested objects
// of an event come before it.
std::string_view table_id_of(std::string_view text) {
  constexpr std::string_view kKey = R"("table_id":")";
  const auto at = text.rfind(kKey);
  if (at == std::string_view::npos) return {};
  const auto start = at + kKey.size();
  return text.substr(start, text.find('"', start) - start);
}

// The elements of the JSON array after `"legal":`, as text; empty when absent or empty. Only the
// array's own commas split it (strings and nested brackets are skipped), so nothing is parsed.
std::vector<std::string_view> legal_elements(std::string_view text) {
  std::vector<std::string_view> out;
  constexpr std::string_view kKey = R"("legal":[)";
  const auto at = find(text, kKey);
  if (at == std::string_view::npos) return out;
  std::size_t start = at + kKey.size();
  int depth = 1;
  bool in_string = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if ((c == ',' && depth == 1) || depth == 0) {
      if (i > start) out.push_back(text.substr(start, i - start));
      start = i + 1;
      if (depth == 0) break;
    }
  }
  return out;
}

std::string error_code_of(std::string_view text) {
  constexpr std::string_view kKey = R"({"code":")";
  if (text.substr(0, kKey.size()) != kKey) return "unparsed";
  const auto rest = text.substr(kKey.size());
  return std::string(rest.substr(0, rest.find('"')));
}

}  // namespace

// ---- Measuring -----------------------------------------------------------------------------------

CpuTimes cpu_times(int pid) {
  if (pid <= 0) return {};
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return {};
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  const auto tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
  return {static_cast<double>(utime) / tick, static_cast<double>(stime) / tick};
}

double cpu_seconds(int pid) {
  const CpuTimes t = cpu_times(pid);
  return t.user < 0 ? -1 : t.user + t.system;
}

// The soft limit on open files raised to the hard one: thousands of connections need it.
void raise_fd_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &r);
  }
}

// The `p` quantile (0 to 1) of sorted round trips in µs, in ms; 0 when there are none.
double percentile(const std::vector<std::uint32_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)] / 1000.0;
}

// ---- connection ----------------------------------------------------------------------------------

std::unique_ptr<ssl::context> client_tls(const std::string& ca_file) {
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
  ctx->set_verify_mode(ssl::verify_peer);
  ctx->load_verify_file(ca_file);
  return ctx;
}

// Over TLS when the worker has a client context.
Connection::Stream Connection::make_stream(WorkerState& w) {
  if (w.tls) return Stream(std::in_place_index<1>, w.ioc, *w.tls);
  return Stream(std::in_place_index<0>, w.ioc);
}

Connection::Connection(WorkerState& w) : w_(w), ws_(make_stream(w)) {}

tcp::socket& Connection::socket() {
  return with_ws([](auto& ws) -> tcp::socket& { return beast::get_lowest_layer(ws).socket(); });
}

void Connection::start(OpenFn on_open, MessageFn on_message) {
  on_message_ = std::move(on_message);
  with_ws([](auto& ws) { beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(30)); });
  if (!w_.sources.empty()) {
    // Bound before connecting: each source address has its own range of ephemeral ports.
    const auto& source = w_.sources[w_.next_source++ % w_.sources.size()];
    beast::error_code ec;
    socket().open(source.is_v4() ? tcp::v4() : tcp::v6(), ec);
    if (!ec) socket().bind(tcp::endpoint(source, 0), ec);
    if (ec) {
      net::post(w_.ioc, [on_open = std::move(on_open)]() mutable { on_open(false); });
      return;
    }
  }
  with_ws([&](auto& ws) {
    beast::get_lowest_layer(ws).async_connect(
        w_.server, [self = shared_from_this(), on_open = std::move(on_open)](beast::error_code ec) mutable {
          if (ec) return on_open(false);
          self->socket().set_option(tcp::no_delay(true));
          auto* tls = std::get_if<TlsWs>(&self->ws_);
          if (!tls) return self->upgrade(std::move(on_open));
          // The server's certificate must name the address connected to.
          tls->next_layer().set_verify_callback(ssl::host_name_verification(self->w_.server.address().to_string()));
          tls->next_layer().async_handshake(ssl::stream_base::client,
                                            [self, on_open = std::move(on_open)](beast::error_code tls_ec) mutable {
                                              if (tls_ec) return on_open(false);
                                              self->upgrade(std::move(on_open));
                                            });
        });
  });
}

// The WebSocket handshake, once connected (and over TLS, once its handshake is done).
void Connection::upgrade(OpenFn on_open) {
  const std::string host = w_.server.address().to_string() + ":" + std::to_string(w_.server.port());
  with_ws([&](auto& ws) {
    ws.async_handshake(host, "/ws",
                       [self = shared_from_this(), on_open = std::move(on_open)](beast::error_code ec) mutable {
                         self->with_ws([](auto& s) { beast::get_lowest_layer(s).expires_never(); });
                         if (ec) return on_open(false);
                         self->open_ = true;
                         self->with_ws([](auto& s) { s.text(true); });
                         on_open(true);
                         self->do_read();
                       });
  });
}

void Connection::send(std::string text) {
  if (!open_) return;
  out_.push_back(std::move(text));
  if (!writing_) do_write();
}

void Connection::do_write() {
  writing_ = true;
  with_ws([&](auto& ws) {
    ws.async_write(net::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->writing_ = false;
      if (ec) {
        self->out_.clear();
        return;
      }
      self->out_.pop_front();
      if (!self->out_.empty()) self->do_write();
    });
  });
}

void Connection::do_read() {
  with_ws([&](auto& ws) {
    ws.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        if (self->open_ && !self->w_.stopping) ++self->w_.stats.closed_early;
        self->open_ = false;
        return;
      }
      const auto data = self->buffer_.cdata();
      if (self->w_.measuring) self->w_.stats.received_bytes += data.size();
      self->on_message_(std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->buffer_.consume(self->buffer_.size());
      self->do_read();
    });
  });
}

void Connection::close() {
  open_ = false;
  beast::error_code ignored;
  socket().close(ignored);
}

// ---- table_bot -----------------------------------------------------------------------------------

TableBot::TableBot(WorkerState& w, int players, std::uint64_t seed, std::string server_bots)
    : w_(w),
      sent_(static_cast<std::size_t>(players)),
      pending_(static_cast<std::size_t>(players), false),
      pending_mark_(static_cast<std::size_t>(players)),
      views_(static_cast<std::size_t>(players)),
      server_bots_(std::move(server_bots)),
      own_level_mark_(R"("by_bot":")" + server_bots_ + '"'),
      rng_(Seed{0x10AD, seed}),
      think_(w.ioc) {
  // With server bots, only seat 0 is a connection of ours.
  const int connections = server_bots_.empty() ? players : 1;
  for (int s = 0; s < connections; ++s) seats_.push_back(std::make_shared<Connection>(w));
}

void TableBot::connect(std::function<void(bool)> on_ready) {
  auto shared_ready = std::make_shared<std::function<void(bool)>>(std::move(on_ready));
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    seats_[s]->start(
        [self = shared_from_this(), shared_ready](bool ok) {
          if (self->failed_) return;
          if (!ok) {
            self->failed_ = true;
            ++self->w_.stats.connect_failures;
            ++self->w_.stats.tables_failed;
            return (*shared_ready)(false);
          }
          if (++self->connected_ == static_cast<int>(self->seats_.size())) (*shared_ready)(true);
        },
        // Weak: the bot owns its connections, so a strong reference here would be a cycle.
        [weak = weak_from_this(), seat = static_cast<int>(s)](std::string_view text) {
          if (auto self = weak.lock()) self->on_message(seat, text);
        });
  }
}

void TableBot::play() {
  for (std::size_t s = 0; s < seats_.size(); ++s)
    seats_[s]->send(R"({"type":"hello","protocol":1,"name":"load)" + std::to_string(s) +
                    (w_.ack_event ? R"(","ack":"event")" : R"(")") + (w_.deltas ? R"(,"views":"delta"})" : "}"));
  create_table();
}

void TableBot::create_table() {
  nlohmann::json request = {{"type", "create_table"},
                            {"variant", w_.variant},
                            {"settings", {{"turn_ms", w_.turn_ms}, {"rated", false}}},
                            {"id", "create"}};
  // The server seats its bots and then the creator, in seat 0, and starts the match.
  if (!server_bots_.empty()) request["bots"] = {{"level", server_bots_}};
  seats_[0]->send(request.dump());
}

void TableBot::close() {
  think_.cancel();
  for (auto& c : seats_) c->close();
}

void TableBot::on_message(int seat, std::string_view text) {
  if (w_.stopping) return;
  const auto s = static_cast<std::size_t>(seat);
  if (contains(text, R"("type":"event")")) {
    if (w_.deltas) views_[s] = nlohmann::json::parse(text);  // the new base of this seat's deltas
    return on_event(seat, text);
  }
  if (w_.deltas && contains(text, R"("type":"delta")")) {
    // Rebuilt whole (docs/protocol.md, Deltas), then read as any event is.
    nlohmann::json& held = views_[s];
    // The last delta of a finished match can come after the next table's first event (the two
    // tables send on strands of their own); on_event would drop it anyway.
    if (held.is_object() && held.value("table_id", "") != table_id_of(text)) return;
    auto rebuilt = protocol::rebuild_event(held, nlohmann::json::parse(text));
    if (!rebuilt) {
      ++w_.stats.errors["delta_out_of_step"];
      return;
    }
    held = std::move(*rebuilt);
    return on_event(seat, held.dump());
  }
  if (contains(text, R"("type":"accepted")")) {
    if (pending_[s]) accepted(s);
    return;
  }
  if (text.substr(0, 9) == R"({"code":")") {
    ++w_.stats.errors[error_code_of(text)];
    pending_[s] = false;
    return;
  }
  if (seat == 0 && contains(text, R"("type":"table_created")")) {
    table_id_ = nlohmann::json::parse(text)["table"]["table_id"].get<std::string>();
    if (!server_bots_.empty()) return;  // seated by the server
    for (std::size_t i = 0; i < seats_.size(); ++i)
      seats_[i]->send(nlohmann::json{{"type", "sit"}, {"table_id", table_id_}, {"seat", i}}.dump());
  }
}

void TableBot::accepted(std::size_t s) {
  pending_[s] = false;
  if (!server_bots_.empty()) {
    // The round trip here includes the bots' thinking: counted, but not as a figure of the tables.
    if (w_.measuring) ++w_.stats.bot_table_actions;
    return;
  }
  ++w_.stats.all_actions;
  if (w_.measuring) {
    ++w_.stats.actions;
    const auto rtt = std::chrono::duration_cast<std::chrono::microseconds>(Steady::now() - sent_[s]).count();
    w_.stats.rtt_us.push_back(static_cast<std::uint32_t>(rtt));
  }
  if (w_.on_action) w_.on_action();
}

void TableBot::on_event(int seat, std::string_view text) {
  if (table_id_.empty() || table_id_of(text) != table_id_) return;  // an event of a finished match
  // With ack "event", the event answering this seat's action carries its id just before "kind"
  // (keys are sorted, and the id is a top-level key only there).
  if (w_.ack_event && pending_[static_cast<std::size_t>(seat)] &&
      contains(text, pending_mark_[static_cast<std::size_t>(seat)]))
    accepted(static_cast<std::size_t>(seat));
  if (!server_bots_.empty() && w_.measuring) {
    if (contains(text, own_level_mark_))
      ++w_.stats.bot_decisions;
    else if (contains(text, R"("by_bot":)"))
      ++w_.stats.bot_stand_ins;  // the workers were full: the rules bot chose on the table's strand
    else if (contains(text, R"("by_server":true)"))
      ++w_.stats.bot_fallbacks;  // no bot was free to answer
  }
  if (contains(text, R"("match_result":)")) {
    if (seat != 0) return;
    if (w_.measuring && server_bots_.empty()) ++w_.stats.matches;
    const std::string leave = nlohmann::json{{"type", "leave"}, {"table_id", table_id_}}.dump();
    for (auto& c : seats_) c->send(leave);
    table_id_.clear();
    create_table();
    return;
  }
  if (seat == 0 && !started_ && contains(text, R"("kind":"start")")) {
    started_ = true;
    ++(server_bots_.empty() ? w_.stats.tables_started : w_.stats.bot_tables_started);
  }
  const std::vector<std::string_view> legal = legal_elements(text);
  if (legal.empty()) return;  // not this seat's turn
  const std::string_view action = legal[rng_.below(static_cast<std::uint32_t>(legal.size()))];
  std::string request = R"({"type":"action","table_id":")";
  request.append(table_id_).append(R"(","action":)").append(action);
  const std::int64_t id = next_id_++;
  request.append(R"(,"id":)").append(std::to_string(id)).append("}");
  if (w_.think_ms <= 0) return act(seat, std::move(request), id);
  // A player's thinking time, spread over [think/2, 3 think/2] so tables do not move in step.
  const auto think =
      std::chrono::microseconds(500 * w_.think_ms + rng_.below(static_cast<std::uint32_t>(1000 * w_.think_ms) + 1));
  think_.expires_after(think);
  think_.async_wait([weak = weak_from_this(), seat, request = std::move(request), id](beast::error_code ec) mutable {
    auto self = weak.lock();
    if (ec || !self || self->w_.stopping) return;
    self->act(seat, std::move(request), id);
  });
}

void TableBot::act(int seat, std::string request, std::int64_t id) {
  const auto s = static_cast<std::size_t>(seat);
  pending_[s] = true;
  if (w_.ack_event) pending_mark_[s] = R"("id":)" + std::to_string(id) + R"(,"kind":)";
  sent_[s] = Steady::now();
  seats_[s]->send(std::move(request));
}

// ---- idle connections ----------------------------------------------------------------------------

void open_idle(WorkerState& w, std::vector<std::shared_ptr<Connection>>& keep, std::function<void(bool)> done) {
  auto c = std::make_shared<Connection>(w);
  keep.push_back(c);
  auto shared_done = std::make_shared<std::function<void(bool)>>(std::move(done));
  auto welcomed = std::make_shared<bool>(false);
  std::weak_ptr<Connection> weak = c;
  c->start(
      [weak, shared_done, &w](bool ok) {
        if (!ok) {
          ++w.stats.connect_failures;
          return (*shared_done)(false);
        }
        if (auto self = weak.lock()) self->send(R"({"type":"hello","protocol":1,"name":"idle"})");
      },
      [shared_done, welcomed, &w](std::string_view text) {
        if (*welcomed || !contains(text, R"("type":"welcome")")) return;
        *welcomed = true;
        ++w.stats.idle_ready;
        (*shared_done)(true);
      });
}

}  // namespace atout::loadgen
