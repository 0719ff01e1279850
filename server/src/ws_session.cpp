// The WebSocket session: accept, a read loop that dispatches typed requests, and a write queue.
#include "atout/server/ws_session.hpp"

#include <spdlog/spdlog.h>

#include "atout/server/table.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::RequestId;

ws_session::ws_session(tcp::socket&& socket, std::shared_ptr<context> ctx, ip_slot slot)
    : ws_(std::move(socket)),
      ctx_(std::move(ctx)),
      conn_(ctx_->next_conn.fetch_add(1)),
      credits_(ctx_->limits.msg_burst, ctx_->limits.msg_rate),
      slot_(std::move(slot)),
      keepalive_(ws_.get_executor()),
      last_heard_(std::chrono::steady_clock::now()) {
  ++ctx_->live_sessions;
}

ws_session::~ws_session() {
  --ctx_->live_sessions;
  if (counted_) ctx_->metrics->websockets_open.fetch_sub(1, std::memory_order_relaxed);
}

void ws_session::run(http::request<http::string_body> request) {
  // The HTTP timeout no longer applies; the WebSocket's own timeouts take over, with keep-alive
  // pings so an idle player waiting for a table is not dropped.
  beast::get_lowest_layer(ws_).expires_never();
  websocket::stream_base::timeout limits{};
  // The opening and closing handshakes are Beast's to time; silence is this session's
  // (arm_keepalive), so a read does not cost a timer cancellation and a new wait.
  limits.handshake_timeout = std::chrono::seconds(30);
  limits.idle_timeout = websocket::stream_base::none();
  limits.keep_alive_pings = false;
  ws_.set_option(limits);
  ws_.control_callback([this](websocket::frame_type, beast::string_view) {
    // Owned by ws_, so called only while this session lives.
    last_heard_ = std::chrono::steady_clock::now();
  });
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "atout-server"); }));
  ws_.read_message_max(kMaxMessageBytes);
  ctx_->sessions->add(conn_, weak_from_this());
  ws_.async_accept(request, beast::bind_front_handler(&ws_session::on_accept, shared_from_this()));
}

void ws_session::on_accept(beast::error_code ec) {
  if (ec) {
    spdlog::debug("conn {}: upgrade failed: {}", conn_, ec.message());
    return;
  }
  spdlog::debug("conn {}: open", conn_);
  counted_ = true;
  ctx_->metrics->websockets_open.fetch_add(1, std::memory_order_relaxed);
  ctx_->metrics->websockets_total.fetch_add(1, std::memory_order_relaxed);
  last_heard_ = std::chrono::steady_clock::now();
  arm_keepalive();
  do_read();
  if (ctx_->shutting_down)
    kick(protocol::Goodbye{protocol::Goodbye::Reason::shutdown, "the server is shutting down; reconnect later"},
         kCloseShutdown);
}

void ws_session::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&ws_session::on_read, shared_from_this()));
}

void ws_session::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    spdlog::debug("conn {}: closed: {}", conn_, ec.message());
    // Beast has already sent 1009 for an oversized message.
    if (ec == websocket::error::message_too_big)
      ctx_->metrics->oversized_closes.fetch_add(1, std::memory_order_relaxed);
    read_ended_ = true;
    close_down();
    keepalive_.cancel();  // a tick already queued sees read_ended_
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  last_heard_ = now;
  // Kicked (replaced, or the server is stopping): requests still in flight are not handled, but
  // the read goes on so that the closing handshake completes, for at most the close grace (see
  // on_keepalive).
  if (closed_) {
    buffer_.consume(buffer_.size());
    return do_read();
  }
  if (!credits_.take(now)) {
    spdlog::info("conn {}: closed for flooding", conn_);
    ctx_->metrics->flood_closes.fetch_add(1, std::memory_order_relaxed);
    buffer_.consume(buffer_.size());
    close_with(websocket::close_code::policy_error, "too many messages; slow down");
    // No read follows: Beast's closing handshake times the rest out, so the keep-alive does not
    // count this connection a second time, as an idle drop.
    read_ended_ = true;
    keepalive_.cancel();
    return;
  }
  if (!ws_.got_text()) {
    buffer_.consume(buffer_.size());
    reply_error(ErrorCode::bad_json, "send JSON in text frames; binary frames are not read", {});
  } else {
    const std::string request = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    try {
      handle(request);
    } catch (const std::exception& e) {
      // Parsing never throws by design; should anything else, this client alone hears of it.
      spdlog::error("conn {}: request failed: {}", conn_, e.what());
      reply_error(ErrorCode::internal_error, "the server could not handle that request", {});
    }
  }
  // A large request must not leave a large buffer behind on an idle connection.
  if (buffer_.capacity() > 4096) buffer_.shrink_to_fit();
  do_read();
}

