// What every protocol v1 message shares: the version, request ids, and errors with stable codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

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
  too_many_tables,     // the player already owns as many unstarted tables as the server allows
  too_fast,            // a lobby read the connection's message credits cannot pay for yet; retry later
  not_owner,           // only the table's owner may do this
  match_started,       // only before the match starts
  unknown_bot_level,   // not one of the bot levels
  origin_not_allowed,  // HTTP 403 to a WebSocket upgrade from a page whose origin is not allowed
};

std::string to_string(ErrorCode c);
// Every code, in declaration order (for documentation checks and tests).
const std::vector<ErrorCode>& all_error_codes();

// A client-chosen request id (a string or an integer), echoed in the reply; monostate: none.
using RequestId = std::variant<std::monostate, std::int64_t, std::string>;

struct Error {
  ErrorCode code = ErrorCode::internal_error;
  std::string message;
  std::optional<std::string> field;     // the offending field, for missing_field / invalid_field
  std::optional<std::string> reason;    // the engine's refusal code, for illegal_action
  std::optional<std::string> table_id;  // the table concerned, where there is one
  // With unknown_table on a node of several: the table is running but no node serves it this
  // moment (another node is taking it over). Reconnect and resume shortly rather than give it up.
  bool moving = false;
  // With `moving`: the longest the take-over can take, in milliseconds (0: not said). A client
  // waits at least this long, trying again, before it gives the table up.
  std::int64_t takeover_ms = 0;
};

// Every error is made here: its code, a message for people, and the table concerned if any.
Error make_error(ErrorCode code, std::string message, std::optional<std::string> table_id = std::nullopt);
// unknown_table marked `moving`: table `table_id` is running, but no node serves it this moment;
// another node takes it over within `takeover_ms` (0: not said).
Error make_moving_error(std::string message, std::string table_id, std::int64_t takeover_ms);

}  // namespace atout::protocol
