// Protocol v1 messages: request parsing at the boundary and the JSON forms of server messages.
#include "atout/protocol/messages.hpp"

#include <algorithm>
#include <limits>

namespace atout::protocol {

NLOHMANN_JSON_SERIALIZE_ENUM(ErrorCode, {
                                            {ErrorCode::bad_json, "bad_json"},
                                            {ErrorCode::bad_message, "bad_message"},
                                            {ErrorCode::missing_field, "missing_field"},
                                            {ErrorCode::invalid_field, "invalid_field"},
                                            {ErrorCode::unknown_type, "unknown_type"},
                                            {ErrorCode::unsupported_version, "unsupported_version"},
                                            {ErrorCode::hello_required, "hello_required"},
                                            {ErrorCode::already_identified, "already_identified"},
                                            {ErrorCode::unknown_token, "unknown_token"},
                                            {ErrorCode::unknown_variant, "unknown_variant"},
                                            {ErrorCode::bad_option, "bad_option"},
                                            {ErrorCode::unknown_table, "unknown_table"},
                                            {ErrorCode::bad_invite, "bad_invite"},
                                            {ErrorCode::bad_seat, "bad_seat"},
                                            {ErrorCode::seat_taken, "seat_taken"},
                                            {ErrorCode::table_full, "table_full"},
                                            {ErrorCode::already_seated, "already_seated"},
                                            {ErrorCode::not_seated, "not_seated"},
                                            {ErrorCode::not_at_table, "not_at_table"},
                                            {ErrorCode::match_not_running, "match_not_running"},
                                            {ErrorCode::illegal_action, "illegal_action"},
                                            {ErrorCode::internal_error, "internal_error"},
                                            {ErrorCode::chat_too_fast, "chat_too_fast"},
                                            {ErrorCode::unknown_player, "unknown_player"},
                                            {ErrorCode::unknown_ladder, "unknown_ladder"},
                                            {ErrorCode::unknown_match, "unknown_match"},
                                            {ErrorCode::match_not_finished, "match_not_finished"},
                                        })

NLOHMANN_JSON_SERIALIZE_ENUM(TableStatus, {
                                              {TableStatus::waiting, "waiting"},
                                              {TableStatus::playing, "playing"},
                                              {TableStatus::paused, "paused"},
                                              {TableStatus::finished, "finished"},
                                          })

NLOHMANN_JSON_SERIALIZE_ENUM(EventKind, {
                                            {EventKind::start, "start"},
                                            {EventKind::action, "action"},
                                            {EventKind::snapshot, "snapshot"},
                                            {EventKind::abandoned, "abandoned"},
                                        })

std::string to_string(ErrorCode c) { return json(c).get<std::string>(); }
std::string to_string(TableStatus s) { return json(s).get<std::string>(); }
std::string to_string(EventKind k) { return json(k).get<std::string>(); }

const std::vector<ErrorCode>& all_error_codes() {
  static const std::vector<ErrorCode> codes = [] {
    std::vector<ErrorCode> v;
    for (int i = 0; i <= static_cast<int>(ErrorCode::match_not_finished); ++i) v.push_back(static_cast<ErrorCode>(i));
    return v;
  }();
  return codes;
}

// ---- Parsing requests ----------------------------------------------------------------------------

namespace {

constexpr std::size_t kMaxIdLength = 128;
constexpr std::size_t kMaxNameBytes = 64;
constexpr std::size_t kMaxTableIdLength = 64;
constexpr std::size_t kMaxInviteLength = 128;
constexpr std::size_t kTokenLength = 64;
constexpr std::size_t kMaxResume = 16;

Error missing(std::string field) {
  Error e;
  e.code = ErrorCode::missing_field;
  e.message = "missing field '" + field + "'";
  e.field = std::move(field);
  return e;
}

Error invalid(std::string field, std::string message) {
  Error e;
  e.code = ErrorCode::invalid_field;
  e.message = std::move(message);
  e.field = std::move(field);
  return e;
}

// Reads an optional string field of at most `max_len` bytes.
std::optional<Error> read_string(const json& j, const char* key, std::optional<std::string>& out, std::size_t max_len) {
  const auto f = j.find(key);
  if (f == j.end()) return std::nullopt;
  if (!f->is_string()) return invalid(key, std::string("field '") + key + "' must be a string");
  const auto& s = f->get_ref<const std::string&>();
  if (s.empty() || s.size() > max_len)
    return invalid(key, std::string("field '") + key + "' must hold 1 to " + std::to_string(max_len) + " bytes");
  out = s;
  return std::nullopt;
}

std::optional<Error> require_string(const json& j, const char* key, std::string& out, std::size_t max_len) {
  std::optional<std::string> v;
  if (auto e = read_string(j, key, v, max_len)) return e;
  if (!v) return missing(key);
  out = std::move(*v);
  return std::nullopt;
}

// Reads an optional `last_seq`: the last event a client saw at a table.
std::optional<Error> read_seq(const json& j, std::optional<std::uint64_t>& out) {
  const auto f = j.find("last_seq");
  if (f == j.end()) return std::nullopt;
  if (!f->is_number_unsigned() && !(f->is_number_integer() && f->get<long long>() >= 0))
    return invalid("last_seq", "field 'last_seq' must be a non-negative integer (the last event seq you saw)");
  out = f->get<std::uint64_t>();
  return std::nullopt;
}

std::optional<Error> read_hello(const json& j, Hello& h) {
  const auto p = j.find("protocol");
  if (p == j.end()) return missing("protocol");
  if (!p->is_number_integer()) return invalid("protocol", "field 'protocol' must be an integer");
  if (*p != kVersion) {
    Error e;
    e.code = ErrorCode::unsupported_version;
    e.message = "this server speaks protocol " + std::to_string(kVersion);
    e.field = "protocol";
    return e;
  }
  if (auto e = read_string(j, "name", h.name, kMaxNameBytes)) return e;
  if (h.name && std::any_of(h.name->begin(), h.name->end(),
                            [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }))
    return invalid("name", "field 'name' may not hold control characters");
  if (auto e = read_string(j, "token", h.token, kTokenLength)) return e;
  if (h.token && (h.token->size() != kTokenLength || !std::all_of(h.token->begin(), h.token->end(), [](char c) {
                    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                  })))
    return invalid("token", "field 'token' must be the 64 lower-case hex digits a welcome gave");
  if (const auto r = j.find("resume"); r != j.end()) {
    if (!h.token) return invalid("resume", "field 'resume' needs the 'token' of the identity to resume");
    if (!r->is_array() || r->size() > kMaxResume)
      return invalid("resume", "field 'resume' must be an array of at most " + std::to_string(kMaxResume) +
                                   " {table_id, last_seq} objects");
    for (const json& x : *r) {
      if (!x.is_object()) return invalid("resume", "each 'resume' entry must be an object {table_id, last_seq}");
      ResumeAt at;
      if (auto e = require_string(x, "table_id", at.table_id, kMaxTableIdLength)) return e;
      std::optional<std::uint64_t> seq;
      if (auto e = read_seq(x, seq)) return e;
      if (!seq) return missing("last_seq");
      at.last_seq = *seq;
      h.resume.push_back(std::move(at));
    }
  }
  if (const auto a = j.find("ack"); a != j.end()) {
    if (*a == "reply")
      h.ack = Ack::reply;
    else if (*a == "event")
      h.ack = Ack::event;
    else
      return invalid("ack",
                     "field 'ack' must be \"reply\" (an accepted reply to each action) or \"event\" (the "
                     "action's event carries its id)");
  }
  return std::nullopt;
}

std::optional<Error> read_bounded(const json& j, const char* key, int lo, int hi, int& out) {
  const auto f = j.find(key);
  if (f == j.end()) return std::nullopt;
  const std::string field = std::string("settings.") + key;
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  if (!f->is_number_integer()) return invalid(field, "field '" + field + "' must be an integer from " + range);
  if ((f->is_number_unsigned() && f->get<unsigned long long>() > static_cast<unsigned long long>(hi)) ||
      f->get<long long>() < lo || f->get<long long>() > hi)
    return invalid(field, "field '" + field + "' must be from " + range);
  out = static_cast<int>(f->get<long long>());
  return std::nullopt;
}

std::optional<Error> read_settings(const json& j, TableSettings& s) {
  if (!j.is_object()) return invalid("settings", "field 'settings' must be an object");
  for (const auto& [key, value] : j.items())
    if (key != "turn_ms" && key != "reconnect_ms" && key != "away_after" && key != "rated" && key != "abandon")
      return invalid(
          "settings." + key.substr(0, 64),
          "unknown setting '" + key.substr(0, 64) + "'; known: turn_ms, reconnect_ms, away_after, rated, abandon");
  if (auto e = read_bounded(j, "turn_ms", TableSettings::kMinMs, TableSettings::kMaxTurnMs, s.turn_ms)) return e;
  if (auto e = read_bounded(j, "reconnect_ms", TableSettings::kMinMs, TableSettings::kMaxReconnectMs, s.reconnect_ms))
    return e;
  if (auto e = read_bounded(j, "away_after", 1, 10, s.away_after)) return e;
  if (const auto r = j.find("rated"); r != j.end()) {
    if (!r->is_boolean()) return invalid("settings.rated", "field 'settings.rated' must be true or false");
    s.rated = r->get<bool>();
  }
  if (const auto a = j.find("abandon"); a != j.end()) {
    if (*a == "forfeit") {
      s.abandon = TableSettings::Abandon::forfeit;
    } else if (*a == "free_seat") {
      s.abandon = TableSettings::Abandon::free_seat;
    } else {
      return invalid("settings.abandon", "field 'settings.abandon' must be \"forfeit\" or \"free_seat\"");
    }
  }
  return std::nullopt;
}

std::optional<Error> read_create(const json& j, CreateTable& c) {
  if (auto e = require_string(j, "variant", c.variant, kMaxTableIdLength)) return e;
  if (const auto o = j.find("options"); o != j.end()) {
    auto p = parse_options(*o);
    if (!p) return invalid("options", p.error);
    c.options = std::move(*p.value);
  }
  if (const auto p = j.find("private"); p != j.end()) {
    if (!p->is_boolean()) return invalid("private", "field 'private' must be true or false");
    c.is_private = p->get<bool>();
  }
  if (const auto s = j.find("settings"); s != j.end()) {
    if (auto e = read_settings(*s, c.settings)) return e;
  }
  return std::nullopt;
}

std::optional<Error> read_ref(const json& j, TableRef& r) {
  if (auto e = read_string(j, "table_id", r.table_id, kMaxTableIdLength)) return e;
  if (auto e = read_string(j, "invite", r.invite, kMaxInviteLength)) return e;
  if (!r.table_id && !r.invite) {
    Error e = missing("table_id");
    e.message = "give a 'table_id', or an 'invite' for a private table";
    return e;
  }
  return std::nullopt;
}

std::optional<Error> read_sit(const json& j, Sit& s) {
  if (auto e = read_ref(j, s.where)) return e;
  if (const auto f = j.find("seat"); f != j.end()) {
    if (!f->is_number_integer()) return invalid("seat", "field 'seat' must be an integer (omit it for any free seat)");
    if (f->is_number_unsigned() && f->get<unsigned long long>() > std::numeric_limits<unsigned>::max())
      return invalid("seat", "field 'seat' is out of range");
    const auto x = f->get<long long>();
    if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
      return invalid("seat", "field 'seat' is out of range");
    s.seat = static_cast<int>(x);
  }
  return read_seq(j, s.last_seq);
}

std::optional<Error> read_act(const json& j, Act& a) {
  if (auto e = require_string(j, "table_id", a.table_id, kMaxTableIdLength)) return e;
  const auto f = j.find("action");
  if (f == j.end()) return missing("action");
  auto p = parse_action(*f);
  if (!p) return invalid("action", p.error);
  a.action = *p.value;
  return std::nullopt;
}

template <typename T>
std::variant<Request, Error> read_with(const json& j, std::optional<Error> (*reader)(const json&, T&)) {
  T value;
  if (auto e = reader(j, value)) return *e;
  return Request{std::move(value)};
}

std::optional<Error> read_table_id(const json& j, std::string& id) {
  return require_string(j, "table_id", id, kMaxTableIdLength);
}
std::optional<Error> read_stand(const json& j, Stand& s) { return read_table_id(j, s.table_id); }
std::optional<Error> read_leave(const json& j, Leave& l) { return read_table_id(j, l.table_id); }
std::optional<Error> read_spectate(const json& j, Spectate& s) {
  if (auto e = read_ref(j, s.where)) return e;
  return read_seq(j, s.last_seq);
}
std::optional<Error> read_chat(const json& j, Chat& c) {
  if (auto e = read_string(j, "table_id", c.table_id, kMaxTableIdLength)) return e;
  if (auto e = require_string(j, "text", c.text, kMaxChatBytes)) return e;
  if (std::any_of(c.text.begin(), c.text.end(),
                  [](char ch) { return (static_cast<unsigned char>(ch) < 0x20 && ch != '\n') || ch == 0x7F; }))
    return invalid("text", "field 'text' may not hold control characters other than new lines");
  return std::nullopt;
}

constexpr std::size_t kMaxLookupIdLength = 64;

std::optional<Error> read_page_field(const json& j, const char* key, int lo, int hi, int& out) {
  const auto f = j.find(key);
  if (f == j.end()) return std::nullopt;
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  if (!f->is_number_integer() || (f->is_number_unsigned() && f->get<unsigned long long>() > 0x7fffffffULL) ||
      f->get<long long>() < lo || f->get<long long>() > hi)
    return invalid(key, std::string("field '") + key + "' must be an integer from " + range);
  out = static_cast<int>(f->get<long long>());
  return std::nullopt;
}

std::optional<Error> read_page(const json& j, Page& p) {
  if (auto e = read_page_field(j, "offset", 0, Page::kMaxOffset, p.offset)) return e;
  return read_page_field(j, "limit", 1, Page::kMaxLimit, p.limit);
}

std::optional<Error> read_get_profile(const json& j, GetProfile& g) {
  return require_string(j, "player_id", g.player_id, kMaxLookupIdLength);
}
std::optional<Error> read_get_leaderboard(const json& j, GetLeaderboard& g) {
  if (auto e = require_string(j, "ladder", g.ladder, kMaxLookupIdLength)) return e;
  return read_page(j, g.page);
}
std::optional<Error> read_get_history(const json& j, GetHistory& g) {
  if (auto e = require_string(j, "player_id", g.player_id, kMaxLookupIdLength)) return e;
  return read_page(j, g.page);
}
std::optional<Error> read_get_replay(const json& j, GetReplay& g) {
  return require_string(j, "match_id", g.match_id, kMaxLookupIdLength);
}

}  // namespace

ParsedRequest parse_request(std::string_view text) {
  ParsedRequest out;
  auto fail = [&](Error e) {
    out.body = std::move(e);
    return out;
  };
  auto parsed = parse_text(text);
  if (!parsed) return fail(Error{ErrorCode::bad_json, parsed.error, {}, {}, {}});
  const json& j = *parsed.value;
  if (!j.is_object())
    return fail(Error{ErrorCode::bad_message, "a message must be a JSON object with a 'type'", {}, {}, {}});

  if (const auto id = j.find("id"); id != j.end()) {
    if (id->is_string() && !id->get_ref<const std::string&>().empty() &&
        id->get_ref<const std::string&>().size() <= kMaxIdLength) {
      out.id = id->get<std::string>();
    } else if (id->is_number_integer() &&
               !(id->is_number_unsigned() &&
                 id->get<unsigned long long>() > static_cast<unsigned long long>(INT64_MAX))) {
      out.id = id->get<std::int64_t>();
    } else {
      return fail(invalid("id", "field 'id' must be an integer or a string of 1 to 128 bytes"));
    }
  }

  const auto t = j.find("type");
  if (t == j.end()) return fail(missing("type"));
  if (!t->is_string()) return fail(invalid("type", "field 'type' must be a string"));
  const auto& type = t->get_ref<const std::string&>();

  if (type == "hello") {
    out.body = read_with<Hello>(j, read_hello);
  } else if (type == "list_variants") {
    out.body = Request{ListVariants{}};
  } else if (type == "list_tables") {
    out.body = Request{ListTables{}};
  } else if (type == "subscribe_lobby") {
    out.body = Request{SubscribeLobby{}};
  } else if (type == "unsubscribe_lobby") {
    out.body = Request{UnsubscribeLobby{}};
  } else if (type == "create_table") {
    out.body = read_with<CreateTable>(j, read_create);
  } else if (type == "sit") {
    out.body = read_with<Sit>(j, read_sit);
  } else if (type == "spectate") {
    out.body = read_with<Spectate>(j, read_spectate);
  } else if (type == "stand") {
    out.body = read_with<Stand>(j, read_stand);
  } else if (type == "leave") {
    out.body = read_with<Leave>(j, read_leave);
  } else if (type == "action") {
    out.body = read_with<Act>(j, read_act);
  } else if (type == "ping") {
    out.body = Request{Ping{}};
  } else if (type == "chat") {
    out.body = read_with<Chat>(j, read_chat);
  } else if (type == "get_profile") {
    out.body = read_with<GetProfile>(j, read_get_profile);
  } else if (type == "get_leaderboard") {
    out.body = read_with<GetLeaderboard>(j, read_get_leaderboard);
  } else if (type == "get_history") {
    out.body = read_with<GetHistory>(j, read_get_history);
  } else if (type == "get_replay") {
    out.body = read_with<GetReplay>(j, read_get_replay);
  } else {
    std::string shown = type.substr(0, 64);
    return fail(Error{ErrorCode::unknown_type, "unknown message type '" + shown + "'", {}, {}, {}});
  }
  return out;
}

// ---- Request JSON (client side) ------------------------------------------------------------------

namespace {

void put_id(json& j, const RequestId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) j["id"] = *n;
  if (const auto* s = std::get_if<std::string>(&id)) j["id"] = *s;
}

void put_ref(json& j, const TableRef& r) {
  if (r.table_id) j["table_id"] = *r.table_id;
  if (r.invite) j["invite"] = *r.invite;
}

json request_body(const Hello& h) {
  json j = {{"protocol", h.protocol}};
  if (h.name) j["name"] = *h.name;
  if (h.token) j["token"] = *h.token;
  if (!h.resume.empty()) {
    j["resume"] = json::array();
    for (const ResumeAt& r : h.resume) j["resume"].push_back({{"table_id", r.table_id}, {"last_seq", r.last_seq}});
  }
  if (h.ack == Ack::event) j["ack"] = "event";
  return j;
}
json request_body(const Chat& c) {
  json j = {{"text", c.text}};
  if (c.table_id) j["table_id"] = *c.table_id;
  return j;
}
json request_body(const ListVariants&) { return json::object(); }
json request_body(const ListTables&) { return json::object(); }
json request_body(const SubscribeLobby&) { return json::object(); }
json request_body(const UnsubscribeLobby&) { return json::object(); }
json request_body(const Ping&) { return json::object(); }
json request_body(const CreateTable& c) {
  json j = {{"variant", c.variant}, {"options", to_json(c.options)}, {"settings", to_json(c.settings)}};
  if (c.is_private) j["private"] = true;
  return j;
}
json request_body(const Sit& s) {
  json j = json::object();
  put_ref(j, s.where);
  if (s.seat) j["seat"] = *s.seat;
  if (s.last_seq) j["last_seq"] = *s.last_seq;
  return j;
}
json request_body(const Spectate& s) {
  json j = json::object();
  put_ref(j, s.where);
  if (s.last_seq) j["last_seq"] = *s.last_seq;
  return j;
}
json request_body(const Stand& s) { return {{"table_id", s.table_id}}; }
json request_body(const Leave& l) { return {{"table_id", l.table_id}}; }
json request_body(const Act& a) { return {{"table_id", a.table_id}, {"action", to_json(a.action)}}; }
json request_body(const GetProfile& g) { return {{"player_id", g.player_id}}; }
json request_body(const GetLeaderboard& g) {
  return {{"ladder", g.ladder}, {"offset", g.page.offset}, {"limit", g.page.limit}};
}
json request_body(const GetHistory& g) {
  return {{"player_id", g.player_id}, {"offset", g.page.offset}, {"limit", g.page.limit}};
}
json request_body(const GetReplay& g) { return {{"match_id", g.match_id}}; }

template <typename T>
constexpr std::string_view request_type();
template <>
constexpr std::string_view request_type<Hello>() {
  return "hello";
}
template <>
constexpr std::string_view request_type<ListVariants>() {
  return "list_variants";
}
template <>
constexpr std::string_view request_type<ListTables>() {
  return "list_tables";
}
template <>
constexpr std::string_view request_type<SubscribeLobby>() {
  return "subscribe_lobby";
}
template <>
constexpr std::string_view request_type<UnsubscribeLobby>() {
  return "unsubscribe_lobby";
}
template <>
constexpr std::string_view request_type<CreateTable>() {
  return "create_table";
}
template <>
constexpr std::string_view request_type<Sit>() {
  return "sit";
}
template <>
constexpr std::string_view request_type<Spectate>() {
  return "spectate";
}
template <>
constexpr std::string_view request_type<Stand>() {
  return "stand";
}
template <>
constexpr std::string_view request_type<Leave>() {
  return "leave";
}
template <>
constexpr std::string_view request_type<Act>() {
  return "action";
}
template <>
constexpr std::string_view request_type<Ping>() {
  return "ping";
}
template <>
constexpr std::string_view request_type<Chat>() {
  return "chat";
}
template <>
constexpr std::string_view request_type<GetProfile>() {
  return "get_profile";
}
template <>
constexpr std::string_view request_type<GetLeaderboard>() {
  return "get_leaderboard";
}
template <>
constexpr std::string_view request_type<GetHistory>() {
  return "get_history";
}
template <>
constexpr std::string_view request_type<GetReplay>() {
  return "get_replay";
}

}  // namespace

