// `atout backup`: an online copy of a server's database (docs/operations.md).
#include <iostream>

#include "atout/store/store.hpp"
#include "commands.hpp"

namespace atout::cli {

int run_backup(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string db, to;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      out << "usage: atout backup --db PATH --to FILE\n\n"
             "Copies the database at PATH into FILE (which must not exist) while a server may be\n"
             "running on it: SQLite's VACUUM INTO through a read-only connection, a consistent\n"
             "snapshot of the last committed state.\n";
      return kExitOk;
    }
    if ((args[i] == "--db" || args[i] == "--to") && i + 1 < args.size()) {
      (args[i] == "--db" ? db : to) = args[i + 1];
      ++i;
    } else {
      err << "atout backup: unknown or incomplete argument '" << args[i] << "'\n";
      return kExitBadInput;
    }
  }
  if (db.empty() || to.empty()) {
    err << "atout backup: --db and --to are required\n";
    return kExitBadInput;
  }
  if (auto e = store::backup_database(db, to)) {
    err << "atout backup: " << *e << "\n";
    return kExitBadInput;
  }
  out << "backed up " << db << " to " << to << "\n";
  return kExitOk;
}

}  // namespace atout::cli
