// HTTP, over plain TCP or TLS: health, the lobby as JSON, the variant list, metrics, and the
// upgrade to WebSocket on /ws.
#include "atout/server/http_session.hpp"

#include <spdlog/spdlog.h>

#include "atout/protocol/messages.hpp"
#include "atout/server/api_routes.hpp"
#include "atout/server/basic_ws_session.hpp"

namespace atout::server {

template <typename Stream>
HttpSession<Stream>::HttpSession(Stream&& stream, std::shared_ptr<Context> ctx, std::optional<IpSlot> slot,
                                 std::shared_ptr<ssl::context> tls)
    : tls_(std::move(tls)), stream_(std::move(stream)), ctx_(std::move(ctx)), slot_(std::move(slot)) {}

template <typename Stream>
void HttpSession<Stream>::run() {
  // Start on the connection's strand: the accept handler ran elsewhere.
  net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    if constexpr (kTls) {
      // A client that does not speak TLS (plain http:// or ws://) fails here and is closed.
      beast::get_lowest_layer(self->stream_).expires_after(std::chrono::seconds(self->slot_ ? 30 : 5));
      self->stream_.async_handshake(ssl::stream_base::server,
                                    beast::bind_front_handler(&HttpSession::on_handshake, self));
    } else {
      self->do_read();
    }
  });
}

template <typename Stream>
void HttpSession<Stream>::on_handshake(beast::error_code ec) {
  if (ec) {
    ctx_->metrics->tls_handshake_failures.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("https: handshake failed: {}", ec.message());
    return;
  }
  do_read();
}

template <typename Stream>
void HttpSession<Stream>::do_read() {
  parser_.emplace();
  parser_->body_limit(kMaxRequestBytes);
  parser_->header_limit(kMaxRequestBytes);
  // A refused connection gets less time to say what it wanted.
  beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(slot_ ? 30 : 5));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
}

template <typename Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
  // A TLS client that closes without its close_notify: nothing more to say to it.
  if (ec == ssl::error::stream_truncated) return;
  if (ec) {
    spdlog::debug("http: read failed: {}", ec.message());
    return;
  }
  http::request<http::string_body> req = parser_->release();
  version_ = req.version();
  keep_alive_ = req.keep_alive();
  head_ = req.method() == http::verb::head;
  const std::string_view target(req.target().data(), req.target().size());
  const std::string_view path = target.substr(0, target.find('?'));

  if (!slot_) {
    keep_alive_ = false;
    return respond(http::status::too_many_requests,
                   R"({"error":"too_many_connections","message":"this address has too many connections open"})");
  }
  if (path == "/ws") {
    if (!websocket::is_upgrade(req))
      return respond(http::status::upgrade_required,
                     R"({"error":"upgrade_required","message":"open a WebSocket here"})");
    if (!origin_allowed(req)) {
      ctx_->metrics->origin_refusals.fetch_add(1, std::memory_order_relaxed);
      keep_alive_ = false;
      return respond(http::status::forbidden,
                     R"({"error":"origin_not_allowed","message":"this server does not accept WebSocket )"
                     R"(connections from this page's origin; see --allowed-origins"})");
    }
    std::make_shared<BasicWsSession<Stream>>(std::move(stream_), ctx_, std::move(*slot_), std::move(tls_))
        ->run(std::move(req));
    return;
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return respond(http::status::method_not_allowed, R"({"error":"method_not_allowed"})");
  if (path == "/healthz") return respond(http::status::ok, R"({"status":"ok"})");
  if (path.rfind("/api/", 0) == 0) {
    // Reads by address are rate-limited: a poller gets 429 and how long to wait, not the server.
    beast::error_code ec_addr;
    const auto peer = beast::get_lowest_layer(stream_).socket().remote_endpoint(ec_addr);
    if (!ec_addr) {
      if (const auto wait = ctx_->http_reads->admit(peer.address(), std::chrono::steady_clock::now())) {
        ctx_->metrics->http_rate_limited.fetch_add(1, std::memory_order_relaxed);
        retry_after_ = std::chrono::ceil<std::chrono::seconds>(*wait);
        return respond(http::status::too_many_requests,
                       R"({"error":"too_fast","message":"too many API requests from this address; wait )" +
                           std::to_string(wait->count()) + " ms, as Retry-After says\"}");
      }
    }
  }
  if (path == "/api/variants") {
    protocol::VariantList list;
    for (const VariantInfo& v : variants()) list.variants.push_back(&v);
    return respond(http::status::ok, protocol::serialize(list));
  }
  if (path == "/api/tables") {
    // The same request, checks and page as a WebSocket list_tables, from the lobby's snapshot.
    const protocol::json request = tables_request(target.substr(path.size() + (path.size() < target.size() ? 1 : 0)));
    const protocol::ParsedRequest parsed =
        protocol::parse_request(request.dump(-1, ' ', false, protocol::json::error_handler_t::replace));
    if (const auto* e = std::get_if<protocol::Error>(&parsed.body)) {
      auto [status, body] = Archive::http_response(*e);
      return respond(status, std::move(body));
    }
    const auto& r = std::get<protocol::ListTables>(std::get<protocol::Request>(parsed.body));
    return respond(http::status::ok, ctx_->lobby->snapshot()->page(r, {}));
  }
  if (ctx_->archive && path.rfind("/api/", 0) == 0) {
    // The archive answers on its own thread; the response is written back on this connection's.
    auto reply = [self = this->shared_from_this()](http::status status, std::string body) {
      net::post(self->stream_.get_executor(),
                [self, status, body = std::move(body)]() mutable { self->respond(status, std::move(body)); });
    };
    if (http_api(*ctx_->archive, target, std::move(reply))) return;
  }
  if (path == "/metrics") {
    ctx_->lobby->census([self = this->shared_from_this()](TableCensus tables) {
      net::post(self->stream_.get_executor(), [self, tables = std::move(tables)] {
        self->respond(http::status::ok, self->ctx_->metrics->render(tables), kMetricsContentType);
      });
    });
    return;
  }
  if (ctx_->web && path.rfind("/api/", 0) != 0) {
    const auto accept = req[http::field::accept_encoding];
    return respond_static(path, std::string_view(accept.data(), accept.size()));
  }
  respond(http::status::not_found, R"({"error":"not_found"})");
}

