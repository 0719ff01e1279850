// The wire names of the protocol's enums, for nlohmann/json (private to the protocol library).
#pragma once

#include "atout/protocol/basics.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/server_messages.hpp"

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
                                            {ErrorCode::too_many_tables, "too_many_tables"},
                                            {ErrorCode::too_fast, "too_fast"},
                                            {ErrorCode::not_owner, "not_owner"},
                                            {ErrorCode::match_started, "match_started"},
                                            {ErrorCode::unknown_bot_level, "unknown_bot_level"},
                                            {ErrorCode::origin_not_allowed, "origin_not_allowed"},
                                        })

NLOHMANN_JSON_SERIALIZE_ENUM(BotLevel, {
                                           {BotLevel::random, "random"},
                                           {BotLevel::rules, "rules"},
                                           {BotLevel::sampling, "sampling"},
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

}  // namespace atout::protocol
