// One decoder of a stored match: its record (header and action log) and the table it was played
// at, read back the same way by start-up recovery and by the archive's replays.
#pragma once

#include <optional>
#include <string>

#include "atout/protocol/messages.hpp"
#include "atout/state.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

// How a table ran, beside its rules: what matches.table_json keeps.
struct StoredTable {
  bool is_private = false;
  std::optional<std::string> invite;
  protocol::TableSettings settings;
};

// The JSON kept in matches.table_json.
std::string table_json(bool is_private, const std::optional<std::string>& invite, const protocol::TableSettings& s);
// Reads table_json back. A missing or unreadable row or field keeps its default, so a row written
// before a setting existed still restores its table.
StoredTable read_table_json(const std::string& text);

// A stored match as the engine's record: variant, options, match seed, first dealer and every
// logged action in order; or why the rows do not make one.
struct DecodedRecord {
  std::optional<Record> record;
  std::vector<bool> by_server;                              // per action: the server played it for the seat
  std::vector<std::optional<protocol::BotLevel>> by_bot{};  // per action: the bot that chose it
  std::string error;
};
DecodedRecord decode_record(const store::MatchRow& m);

}  // namespace atout::server
