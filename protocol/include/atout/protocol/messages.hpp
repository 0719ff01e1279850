// Protocol v1: typed client requests and server messages, their JSON forms, and stable error codes.
// Parsing never throws: a request either parses into a typed value or into an Error to send back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"

namespace atout::protocol {

inline constexpr int kVersion = 1;

// Stable error codes (docs/protocol.md lists each with its meaning). Engine refusals arrive as
// `illegal_action` with the engine's own stable code in `reason`.
enum class ErrorCode : std::uint8_t {
  bad_json,
  bad_message,
  missing_field,
  invalid_field,
  unknown_type,
  unsupported_version,
  hello_required,
  already_identified,
  unknown_token,
  unknown_variant,
  bad_option,
  unknown_table,
  bad_invite,
  bad_seat,
  seat_taken,
  table_full,
  already_seated,
  not_seated,
  not_at_table,
  match_not_running,
  illegal_action,
  internal_error,
  chat_too_fast,  // more chat than the rate limit allows; the message was dropped
  unknown_player,
  unknown_ladder,
  unknown_match,
  match_not_finished,
};

std::string to_string(ErrorCode c);
// Every code, in declaration order (for documentation checks and tests).
const std::vector<ErrorCode>& all_error_codes();

// A client-chosen request id (a string or an integer), echoed in the reply; monostate: none.
using RequestId = std::variant<std::monostate, std::int64_t, std::string>;

// ---- Client requests ---------------------------------------------------------------------------

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
struct Hello {
  int protocol = kVersion;
  std::optional<std::string> name;   // a guest name
  std::optional<std::string> token;  // resume an earlier identity
  std::vector<ResumeAt> resume;      // with a token: take back these tables' seats (or views)
  Ack ack = Ack::reply;
};
struct ListVariants {};
struct ListTables {};
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
};
struct CreateTable {
  std::string variant;
  Options options;
  bool is_private = false;
  TableSettings settings;
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
struct Ping {};
// A line of chat to a table's members, or to the lobby's subscribers when `table_id` is empty.
struct Chat {
  std::optional<std::string> table_id;
  std::string text;
};
inline constexpr std::size_t kMaxChatBytes = 500;

// A page of a list (leaderboard, history): `limit` entries from `offset`.
struct Page {
  static constexpr int kDefaultLimit = 20, kMaxLimit = 100, kMaxOffset = 1'000'000;
  int offset = 0;
  int limit = kDefaultLimit;
};
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

using Request =
    std::variant<Hello, ListVariants, ListTables, SubscribeLobby, UnsubscribeLobby, CreateTable, Sit, Spectate, Stand,
                 Leave, Act, Ping, Chat, GetProfile, GetLeaderboard, GetHistory, GetReplay>;

// The `type` string of a request.
std::string_view type_of(const Request& r);

struct Error {
  ErrorCode code = ErrorCode::internal_error;
  std::string message;
  std::optional<std::string> field;     // the offending field, for missing_field / invalid_field
  std::optional<std::string> reason;    // the engine's refusal code, for illegal_action
  std::optional<std::string> table_id;  // the table concerned, where there is one
};

struct ParsedRequest {
  RequestId id;
  std::variant<Request, Error> body;
};

// Parses one text frame. Never throws; anything wrong becomes an Error (with the id when the id
// itself was readable).
ParsedRequest parse_request(std::string_view text);

// Client-side forms of requests (bots, tests and docs examples build them this way).
json to_json(const Request& r, const RequestId& id = {});

// ---- Server messages ---------------------------------------------------------------------------

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
  bool away = false;  // the server has been playing for this seat after repeated timeouts
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
struct TableList {
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
  bool by_server = false;  // played for the seat: a timeout, or its player away or disconnected
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

// ---- Profiles, leaderboards, histories and replays (from the store) ----------------------------

struct RatingInfo {
  std::string ladder;
  double mu = 0, sigma = 0, ordinal = 0;  // ordinal = mu - 3 sigma, what is displayed and ranked
  int matches = 0;
};
struct Profile {
  std::string player_id;
  std::string name;
  std::int64_t created_at = 0;  // Unix time, milliseconds
  std::int64_t last_seen = 0;
  std::vector<RatingInfo> ratings;
};
struct LeaderboardEntry {
  int rank = 0;  // 1 is first
  std::string player_id;
  std::string name;
  RatingInfo rating;
};
struct Leaderboard {
  std::string ladder;
  Page page;
  int total = 0;  // rated players on the ladder
  std::vector<LeaderboardEntry> entries;
};
struct HistoryEntry {
  std::string match_id;
  std::string variant;
  int seat = 0;
  int team = 0;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> ended_at;   // empty while the match goes on
  std::optional<std::string> end_reason;  // finished, abandoned, aborted
  std::optional<std::array<int, 2>> match_score;
  std::optional<int> winner;
};
struct History {
  std::string player_id;
  Page page;
  std::vector<HistoryEntry> matches;  // newest first
};
struct ReplaySeat {
  int seat = 0;
  int team = 0;
  std::string player_id;
  std::string name;
};
// A hand's deal, now that the match is over: the commitment published before it and its seed.
struct ReplayDeal {
  int hand = 0;
  Seat dealer = 0;
  std::string commitment;
  std::string seed;
};
// An ended match's full public record: `record` in the atout-record/1 format (with the match
// seed), so the message itself is a record that `atout replay` reads.
struct Replay {
  std::string match_id;
  std::string table_id;
  Record record;
  std::vector<ReplaySeat> seats;
  std::vector<ReplayDeal> deals;
  bool rated = false;
  std::int64_t started_at = 0;
  std::int64_t ended_at = 0;
  std::string end_reason;
  std::optional<std::array<int, 2>> match_score;
  std::optional<int> winner;
};

json to_json(const Profile& m, const RequestId& id = {});
json to_json(const Leaderboard& m, const RequestId& id = {});
json to_json(const History& m, const RequestId& id = {});
json to_json(const Replay& m, const RequestId& id = {});

json to_json(const TableSettings& s);
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
std::string action_text(const Action& a, bool by_server);

}  // namespace atout::protocol
