// Entry point of the `atout` command-line tool.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"

namespace {
constexpr const char* kUsage = R"(usage: atout <command> [options]

commands:
  replay FILE|-     check every action of a record and print the scored result as JSON
  legal FILE|-      print the legal actions at the end of a record, or for a position
  simulate          play seeded random games and print a JSON summary
  verify-deal       check a revealed deal seed against its published commitment
  backup            copy a server's database online into a new file
  arena             play two bot levels on the same deals, sides swapped, and compare them
  analyse FILE|-    the points each card of a record gave away against double-dummy best play
  solve FILE|-      each legal card's double-dummy value at the end of a record
  hint FILE|-       what a bot would do for the seat to act at the end of a record, and why

Run 'atout <command> --help' for a command's options.
)";
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;  // a usage error: keep standard output clean
    return atout::cli::kExitBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return atout::cli::kExitOk;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "replay") return atout::cli::run_replay(args, std::cin, std::cout, std::cerr);
  if (cmd == "legal") return atout::cli::run_legal(args, std::cin, std::cout, std::cerr);
  if (cmd == "simulate") return atout::cli::run_simulate(args, std::cout, std::cerr);
  if (cmd == "backup") return atout::cli::run_backup(args, std::cout, std::cerr);
  if (cmd == "arena") return atout::cli::run_arena(args, std::cout, std::cerr);
  if (cmd == "analyse") return atout::cli::run_analyse(args, std::cin, std::cout, std::cerr);
  if (cmd == "solve") return atout::cli::run_solve(args, std::cin, std::cout, std::cerr);
  if (cmd == "hint") return atout::cli::run_hint(args, std::cin, std::cout, std::cerr);
  if (cmd == "verify-deal") return atout::cli::run_verify_deal(args, std::cout, std::cerr);
  std::cerr << "atout: unknown command '" << cmd << "'\n" << kUsage;
  return atout::cli::kExitBadInput;
}
