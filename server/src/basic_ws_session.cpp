// The WebSocket transport, over plain TCP or TLS: accept, a read loop that hands text frames to the
// router, a bounded write queue, the keep-alive timer, and end(reason).
#include "atout/server/basic_ws_session.hpp"

#include <spdlog/spdlog.h>

namespace atout::server {

using protocol::ErrorCode;

template <typename Stream>
BasicWsSession<Stream>::BasicWsSession(Stream&& stream, std::shared_ptr<Context> ctx, IpSlot slot,
                                       std::shared_ptr<ssl::context> tls)
    : tls_(std::move(tls)),
      ws_(std::move(stream)),
      ctx_(std::move(ctx)),
      conn_(ctx_->next_conn.fetch_add(1)),
      credits_(ctx_->limits.msg_burst, ctx_->limits.msg_rate),
      slot_(std::move(slot)),
      keepalive_timer_(ws_.get_executor()),
      keepalive_(ctx_->limits.idle_timeout, ctx_->limits.close_grace, std::chrono::steady_clock::now()),
      router_(ctx_, *this) {
  ++ctx_->live_sessions;
}

template <typename Stream>
BasicWsSession<Stream>::~BasicWsSession() {
  --ctx_->live_sessions;
  if (state_ != State::upgrading) ctx_->metrics->websockets_open.fetch_sub(1, std::memory_order_relaxed);
}

template <typename Stream>
void BasicWsSession<Stream>::run(http::request<http::string_body> request) {
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
    keepalive_.heard(std::chrono::steady_clock::now());
  });
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "atout-server"); }));
  ws_.read_message_max(kMaxMessageBytes);
  ctx_->sessions->add(conn_, this->weak_from_this());
  ws_.async_accept(request, beast::bind_front_handler(&BasicWsSession::on_accept, this->shared_from_this()));
}

template <typename Stream>
void BasicWsSession<Stream>::post(std::function<void()> fn) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), fn = std::move(fn)] { fn(); });
}

template <typename Stream>
void BasicWsSession<Stream>::on_accept(beast::error_code ec) {
  if (ec) {
    spdlog::debug("conn {}: upgrade failed: {}", conn_, ec.message());
    return;
  }
  spdlog::debug("conn {}: open", conn_);
  state_ = State::open;
  ctx_->metrics->websockets_open.fetch_add(1, std::memory_order_relaxed);
  ctx_->metrics->websockets_total.fetch_add(1, std::memory_order_relaxed);
  keepalive_.heard(std::chrono::steady_clock::now());
  arm_keepalive();
  do_read();
  // A shutdown that began during the upgrade kicks the connection now (kick ignores one that is
  // still upgrading).
  if (ctx_->shutting_down)
    kick(protocol::Goodbye{protocol::Goodbye::Reason::shutdown, "the server is shutting down; reconnect later"},
         kCloseShutdown);
}

// ---- Reading -------------------------------------------------------------------------------------

template <typename Stream>
void BasicWsSession<Stream>::do_read() {
  // A connection spends most of its life waiting here, so the wait holds a small buffer: Beast's
  // own read asks for 1,536 bytes up front. A request longer than kFirstReadBytes is read on,
  // whole, by on_read.
  ws_.async_read_some(buffer_, kFirstReadBytes,
                      beast::bind_front_handler(&BasicWsSession::on_read, this->shared_from_this()));
}

template <typename Stream>
void BasicWsSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    spdlog::debug("conn {}: closed: {}", conn_, ec.message());
    return end(ec == websocket::error::message_too_big ? EndReason::too_big : EndReason::peer_gone);
  }
  if (!ws_.is_message_done()) {
    // The rest of a longer request (read_message_max still bounds the whole message).
    return ws_.async_read(buffer_, beast::bind_front_handler(&BasicWsSession::on_read, this->shared_from_this()));
  }
  const auto now = std::chrono::steady_clock::now();
  keepalive_.heard(now);
  // Closing (kicked, replaced, or the server is stopping): requests still in flight are not
  // handled, but the read goes on so that the closing handshake completes, for at most the close
  // grace (see keepalive).
  if (state_ != State::open) {
    buffer_.consume(buffer_.size());
    return do_read();
  }
  if (!credits_.take(now)) {
    spdlog::info("conn {}: closed for flooding", conn_);
    buffer_.consume(buffer_.size());
    return end(EndReason::flooding);
  }
  if (!ws_.got_text()) {
    buffer_.consume(buffer_.size());
    router_.reply_error(ErrorCode::bad_json, "send JSON in text frames; binary frames are not read", {});
  } else {
    const std::string request = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    try {
      router_.handle(request, now);
    } catch (const std::exception& e) {
      // Parsing never throws by design; should anything else, this client alone hears of it.
      spdlog::error("conn {}: request failed: {}", conn_, e.what());
      router_.reply_error(ErrorCode::internal_error, "the server could not handle that request", {});
    }
  }
  // A longer request must not leave a larger buffer behind on an idle connection.
  if (buffer_.capacity() > kFirstReadBytes) buffer_.shrink_to_fit();
  do_read();
}

// ---- Writing -------------------------------------------------------------------------------------

template <typename Stream>
void BasicWsSession<Stream>::send(std::shared_ptr<const std::string> message) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), message = std::move(message)]() mutable {
    self->on_send(std::move(message));
  });
}

