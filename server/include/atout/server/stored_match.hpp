// One decoder of a stored match: its record (header and action log) and the table it was played
// at, read back the same way by start-up recovery and by the archive's replays; and the match
// rebuilt from those rows, without sockets or a database (what recovery restores, and what
// tests/fuzz/recovery_fuzz.cpp feeds damaged logs).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/server/seat_view.hpp"
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

// Why a stored match cannot be rebuilt: each kind of damage its rows can have.
enum class StoredMatchFault : std::uint8_t {
  seq_out_of_order,  // an action's seq neither follows the previous one nor starts a later run
  bad_options,       // the options are not JSON, or not options
  bad_seed,          // the match seed is not 32 hex digits
  bad_action,        // an action row is not JSON, or not an action
  bad_header,        // the engine makes no match of the header (unknown variant, invalid options)
  refused_action,    // the engine refuses a logged action
  seat_count,        // the seat rows are not as many as the match's seats
  bad_seat,          // a seat row is out of range or repeated
};
std::string_view to_string(StoredMatchFault f);

// A fault and what exactly was found, for the log.
struct StoredMatchError {
  StoredMatchFault fault = StoredMatchFault::bad_header;
  std::string message;
};

// A stored match as the engine's record: variant, options, match seed, first dealer and every
// logged action in order; or why the rows do not make one.
struct DecodedRecord {
  std::optional<Record> record;
  std::vector<bool> by_server;                              // per action: the server played it for the seat
  std::vector<std::optional<protocol::BotLevel>> by_bot{};  // per action: the bot that chose it
  std::string error;
  std::optional<StoredMatchFault> fault{};  // set with `error`
};
DecodedRecord decode_record(const store::MatchRow& m);

// A stored match replayed: the engine's state after every logged action, the table it ran at,
// each seat's stored player, and each action's event seq. Exactly one of `state` and `error` is
// set. A state that is terminal means the log reached the match's end; the seat rows of such a
// match are then not checked (nobody sits down again).
struct RebuiltMatch {
  std::unique_ptr<State> state;
  std::optional<StoredMatchError> error;
  StoredTable table;
  std::vector<std::optional<store::SeatRow>> seats;  // by seat: its stored player (set for each seat)
  SeatView::ActionLog log;                           // per action: its event seq and who chose it
  std::uint64_t last_seq = 1;                        // the last logged event (1: the start event)
};
// Never throws for bad rows: any damage is an `error`.
RebuiltMatch rebuild_match(const store::MatchRow& m);

}  // namespace atout::server
