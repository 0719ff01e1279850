// The web client served by atout-server: routes, content types, caching, gzip twins, the security
// policy, HEAD, and the refusal of every path that is not a plain one; the API beside it.
#include "atout/server/static_files.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "atout/server/config.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

namespace fs = std::filesystem;

const std::string kIndex = "<!doctype html><title>Atout</title><script type=\"module\" src=\"/assets/app-1a2b3c.js\">";
const std::string kScript = "console.log('atout');";
const std::string kScriptGz = std::string("\x1f\x8b\x08\x00gzipped-script", 18);
const std::string kSecret = "outside the web root";

void write(const fs::path& p, const std::string& body) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << body;
}

// A built client in a fresh directory, with a file beside it (not under it) that must never leak.
class WebRoot {
 public:
  WebRoot() {
    static int counter = 0;
    base_ = fs::temp_directory_path() / ("atout-web-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(base_);
    write(base_ / "secret.txt", kSecret);
    write(root() / "index.html", kIndex);
    write(root() / "assets" / "app-1a2b3c.js", kScript);
    write(root() / "assets" / "app-1a2b3c.js.gz", kScriptGz);
    write(root() / "assets" / "app-4d5e6f.css", "body{}");
    write(root() / "favicon.svg", "<svg/>");
    fs::create_symlink(base_ / "secret.txt", root() / "link.txt");
  }
  ~WebRoot() {
    std::error_code ignored;
    fs::remove_all(base_, ignored);
  }
  fs::path root() const { return base_ / "dist"; }

 private:
  fs::path base_;
};

StaticFiles loaded(const WebRoot& web) {
  std::string error;
  std::optional<StaticFiles> files = StaticFiles::load(web.root(), error);
  EXPECT_TRUE(files) << error;
  return files ? std::move(*files) : StaticFiles{};
}

TEST(StaticFiles, PageRoutesGiveTheIndexUncached) {
  WebRoot web;
  const StaticFiles files = loaded(web);
  for (const char* route : {"/", "/index.html", "/t/K3Y9Q2", "/replay/42", "/players/7", "/leaderboard"}) {
    const StaticFiles::Reply r = files.resolve(route, "gzip");
    ASSERT_EQ(r.status, 200u) << route;
    EXPECT_EQ(*r.body, kIndex) << route;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
    EXPECT_EQ(r.cache_control, "no-cache");
    EXPECT_FALSE(r.gzip);
  }
  // Not routes of the page: deeper paths under them, and unknown files.
  for (const char* other : {"/t/", "/t/a/b", "/replay/1/x", "/leaderboard/french", "/nope", "/assets/app.js"})
    EXPECT_EQ(files.resolve(other, "").status, 404u) << other;
}

TEST(StaticFiles, HashedAssetsAreImmutableAndTypedByExtension) {
  WebRoot web;
  const StaticFiles files = loaded(web);
  const StaticFiles::Reply js = files.resolve("/assets/app-1a2b3c.js", "");
  ASSERT_EQ(js.status, 200u);
  EXPECT_EQ(*js.body, kScript);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(js.cache_control, "public, max-age=31536000, immutable");
  const StaticFiles::Reply css = files.resolve("/assets/app-4d5e6f.css", "");
  EXPECT_EQ(css.content_type, "text/css; charset=utf-8");
  EXPECT_EQ(css.cache_control, "public, max-age=31536000, immutable");
  const StaticFiles::Reply icon = files.resolve("/favicon.svg", "");
  EXPECT_EQ(icon.content_type, "image/svg+xml");
  EXPECT_EQ(icon.cache_control, "no-cache");  // not hashed: revalidated
  EXPECT_EQ(StaticFiles::content_type("x.woff2"), "font/woff2");
  EXPECT_EQ(StaticFiles::content_type("x.unknown"), "application/octet-stream");
}

TEST(StaticFiles, GzipTwinOnlyWhenAccepted) {
  WebRoot web;
  const StaticFiles files = loaded(web);
  const StaticFiles::Reply gz = files.resolve("/assets/app-1a2b3c.js", "br, gzip;q=0.8");
  EXPECT_TRUE(gz.gzip);
  EXPECT_TRUE(gz.has_gzip);
  EXPECT_EQ(*gz.body, kScriptGz);
  EXPECT_EQ(gz.content_type, "text/javascript; charset=utf-8");  // the file's type, not gzip's
  for (const char* refused : {"", "identity", "br", "gzip;q=0", "gzip; q=0.000", "deflate, gzip;q=0"}) {
    const StaticFiles::Reply plain = files.resolve("/assets/app-1a2b3c.js", refused);
    EXPECT_FALSE(plain.gzip) << refused;
    EXPECT_TRUE(plain.has_gzip) << refused;
    EXPECT_EQ(*plain.body, kScript) << refused;
  }
  EXPECT_TRUE(StaticFiles::accepts_gzip("*"));
  EXPECT_TRUE(StaticFiles::accepts_gzip("gzip;q=0.1"));
  EXPECT_FALSE(StaticFiles::accepts_gzip("gzipx"));
  // The .gz file itself is a twin, not a page of its own.
  EXPECT_EQ(files.resolve("/assets/app-1a2b3c.js.gz", "gzip").status, 404u);
}

TEST(StaticFiles, OddPathsAreRefused) {
  WebRoot web;
  const StaticFiles files = loaded(web);
  using namespace std::string_literals;
  for (const std::string& bad : {"/../secret.txt"s,
                                 "/assets/../../secret.txt"s,
                                 "/%2e%2e/secret.txt"s,
                                 "/%2E%2E/secret.txt"s,
                                 "/assets/%2e%2e/index.html"s,
                                 "/./index.html"s,
                                 "/assets/.%2e/.%2e/secret.txt"s,
                                 "/..%2fsecret.txt"s,
                                 "/assets%2fapp-1a2b3c.js"s,
                                 "/index.html%00.js"s,
                                 "/index.html\0"s,
                                 "/assets\\app-1a2b3c.js"s,
                                 "/%5c..%5csecret.txt"s,
                                 "//etc/passwd"s,
                                 "/assets//app-1a2b3c.js"s,
                                 "secret.txt"s,
                                 "C:/secret.txt"s,
                                 "http://evil/index.html"s,
                                 ""s,
                                 "/%"s,
                                 "/%2"s,
                                 "/%zz"s,
                                 "/a\tb"s,
                                 "/\x7f"s}) {
    EXPECT_EQ(files.resolve(bad, "").status, 400u) << "path: " << bad;
  }
  // A symbolic link inside the root is not followed: its target lies outside.
  EXPECT_EQ(files.resolve("/link.txt", "").status, 404u);
  EXPECT_EQ(files.resolve("/secret.txt", "").status, 404u);
  // Plain escapes of ordinary characters are fine.
  EXPECT_EQ(files.resolve("/%69ndex.html", "").status, 200u);
  EXPECT_EQ(StaticFiles::clean_path("/t/abc%20d"), std::optional<std::string>("/t/abc d"));
}

TEST(StaticFiles, LoadRefusesAMissingRootOrIndex) {
  std::string error;
  EXPECT_FALSE(StaticFiles::load("/nonexistent/atout/web", error));
  EXPECT_NE(error.find("not a directory"), std::string::npos) << error;
  WebRoot web;
  fs::remove(web.root() / "index.html");
  error.clear();
  EXPECT_FALSE(StaticFiles::load(web.root(), error));
  EXPECT_NE(error.find("no index.html"), std::string::npos) << error;
}

// ---- Through the server ------------------------------------------------------------------------

http::response<http::string_body> request(unsigned short port, http::verb verb, const std::string& target,
                                          const std::string& accept_encoding = {}) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> req(verb, target, 11);
  req.set(http::field::host, "127.0.0.1");
  if (!accept_encoding.empty()) req.set(http::field::accept_encoding, accept_encoding);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(verb == http::verb::head);  // a HEAD response announces a length it does not send
  http::read(stream, buffer, parser);
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return parser.release();
}

