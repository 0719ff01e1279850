// Start-up recovery: every match the store holds unfinished is rebuilt by replaying its action log
// through the engine, and its table re-created in the lobby with each seat held for its player.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "atout/server/lobby.hpp"
#include "atout/server/stored_match.hpp"
#include "atout/server/table.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

struct RecoveryReport {
  int restored = 0;  // tables re-created, waiting for their players
  int finished = 0;  // logs that already reached the end (the crash came before the end was kept)
  int aborted = 0;   // logs that do not replay: marked aborted, with the reason logged
};

// What one stored match becomes: a table to restore, or the reason it cannot be.
struct Rebuilt {
  std::optional<TableInit> init;            // set when the match goes on
  std::unique_ptr<State> ended;             // set when the replay reached the end of the match
  std::string error;                        // why the log does not replay
  std::optional<StoredMatchFault> fault{};  // set with `error`: the kind of damage
};

// Replays one stored match (read with its secrets) through rebuild_match (stored_match.hpp), and
// makes the table that goes on with it, in a new run of its seqs: past the log's, and from
// `start_seq` at least (a take-over's, Store::take_over). Writes nothing.
Rebuilt rebuild(const store::MatchRow& m, std::optional<std::uint64_t> start_seq = std::nullopt);

// Rebuilds every unfinished match of `store` into `lobby` (each table told which hands the store
// already keeps), and repairs what a crash cut short (a hand or match end that was not yet
// written). Call before serving requests; never throws for a bad log.
// Who may rebuild a match, in a cluster: `claim` takes the table's lease (false: another node runs
// it, skip it), `release` gives back one taken for a match that then turned out to be over. Only
// matches at the tables in `only` are looked at, when it is set. With `claim`, each match is taken
// over in the store (Store::take_over) once its lease is held, and rebuilt from what that reads.
struct RecoveryClaims {
  std::function<bool(const std::string& table_id)> claim;
  std::function<void(const std::string& table_id)> release;
  std::optional<std::set<std::string>> only;
};

// Rebuilds every unfinished match of the store at its table in `lobby` (those `claims` grants).
RecoveryReport recover(store::Store& store, Lobby& lobby, const RecoveryClaims& claims = {});

}  // namespace atout::server