template <typename Stream>
void HttpSession<Stream>::respond_static(std::string_view path, std::string_view accept_encoding) {
  const StaticFiles::Reply file = ctx_->web->resolve(path, accept_encoding);
  if (file.status == 400)
    return respond(http::status::bad_request, R"({"error":"bad_path","message":"not a plain path"})");
  if (file.status != 200) return respond(http::status::not_found, R"({"error":"not_found"})");
  response_ = std::make_shared<http::response<http::string_body>>(http::status::ok, version_);
  response_->set(http::field::server, "atout-server");
  response_->set(http::field::content_type, file.content_type);
  response_->set(http::field::cache_control, file.cache_control);
  if (file.gzip) response_->set(http::field::content_encoding, "gzip");
  if (file.has_gzip) response_->set(http::field::vary, "Accept-Encoding");
  response_->set("Content-Security-Policy", StaticFiles::kContentSecurityPolicy);
  response_->set("X-Content-Type-Options", "nosniff");
  response_->set("Referrer-Policy", "no-referrer");
  response_->keep_alive(keep_alive_);
  response_->body() = *file.body;
  send();
}

template <typename Stream>
void HttpSession<Stream>::respond(http::status status, std::string body, std::string_view content_type) {
  response_ = std::make_shared<http::response<http::string_body>>(status, version_);
  response_->set(http::field::server, "atout-server");
  response_->set(http::field::content_type, content_type);
  if (retry_after_) response_->set(http::field::retry_after, std::to_string(std::max<long>(1, retry_after_->count())));
  retry_after_.reset();
  response_->keep_alive(keep_alive_);
  response_->body() = std::move(body);
  send();
}

template <typename Stream>
void HttpSession<Stream>::send() {
  response_->prepare_payload();
  if (head_) {
    // HEAD: the length the body would have, and no body.
    const std::size_t length = response_->body().size();
    response_->body().clear();
    response_->content_length(length);
  }
  http::async_write(stream_, *response_,
                    beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), keep_alive_));
}

template <typename Stream>
void HttpSession<Stream>::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) return do_close();
  response_.reset();
  do_read();
}

template <typename Stream>
void HttpSession<Stream>::do_close() {
  if constexpr (kTls) {
    // close_notify, then the socket closes with the session.
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
  } else {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }
}

template <typename Stream>
bool HttpSession<Stream>::origin_allowed(const http::request<http::string_body>& req) const {
  const auto origin = req[http::field::origin];
  // Behind a proxy that ends TLS, the page's scheme is the one the proxy says it received.
  const auto forwarded = req["X-Forwarded-Proto"];
  std::string_view scheme = kTls ? "https" : "http";
  if (forwarded == "https" || forwarded == "http") scheme = std::string_view(forwarded.data(), forwarded.size());
  const auto host = req[http::field::host];
  return ctx_->origins->allows(std::string_view(origin.data(), origin.size()), scheme,
                               std::string_view(host.data(), host.size()));
}

// The two transports: plain TCP, and TLS (--tls-cert).
template class HttpSession<beast::tcp_stream>;
template class HttpSession<TlsStream>;

}  // namespace atout::server