std::string_view type_of(const Request& r) {
  return std::visit([](const auto& x) { return request_type<std::decay_t<decltype(x)>>(); }, r);
}

json to_json(const Request& r, const RequestId& id) {
  json j = std::visit([](const auto& x) { return request_body(x); }, r);
  j["type"] = type_of(r);
  put_id(j, id);
  return j;
}

// ---- Server messages -----------------------------------------------------------------------------

namespace {

json message(std::string_view type, const RequestId& id = {}) {
  json j = {{"type", type}};
  put_id(j, id);
  return j;
}

json option_value(const OptionValue& v) {
  return std::visit([](const auto& x) { return json(x); }, v);
}

}  // namespace

json to_json(const TableSettings& s) {
  return {{"turn_ms", s.turn_ms},
          {"reconnect_ms", s.reconnect_ms},
          {"away_after", s.away_after},
          {"rated", s.rated},
          {"abandon", s.abandon == TableSettings::Abandon::forfeit ? "forfeit" : "free_seat"}};
}

json to_json(const SeatInfo& s) {
  json j = {{"seat", s.seat}, {"connected", s.connected}, {"away", s.away}};
  j["player_id"] = s.player_id ? json(*s.player_id) : json(nullptr);
  j["name"] = s.name ? json(*s.name) : json(nullptr);
  return j;
}

