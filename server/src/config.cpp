// Flag parsing: every value is checked before the server binds anything.
#include "atout/server/config.hpp"

#include <charconv>
#include <filesystem>
#include <thread>

#include "atout/server/net.hpp"

namespace atout::server {

namespace {

const char* const kLevels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};

std::optional<long> integer(const std::string& s) {
  long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

parse_result fail(std::string message) {
  parse_result r;
  r.exit_code = 2;
  r.message = "atout-server: " + std::move(message) + "\nTry 'atout-server --help'.\n";
  return r;
}

// A first look at the path, so a plainly wrong one fails with a usage error; the store then checks
// the file itself when the server opens it.
std::optional<std::string> check_db(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "--db needs a path";
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return "--db " + path + " is a directory; give a file path";
  if (fs::exists(p, ec) && !fs::is_regular_file(p, ec)) return "--db " + path + " is not a regular file";
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (fs::exists(parent, ec) && !fs::is_directory(parent, ec))
    return "--db " + path + ": " + parent.string() + " is not a directory";
  return std::nullopt;
}

// The limit flags: nullopt when `flag` is not one of them, an empty string when its value was
// taken, else why it was refused.
std::optional<std::string> parse_limit(const std::string& flag, const std::string& value, config& c) {
  auto in = [&](long lo, long hi) -> std::optional<long> {
    const auto v = integer(value);
    if (!v || *v < lo || *v > hi) return std::nullopt;
    return v;
  };
  auto range = [&](long lo, long hi) {
    return flag + " must be " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + value + "'";
  };
  if (flag == "--max-conns-per-ip") {
    const auto v = in(0, 1'000'000);
    if (!v) return range(0, 1'000'000);
    c.max_conns_per_ip = static_cast<int>(*v);
  } else if (flag == "--msg-burst") {
    const auto v = in(1, 1'000'000);
    if (!v) return range(1, 1'000'000);
    c.msg_burst = static_cast<double>(*v);
  } else if (flag == "--msg-rate") {
    const auto v = in(1, 1'000'000);
    if (!v) return range(1, 1'000'000);
    c.msg_rate = static_cast<double>(*v);
  } else if (flag == "--idle-timeout") {
    const auto v = in(1, 3600);
    if (!v) return range(1, 3600);
    c.idle_timeout = std::chrono::seconds(*v);
  } else if (flag == "--close-grace") {
    const auto v = in(1, 300);
    if (!v) return range(1, 300);
    c.close_grace = std::chrono::seconds(*v);
  } else if (flag == "--max-queue-messages") {
    const auto v = in(1, 1'000'000);
    if (!v) return range(1, 1'000'000);
    c.max_queue_messages = static_cast<std::size_t>(*v);
  } else if (flag == "--max-queue-bytes") {
    const auto v = in(65'536, 1L << 30);
    if (!v) return range(65'536, 1L << 30);
    c.max_queue_bytes = static_cast<std::size_t>(*v);
  } else {
    return std::nullopt;
  }
  return std::string();
}

}  // namespace

std::string usage() {
  return "Usage: atout-server [options]\n"
         "Serves the Atout protocol v1 over WebSocket (path /ws) and HTTP (/healthz, /api/tables,\n"
         "/api/variants) on one port.\n"
         "\n"
         "  --port N         TCP port (default 8080; 0 picks a free one and logs it)\n"
         "  --bind ADDR      address to listen on (default 0.0.0.0)\n"
         "  --threads N      I/O threads (default 2, 1 to 256)\n"
         "  --db PATH        SQLite database file, created with its directory when missing\n"
         "                   (default ./data/atout.db; see docs/operations.md)\n"
         "  --log-level L    trace, debug, info, warn, error, critical or off (default info)\n"
         "\n"
         "Limits (see docs/operations.md):\n"
         "  --max-conns-per-ip N     connections open at once from one address (default 64; 0: no\n"
         "                           cap); one more is answered HTTP 429 and closed\n"
         "  --msg-burst N            WebSocket messages a connection may send at once (default 200)\n"
         "  --msg-rate N             messages per second it earns back (default 100); a flood is\n"
         "                           closed with 1008\n"
         "  --idle-timeout S         seconds of silence before a peer is dropped; it is pinged after\n"
         "                           half of them (default 60, 1 to 3600)\n"
         "  --close-grace S          seconds a connection the server closes (replaced, or shutting\n"
         "                           down) has to finish closing before its socket is cut (default\n"
         "                           10, 1 to 300)\n"
         "  --max-queue-messages N   unread messages before a client that does not read is dropped\n"
         "                           (default 1024)\n"
         "  --max-queue-bytes N      unread bytes before it is dropped (default 4194304)\n"
         "  --help           print this and exit\n";
}

parse_result parse_args(const std::vector<std::string>& args) {
  config c;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> value;
    if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--help" || flag == "-h") {
      parse_result r;
      r.message = usage();
      return r;
    }
    static const char* const kValued[] = {"--port",
                                          "--bind",
                                          "--threads",
                                          "--db",
                                          "--log-level",
                                          "--max-conns-per-ip",
                                          "--msg-burst",
                                          "--msg-rate",
                                          "--idle-timeout",
                                          "--max-queue-messages",
                                          "--max-queue-bytes",
                                          "--close-grace"};
    bool known = false;
    for (const char* v : kValued) known = known || flag == v;
    if (!known) return fail("unknown option '" + flag + "'");
    if (!value) {
      if (i + 1 >= args.size()) return fail(flag + " needs a value");
      value = args[++i];
    }
    if (flag == "--port") {
      const auto v = integer(*value);
      if (!v || *v < 0 || *v > 65535) return fail("--port must be 0 to 65535, not '" + *value + "'");
      c.port = static_cast<unsigned short>(*v);
    } else if (flag == "--bind") {
      beast::error_code ec;
      net::ip::make_address(*value, ec);
      if (ec) return fail("--bind needs an IP address, not '" + *value + "'");
      c.bind = *value;
    } else if (flag == "--threads") {
      const auto v = integer(*value);
      if (!v || *v < 1 || *v > 256) return fail("--threads must be 1 to 256, not '" + *value + "'");
      c.threads = static_cast<int>(*v);
    } else if (auto limit_error = parse_limit(flag, *value, c)) {
      if (!limit_error->empty()) return fail(*limit_error);
    } else if (flag == "--db") {
      if (auto e = check_db(*value)) return fail(*e);
      c.db = *value;
    } else {
      bool ok = false;
      for (const char* l : kLevels) ok = ok || *value == l;
      if (!ok) return fail("--log-level must be one of trace, debug, info, warn, error, critical, off");
      c.log_level = *value;
    }
  }
  if (auto e = check_db(c.db)) return fail(*e);
  parse_result r;
  r.cfg = c;
  return r;
}

}  // namespace atout::server