Config with_web(const WebRoot& web) {
  Config c;
  c.web_root = web.root().string();
  return c;
}

TEST(StaticServing, PageAndAssetsWithTheirHeaders) {
  WebRoot web;
  LiveServer server(with_web(web));
  const auto page = request(server.port(), http::verb::get, "/t/K3Y9Q2?from=mail");
  ASSERT_EQ(page.result_int(), 200u);
  EXPECT_EQ(page.body(), kIndex);
  EXPECT_EQ(std::string(page[http::field::content_type]), "text/html; charset=utf-8");
  EXPECT_EQ(std::string(page[http::field::cache_control]), "no-cache");
  EXPECT_EQ(std::string(page["Content-Security-Policy"]), StaticFiles::kContentSecurityPolicy);
  EXPECT_EQ(std::string(page["X-Content-Type-Options"]), "nosniff");
  // The policy forbids inline script and reaches only this origin's sockets.
  EXPECT_EQ(StaticFiles::kContentSecurityPolicy.find("unsafe-inline"), std::string_view::npos);
  EXPECT_NE(StaticFiles::kContentSecurityPolicy.find("script-src 'self'"), std::string_view::npos);
  EXPECT_NE(StaticFiles::kContentSecurityPolicy.find("connect-src 'self' ws: wss:"), std::string_view::npos);

  const auto gz = request(server.port(), http::verb::get, "/assets/app-1a2b3c.js", "gzip, deflate");
  ASSERT_EQ(gz.result_int(), 200u);
  EXPECT_EQ(gz.body(), kScriptGz);
  EXPECT_EQ(std::string(gz[http::field::content_encoding]), "gzip");
  EXPECT_EQ(std::string(gz[http::field::vary]), "Accept-Encoding");
  EXPECT_EQ(std::string(gz[http::field::cache_control]), "public, max-age=31536000, immutable");
  const auto plain = request(server.port(), http::verb::get, "/assets/app-1a2b3c.js");
  EXPECT_EQ(plain.body(), kScript);
  EXPECT_EQ(std::string(plain[http::field::content_encoding]), "");
  EXPECT_EQ(std::string(plain[http::field::vary]), "Accept-Encoding");
}