json to_json(const TableSummary& t) {
  json seats = json::array();
  int free = 0;
  for (const SeatInfo& s : t.seats) {
    seats.push_back(to_json(s));
    if (!s.player_id) ++free;
  }
  return {{"table_id", t.table_id},
          {"variant", t.variant},
          {"options", to_json(t.options)},
          {"private", t.is_private},
          {"status", t.status},
          {"settings", to_json(t.settings)},
          {"seats", seats},
          {"free_seats", free},
          {"spectators", t.spectators},
          {"seq", t.seq}};
}

json to_json(const VariantInfo& v) {
  json options = json::array();
  for (const OptionSpec& o : v.options) {
    json x = {{"name", o.name}, {"default", option_value(o.default_value)}, {"description", o.description}};
    switch (o.type) {
      case OptionType::boolean:
        x["type"] = "boolean";
        break;
      case OptionType::integer:
        x["type"] = "integer";
        if (o.allowed_integers.empty()) {
          x["min"] = o.min;
          x["max"] = o.max;
        } else {
          x["allowed"] = o.allowed_integers;
        }
        break;
      case OptionType::choice:
        x["type"] = "choice";
        x["choices"] = o.choices;
        break;
    }
    options.push_back(std::move(x));
  }
  return {{"id", v.id}, {"title", v.title}, {"players", v.players}, {"deck_size", v.deck_size}, {"options", options}};
}

