// Protocol v1 client requests: the typed values, their parsing at the boundary and their JSON
// forms. Parsing never throws: a request either parses into a typed value or into an Error to send
// back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atout/protocol/basics.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"

namespace atout::protocol {

// A table the client was at, and the last event it saw there.
struct ResumeAt {
  std::string table_id;
  std::uint64_t last_seq = 0;
};
// How this connection learns that its action was accepted.
enum class Ack {
  reply,  // an `accepted` reply, then the event (the default)
  event,  // no reply: the event the action produced, as sent to the actor, carries the request's id
};
// How this connection's events come: each one whole (the default), or as a delta from the
// connection's previous event at that table (docs/protocol.md, Deltas).
enum class Views {
  full,
  delta,
};
struct Hello {
  int protocol = kVersion;
  std::optional<std::string> name;   // a guest name
  std::optional<std::string> token;  // resume an earlier identity
  std::vector<ResumeAt> resume;      // with a token: take back these tables' seats (or views)
  Ack ack = Ack::reply;
  Views views = Views::full;
};
struct ListVariants {};
// Where a table is in its life (server_messages.hpp lists the values).
enum class TableStatus : std::uint8_t;
// A page of a list (leaderboard, history, tables): `limit` entries from `offset`.
struct Page {
  static constexpr int kDefaultLimit = 20, kMaxLimit = 100, kMaxOffset = 1'000'000;
  int offset = 0;
  int limit = kDefaultLimit;
};
// A page of the public tables, oldest first, keeping only those that match every filter given.
struct ListTables {
  static constexpr int kMaxFreeSeats = 8;
  std::optional<std::string> variant;  // a known variant id
  std::optional<TableStatus> status;   // waiting, playing, paused or finished
  int min_free = 0;                    // at least this many free seats (0: any)
  Page page;
};
// How strongly a server bot plays (the bots library's levels, by their wire names).
enum class BotLevel : std::uint8_t { random, rules, sampling };
std::string to_string(BotLevel level);  // "random", "rules", "sampling"
std::optional<BotLevel> parse_bot_level(std::string_view text);
// The player id (and name) a bot of `level` plays under: "bot:rules". Each level is one player,
// rated on the ladders like any other.
std::string bot_player_id(BotLevel level);
// The level whose player id is `player_id`, if it is a bot's.
std::optional<BotLevel> bot_of_player(std::string_view player_id);

struct SubscribeLobby {};
struct UnsubscribeLobby {};
// How a table runs, apart from the variant's rules. Checked against the bounds below.
struct TableSettings {
  static constexpr int kMinMs = 100, kMaxTurnMs = 600'000, kMaxReconnectMs = 3'600'000;
  int turn_ms = 30'000;       // time per action; when it runs out the server plays for the seat
  int reconnect_ms = 60'000;  // how long a disconnected player's seat is held for them
  int away_after = 2;         // consecutive timeouts that mark a seat away (1 to 10)
  bool rated = true;          // a finished match updates its players' ratings
  // When a disconnected player does not come back within reconnect_ms: `forfeit` ends the match,
  // lost by that player's side; `free_seat` frees the seat and pauses until someone takes it.
  enum class Abandon : std::uint8_t { forfeit, free_seat } abandon = Abandon::forfeit;
  // The bot that plays a seat whose player is away or disconnected, or whose time ran out.
  BotLevel bot_level = BotLevel::rules;
};
// Bots seated when a table is made: `seats` (every seat but the lowest when empty) get a bot of
// `level`, and the creator sits in the lowest seat left.
struct BotFill {
  static constexpr std::size_t kMaxSeats = 8;
  BotLevel level = BotLevel::rules;
  std::vector<int> seats{};
};
struct CreateTable {
  std::string variant;
  Options options;
  bool is_private = false;
  TableSettings settings;
  std::optional<BotFill> bots{};
};
// Where to sit or watch: a table id, or a private table's invite code.
struct TableRef {
  std::optional<std::string> table_id;
  std::optional<std::string> invite;
};
struct Sit {
  TableRef where;
  std::optional<int> seat;  // empty: any free seat
  // Taking back a held seat: the last event seen, so only the missed events are sent.
  std::optional<std::uint64_t> last_seq;
};
struct Spectate {
  TableRef where;
  std::optional<std::uint64_t> last_seq;
};
struct Stand {
  std::string table_id;
};
struct Leave {
  std::string table_id;
};
struct Act {
  std::string table_id;
  Action action;
};
// The owner seats a bot before the match starts (any free seat when `seat` is empty) ...
struct AddBot {
  std::string table_id;
  std::optional<int> seat{};
  BotLevel level = BotLevel::rules;
};
// ... or takes it away again.
struct RemoveBot {
  std::string table_id;
  int seat = 0;
};
struct Ping {};
// A line of chat to a table's members, or to the lobby's subscribers when `table_id` is empty.
struct Chat {
  std::optional<std::string> table_id;
  std::string text;
};
inline constexpr std::size_t kMaxChatBytes = 500;

struct GetProfile {
  std::string player_id;
};
struct GetLeaderboard {
  std::string ladder;  // a variant id: each variant is rated on its own ladder
  Page page;
};
struct GetHistory {
  std::string player_id;
  Page page;
};
struct GetReplay {
  std::string match_id;
};
// The double-dummy cost of every card of one deal of an ended match.
struct GetAnalysis {
  std::string match_id;
  int deal_number = 0;
  static constexpr int kMaxDeal = 9999;
};

using Request = std::variant<Hello, ListVariants, ListTables, SubscribeLobby, UnsubscribeLobby, CreateTable, Sit,
                             Spectate, Stand, Leave, Act, AddBot, RemoveBot, Ping, Chat, GetProfile, GetLeaderboard,
                             GetHistory, GetReplay, GetAnalysis>;

// The `type` string of a request.
std::string_view type_of(const Request& r);

struct ParsedRequest {
  RequestId id;
  std::variant<Request, Error> body;
};

// Parses one text frame. Never throws; anything wrong becomes an Error (with the id when the id
// itself was readable).
ParsedRequest parse_request(std::string_view text);

// Client-side forms of requests (bots, tests and docs examples build them this way).
json to_json(const Request& r, const RequestId& id = {});
json to_json(const TableSettings& s);

}  // namespace atout::protocol
