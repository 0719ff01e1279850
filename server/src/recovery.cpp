// Rebuilding unfinished matches from their logs: the stored match decoded into a record and
// replayed by the engine, exactly as the table applied it.
#include "atout/server/recovery.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/protocol/engine_json.hpp"
#include "atout/server/store_journal.hpp"
#include "atout/server/stored_match.hpp"

namespace atout::server {

// The tables number their seqs in the store's runs (a new run at each rebuild of a table).
static_assert(SeatView::kSeqsPerRun == static_cast<std::uint64_t>(store::kSeqsPerRun));

namespace {

// The seq of the action that ended hand `n` (which the log shows ended): the last action before
// the next hand's first. Without that hand's row, nothing was kept after the ending action (the
// writer commits in order, and the next hand's row is queued before anything that follows), so it
// is the last logged action.
std::int64_t hand_end_seq(const store::MatchRow& m, int n) {
  std::int64_t last = m.actions.empty() ? 1 : m.actions.back().seq;
  for (const store::HandRow& h : m.hands) {
    if (h.number != n + 1) continue;
    last = 1;
    for (const store::ActionRow& a : m.actions)
      if (a.seq < h.first_seq) last = a.seq;
  }
  return last;
}

}  // namespace

Rebuilt rebuild(const store::MatchRow& m, std::optional<std::uint64_t> start_seq) {
  Rebuilt out;
  RebuiltMatch r = rebuild_match(m);
  if (r.error) {
    out.fault = r.error->fault;
    out.error = std::move(r.error->message);
    return out;
  }
  if (r.state->is_terminal()) {
    out.ended = std::move(r.state);
    return out;
  }
  TableInit init;
  init.id = m.start.table_id;
  init.match_id = m.start.uid;
  init.is_private = r.table.is_private;
  init.invite = std::move(r.table.invite);
  init.settings = r.table.settings;
  init.state = std::move(r.state);
  init.held.resize(r.seats.size());
  for (std::size_t i = 0; i < r.seats.size(); ++i) {
    Member held;
    held.conn = 0;
    held.player_id = r.seats[i]->player;
    held.name = r.seats[i]->name;
    init.held[i] = std::move(held);
  }
  // Events sent after the last kept action may have reached clients; the rebuilt table never
  // reuses their seqs, so a client that saw one gets a snapshot when it resumes.
  init.seq = std::max(SeatView::restart_seq(r.last_seq), start_seq.value_or(0));
  init.log = std::move(r.log);
  init.started = true;
  out.init = std::move(init);
  return out;
}

RecoveryReport recover(store::Store& store, Lobby& lobby, const RecoveryClaims& claims) {
  RecoveryReport report;
  const std::int64_t now = unix_ms();
  for (const store::MatchRow& listed : store.unfinished_matches()) {
    const std::string table_id = listed.start.table_id;
    if (claims.only && !claims.only->contains(table_id)) continue;
    if (claims.claim && !claims.claim(table_id)) continue;
    auto give_back = [&] {
      if (claims.release) claims.release(table_id);
    };
    // In a cluster the list above may be older than the lease just taken: the node that ran the
    // table may have written more since, or still be writing. Taking the match over fences that
    // node's writes off and reads the log again, complete.
    std::optional<store::TakenMatch> taken;
    if (claims.claim) {
      taken = store.take_over(listed.start.uid);
      if (!taken) {
        give_back();
        spdlog::warn("recovery: match {} at table {} ended or was taken over meanwhile; left alone", listed.start.uid,
                     table_id);
        continue;
      }
    }
    const store::MatchRow& m = taken ? taken->match : listed;
    Rebuilt b = rebuild(m, taken ? std::optional<std::uint64_t>(taken->start_seq) : std::nullopt);
    if (!b.error.empty()) {
      give_back();
      spdlog::error("recovery: match {} at table {} cannot be rebuilt ({}), marked aborted: {}", m.start.uid,
                    m.start.table_id, b.fault ? to_string(*b.fault) : "unknown", b.error);
      store.end_match(m.start.uid, now, std::nullopt, std::nullopt, std::nullopt, "aborted");
      ++report.aborted;
      continue;
    }
    const State& state = b.ended ? *b.ended : *b.init->state;

    // Hands the log ended whose end the crash kept from the store. (Their rows exist: the writer
    // commits in order, and a hand's row is queued before its first action.)
    int next_hand = 0;
    for (const store::HandRow& h : m.hands) {
      next_hand = std::max(next_hand, h.number + 1);
      const auto n = static_cast<std::size_t>(h.number);
      if (!h.result_json.empty() || n >= state.hand_results().size()) continue;
      store.end_hand(m.start.uid, h.number, hand_end_seq(m, h.number),
                     protocol::to_json(state.hand_results()[n]).dump());
    }
    if (b.ended) {
      spdlog::info("recovery: match {} at table {} had reached its end; recorded as finished", m.start.uid,
                   m.start.table_id);
      const auto score = state.match_score();
      store.end_match(m.start.uid, now, score[0], score[1], state.winner(), "finished");
      ++report.finished;
      give_back();
      continue;
    }
    // The hand in progress is written again if its row was lost: next_hand does not cover it.
    b.init->hands_stored = next_hand;
    lobby.restore(std::move(*b.init));
    ++report.restored;
  }
  return report;
}

}  // namespace atout::server
