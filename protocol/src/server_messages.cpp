// The JSON forms of server messages (events go straight to text in event_text.cpp).
#include "atout/protocol/server_messages.hpp"

#include "message_json.hpp"
#include "wire_enums.hpp"

namespace atout::protocol {

std::string to_string(TableStatus s) { return json(s).get<std::string>(); }
std::string to_string(EventKind k) { return json(k).get<std::string>(); }

namespace {

json option_value(const OptionValue& v) {
  return std::visit([](const auto& x) { return json(x); }, v);
}

}  // namespace

json to_json(const SeatInfo& s) {
  json j = {{"seat", s.seat}, {"connected", s.connected}, {"away", s.away}};
  j["player_id"] = s.player_id ? json(*s.player_id) : json(nullptr);
  j["name"] = s.name ? json(*s.name) : json(nullptr);
  if (s.bot) j["bot"] = to_string(*s.bot);
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
  j["offset"] = m.page.offset;
  j["limit"] = m.page.limit;
  j["total"] = m.total;
  json list = json::array();
  for (const TableSummary& t : m.tables) list.push_back(to_json(t));
  j["tables"] = list;
  return j;
}

std::string summary_text(const TableSummary& t) {
  return to_json(t).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string tables_text(const Page& page, int total, std::string_view items, const RequestId& id) {
  // The keys in the order a json object keeps them (sorted), so the bytes are serialize(TableList)'s.
  json head = message("tables", id);
  std::string out = "{";
  if (const auto it = head.find("id"); it != head.end())
    out += "\"id\":" + it->dump(-1, ' ', false, json::error_handler_t::replace) + ",";
  out += "\"limit\":" + std::to_string(page.limit) + ",\"offset\":" + std::to_string(page.offset) + ",\"tables\":[";
  out.append(items);
  out += "],\"total\":" + std::to_string(total) + ",\"type\":\"tables\"}";
  return out;
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
  if (m.moving) j["moving"] = true;
  if (m.moving && m.takeover_ms > 0) j["takeover_ms"] = m.takeover_ms;
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
    if (m.last->by_bot) j["last_action"]["by_bot"] = to_string(*m.last->by_bot);
  }
  if (m.turn_ms_left) j["turn_ms_left"] = *m.turn_ms_left;
  if (m.replayed) j["replayed"] = true;
  if (m.deal)
    j["commitment"] = {{"match_id", m.deal->match_id}, {"deal_number", m.deal->hand}, {"hash", m.deal->commitment}};
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

json to_json(const Redirect& m, const RequestId& id) {
  json j = message("redirect", id);
  j["table_id"] = m.table_id;
  j["url"] = m.url;
  return j;
}

}  // namespace atout::protocol
