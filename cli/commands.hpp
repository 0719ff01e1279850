// The `atout` subcommands. Each returns the process exit code and writes to the given streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace atout::cli {

int run_replay(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_legal(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_simulate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_backup(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_verify_deal(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_arena(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_analyse(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_solve(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_hint(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

// Exit codes: 0 success, 1 a rule refused an action, 2 bad input or usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;
inline constexpr int kExitBadInput = 2;

}  // namespace atout::cli