json to_json(const MatchResult& m) {
  json hands = json::array();
  for (const HandResult& h : m.hands) hands.push_back(to_json(h));
  json j = {{"winner", m.winner}, {"match_score", m.match_score}, {"hands", hands}};
  if (m.abandoned) {
    j["abandoned"] = true;
    j["abandoned_by"] = m.abandoned_by;
  }
  return j;
}

json to_json(const Welcome& m, const RequestId& id) {
  json j = message("welcome", id);
  j["protocol"] = kVersion;
  j["player_id"] = m.player_id;
  j["name"] = m.name;
  j["token"] = m.token;
  j["resumed"] = m.resumed;
  j["seats"] = json::array();
  for (const HeldSeat& h : m.seats) j["seats"].push_back({{"table_id", h.table_id}, {"seat", h.seat}});
  return j;
}

json to_json(const VariantList& m, const RequestId& id) {
  json j = message("variants", id);
  json list = json::array();
  for (const VariantInfo* v : m.variants) list.push_back(to_json(*v));
  j["variants"] = list;
  return j;
}

json to_json(const TableList& m, const RequestId& id) {
  json j = message("tables", id);
  json list = json::array();
  for (const TableSummary& t : m.tables) list.push_back(to_json(t));
  j["tables"] = list;
  return j;
}

