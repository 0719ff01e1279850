// The blocking hiredis wrapper: connect with a timeout, reconnect after a failure, and turn each
// reply into a RedisReply value.
#include "atout/server/cluster/redis_client.hpp"

#include <hiredis/hiredis.h>

#include <charconv>

namespace atout::server::cluster {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<decltype(tv.tv_sec)>(ms.count() / 1000);
  tv.tv_usec = static_cast<decltype(tv.tv_usec)>((ms.count() % 1000) * 1000);
  return tv;
}

RedisReply convert(const redisReply& r) {
  RedisReply out;
  switch (r.type) {
    case REDIS_REPLY_STRING:
      out.kind = RedisReply::Kind::text;
      out.text.assign(r.str, r.len);
      break;
    case REDIS_REPLY_STATUS:
      out.kind = RedisReply::Kind::status;
      out.text.assign(r.str, r.len);
      break;
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::integer;
      out.integer = r.integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::array;
      for (std::size_t i = 0; i < r.elements; ++i) out.items.push_back(convert(*r.element[i]));
      break;
    default:
      out.kind = RedisReply::Kind::nil;
  }
  return out;
}

bool parse_int(std::string_view text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<RedisClient::Address> RedisClient::parse_url(const std::string& url, std::string& error) {
  constexpr std::string_view kScheme = "redis://";
  if (url.rfind(kScheme, 0) != 0) {
    error = "'" + url + "' is not a redis://host[:port][/db] URL";
    return std::nullopt;
  }
  std::string_view rest = std::string_view(url).substr(kScheme.size());
  Address a;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    const std::string_view db = rest.substr(slash + 1);
    if (!db.empty() && (!parse_int(db, a.db) || a.db < 0)) {
      error = "'" + url + "': the database number '" + std::string(db) + "' is not a whole number";
      return std::nullopt;
    }
    rest = rest.substr(0, slash);
  }
  if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    const std::string_view port = rest.substr(colon + 1);
    if (!parse_int(port, a.port) || a.port < 1 || a.port > 65535) {
      error = "'" + url + "': the port '" + std::string(port) + "' is not a number from 1 to 65535";
      return std::nullopt;
    }
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) {
    error = "'" + url + "' names no host";
    return std::nullopt;
  }
  a.host = std::string(rest);
  return a;
}

RedisClient::RedisClient(Address address, std::chrono::milliseconds timeout)
    : address_(std::move(address)), timeout_(timeout) {}

RedisClient::~RedisClient() { drop(); }

void RedisClient::drop() {
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
}

bool RedisClient::connect(std::string& error) {
  const timeval tv = to_timeval(timeout_);
  ctx_ = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (!ctx_ || ctx_->err) {
    error = "cannot reach Redis at " + address_.host + ":" + std::to_string(address_.port) + ": " +
            (ctx_ ? std::string(ctx_->errstr) : std::string("out of memory"));
    drop();
    return false;
  }
  redisSetTimeout(ctx_, tv);
  if (address_.db != 0) {
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, "SELECT %d", address_.db));
    const bool ok = r && r->type != REDIS_REPLY_ERROR;
    error = ok ? std::string() : "Redis refused SELECT " + std::to_string(address_.db);
    if (r) freeReplyObject(r);
    if (!ok) {
      drop();
      return false;
    }
  }
  return true;
}

std::optional<RedisReply> RedisClient::command(const std::vector<std::string>& args, std::string& error) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  std::lock_guard lock(mutex_);
  // A connection kept from before may have died with its server (a Redis restart): that shows on
  // its first use, and the command is then sent once more on a new one.
  const bool kept = ctx_ != nullptr;
  if (!ctx_ && !connect(error)) return std::nullopt;
  auto* r =
      static_cast<redisReply*>(redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (!r && kept) {
    drop();
    if (!connect(error)) return std::nullopt;
    r = static_cast<redisReply*>(redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  }
  if (!r) {
    error = "Redis at " + address_.host + ":" + std::to_string(address_.port) + ": " + ctx_->errstr;
    drop();  // the connection is unusable after an I/O error; the next command reconnects
    return std::nullopt;
  }
  std::optional<RedisReply> out;
  if (r->type == REDIS_REPLY_ERROR) {
    error = "Redis: " + std::string(r->str, r->len);
  } else {
    out = convert(*r);
  }
  freeReplyObject(r);
  return out;
}

}  // namespace atout::server::cluster
