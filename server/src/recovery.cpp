// Rebuilding unfinished matches from their logs: the stored match decoded into a record and
// replayed by the engine, exactly as the table applied it.
#include "atout/server/recovery.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>

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

namespace {

// Rebuilds one match (read with its secrets) at its table in `lobby`, or ends it in the store when
// it cannot go on; `give_back` then lets its table's lease go.
void restore_match(store::Store& store, Lobby& lobby, const store::MatchRow& m, std::optional<std::uint64_t> start_seq,
                   const std::function<void()>& give_back, std::int64_t now, RecoveryReport& report) {
  Rebuilt b = rebuild(m, start_seq);
  if (!b.error.empty()) {
    give_back();
    spdlog::error("recovery: match {} at table {} cannot be rebuilt ({}), marked aborted: {}", m.start.uid,
                  m.start.table_id, b.fault ? to_string(*b.fault) : "unknown", b.error);
    store.end_match(m.start.uid, now, std::nullopt, std::nullopt, std::nullopt, "aborted");
    ++report.aborted;
    return;
  }
  const State& state = b.ended ? *b.ended : *b.init->state;

  // Hands the log ended whose end the crash kept from the store. (Their rows exist: the writer
  // commits in order, and a hand's row is queued before its first action.)
  int next_hand = 0;
  for (const store::HandRow& h : m.hands) {
    next_hand = std::max(next_hand, h.number + 1);
    const auto n = static_cast<std::size_t>(h.number);
    if (!h.result_json.empty() || n >= state.hand_results().size()) continue;
    store.end_hand(m.start.uid, h.number, hand_end_seq(m, h.number), protocol::to_json(state.hand_results()[n]).dump());
  }
  if (b.ended) {
    spdlog::info("recovery: match {} at table {} had reached its end; recorded as finished", m.start.uid,
                 m.start.table_id);
    const auto score = state.match_score();
    store.end_match(m.start.uid, now, score[0], score[1], state.winner(), "finished");
    ++report.finished;
    give_back();
    return;
  }
  // The hand in progress is written again if its row was lost: next_hand does not cover it.
  b.init->hands_stored = next_hand;
  lobby.restore(std::move(*b.init));
  ++report.restored;
}

}  // namespace

RecoveryReport recover(store::Store& store, Lobby& lobby, const RecoveryClaims& claims) {
  RecoveryReport report;
  const std::int64_t now = unix_ms();
  const auto wanted = [&](const std::string& table_id) { return !claims.only || claims.only->contains(table_id); };
  if (!claims.claim) {
    for (const store::MatchRow& m : store.unfinished_matches())
      if (wanted(m.start.table_id))
        restore_match(
            store, lobby, m, std::nullopt, [] {}, now, report);
    return report;
  }
  // In a cluster, the matches are listed by their ids alone: a log read before the lease was taken
  // could miss what the node that ran the table wrote since, or is still writing. Taking the match
  // over fences that node's writes off and reads the log, complete, after that.
  for (const store::MatchRef& ref : store.unfinished_refs()) {
    if (!wanted(ref.table_id) || !claims.claim(ref.table_id)) continue;
    const std::function<void()> give_back = [&] {
      if (claims.release) claims.release(ref.table_id);
    };
    const std::optional<store::TakenMatch> taken = store.take_over(ref.uid);
    if (!taken) {
      give_back();
      spdlog::warn("recovery: match {} at table {} ended or was taken over meanwhile; left alone", ref.uid,
                   ref.table_id);
      continue;
    }
    restore_match(store, lobby, taken->match, static_cast<std::uint64_t>(taken->start_seq), give_back, now, report);
  }
  return report;
}

}  // namespace atout::server
