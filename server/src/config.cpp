// Flags of atout-server (CLI11): from the command line, the environment and a config file, every
// value checked before the server binds anything.
#include "atout/server/config.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdlib>
#include <filesystem>

#include "atout/server/net.hpp"
#include "atout/server/origin_policy.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

namespace {

// Where a pass reads its values from. The config file pass has no --config option (CLI11 owns it
// there) and no environment, so each source is checked, and reported, on its own.
enum class Source { command_line, config_file };

ParseResult fail(std::string message) {
  ParseResult r;
  r.exit_code = 2;
  r.message = "atout-server: " + std::move(message) + "\nTry 'atout-server --help'.\n";
  return r;
}

// A first look at the path, so a plainly wrong one fails with a usage error; the store then checks
// the file itself when the server opens it.
std::optional<std::string> check_db(const std::string& value) {
  namespace fs = std::filesystem;
  if (value.empty()) return "--db needs a path";
  if (store::is_postgres_url(value)) return std::nullopt;  // the store says what is wrong with it
  constexpr std::string_view kSqliteScheme = "sqlite://";
  const std::string path = value.rfind(kSqliteScheme, 0) == 0 ? value.substr(kSqliteScheme.size()) : value;
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return "--db " + path + " is a directory; give a file path";
  if (fs::exists(p, ec) && !fs::is_regular_file(p, ec)) return "--db " + path + " is not a regular file";
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (fs::exists(parent, ec) && !fs::is_directory(parent, ec))
    return "--db " + path + ": " + parent.string() + " is not a directory";
  return std::nullopt;
}

// --redis needs a node id and a public URL, and those mean nothing without it.
std::optional<std::string> check_cluster(const Config& c) {
  if (c.redis.empty()) {
    if (!c.node_id.empty()) return "--node-id needs --redis";
    if (!c.public_url.empty()) return "--public-url needs --redis";
    return std::nullopt;
  }
  if (c.redis.rfind("redis://", 0) != 0) return "--redis needs a redis://host[:port][/db] URL, not '" + c.redis + "'";
  if (c.node_id.empty()) return "--redis needs --node-id";
  if (c.node_id.size() > 64 || c.node_id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_") != std::string::npos)
    return "--node-id '" + c.node_id + "' must be 1 to 64 letters, digits, - or _";
  if (c.public_url.empty()) return "--redis needs --public-url (the ws:// or wss:// URL clients reach this node at)";
  if ((c.public_url.rfind("ws://", 0) != 0 && c.public_url.rfind("wss://", 0) != 0) ||
      c.public_url.find(' ') != std::string::npos)
    return "--public-url needs a ws:// or wss:// URL without spaces, not '" + c.public_url + "'";
  return std::nullopt;
}

const CLI::Validator kIpAddress(
    [](std::string& value) -> std::string {
      beast::error_code ec;
      net::ip::make_address(value, ec);
      return ec ? "needs an IP address, not '" + value + "'" : std::string();
    },
    "ADDR");

// A whole number in [lo, hi], checked before CLI11 converts it, so that "1.5" or "80a" is refused
// as what it is rather than as out of range.
CLI::Validator whole(long lo, long hi) {
  return CLI::Validator(
      [lo, hi](std::string& value) -> std::string {
        long v = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec == std::errc() && end == value.data() + value.size() && v >= lo && v <= hi) return {};
        return "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + value +
               "'";
      },
      "");
}

const CLI::Validator kOrigins(
    [](std::string& value) -> std::string {
      std::string error;
      OriginPolicy::parse_list(value, error);
      return error;
    },
    "LIST");

const CLI::Validator kDbPath([](std::string& value) { return check_db(value).value_or(std::string()); }, "PATH");

class FlagSet {
 public:
  FlagSet(CLI::App& app, Source from) : app_(app), from_(from) {}

  // An integer flag in [lo, hi]; `store` receives it. Integers only: "1.5" and "80a" are refused.
  template <typename Store>
  void integer(const std::string& name, long lo, long hi, long def, const std::string& help, Store store) {
    add(app_.add_option_function<long>("--" + name, store), name, "N", std::to_string(def), help)->check(whole(lo, hi));
  }
  CLI::Option* text(const std::string& name, std::string& target, const char* value_name, const std::string& help) {
    return add(app_.add_option("--" + name, target), name, value_name, target, help);
  }

 private:
  CLI::Option* add(CLI::Option* o, const std::string& name, const char* value_name, const std::string& def,
                   const std::string& help) {
    std::string shown = std::string(value_name) + " (default " + (def.empty() ? "none" : def);
    if (from_ == Source::command_line) {
      o->envname(env_name(name));
      shown += ", env " + env_name(name);
    }
    return o->option_text(shown + ")")->description(help);
  }

