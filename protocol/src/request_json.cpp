// The JSON forms of client requests, as bots, tests and the docs examples build them.
#include "atout/protocol/requests.hpp"
#include "atout/protocol/server_messages.hpp"
#include "message_json.hpp"

namespace atout::protocol {

namespace {

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
  if (h.views == Views::delta) j["views"] = "delta";
  return j;
}
json request_body(const Chat& c) {
  json j = {{"text", c.text}};
  if (c.table_id) j["table_id"] = *c.table_id;
  return j;
}
json request_body(const ListVariants&) { return json::object(); }
json request_body(const ListTables& l) {
  json j = {{"offset", l.page.offset}, {"limit", l.page.limit}};
  if (l.variant) j["variant"] = *l.variant;
  if (l.status) j["status"] = to_string(*l.status);
  if (l.min_free > 0) j["min_free"] = l.min_free;
  return j;
}
json request_body(const SubscribeLobby&) { return json::object(); }
json request_body(const UnsubscribeLobby&) { return json::object(); }
json request_body(const Ping&) { return json::object(); }
json request_body(const CreateTable& c) {
  json j = {{"variant", c.variant}, {"options", to_json(c.options)}, {"settings", to_json(c.settings)}};
  if (c.is_private) j["private"] = true;
  if (c.bots) {
    j["bots"] = {{"level", to_string(c.bots->level)}};
    if (!c.bots->seats.empty()) j["bots"]["seats"] = c.bots->seats;
  }
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
json request_body(const AddBot& a) {
  json j = {{"table_id", a.table_id}, {"level", to_string(a.level)}};
  if (a.seat) j["seat"] = *a.seat;
  return j;
}
json request_body(const RemoveBot& r) { return {{"table_id", r.table_id}, {"seat", r.seat}}; }
json request_body(const GetProfile& g) { return {{"player_id", g.player_id}}; }
json request_body(const GetLeaderboard& g) {
  return {{"ladder", g.ladder}, {"offset", g.page.offset}, {"limit", g.page.limit}};
}
json request_body(const GetHistory& g) {
  return {{"player_id", g.player_id}, {"offset", g.page.offset}, {"limit", g.page.limit}};
}
json request_body(const GetReplay& g) { return {{"match_id", g.match_id}}; }
json request_body(const GetAnalysis& g) { return {{"match_id", g.match_id}, {"deal_number", g.deal_number}}; }

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
constexpr std::string_view request_type<AddBot>() {
  return "add_bot";
}
template <>
constexpr std::string_view request_type<RemoveBot>() {
  return "remove_bot";
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
template <>
constexpr std::string_view request_type<GetAnalysis>() {
  return "get_analysis";
}

}  // namespace

json to_json(const TableSettings& s) {
  return {{"turn_ms", s.turn_ms},
          {"reconnect_ms", s.reconnect_ms},
          {"away_after", s.away_after},
          {"rated", s.rated},
          {"abandon", s.abandon == TableSettings::Abandon::forfeit ? "forfeit" : "free_seat"},
          {"bot_level", to_string(s.bot_level)}};
}

std::string_view type_of(const Request& r) {
  return std::visit([](const auto& x) { return request_type<std::decay_t<decltype(x)>>(); }, r);
}

json to_json(const Request& r, const RequestId& id) {
  json j = std::visit([](const auto& x) { return request_body(x); }, r);
  j["type"] = type_of(r);
  put_id(j, id);
  return j;
}

}  // namespace atout::protocol
