// Client requests parsed at the boundary: every field checked, anything wrong made an Error.
#include <algorithm>
#include <limits>

#include "atout/protocol/requests.hpp"
#include "atout/protocol/server_messages.hpp"

namespace atout::protocol {

namespace {

constexpr std::size_t kMaxIdLength = 128;
constexpr std::size_t kMaxNameBytes = 64;
constexpr std::size_t kMaxTableIdLength = 64;
constexpr std::size_t kMaxInviteLength = 128;
constexpr std::size_t kTokenLength = 64;
constexpr std::size_t kMaxResume = 16;

// An error about one field of a request.
Error field_error(ErrorCode code, std::string field, std::string message) {
  Error e = make_error(code, std::move(message));
  e.field = std::move(field);
  return e;
}

Error missing(std::string field) {
  std::string message = "missing field '" + field + "'";
  return field_error(ErrorCode::missing_field, std::move(field), std::move(message));
}

Error invalid(std::string field, std::string message) {
  return field_error(ErrorCode::invalid_field, std::move(field), std::move(message));
}

// A nested value that failed to parse: the error names the field below `where` that was at fault
// ("action.value", "action.cards[1]", "options.target"), and an absent one is a missing field.
template <typename T>
Error nested(const std::string& where, const Parsed<T>& p) {
  std::string path = where;
  if (!p.field.empty()) path += (p.field.front() == '[' ? "" : ".") + p.field;
  return field_error(p.missing ? ErrorCode::missing_field : ErrorCode::invalid_field, std::move(path), p.error);
}

// `key` of a resume entry: "resume[2].table_id".
std::string entry_field(std::size_t i, const char* key) { return "resume[" + std::to_string(i) + "]." + key; }

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
    return field_error(ErrorCode::unsupported_version, "protocol",
                       "this server speaks protocol " + std::to_string(kVersion));
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
    for (std::size_t i = 0; i < r->size(); ++i) {
      const json& x = (*r)[i];
      if (!x.is_object())
        return invalid("resume[" + std::to_string(i) + "]",
                       "each 'resume' entry must be an object {table_id, last_seq}");
      ResumeAt at;
      // The entry's own errors name their place in the list.
      auto place = [&](Error e) {
        if (e.field) e.field = "resume[" + std::to_string(i) + "]." + *e.field;
        return e;
      };
      if (auto e = require_string(x, "table_id", at.table_id, kMaxTableIdLength)) return place(*e);
      std::optional<std::uint64_t> seq;
      if (auto e = read_seq(x, seq)) return place(*e);
      if (!seq) return missing(entry_field(i, "last_seq"));
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
  if (const auto v = j.find("views"); v != j.end()) {
    if (*v == "full")
      h.views = Views::full;
    else if (*v == "delta")
      h.views = Views::delta;
    else
      return invalid("views",
                     "field 'views' must be \"full\" (each event whole) or \"delta\" (each event as the change "
                     "since the previous one)");
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

// Reads a bot level (field `field` of `j`) when present; an unknown one is unknown_bot_level.
std::optional<Error> read_level(const json& j, const char* key, const std::string& field, BotLevel& out) {
  const auto f = j.find(key);
  if (f == j.end()) return std::nullopt;
  if (!f->is_string())
    return invalid(field, "field '" + field + "' must be a string: \"random\", \"rules\" or \"sampling\"");
  const auto level = parse_bot_level(f->get_ref<const std::string&>());
  if (!level)
    return field_error(
        ErrorCode::unknown_bot_level, field,
        "unknown bot level '" + f->get_ref<const std::string&>().substr(0, 64) + "'; known: random, rules, sampling");
  out = *level;
  return std::nullopt;
}

// Reads a seat number: an integer that fits an int (the table checks its range).
std::optional<Error> read_seat_number(const json& f, const std::string& field, int& out) {
  if (!f.is_number_integer()) return invalid(field, "field '" + field + "' must be an integer");
  if (f.is_number_unsigned() && f.get<unsigned long long>() > std::numeric_limits<unsigned>::max())
    return invalid(field, "field '" + field + "' is out of range");
  const auto x = f.get<long long>();
  if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    return invalid(field, "field '" + field + "' is out of range");
  out = static_cast<int>(x);
  return std::nullopt;
}

std::optional<Error> read_settings(const json& j, TableSettings& s) {
  if (!j.is_object()) return invalid("settings", "field 'settings' must be an object");
  for (const auto& [key, value] : j.items())
    if (key != "turn_ms" && key != "reconnect_ms" && key != "away_after" && key != "rated" && key != "abandon" &&
        key != "bot_level")
      return invalid("settings." + key.substr(0, 64),
                     "unknown setting '" + key.substr(0, 64) +
                         "'; known: turn_ms, reconnect_ms, away_after, rated, abandon, bot_level");
  if (auto e = read_level(j, "bot_level", "settings.bot_level", s.bot_level)) return e;
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
    if (!p) return nested("options", p);
    c.options = std::move(*p.value);
  }
  if (const auto p = j.find("private"); p != j.end()) {
    if (!p->is_boolean()) return invalid("private", "field 'private' must be true or false");
    c.is_private = p->get<bool>();
  }
  if (const auto s = j.find("settings"); s != j.end()) {
    if (auto e = read_settings(*s, c.settings)) return e;
  }
  if (const auto b = j.find("bots"); b != j.end()) {
    if (!b->is_object()) return invalid("bots", "field 'bots' must be an object {level, seats}");
    for (const auto& [key, value] : b->items())
      if (key != "level" && key != "seats")
        return invalid("bots." + key.substr(0, 64),
                       "unknown field 'bots." + key.substr(0, 64) + "'; known: level, seats");
    BotFill fill;
    if (auto e = read_level(*b, "level", "bots.level", fill.level)) return e;
    if (const auto seats = b->find("seats"); seats != b->end()) {
      if (!seats->is_array() || seats->empty() || seats->size() > BotFill::kMaxSeats)
        return invalid("bots.seats", "field 'bots.seats' must be an array of 1 to " +
                                         std::to_string(BotFill::kMaxSeats) + " seat numbers");
      for (std::size_t i = 0; i < seats->size(); ++i) {
        int seat = 0;
        const std::string field = "bots.seats[" + std::to_string(i) + "]";
        if (auto e = read_seat_number((*seats)[i], field, seat)) return e;
        if (std::find(fill.seats.begin(), fill.seats.end(), seat) != fill.seats.end())
          return invalid(field, "seat " + std::to_string(seat) + " is named twice in 'bots.seats'");
        fill.seats.push_back(seat);
      }
    }
    c.bots = std::move(fill);
  }
  return std::nullopt;
}

std::optional<Error> read_add_bot(const json& j, AddBot& a) {
  if (auto e = require_string(j, "table_id", a.table_id, kMaxTableIdLength)) return e;
  if (const auto f = j.find("seat"); f != j.end()) {
    int seat = 0;
    if (auto e = read_seat_number(*f, "seat", seat)) return e;
    a.seat = seat;
  }
  return read_level(j, "level", "level", a.level);
}

std::optional<Error> read_remove_bot(const json& j, RemoveBot& r) {
  if (auto e = require_string(j, "table_id", r.table_id, kMaxTableIdLength)) return e;
  const auto f = j.find("seat");
  if (f == j.end()) return missing("seat");
  return read_seat_number(*f, "seat", r.seat);
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
  if (!p) return nested("action", p);
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

std::optional<Error> read_list_tables(const json& j, ListTables& l) {
  if (auto e = read_string(j, "variant", l.variant, kMaxLookupIdLength)) return e;
  if (l.variant && !find_variant(*l.variant)) {
    std::string known;
    for (const VariantInfo& v : variants()) known += (known.empty() ? "" : ", ") + v.id;
    return invalid("variant", "field 'variant' must be a known variant: " + known);
  }
  if (const auto f = j.find("status"); f != j.end()) {
    for (const TableStatus s : {TableStatus::waiting, TableStatus::playing, TableStatus::paused, TableStatus::finished})
      if (f->is_string() && f->get_ref<const std::string&>() == to_string(s)) l.status = s;
    if (!l.status)
      return invalid("status", "field 'status' must be \"waiting\", \"playing\", \"paused\" or \"finished\"");
  }
  if (auto e = read_page_field(j, "min_free", 0, ListTables::kMaxFreeSeats, l.min_free)) return e;
  return read_page(j, l.page);
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
std::optional<Error> read_get_analysis(const json& j, GetAnalysis& g) {
  if (auto e = require_string(j, "match_id", g.match_id, kMaxLookupIdLength)) return e;
  if (!j.contains("deal_number")) return missing("deal_number");
  return read_page_field(j, "deal_number", 0, GetAnalysis::kMaxDeal, g.deal_number);
}

}  // namespace

std::string to_string(BotLevel level) {
  switch (level) {
    case BotLevel::random:
      return "random";
    case BotLevel::rules:
      return "rules";
    case BotLevel::sampling:
      return "sampling";
  }
  return "rules";
}

std::optional<BotLevel> parse_bot_level(std::string_view text) {
  for (const BotLevel l : {BotLevel::random, BotLevel::rules, BotLevel::sampling})
    if (text == to_string(l)) return l;
  return std::nullopt;
}

std::string bot_player_id(BotLevel level) { return "bot:" + to_string(level); }

std::optional<BotLevel> bot_of_player(std::string_view player_id) {
  constexpr std::string_view kPrefix = "bot:";
  if (!player_id.starts_with(kPrefix)) return std::nullopt;
  return parse_bot_level(player_id.substr(kPrefix.size()));
}

ParsedRequest parse_request(std::string_view text) {
  ParsedRequest out;
  auto fail = [&](Error e) {
    out.body = std::move(e);
    return out;
  };
  auto parsed = parse_text(text);
  if (!parsed) return fail(make_error(ErrorCode::bad_json, parsed.error));
  const json& j = *parsed.value;
  if (!j.is_object()) return fail(make_error(ErrorCode::bad_message, "a message must be a JSON object with a 'type'"));

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
    out.body = read_with<ListTables>(j, read_list_tables);
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
  } else if (type == "add_bot") {
    out.body = read_with<AddBot>(j, read_add_bot);
  } else if (type == "remove_bot") {
    out.body = read_with<RemoveBot>(j, read_remove_bot);
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
  } else if (type == "get_analysis") {
    out.body = read_with<GetAnalysis>(j, read_get_analysis);
  } else {
    std::string shown = type.substr(0, 64);
    return fail(make_error(ErrorCode::unknown_type, "unknown message type '" + shown + "'"));
  }
  return out;
}

}  // namespace atout::protocol
