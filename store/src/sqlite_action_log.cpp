// The SQLite store's append-ordered action log (docs/operations.md, "The action log's layout"):
// the passes that copy its oldest rows into match_actions, and the merge of a match's actions
// from both tables. Appends and reads are with the other writes and reads, in sqlite_store.cpp.
#include <algorithm>
#include <unordered_map>

#include "atout/store/sqlite_store.hpp"

namespace atout::store {

void SqliteStore::merge_logged(std::vector<ActionRow>& actions, std::vector<ActionRow>&& logged) {
  if (logged.empty()) return;
  actions.insert(actions.end(), std::make_move_iterator(logged.begin()), std::make_move_iterator(logged.end()));
  std::stable_sort(actions.begin(), actions.end(),
                   [](const ActionRow& a, const ActionRow& b) { return a.seq < b.seq; });
  actions.erase(std::unique(actions.begin(), actions.end(),
                            [](const ActionRow& a, const ActionRow& b) { return a.seq == b.seq; }),
                actions.end());
}

std::optional<std::string> SqliteStore::compact_log(Tx& tx) {
  appended_since_pass_ = 0;
  const auto failed = [](const std::string& e) -> std::optional<std::string> {
    return "compacting the action log: " + e;
  };
  Statement& ends = tx.stmt(
      "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'action_log'), 0) + 1, "
      "(SELECT MIN(log_from) FROM matches WHERE log_from IS NOT NULL)");
  if (!ends.step()) return failed(ends.error().value_or("no next id"));
  const std::int64_t next = ends.int64(0);                            // the id the log's next row gets
  const std::int64_t start = ends.is_null(1) ? next : ends.int64(1);  // no match reads below it
  ends.reset();
  // The window: every row below `until` leaves the log in this pass.
  const std::int64_t until = next - keep_rows_;
  if (until <= start) return std::nullopt;

  // The matches that read rows in the window, with their log_from.
  std::unordered_map<std::int64_t, std::int64_t> from_of;
  Statement& readers = tx.stmt("SELECT id, log_from FROM matches WHERE log_from < ?");
  readers.bind(1, until);
  while (readers.step()) from_of.emplace(readers.int64(0), readers.int64(1));
  if (auto e = readers.error()) return failed(*e);
  readers.reset();

  // One savepoint: a pass that fails leaves everything as it was, for the next pass.
  if (auto e = tx.db().exec("SAVEPOINT log_pass")) return failed(*e);
  auto undo = [&](const std::string& e) {
    tx.db().exec("ROLLBACK TO log_pass");
    tx.db().exec("RELEASE log_pass");
    return failed(e);
  };
  // The window's rows in id order, each copied once. A seq written twice keeps its first write, as
  // the (match, seq) key of match_actions did when actions went there directly; each extra write
  // is reported.
  std::int64_t twice = 0;
  {
    Statement& read =
        tx.stmt("SELECT id, match_id, seq, seat, action, at FROM action_log WHERE id >= ? AND id < ? ORDER BY id");
    read.bind(1, start).bind(2, until);
    Statement& copy =
        tx.stmt("INSERT OR IGNORE INTO match_actions (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)");
    while (read.step()) {
      // A row below its match's log_from was copied before (or its match left the log).
      const auto it = from_of.find(read.int64(1));
      if (it == from_of.end() || read.int64(0) < it->second) continue;
      copy.reset();
      copy.bind(1, it->first)
          .bind(2, read.int64(2))
          .bind(3, read.int64(3))
          .bind(4, read.text(4))
          .bind(5, read.int64(5));
      if (auto e = copy.run()) {
        read.reset();
        return undo(*e);
      }
      if (tx.db().changes() == 0) ++twice;
    }
    const auto e = read.error();
    read.reset();
    if (e) return undo(*e);
  }
  // An ended match whose last row the window passed leaves the log; the others read it from the
  // window's end on.
  if (auto e = tx.stmt("UPDATE matches SET log_from = NULL WHERE log_from < ?1 AND log_to < ?1").bind(1, until).run())
    return undo(*e);
  if (auto e = tx.stmt("UPDATE matches SET log_from = ?1 WHERE log_from < ?1").bind(1, until).run()) return undo(*e);
  // The window's rows go: a run of whole pages at the log's start.
  if (auto e = tx.stmt("DELETE FROM action_log WHERE id < ?").bind(1, until).run()) return undo(*e);
  if (auto e = tx.db().exec("RELEASE log_pass")) return undo(*e);
  ++passes_;
  if (twice > 0)
    return "the action log held " + std::to_string(twice) +
           " actions under a (match, seq) already written; the first write of each was kept";
  return std::nullopt;
}

void SqliteStore::compact_log() {
  writer_->post([this](Tx& tx) { return compact_log(tx); });
}

}  // namespace atout::store
