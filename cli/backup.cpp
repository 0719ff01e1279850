// `atout backup`: an online copy of a server's database (docs/operations.md).
#include <sys/stat.h>

#include <iostream>

#include "atout/store/store.hpp"
#include "commands.hpp"
#include "flags.hpp"

namespace atout::cli {

int run_backup(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string db, to;
  std::vector<Flag> flags = {{"--db", &db}, {"--to", &to}};
  const FlagsOutcome parsed = parse_flags(flags, args, "backup", err);
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout backup --db PATH|URL --to FILE\n\n"
           "Copies the database at PATH into FILE (which must not exist) while a server may be\n"
           "running on it: SQLite's VACUUM INTO through a read-only connection, a consistent\n"
           "snapshot of the last committed state. For a postgres:// URL, runs pg_dump in its\n"
           "custom format (restore with pg_restore).\n";
    return kExitOk;
  }
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (db.empty() || to.empty()) {
    err << "atout backup: --db and --to are required\n";
    return kExitBadInput;
  }
  ::umask(0077);  // the copy holds what the database holds: token hashes, seeds of unfinished hands
  if (auto e = store::backup_database(db, to)) {
    err << "atout backup: " << *e << "\n";
    return kExitBadInput;
  }
  out << "backed up " << store::redact_url(db) << " to " << to << "\n";
  return kExitOk;
}

}  // namespace atout::cli
