// Protocol v1 server messages: the typed values and the text sent on the wire for each.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "atout/protocol/basics.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/requests.hpp"
#include "atout/state.hpp"

namespace atout::protocol {

enum class TableStatus : std::uint8_t {
  waiting,   // seats free, match not started
  playing,   // every seat filled, match running
  paused,    // match started, a seat was vacated: waits for someone to sit
  finished,  // match over
};
std::string to_string(TableStatus s);

struct SeatInfo {
  int seat = 0;
  std::optional<std::string> player_id;
  std::optional<std::string> name;
  bool connected = false;
  bool away = false;              // the server has been playing for this seat after repeated timeouts
  std::optional<BotLevel> bot{};  // a server bot sits here (its player_id is bot_player_id(level))
};

struct TableSummary {
  std::string table_id;
  std::string variant;
  Options options;
  bool is_private = false;
  TableStatus status = TableStatus::waiting;
  TableSettings settings;
  std::vector<SeatInfo> seats;
  int spectators = 0;
  std::uint64_t seq = 0;
};

struct HeldSeat {
  std::string table_id;
  int seat = 0;
};
struct Welcome {
  std::string player_id;
  std::string name;
  std::string token;
  bool resumed = false;
  std::vector<HeldSeat> seats;  // seats held for this player in running matches
};
struct VariantList {
  std::vector<const VariantInfo*> variants;
};
// One page of the public tables that matched a list_tables (or the first page, for
// subscribe_lobby): `total` is how many matched in all.
struct TableList {
  Page page;
  int total = 0;
  std::vector<TableSummary> tables;
};
struct TableCreated {
  TableSummary table;
  std::optional<std::string> invite;
};
struct Seated {
  std::string table_id;
  int seat = 0;
  bool resumed = false;  // the seat was held for this player and is theirs again
};
struct Watching {
  std::string table_id;
};
struct Ok {
  std::string request;  // the request type this acknowledges
  std::optional<std::string> table_id;
};
struct Accepted {
  std::string table_id;
  std::uint64_t seq = 0;  // the event this action produced
};
struct Pong {};

struct MatchResult {
  int winner = -1;  // team (seat % 2)
  std::array<int, 2> match_score{};
  std::vector<HandResult> hands;  // with their deal seeds, now that nothing is hidden
  bool abandoned = false;         // ended when `abandoned_by`'s player did not come back
  Seat abandoned_by = kNoSeat;
};

enum class EventKind : std::uint8_t {
  start,      // every seat filled: the match begins
  action,     // an accepted action
  snapshot,   // the current view, sent on sitting, watching or resuming (seq not advanced)
  abandoned,  // a player did not come back in time: the match ends, lost by their side
};
std::string to_string(EventKind k);

// The action that produced an event, as the recipient may see it: card fields the recipient may
// not know (another seat's announced combination) are withheld and `redacted` is set.
struct LastAction {
  Seat seat = kNoSeat;
  Action action;
  bool redacted = false;
  bool by_server = false;            // played for the seat: a timeout, or its player away or disconnected
  std::optional<BotLevel> by_bot{};  // the bot that chose the action (a bot's seat, or by_server)
};

// The commitment to the deal in progress (docs/fair-dealing.md): published before a card of the
// hand is seen, and checked against the seed that the hand's result reveals.
struct DealCommitment {
  std::string match_id;
  int hand = 0;
  std::string commitment;  // 64 lower-case hex digits
};

struct Event {
  std::string table_id;
  std::uint64_t seq = 0;
  EventKind kind = EventKind::action;
  std::optional<LastAction> last;
  Observation observation;
  std::optional<DealCommitment> deal;     // while a hand is in progress
  std::optional<int> turn_ms_left;        // time the seat to act has left, while the match runs
  std::optional<HandResult> hand_result;  // the hand this event ended, with its seed revealed
  std::optional<MatchResult> match_result;
  // Sent again on a resume, for a client that missed it: its turn may be over, so its legal list
  // is empty unless it is still the current event.
  bool replayed = false;
  RequestId id;  // the actor's own event, when its connection asked for `ack: "event"`
};

struct TableUpdate {
  TableSummary table;
};
struct LobbyUpdate {
  TableSummary table;
};
struct LobbyRemove {
  std::string table_id;
};
struct ChatMessage {
  std::optional<std::string> table_id;  // empty: lobby chat
  std::string player_id;
  std::string name;
  std::optional<int> seat;  // the speaker's seat at the table, if seated
  std::string text;
};
// Sent just before the server closes a connection on purpose.
struct Goodbye {
  enum class Reason : std::uint8_t { replaced, shutdown } reason = Reason::shutdown;
  std::string message;
};

// In a cluster of nodes: the table a request named is run by another node; the client reconnects to
// `url` (that node's public WebSocket URL) with its token and sends the request there.
struct Redirect {
  std::string table_id;
  std::string url;
};

json to_json(const SeatInfo& s);
json to_json(const TableSummary& t);
json to_json(const VariantInfo& v);
json to_json(const MatchResult& m);

json to_json(const Welcome& m, const RequestId& id = {});
json to_json(const VariantList& m, const RequestId& id = {});
json to_json(const TableList& m, const RequestId& id = {});
json to_json(const TableCreated& m, const RequestId& id = {});
json to_json(const Seated& m, const RequestId& id = {});
json to_json(const Watching& m, const RequestId& id = {});
json to_json(const Ok& m, const RequestId& id = {});
json to_json(const Accepted& m, const RequestId& id = {});
json to_json(const Pong& m, const RequestId& id = {});
json to_json(const Error& m, const RequestId& id = {});
json to_json(const Event& m);
json to_json(const TableUpdate& m);
json to_json(const LobbyUpdate& m);
json to_json(const LobbyRemove& m);
json to_json(const ChatMessage& m);
json to_json(const Goodbye& m);
json to_json(const Redirect& m, const RequestId& id = {});

// A table summary as the text it has inside a `tables` message.
std::string summary_text(const TableSummary& t);
// The text of a `tables` message whose summaries are already text: `items` is summary_text of each,
// joined by commas. The same bytes as serialize(TableList{page, total, tables}, id), without a tree.
std::string tables_text(const Page& page, int total, std::string_view items, const RequestId& id = {});

// Serialises a server message to the text sent on the wire.
template <typename M, typename... Id>
std::string serialize(const M& m, const Id&... id) {
  return to_json(m, id...).dump(-1, ' ', false, json::error_handler_t::replace);
}

// Events, one per recipient of every accepted action, are written straight to text
// (event_text.cpp): the same bytes as the template above, without building a tree.
std::string serialize(const Event& e);

// An action as the match log stores it: to_json(Action), plus `"by_server": true` when the
// server played it, written straight to text like events (the same bytes as the tree's dump()).
// `by_bot`: `"by_bot": "<level>"` likewise, when a bot chose it.
std::string action_text(const Action& a, bool by_server, std::optional<BotLevel> by_bot = std::nullopt);

}  // namespace atout::protocol
