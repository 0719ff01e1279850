// Reading a command's flags with CLI11 while keeping the tool's own messages and exit codes.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace atout::cli {

// One valued flag of a command, e.g. {"--games", &text}: `given` says whether it was on the line.
struct Flag {
  std::string name;
  std::string* value;
  bool required = false;
  bool given = false;
};

enum class FlagsOutcome { ok, help, bad };

// Parses `args` against `flags` (CLI11 is included by flags.cpp alone: it is a large header);
// -h or --help anywhere asks for the command's usage. On a bad flag, writes "atout <cmd>:
// <reason>" to `err`: "X needs a value", "X is required", "unknown argument 'X'" or CLI11's own
// words. Arguments no flag takes are left in `extra` when it is given, else refused as unknown.
FlagsOutcome parse_flags(std::vector<Flag>& flags, const std::vector<std::string>& args, const std::string& cmd,
                         std::ostream& err, std::vector<std::string>* extra = nullptr);

// `text` as a whole number from `lo` to `hi`; nullopt for anything else (a sign alone, trailing
// characters, out of range).
std::optional<long long> whole_number(const std::string& text, long long lo, long long hi);

}  // namespace atout::cli