// ---- Writing -------------------------------------------------------------------------------------

void ws_session::send(std::shared_ptr<const std::string> message) {
  net::post(ws_.get_executor(),
            [self = shared_from_this(), message = std::move(message)]() mutable { self->on_send(std::move(message)); });
}

void ws_session::on_send(std::shared_ptr<const std::string> message) {
  if (closed_) return;
  ctx_->metrics->count_if_error(*message);
  const session_limits& limits = ctx_->limits;
  // One message is always taken, however large, so only a backlog can trip the byte limit.
  if (queue_.size() >= limits.max_queue_messages ||
      (!queue_.empty() && queued_bytes_ + message->size() > limits.max_queue_bytes)) {
    spdlog::warn("conn {}: {} messages ({} bytes) unread; disconnecting a client that does not read", conn_,
                 queue_.size(), queued_bytes_);
    ctx_->metrics->queue_drops.fetch_add(1, std::memory_order_relaxed);
    close_down();
    // No close frame: the client is not reading, so it would only queue behind the rest.
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    return;
  }
  queued_bytes_ += message->size();
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) do_write();
}

void ws_session::do_write() {
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&ws_session::on_write, shared_from_this()));
}

void ws_session::on_write(beast::error_code ec, std::size_t) {
  // Once closed (by the peer, or by us with a close frame), what is still queued is dropped; a
  // kick instead writes its goodbye and what precedes it, then closes.
  if (ec || (closed_ && close_after_write_ == 0)) {
    queue_.clear();
    queued_bytes_ = 0;
    close_down();
    return;
  }
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_after_write_ != 0) {
    const websocket::close_reason reason(close_after_write_);
    close_after_write_ = 0;
    ws_.async_close(reason, [self = shared_from_this()](beast::error_code) {});
  }
}

// ---- Keep-alive ----------------------------------------------------------------------------------

void ws_session::arm_keepalive() {
  const auto half = ctx_->limits.idle_timeout / 2;
  const auto silent = std::chrono::steady_clock::now() - last_heard_;
  // Next: the ping, or once it is due or out, the drop; for a closed session, the end of its grace
  // if that comes first.
  auto next = last_heard_ + (silent < half ? half : ctx_->limits.idle_timeout);
  if (closed_) next = std::min(next, closed_at_ + ctx_->limits.close_grace);
  keepalive_.expires_at(next);
  keepalive_.async_wait([weak = weak_from_this()](beast::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->on_keepalive();
  });
}

void ws_session::on_keepalive() {
  if (read_ended_) return;  // the connection is gone; it was counted by how it ended
  const auto now = std::chrono::steady_clock::now();
  const auto silent = now - last_heard_;
  // Closed sessions too: a kicked peer that neither reads its goodbye nor says anything goes.
  if (silent >= ctx_->limits.idle_timeout) {
    spdlog::debug("conn {}: dropped: silent for {} ms", conn_, ctx_->limits.idle_timeout.count());
    ctx_->metrics->idle_drops.fetch_add(1, std::memory_order_relaxed);
    drop_socket();
    close_down();
    return;
  }
  // A closed session whose peer has not finished the close: it keeps talking without answering
  // the close frame, or never reads what precedes it.
  if (closed_ && now - closed_at_ >= ctx_->limits.close_grace) {
    spdlog::debug("conn {}: cut: not closed {} ms after the server closed it", conn_, ctx_->limits.close_grace.count());
    ctx_->metrics->closing_cuts.fetch_add(1, std::memory_order_relaxed);
    drop_socket();
    return;
  }
  // Beast allows one ping at a time beside a write; a ping still waiting behind a backlog counts.
  if (!closed_ && silent >= ctx_->limits.idle_timeout / 2 && !pinging_) {
    pinging_ = true;
    ws_.async_ping({}, [self = shared_from_this()](beast::error_code) { self->pinging_ = false; });
  }
  arm_keepalive();
}

void ws_session::kick(protocol::Goodbye goodbye, std::uint16_t code) {
  net::post(ws_.get_executor(), [self = shared_from_this(), goodbye = std::move(goodbye), code] {
    if (self->closed_) return;
    self->on_send(wire(goodbye));
    self->close_down();
    if (self->queue_.empty()) {
      self->ws_.async_close(websocket::close_reason(code), [self](beast::error_code) {});
    } else {
      self->close_after_write_ = code;
    }
  });
}

// ---- Membership ----------------------------------------------------------------------------------

void ws_session::joined(const std::string& table_id, std::weak_ptr<table> t) {
  net::post(ws_.get_executor(), [self = shared_from_this(), table_id, t = std::move(t)]() mutable {
    // A table that seats us after we closed must still learn that we are gone.
    if (self->closed_) {
      if (auto live = t.lock()) live->detach(self->conn_);
      return;
    }
    self->tables_[table_id] = std::move(t);
  });
}