TEST(StaticServing, HeadGivesTheHeadersAndLengthWithoutABody) {
  WebRoot web;
  LiveServer server(with_web(web));
  const auto head = request(server.port(), http::verb::head, "/");
  EXPECT_EQ(head.result_int(), 200u);
  EXPECT_EQ(std::string(head[http::field::content_length]), std::to_string(kIndex.size()));
  EXPECT_EQ(std::string(head[http::field::content_type]), "text/html; charset=utf-8");
  EXPECT_TRUE(head.body().empty());
  // The connection is still in step: a GET after a HEAD on a fresh connection reads whole.
  EXPECT_EQ(request(server.port(), http::verb::get, "/").body(), kIndex);
  const auto api_head = request(server.port(), http::verb::head, "/healthz");
  EXPECT_EQ(api_head.result_int(), 200u);
  EXPECT_EQ(std::string(api_head[http::field::content_length]), "15");  // {"status":"ok"}
}

TEST(StaticServing, TraversalIsRefusedAndNothingOutsideLeaks) {
  WebRoot web;
  LiveServer server(with_web(web));
  for (const char* bad : {"/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt", "/index.html%00",
                          "/%5c..%5csecret.txt", "//secret.txt"}) {
    const auto r = request(server.port(), http::verb::get, bad);
    EXPECT_TRUE(r.result_int() == 400u || r.result_int() == 404u) << bad << " " << r.result_int();
    EXPECT_EQ(r.body().find(kSecret), std::string::npos) << bad;
    EXPECT_EQ(std::string(r[http::field::content_type]), "application/json") << bad;
  }
  EXPECT_EQ(request(server.port(), http::verb::get, "/link.txt").result_int(), 404u);
  EXPECT_EQ(request(server.port(), http::verb::post, "/").result_int(), 405u);
}

TEST(StaticServing, ApiHealthAndSocketStillAnswer) {
  WebRoot web;
  LiveServer server(with_web(web));
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200u);
  const HttpReply variants = http_get(server.port(), "/api/variants");
  EXPECT_EQ(variants.status, 200u);
  EXPECT_EQ(variants.content_type, "application/json");
  EXPECT_TRUE(json::parse(variants.body).contains("variants"));
  // An unknown API path is the API's 404, never the page.
  const HttpReply missing = http_get(server.port(), "/api/nope");
  EXPECT_EQ(missing.status, 404u);
  EXPECT_EQ(missing.body.find("<!doctype"), std::string::npos);
  EXPECT_EQ(http_get(server.port(), "/ws").status, 426u);
  TestClient c(server.port(), nullptr);
  EXPECT_EQ(c.hello("ann")["type"], "welcome");
}

TEST(StaticServing, WithoutAWebRootThereIsNoPage) {
  LiveServer server;
  EXPECT_EQ(http_get(server.port(), "/").status, 404u);
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200u);
}

TEST(StaticServing, AServerWithABadWebRootDoesNotStart) {
  Config c;
  c.web_root = "/nonexistent/atout/web";
  EXPECT_THROW(LiveServer server(c), std::runtime_error);
  // As atout-server's main sees it: the usage error's exit code and the flag named, before the
  // database is touched.
  c.db = (std::filesystem::temp_directory_path() / "atout-web-root-test" / "never.db").string();
  Server s(c);
  const std::optional<std::string> error = s.open();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("--web-root ", 0), 0u) << *error;
  EXPECT_EQ(s.open_failure_code(), 2);
  EXPECT_FALSE(std::filesystem::exists(c.db));
}

}  // namespace
}  // namespace atout::server::testing
