// The CLI11 front of every `atout` command: its errors in the words the tool has always used.
#include "flags.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

namespace atout::cli {

FlagsOutcome parse_flags(std::vector<Flag>& flags, const std::vector<std::string>& args, const std::string& cmd,
                         std::ostream& err, std::vector<std::string>* extra) {
  // `--help` wins wherever it stands, before any other argument is judged.
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return FlagsOutcome::help;
  CLI::App app;
  app.set_help_flag();
  app.allow_extras();
  std::vector<CLI::Option*> options;
  // Required flags are checked below, after unknown arguments, which are reported first.
  for (Flag& f : flags) options.push_back(app.add_option(f.name, *f.value));
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them back to front
  try {
    app.parse(reversed);
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 words a missing value as "<flag>: 1 required <TYPE> missing".
    const std::string what = e.what();
    err << "atout " << cmd << ": " << what.substr(0, what.find(':')) << " needs a value\n";
    return FlagsOutcome::bad;
  } catch (const CLI::ParseError& e) {
    err << "atout " << cmd << ": " << e.what() << "\n";
    return FlagsOutcome::bad;
  }
  for (std::size_t i = 0; i < flags.size(); ++i) flags[i].given = options[i]->count() != 0;
  std::vector<std::string> rest = app.remaining();
  if (extra != nullptr) {
    *extra = std::move(rest);
  } else if (!rest.empty()) {
    err << "atout " << cmd << ": unknown argument '" << rest.front() << "'\n";
    return FlagsOutcome::bad;
  }
  for (const Flag& f : flags)
    if (f.required && !f.given) {
      err << "atout " << cmd << ": " << f.name << " is required\n";
      return FlagsOutcome::bad;
    }
  return FlagsOutcome::ok;
}

std::optional<long long> whole_number(const std::string& text, long long lo, long long hi) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace atout::cli