json to_json(const TableCreated& m, const RequestId& id) {
  json j = message("table_created", id);
  j["table"] = to_json(m.table);
  if (m.invite) j["invite"] = *m.invite;
  return j;
}

json to_json(const Seated& m, const RequestId& id) {
  json j = message("seated", id);
  j["table_id"] = m.table_id;
  j["seat"] = m.seat;
  j["resumed"] = m.resumed;
  return j;
}

json to_json(const Watching& m, const RequestId& id) {
  json j = message("watching", id);
  j["table_id"] = m.table_id;
  return j;
}

json to_json(const Ok& m, const RequestId& id) {
  json j = message("ok", id);
  j["request"] = m.request;
  if (m.table_id) j["table_id"] = *m.table_id;
  return j;
}

json to_json(const Accepted& m, const RequestId& id) {
  json j = message("accepted", id);
  j["table_id"] = m.table_id;
  j["seq"] = m.seq;
  return j;
}

json to_json(const Pong&, const RequestId& id) { return message("pong", id); }

json to_json(const Error& m, const RequestId& id) {
  json j = message("error", id);
  j["code"] = m.code;
  j["message"] = m.message;
  if (m.field) j["field"] = *m.field;
  if (m.reason) j["reason"] = *m.reason;
  if (m.table_id) j["table_id"] = *m.table_id;
  return j;
}

