// HTTP: health, the lobby as JSON, the variant list, metrics, and the upgrade to WebSocket on /ws.
#include "atout/server/http_session.hpp"

#include <spdlog/spdlog.h>

#include "atout/protocol/messages.hpp"
#include "atout/server/api_routes.hpp"
#include "atout/server/ws_session.hpp"

namespace atout::server {

HttpSession::HttpSession(tcp::socket&& socket, std::shared_ptr<Context> ctx, std::optional<IpSlot> slot)
    : stream_(std::move(socket)), ctx_(std::move(ctx)), slot_(std::move(slot)) {}

void HttpSession::run() {
  // Start on the connection's strand: the accept handler ran elsewhere.
  net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(kMaxRequestBytes);
  parser_->header_limit(kMaxRequestBytes);
  // A refused connection gets less time to say what it wanted.
  stream_.expires_after(std::chrono::seconds(slot_ ? 30 : 5));
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
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
    std::make_shared<WsSession>(stream_.release_socket(), ctx_, std::move(*slot_))->run(std::move(req));
    return;
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return respond(http::status::method_not_allowed, R"({"error":"method_not_allowed"})");
  if (path == "/healthz") return respond(http::status::ok, R"({"status":"ok"})");
  if (path.rfind("/api/", 0) == 0) {
    // Reads by address are rate-limited: a poller gets 429 and how long to wait, not the server.
    beast::error_code ec_addr;
    const auto peer = stream_.socket().remote_endpoint(ec_addr);
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
    auto reply = [self = shared_from_this()](http::status status, std::string body) {
      net::post(self->stream_.get_executor(),
                [self, status, body = std::move(body)]() mutable { self->respond(status, std::move(body)); });
    };
    if (http_api(*ctx_->archive, target, std::move(reply))) return;
  }
  if (path == "/metrics") {
    ctx_->lobby->census([self = shared_from_this()](TableCensus tables) {
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

void HttpSession::respond_static(std::string_view path, std::string_view accept_encoding) {
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

void HttpSession::respond(http::status status, std::string body, std::string_view content_type) {
  response_ = std::make_shared<http::response<http::string_body>>(status, version_);
  response_->set(http::field::server, "atout-server");
  response_->set(http::field::content_type, content_type);
  if (retry_after_) response_->set(http::field::retry_after, std::to_string(std::max<long>(1, retry_after_->count())));
  retry_after_.reset();
  response_->keep_alive(keep_alive_);
  response_->body() = std::move(body);
  send();
}

void HttpSession::send() {
  response_->prepare_payload();
  if (head_) {
    // HEAD: the length the body would have, and no body.
    const std::size_t length = response_->body().size();
    response_->body().clear();
    response_->content_length(length);
  }
  http::async_write(stream_, *response_,
                    beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive_));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) return do_close();
  response_.reset();
  do_read();
}

void HttpSession::do_close() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace atout::server