  CLI::App& app_;
  Source from_;
};

// Declares every flag on `app`, each writing into `c` when it is given.
void declare(CLI::App& app, Config& c, Source from, std::string* config_file) {
  app.description(
      "Serves the Atout protocol v1 over WebSocket (path /ws) and HTTP (/healthz, /api/tables,\n"
      "/api/variants, /metrics) on one port.\n"
      "\n"
      "Every flag can also be set by its environment variable (shown as 'env') or by its key in a\n"
      "config file (--config): the key is the flag's name without the dashes, one 'key = value'\n"
      "per line in TOML form, '#' starts a comment. The command line wins over the environment,\n"
      "which wins over the config file, which wins over the default. See docs/operations.md.");
  app.set_help_flag("-h,--help", "print this and exit");
  app.get_formatter()->column_width(34);
  FlagSet f(app, from);
  if (from == Source::command_line)
    f.text("config", *config_file, "FILE", "read flags from this file (TOML: key = value)")->check(CLI::ExistingFile);
  f.integer("port", 0, 65535, c.port, "TCP port; 0 picks a free one and logs it",
            [&c](long v) { c.port = static_cast<unsigned short>(v); });
  f.text("bind", c.bind, "ADDR", "address to listen on")->check(kIpAddress);
  f.integer("threads", 1, 256, c.threads, "I/O threads (1 to 256)", [&c](long v) { c.threads = static_cast<int>(v); });
  f.integer("bot-threads", 0, 64, c.bot_threads,
            "threads where the server's bots think (0 to 64), run only when a\n"
            "core has nothing else to do; 0: one per core the I/O threads\n"
            "leave, at least 1",
            [&c](long v) { c.bot_threads = static_cast<int>(v); });
  f.text("db", c.db, "PATH|URL", "SQLite database file, created with its directory when missing; or a postgres:// URL")
      ->check(kDbPath);
  f.text("web-root", c.web_root, "DIR",
         "the built web client (web/dist) served at / and its routes;\n"
         "empty: no page, only /ws, /healthz and the API");
  f.text("log-level", c.log_level, "L", "trace, debug, info, warn, error, critical or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}).description(""));
  f.text("log-format", c.log_format, "F", "text, or json: one JSON object a line (time, level, thread, message)")
      ->check(CLI::IsMember({"text", "json"}).description(""));
  f.integer("commit-window-ms", 0, 10'000, static_cast<long>(c.commit_window.count()),
            "milliseconds the store's writer gathers writes before it commits\n"
            "them in one transaction (0 to 10000); a crash loses at most this\n"
            "much acknowledged play, plus the commit itself",
            [&c](long v) { c.commit_window = std::chrono::milliseconds(v); });
  f.text("tls-cert", c.tls_cert, "FILE",
         "PEM certificate (then any intermediates); with --tls-key the port\n"
         "serves https:// and wss:// only. SIGHUP reloads both files");
  f.text("tls-key", c.tls_key, "FILE", "PEM private key of --tls-cert");
  f.text("allowed-origins", c.allowed_origins, "LIST",
         "page origins (scheme://host[:port], comma-separated) allowed to\n"
         "open a WebSocket besides the server's own; * allows any")
      ->check(kOrigins);

  const std::string limits = "Limits (see docs/operations.md)";
  auto group = [&] { app.get_options().back()->group(limits); };
  f.integer("max-conns-per-ip", 0, 1'000'000, c.max_conns_per_ip,
            "connections open at once from one address (0: no cap);\n"
            "one more is answered HTTP 429 and closed",
            [&c](long v) { c.max_conns_per_ip = static_cast<int>(v); });
  group();
  f.integer("msg-burst", 1, 1'000'000, static_cast<long>(c.msg_burst),
            "WebSocket messages a connection may send at once", [&c](long v) { c.msg_burst = static_cast<double>(v); });
  group();
  f.integer("msg-rate", 1, 1'000'000, static_cast<long>(c.msg_rate),
            "messages per second it earns back; a flood is closed with 1008",
            [&c](long v) { c.msg_rate = static_cast<double>(v); });
  group();
  f.integer("idle-timeout", 1, 3600, static_cast<long>(c.idle_timeout.count() / 1000),
            "seconds of silence before a peer is dropped; it is pinged after\nhalf of them (1 to 3600)",
            [&c](long v) { c.idle_timeout = std::chrono::seconds(v); });
  group();
  f.integer("close-grace", 1, 300, static_cast<long>(c.close_grace.count() / 1000),
            "seconds a connection the server closes (replaced, or shutting\n"
            "down) has to finish closing before its socket is cut (1 to 300)",
            [&c](long v) { c.close_grace = std::chrono::seconds(v); });
  group();
  f.integer("max-queue-messages", 1, 1'000'000, static_cast<long>(c.max_queue_messages),
            "unread messages before a client that does not read is dropped",
            [&c](long v) { c.max_queue_messages = static_cast<std::size_t>(v); });
  group();
  f.integer("max-queue-bytes", 65'536, 1L << 30, static_cast<long>(c.max_queue_bytes),
            "unread bytes before it is dropped (65536 to 1073741824)",
            [&c](long v) { c.max_queue_bytes = static_cast<std::size_t>(v); });
  group();
  f.integer("http-burst", 1, 1'000'000, static_cast<long>(c.http_burst),
            "HTTP /api/ requests one address may make at once",
            [&c](long v) { c.http_burst = static_cast<double>(v); });
  group();
  f.integer("http-rate", 1, 1'000'000, static_cast<long>(c.http_rate),
            "/api/ requests per second it earns back; one more is\nanswered 429 with Retry-After",
            [&c](long v) { c.http_rate = static_cast<double>(v); });
  group();
  f.integer("max-open-tables", 0, 1'000'000, c.max_open_tables,
            "tables one player may own that have not started (0: no\nbound); one more is refused with too_many_tables",
            [&c](long v) { c.max_open_tables = static_cast<int>(v); });
  group();
  f.integer("empty-table-ttl", 1, 86'400, static_cast<long>(c.empty_table_ttl.count() / 1000),
            "seconds an unstarted table with nobody seated or watching\nstays open (1 to 86400)",
            [&c](long v) { c.empty_table_ttl = std::chrono::seconds(v); });
  group();

  const std::string cluster = "Several nodes (see docs/operations.md)";
  f.text("redis", c.redis, "URL",
         "redis://host[:port][/db]: run as one node of a cluster sharing\n"
         "this Redis and the database; empty: a single server");
  app.get_options().back()->group(cluster);
  f.text("node-id", c.node_id, "ID", "this node's id, unique among the nodes (letters, digits, - and _)");
  app.get_options().back()->group(cluster);
  f.text("public-url", c.public_url, "URL", "where clients reach this node's WebSocket: ws[s]://host:port/ws");
  app.get_options().back()->group(cluster);
  f.integer("lease-ms", 300, 600'000, static_cast<long>(c.lease.count()),
            "milliseconds before a silent node's registration and table\n"
            "leases expire and other nodes take its matches over",
            [&c](long v) { c.lease = std::chrono::milliseconds(v); });
  app.get_options().back()->group(cluster);
}

// CLI11's words for what went wrong, with the flag named; `args` tells a value given on the command
// line from one taken from the environment, which is then named too.
std::string explain(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& args) {
  std::string what = e.what();
  for (const CLI::Option* o : app.get_options()) {
    const std::string& env = o->get_envname();
    const char* value = env.empty() ? nullptr : std::getenv(env.c_str());
    if (value == nullptr || *value == '\0' || what.find(o->get_name()) == std::string::npos) continue;
    bool on_line = false;
    for (const std::string& a : args) on_line = on_line || a == o->get_name() || a.rfind(o->get_name() + "=", 0) == 0;
    if (!on_line) what += " (from the environment: " + env + "=" + value + ")";
  }
  return what;
}

}  // namespace

int auto_bot_threads(int io_threads, unsigned cores) { return std::max(1, static_cast<int>(cores) - io_threads); }

std::string env_name(const std::string& flag) {
  std::string out = "ATOUT_";
  for (const char ch : flag) out += ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

std::string usage() {
  Config c;
  std::string config_file;
  CLI::App app("", "atout-server");
  declare(app, c, Source::command_line, &config_file);
  return app.help();
}

ParseResult parse_args(const std::vector<std::string>& args) {
  // CLI11 reads a config file before the environment, so the environment would lose to the file.
  // Three passes give the documented order instead: the command line and environment alone (to
  // find --config, --help and any bad value), then the file onto the defaults, then the command
  // line and environment again on top.
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them back to front
  Config first;
  std::string config_file;
  {
    CLI::App app("", "atout-server");
    declare(app, first, Source::command_line, &config_file);
    try {
      app.parse(std::vector<std::string>(reversed));
    } catch (const CLI::CallForHelp&) {
      ParseResult r;
      r.message = app.help();
      return r;
    } catch (const CLI::ParseError& e) {
      return fail(explain(e, app, args));
    }
  }
  Config c;
  if (!config_file.empty()) {
    CLI::App app("", "atout-server");
    declare(app, c, Source::config_file, nullptr);
    app.set_config("--config");
    app.allow_config_extras(CLI::config_extras_mode::error);
    try {
      app.parse(std::vector<std::string>{config_file, "--config"});
    } catch (const CLI::ParseError& e) {
      return fail("config file " + config_file + ": " + e.what());
    }
  }
  {
    CLI::App app("", "atout-server");
    declare(app, c, Source::command_line, &config_file);
    try {
      app.parse(std::move(reversed));
    } catch (const CLI::ParseError& e) {
      return fail(explain(e, app, args));
    }
  }
  if (auto e = check_db(c.db)) return fail(*e);
  if (c.tls_cert.empty() != c.tls_key.empty())
    return fail(c.tls_cert.empty() ? "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key");
  if (auto e = check_cluster(c)) return fail(*e);
  ParseResult r;
  r.cfg = c;
  return r;
}

}  // namespace atout::server
