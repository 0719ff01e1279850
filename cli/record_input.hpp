// Reading a record for a command: the input file or standard input, then the record replayed by
// the engine, with the tool's messages and exit codes for each way it can fail.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"

namespace atout::cli {

// Reads FILE or '-' (standard input), the one input in `args`, as JSON into `out`. On failure,
// writes "atout <cmd>: ..." to `err` and returns kExitBadInput.
int read_json(const std::string& cmd, const std::vector<std::string>& args, std::istream& in, std::ostream& err,
              protocol::json& out);

// Parses and replays a record into `state`. On failure, writes "atout <cmd>: ..." to `err` and
// returns kExitBadInput (not a record, or a header the engine does not start) or kExitRefused
// (an action refused, named by its index and reason).
int load_record(const std::string& cmd, const protocol::json& j, std::ostream& err, std::unique_ptr<State>& state);

// read_json, then load_record.
int read_record(const std::string& cmd, const std::vector<std::string>& args, std::istream& in, std::ostream& err,
                std::unique_ptr<State>& state);

// What a refusal means, in words.
std::string describe(Refusal r);

}  // namespace atout::cli
