// Fuzz target: what `atout replay` and `atout legal` read from a file, a record (docs/records.md)
// or a position. Both commands go through their real entry points with the input on standard
// input; they answer 0, 1 (a refused action) or 2 (bad input, with a message) and never crash. A
// record that parses is written back and read again unchanged.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "atout/protocol/engine_json.hpp"
#include "commands.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
namespace cli = atout::cli;
namespace protocol = atout::protocol;

// Runs one command on `text`; returns its exit code after checking what it printed.
int run(int (*command)(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&),
        std::string_view text) {
  std::istringstream in{std::string(text)};
  std::ostringstream out, err;
  const int rc = command({"-"}, in, out, err);
  require(rc == cli::kExitOk || rc == cli::kExitRefused || rc == cli::kExitBadInput, "an unknown exit code");
  if (rc == cli::kExitOk) {
    require(err.str().empty(), "a success that prints an error");
    require(protocol::parse_text(out.str()).value.has_value(), "a success whose output is not JSON");
  } else {
    require(!err.str().empty(), "a failure without a message");
    require(out.str().empty(), "a failure that prints a result");
  }
  return rc;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  run(cli::run_replay, text);
  run(cli::run_legal, text);

  // The record format round-trips.
  auto j = protocol::parse_text(text);
  if (!j) return 0;
  auto record = protocol::parse_record(*j.value);
  if (!record) {
    require(!record.error.empty(), "a record refused without a reason");
    return 0;
  }
  const protocol::json written = protocol::to_json(*record.value);
  auto again = protocol::parse_record(written);
  require(again.value.has_value(), "a record written back does not parse");
  require(protocol::to_json(*again.value) == written, "a record changes when written back and read again");
  return 0;
}
