// The web client from memory: loading the built files once, and answering a path with one of them.
#include "atout/server/static_files.hpp"

#include <array>
#include <fstream>
#include <iterator>
#include <system_error>

namespace atout::server {

namespace {

namespace fs = std::filesystem;

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The client's own routes: the page answers them and reads the path itself.
bool is_page_route(std::string_view path) {
  if (path == "/" || path == "/index.html" || path == "/leaderboard") return true;
  for (std::string_view prefix : {"/t/", "/replay/", "/players/"}) {
    if (path.size() > prefix.size() && path.substr(0, prefix.size()) == prefix &&
        path.find('/', prefix.size()) == std::string_view::npos)
      return true;
  }
  return false;
}

}  // namespace

std::optional<StaticFiles> StaticFiles::load(const fs::path& root, std::string& error) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    error = "--web-root " + root.string() + " is not a directory; build the client (web/: npm ci && npm run build)";
    return std::nullopt;
  }
  StaticFiles out;
  std::size_t total = 0;
  std::map<std::string, std::string, std::less<>> twins;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    const std::string rel = fs::relative(it->path(), root, ec).generic_string();
    if (ec) break;
    std::string body;
    if (!read_file(it->path(), body)) {
      error = "--web-root: cannot read " + it->path().string();
      return std::nullopt;
    }
    total += body.size();
    if (total > kMaxBytes) {
      error = "--web-root " + root.string() + " holds more than " + std::to_string(kMaxBytes) + " bytes";
      return std::nullopt;
    }
    if (ends_with(rel, ".gz")) {
      twins.emplace(rel.substr(0, rel.size() - 3), std::move(body));
    } else {
      out.files_[rel].body = std::move(body);
    }
  }
  if (ec) {
    error = "--web-root " + root.string() + ": " + ec.message();
    return std::nullopt;
  }
  for (auto& [name, body] : twins) {
    if (auto f = out.files_.find(name); f != out.files_.end()) f->second.gzip = std::move(body);
  }
  if (!out.files_.contains("index.html")) {
    error = "--web-root " + root.string() + " has no index.html; build the client (web/: npm ci && npm run build)";
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> StaticFiles::clean_path(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  std::string path;
  path.reserve(target.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    char c = target[i];
    if (c == '%') {
      if (i + 2 >= target.size()) return std::nullopt;
      const int hi = hex_value(target[i + 1]);
      const int lo = hex_value(target[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      if (c == '/') return std::nullopt;  // an encoded separator hides a segment
      i += 2;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '\\') return std::nullopt;
    path.push_back(c);
  }
  // Segments: none empty (but the last, for "/" itself), none "." or "..".
  std::string_view rest = std::string_view(path).substr(1);
  while (true) {
    const auto slash = rest.find('/');
    const std::string_view segment = rest.substr(0, slash);
    if (segment == "." || segment == "..") return std::nullopt;
    if (slash == std::string_view::npos) break;
    if (segment.empty()) return std::nullopt;
    rest = rest.substr(slash + 1);
  }
  return path;
}

bool StaticFiles::accepts_gzip(std::string_view accept_encoding) {
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    std::string_view item = trim(accept_encoding.substr(0, comma));
    accept_encoding = comma == std::string_view::npos ? std::string_view{} : accept_encoding.substr(comma + 1);
    const auto semi = item.find(';');
    const std::string_view coding = trim(item.substr(0, semi));
    if (coding != "gzip" && coding != "*") continue;
    if (semi == std::string_view::npos) return true;
    std::string_view q = trim(item.substr(semi + 1));
    if (q.substr(0, 2) != "q=" && q.substr(0, 2) != "Q=") return true;
    q = q.substr(2);
    // q=0, q=0.0, q=0.00, q=0.000 refuse it; anything else admits it.
    bool zero = !q.empty() && q.front() == '0';
    for (std::size_t i = 1; zero && i < q.size(); ++i) zero = q[i] == '.' || q[i] == '0';
    if (!zero) return true;
  }
  return false;
}

std::string_view StaticFiles::content_type(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
  }};
  for (const auto& [ext, type] : kTypes) {
    if (ends_with(path, ext)) return type;
  }
  return "application/octet-stream";
}

StaticFiles::Reply StaticFiles::resolve(std::string_view target, std::string_view accept_encoding) const {
  Reply r;
  const std::optional<std::string> path = clean_path(target);
  if (!path) {
    r.status = 400;
    return r;
  }
  std::string_view name;
  if (is_page_route(*path)) {
    name = "index.html";
  } else {
    name = std::string_view(*path).substr(1);
  }
  const auto it = files_.find(name);
  if (it == files_.end()) return r;  // 404
  r.status = 200;
  r.content_type = content_type(it->first);
  const bool hashed = it->first.rfind("assets/", 0) == 0;
  r.cache_control = hashed ? kImmutable : kNoCache;
  r.has_gzip = it->second.gzip.has_value();
  r.gzip = r.has_gzip && accepts_gzip(accept_encoding);
  r.body = r.gzip ? &*it->second.gzip : &it->second.body;
  return r;
}

}  // namespace atout::server