json to_json(const Event& m) {
  json j = message("event");
  j["table_id"] = m.table_id;
  j["seq"] = m.seq;
  j["kind"] = m.kind;
  j["observation"] = to_json(m.observation);
  if (m.last) {
    json a = m.last->redacted ? json{{"type", atout::to_string(m.last->action.type)}} : to_json(m.last->action);
    j["last_action"] = {{"seat", m.last->seat}, {"action", a}};
    if (m.last->redacted) j["last_action"]["redacted"] = true;
    if (m.last->by_server) j["last_action"]["by_server"] = true;
  }
  if (m.turn_ms_left) j["turn_ms_left"] = *m.turn_ms_left;
  if (m.deal) j["deal"] = {{"match_id", m.deal->match_id}, {"hand", m.deal->hand}, {"commitment", m.deal->commitment}};
  // The hand is over, so its seed is revealed with it; each hand's seed is derived one-way from a
  // secret match seed, so it tells nothing of the next hand's (docs/fair-dealing.md).
  if (m.hand_result) j["hand_result"] = to_json(*m.hand_result);
  if (m.match_result) j["match_result"] = to_json(*m.match_result);
  put_id(j, m.id);
  return j;
}

json to_json(const TableUpdate& m) {
  json j = message("table_update");
  j["table"] = to_json(m.table);
  return j;
}