void ws_session::departed(const std::string& table_id) {
  net::post(ws_.get_executor(), [self = shared_from_this(), table_id] { self->tables_.erase(table_id); });
}

void ws_session::close_down() {
  if (closed_) return;
  closed_ = true;
  closed_at_ = std::chrono::steady_clock::now();
  // The grace starts now (re-arming cancels the tick pending).
  if (!read_ended_) arm_keepalive();
  ctx_->sessions->remove(conn_, player_ ? player_->id : std::string());
  ctx_->lobby->drop(conn_);
  for (auto& [id, t] : tables_)
    if (auto live = t.lock()) live->detach(conn_);
  tables_.clear();
}

void ws_session::drop_socket() {
  read_ended_ = true;  // counted by the caller: the read this fails, and any tick, are not
  keepalive_.cancel();
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

void ws_session::close_with(websocket::close_code code, std::string_view reason) {
  close_down();
  // Beast holds the close frame back until a write in progress is done.
  ws_.async_close(websocket::close_reason(code, reason), [self = shared_from_this()](beast::error_code ec) {
    if (ec) spdlog::debug("conn {}: close: {}", self->conn_, ec.message());
  });
}

member ws_session::me() {
  member m;
  m.conn = conn_;
  if (player_) {
    m.player_id = player_->id;
    m.name = player_->name;
  }
  m.link = weak_from_this();
  m.ack = ack_;
  return m;
}

void ws_session::reply_error(ErrorCode code, std::string message, const RequestId& id) {
  protocol::Error e;
  e.code = code;
  e.message = std::move(message);
  on_send(wire(e, id));
}

// ---- Requests ------------------------------------------------------------------------------------

void ws_session::handle(std::string_view request) {
  protocol::ParsedRequest parsed = protocol::parse_request(request);
  if (auto* e = std::get_if<protocol::Error>(&parsed.body)) {
    on_send(wire(*e, parsed.id));
    return;
  }
  // Shutting down: nothing new is accepted, so what is saved is what was acknowledged.
  if (ctx_->shutting_down) return;
  const auto& r = std::get<protocol::Request>(parsed.body);
  const bool anonymous_ok = std::holds_alternative<protocol::Hello>(r) || std::holds_alternative<protocol::Ping>(r);
  if (!player_ && !anonymous_ok) return reply_error(ErrorCode::hello_required, "say hello first", parsed.id);
  std::visit([&](const auto& x) { handle(x, parsed.id); }, r);
}

void ws_session::handle(const protocol::Hello& r, const RequestId& id) {
  if (player_) return reply_error(ErrorCode::already_identified, "this connection is already " + player_->id, id);
  protocol::Welcome w;
  if (r.token) {
    auto who = ctx_->players->resume(*r.token);
    if (!who) return reply_error(ErrorCode::unknown_token, "no player has that token", id);
    player_ = *who;
    w.token = *r.token;
    w.resumed = true;
  } else {
    auto issued = ctx_->players->create_guest(r.name);
    player_ = issued.who;
    w.token = std::move(issued.token);
  }
  w.player_id = player_->id;
  w.name = player_->name;
  ack_ = r.ack;
  // One connection per identity: a newer one takes over, and the older is told why it closes.
  if (auto previous = ctx_->sessions->bind(player_->id, conn_))
    previous->kick(protocol::Goodbye{protocol::Goodbye::Reason::replaced, "a newer connection resumed " + player_->id},
                   kCloseReplaced);
  if (!w.resumed) return on_send(wire(w, id));
  ctx_->lobby->held_seats(player_->id, [link = weak_from_this(), w = std::move(w), resume = r.resume,
                                        id](std::vector<protocol::HeldSeat> seats) mutable {
    auto self = link.lock();
    if (!self) return;
    w.seats = std::move(seats);
    net::post(self->ws_.get_executor(), [self, w = std::move(w), resume = std::move(resume), id]() mutable {
      self->welcome(std::move(w), std::move(resume), id);
    });
  });
}

void ws_session::welcome(protocol::Welcome w, std::vector<protocol::ResumeAt> resume, const RequestId& id) {
  if (closed_) return;
  on_send(wire(w, id));
  // Each resumed table answers with `seated` (or an error) and the events missed since last_seq.
  for (const protocol::ResumeAt& at : resume)
    handle(protocol::Sit{{at.table_id, std::nullopt}, std::nullopt, at.last_seq}, {});
}

void ws_session::handle(const protocol::ListVariants&, const RequestId& id) {
  protocol::VariantList list;
  for (const VariantInfo& v : variants()) list.variants.push_back(&v);
  on_send(wire(list, id));
}

void ws_session::handle(const protocol::ListTables&, const RequestId& id) {
  ctx_->lobby->list([link = weak_from_this(), id](protocol::TableList tables) {
    if (auto self = link.lock()) self->send(wire(tables, id));
  });
}

void ws_session::handle(const protocol::SubscribeLobby&, const RequestId& id) { ctx_->lobby->subscribe(me(), id); }

void ws_session::handle(const protocol::UnsubscribeLobby&, const RequestId& id) { ctx_->lobby->unsubscribe(me(), id); }

void ws_session::handle(const protocol::CreateTable& r, const RequestId& id) { ctx_->lobby->create(r, me(), id); }

void ws_session::handle(const protocol::Sit& r, const RequestId& id) {
  // Taking back a held seat finds a private table by id too: the table itself then refuses anyone
  // it holds no seat for, as if it did not exist.
  const bool resuming = r.last_seq.has_value();
  ctx_->lobby->find(r.where, !resuming,
                    [m = me(), seat = r.seat, id, last_seq = r.last_seq](std::shared_ptr<table> t, auto error) {
                      if (error) return deliver(m.link, wire(*error, id));
                      t->sit(m, seat, id, last_seq);
                    });
}

void ws_session::handle(const protocol::Spectate& r, const RequestId& id) {
  ctx_->lobby->find(r.where, true, [m = me(), id, last_seq = r.last_seq](std::shared_ptr<table> t, auto error) {
    if (error) return deliver(m.link, wire(*error, id));
    t->spectate(m, id, last_seq);
  });
}

template <typename Fn>
void ws_session::with_member_table(const std::string& table_id, const RequestId& id, Fn fn) {
  if (const auto it = tables_.find(table_id); it != tables_.end()) {
    if (auto t = it->second.lock()) return fn(t);
  }
  ctx_->lobby->find(protocol::TableRef{table_id, std::nullopt}, false,
                    [link = weak_from_this(), id, fn](std::shared_ptr<table> t, auto error) {
                      if (error) {
                        if (auto self = link.lock()) self->send(wire(*error, id));
                        return;
                      }
                      fn(t);
                    });
}

void ws_session::handle(const protocol::Stand& r, const RequestId& id) {
  with_member_table(r.table_id, id, [m = me(), id](const std::shared_ptr<table>& t) { t->stand(m, id); });
}

void ws_session::handle(const protocol::Leave& r, const RequestId& id) {
  with_member_table(r.table_id, id, [m = me(), id](const std::shared_ptr<table>& t) { t->leave(m, id); });
}

void ws_session::handle(const protocol::Act& r, const RequestId& id) {
  with_member_table(r.table_id, id,
                    [m = me(), action = r.action, id](const std::shared_ptr<table>& t) { t->act(m, action, id); });
}

void ws_session::handle(const protocol::Ping&, const RequestId& id) { on_send(wire(protocol::Pong{}, id)); }

void ws_session::handle(const protocol::Chat& r, const RequestId& id) {
  // A token bucket: chat can never crowd out play, whatever a client sends.
  const auto now = std::chrono::steady_clock::now();
  const double refill = std::chrono::duration<double>(now - chat_refill_) / kChatInterval;
  chat_credit_ = std::min(kChatBurst, chat_credit_ + refill);
  chat_refill_ = now;
  if (chat_credit_ < 1) {
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>((1 - chat_credit_) * kChatInterval);
    return reply_error(ErrorCode::chat_too_fast,
                       "chat is limited to " + std::to_string(static_cast<int>(kChatBurst)) +
                           " lines at once and one a second; wait " + std::to_string(wait.count()) + " ms",
                       id);
  }
  chat_credit_ -= 1;
  if (!r.table_id) return ctx_->lobby->chat(me(), r.text, id);
  with_member_table(*r.table_id, id,
                    [m = me(), text = r.text, id](const std::shared_ptr<table>& t) { t->chat(m, text, id); });
}

template <typename Request>
void ws_session::ask_archive(const Request& r, const RequestId& id) {
  if (!ctx_->archive) return reply_error(ErrorCode::internal_error, "this server keeps no records", id);
  ctx_->archive->ask(r, [link = weak_from_this(), id](archive::reply reply) {
    if (auto self = link.lock()) self->send(std::make_shared<const std::string>(archive::message(reply, id)));
  });
}

void ws_session::handle(const protocol::GetProfile& r, const RequestId& id) { ask_archive(r, id); }
void ws_session::handle(const protocol::GetLeaderboard& r, const RequestId& id) { ask_archive(r, id); }
void ws_session::handle(const protocol::GetHistory& r, const RequestId& id) { ask_archive(r, id); }
void ws_session::handle(const protocol::GetReplay& r, const RequestId& id) { ask_archive(r, id); }

}  // namespace atout::server
