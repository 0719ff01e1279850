// The error codes each request's handler can answer with (see request_errors.hpp).
#include "atout/protocol/request_errors.hpp"

namespace atout::protocol {

const std::vector<RequestErrors>& request_errors() {
  using enum ErrorCode;
  static const std::vector<RequestErrors> table = {
      {"hello", {missing_field, invalid_field, unsupported_version, already_identified, unknown_token}},
      {"ping", {}},
      {"list_variants", {}},
      {"list_tables", {invalid_field, too_fast}},
      {"subscribe_lobby", {too_fast}},
      {"unsubscribe_lobby", {}},
      {"create_table",
       {missing_field, invalid_field, unknown_variant, bad_option, too_many_tables, unknown_bot_level, bad_seat}},
      {"sit",
       {missing_field, invalid_field, unknown_table, bad_invite, bad_seat, seat_taken, table_full, already_seated,
        not_seated}},
      {"spectate", {missing_field, invalid_field, unknown_table, bad_invite, already_seated}},
      {"stand", {missing_field, invalid_field, unknown_table, not_seated}},
      {"leave", {missing_field, invalid_field, unknown_table, not_at_table}},
      {"action", {missing_field, invalid_field, unknown_table, not_seated, match_not_running, illegal_action}},
      {"add_bot",
       {missing_field, invalid_field, unknown_bot_level, unknown_table, not_owner, match_started, bad_seat, seat_taken,
        table_full}},
      {"remove_bot", {missing_field, invalid_field, unknown_table, not_owner, match_started, bad_seat}},
      {"chat", {missing_field, invalid_field, unknown_table, not_at_table, chat_too_fast}},
      {"get_profile", {missing_field, invalid_field, unknown_player}},
      {"get_leaderboard", {missing_field, invalid_field, unknown_ladder}},
      {"get_history", {missing_field, invalid_field, unknown_player}},
      {"get_replay", {missing_field, invalid_field, unknown_match, match_not_finished}},
      {"get_analysis", {missing_field, invalid_field, unknown_match, match_not_finished, too_fast}},
  };
  return table;
}

const std::vector<ErrorCode>& any_request_errors() {
  using enum ErrorCode;
  static const std::vector<ErrorCode> codes = {bad_json,      bad_message,    unknown_type,  missing_field,
                                               invalid_field, hello_required, internal_error};
  return codes;
}

std::span<const ErrorCode> errors_of(std::string_view type) {
  for (const RequestErrors& r : request_errors())
    if (r.type == type) return r.codes;
  return {};
}

}  // namespace atout::protocol