json to_json(const LobbyUpdate& m) {
  json j = message("lobby_update");
  j["table"] = to_json(m.table);
  return j;
}

json to_json(const LobbyRemove& m) {
  json j = message("lobby_remove");
  j["table_id"] = m.table_id;
  return j;
}

json to_json(const ChatMessage& m) {
  json j = message("chat_message");
  if (m.table_id) j["table_id"] = *m.table_id;
  j["player_id"] = m.player_id;
  j["name"] = m.name;
  if (m.seat) j["seat"] = *m.seat;
  j["text"] = m.text;
  return j;
}

json to_json(const Goodbye& m) {
  json j = message("goodbye");
  j["reason"] = m.reason == Goodbye::Reason::replaced ? "replaced" : "shutdown";
  j["message"] = m.message;
  return j;
}

// ---- Profiles, leaderboards, histories and replays ---------------------------------------------

namespace {

json rating_json(const RatingInfo& r) {
  return {{"ladder", r.ladder}, {"mu", r.mu}, {"sigma", r.sigma}, {"ordinal", r.ordinal}, {"matches", r.matches}};
}

template <typename T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

json to_json(const Profile& m, const RequestId& id) {
  json j = message("profile", id);
  j["player_id"] = m.player_id;
  j["name"] = m.name;
  j["created_at"] = m.created_at;
  j["last_seen"] = m.last_seen;
  json ratings = json::array();
  for (const RatingInfo& r : m.ratings) ratings.push_back(rating_json(r));
  j["ratings"] = ratings;
  return j;
}

json to_json(const Leaderboard& m, const RequestId& id) {
  json j = message("leaderboard", id);
  j["ladder"] = m.ladder;
  j["offset"] = m.page.offset;
  j["limit"] = m.page.limit;
  j["total"] = m.total;
  json entries = json::array();
  for (const LeaderboardEntry& e : m.entries) {
    json x = rating_json(e.rating);
    x.erase("ladder");
    x["rank"] = e.rank;
    x["player_id"] = e.player_id;
    x["name"] = e.name;
    entries.push_back(std::move(x));
  }
  j["entries"] = entries;
  return j;
}

json to_json(const History& m, const RequestId& id) {
  json j = message("history", id);
  j["player_id"] = m.player_id;
  j["offset"] = m.page.offset;
  j["limit"] = m.page.limit;
  json matches = json::array();
  for (const HistoryEntry& e : m.matches)
    matches.push_back({{"match_id", e.match_id},
                       {"variant", e.variant},
                       {"seat", e.seat},
                       {"team", e.team},
                       {"started_at", e.started_at},
                       {"ended_at", or_null(e.ended_at)},
                       {"end_reason", or_null(e.end_reason)},
                       {"match_score", or_null(e.match_score)},
                       {"winner", or_null(e.winner)}});
  j["matches"] = matches;
  return j;
}

json to_json(const Replay& m, const RequestId& id) {
  // The record's own fields at the top level, so the message is itself a record.
  json j = to_json(m.record);
  j["type"] = "replay";
  put_id(j, id);
  j["match_id"] = m.match_id;
  j["table_id"] = m.table_id;
  json seats = json::array();
  for (const ReplaySeat& s : m.seats)
    seats.push_back({{"seat", s.seat}, {"team", s.team}, {"player_id", s.player_id}, {"name", s.name}});
  j["seats"] = seats;
  json deals = json::array();
  for (const ReplayDeal& d : m.deals)
    deals.push_back({{"hand", d.hand}, {"dealer", d.dealer}, {"commitment", d.commitment}, {"seed", d.seed}});
  j["deals"] = deals;
  j["rated"] = m.rated;
  j["started_at"] = m.started_at;
  j["ended_at"] = m.ended_at;
  j["end_reason"] = m.end_reason;
  j["match_score"] = or_null(m.match_score);
  j["winner"] = or_null(m.winner);
  return j;
}

}  // namespace atout::protocol