template <typename Stream>
void BasicWsSession<Stream>::on_send(std::shared_ptr<const std::string> message) {
  if (state_ != State::open) return;
  const SessionLimits& limits = ctx_->limits;
  // One message is always taken, however large, so only a backlog can trip the byte limit.
  if (queue_.size() >= limits.max_queue_messages ||
      (!queue_.empty() && queued_bytes_ + message->size() > limits.max_queue_bytes)) {
    spdlog::warn("conn {}: {} messages ({} bytes) unread; disconnecting a client that does not read", conn_,
                 queue_.size(), queued_bytes_);
    return end(EndReason::not_reading);
  }
  queued_bytes_ += message->size();
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) do_write();
}

template <typename Stream>
void BasicWsSession<Stream>::do_write() {
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&BasicWsSession::on_write, this->shared_from_this()));
}

template <typename Stream>
void BasicWsSession<Stream>::on_write(beast::error_code ec, std::size_t) {
  // Once the connection is ending, what is still queued is dropped; a kick instead writes its
  // goodbye and what precedes it, then closes.
  if (ec || (state_ != State::open && close_after_write_ == 0)) {
    queue_.clear();
    queued_bytes_ = 0;
    if (ec) end(EndReason::write_failed);
    return;
  }
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_after_write_ != 0) {
    const websocket::close_reason reason(close_after_write_);
    close_after_write_ = 0;
    ws_.async_close(reason, [self = this->shared_from_this()](beast::error_code) {});
  }
}

// ---- Keep-alive ----------------------------------------------------------------------------------

template <typename Stream>
void BasicWsSession<Stream>::arm_keepalive() {
  keepalive_timer_.expires_at(keepalive_.deadline(std::chrono::steady_clock::now()));
  keepalive_timer_.async_wait([weak = this->weak_from_this()](beast::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->on_keepalive();
  });
}

template <typename Stream>
void BasicWsSession<Stream>::on_keepalive() {
  if (state_ == State::ended) return;  // counted by how it ended
  switch (keepalive_.tick(std::chrono::steady_clock::now())) {
    case Keepalive::Step::drop:
      spdlog::debug("conn {}: dropped: silent for {} ms", conn_, ctx_->limits.idle_timeout.count());
      return end(EndReason::silent);
    case Keepalive::Step::cut:
      spdlog::debug("conn {}: cut: not closed {} ms after the server closed it", conn_,
                    ctx_->limits.close_grace.count());
      return end(EndReason::close_timeout);
    case Keepalive::Step::ping:
      ws_.async_ping({}, [self = this->shared_from_this()](beast::error_code) { self->keepalive_.ping_done(); });
      break;
    case Keepalive::Step::wait:
      break;
  }
  arm_keepalive();
}

// ---- Ending --------------------------------------------------------------------------------------

template <typename Stream>
void BasicWsSession<Stream>::kick(protocol::Goodbye goodbye, std::uint16_t code) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), goodbye = std::move(goodbye), code] {
    if (self->state_ != State::open) return;
    self->on_send(wire(goodbye));
    self->end(EndReason::kicked, code);
  });
}

template <typename Stream>
void BasicWsSession<Stream>::end(EndReason why, std::uint16_t code) {
  if (state_ == State::ended) return;
  if (state_ == State::open) router_.leave_all();
  const bool was_open = state_ == State::open;
  Metrics& m = *ctx_->metrics;
  switch (why) {
    case EndReason::peer_gone:
      break;
    case EndReason::too_big:
      m.oversized_closes.fetch_add(1, std::memory_order_relaxed);
      break;
    case EndReason::flooding:
      m.flood_closes.fetch_add(1, std::memory_order_relaxed);
      // Beast holds the close frame back until a write in progress is done.
      ws_.async_close(websocket::close_reason(websocket::close_code::policy_error, "too many messages; slow down"),
                      [self = this->shared_from_this()](beast::error_code ec) {
                        if (ec) spdlog::debug("conn {}: close: {}", self->conn_, ec.message());
                      });
      break;
    case EndReason::not_reading:
      m.queue_drops.fetch_add(1, std::memory_order_relaxed);
      // No close frame: the client is not reading, so it would only queue behind the rest.
      cut_socket();
      break;
    case EndReason::silent:
      m.idle_drops.fetch_add(1, std::memory_order_relaxed);
      cut_socket();
      break;
    case EndReason::close_timeout:
      m.closing_cuts.fetch_add(1, std::memory_order_relaxed);
      cut_socket();
      break;
    case EndReason::write_failed:
    case EndReason::kicked:
      // The read goes on, so the peer has the close grace to finish closing.
      if (!was_open) return;
      state_ = State::closing;
      keepalive_.closing(std::chrono::steady_clock::now());
      arm_keepalive();  // the grace starts now (re-arming cancels the tick pending)
      if (why == EndReason::kicked) {
        if (queue_.empty()) {
          ws_.async_close(websocket::close_reason(code), [self = this->shared_from_this()](beast::error_code) {});
        } else {
          close_after_write_ = code;
        }
      }
      return;
  }
  // Nothing more is read or timed: a tick already queued sees the state.
  state_ = State::ended;
  keepalive_timer_.cancel();
}

template <typename Stream>
void BasicWsSession<Stream>::cut_socket() {
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

template <typename Stream>
void BasicWsSession<Stream>::joined(const std::string& table_id, std::weak_ptr<Table> t) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), table_id, t = std::move(t)]() mutable {
    self->router_.joined(table_id, std::move(t));
  });
}

template <typename Stream>
void BasicWsSession<Stream>::departed(const std::string& table_id) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), table_id] { self->router_.departed(table_id); });
}

// The two transports: plain TCP, and TLS (--tls-cert).
template class BasicWsSession<beast::tcp_stream>;
template class BasicWsSession<TlsStream>;

}  // namespace atout::server
