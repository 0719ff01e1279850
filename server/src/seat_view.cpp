// Per-seat events: redaction, deal commitments and the replay of missed events.
#include "atout/server/seat_view.hpp"

#include <algorithm>

#include "atout/fair_deal.hpp"
#include "atout/server/journal.hpp"

namespace atout::server {

using protocol::EventKind;

SeatView::SeatView(std::string table_id, std::string match_id)
    : table_id_(std::move(table_id)), match_id_(std::move(match_id)) {}

std::optional<protocol::DealCommitment> SeatView::commitment(const DealInfo& d) const {
  if (!d.seed) return std::nullopt;
  return protocol::DealCommitment{match_id_, d.hand, atout::deal_commitment(*d.seed, match_id_, d.hand)};
}

protocol::Event SeatView::event(const State& st, std::uint64_t seq, EventKind kind, Seat viewer,
                                const std::optional<protocol::LastAction>& last,
                                const std::optional<HandResult>& hand_result, const Facts& f, bool live) const {
  protocol::Event e;
  e.table_id = table_id_;
  e.seq = seq;
  e.kind = kind;
  e.observation = st.observation(viewer);
  if (live) {
    e.deal = f.deal;
  } else if (!st.is_terminal()) {
    e.deal = commitment(st.deal());
  }
  if (st.is_terminal()) e.deal.reset();
  e.hand_result = hand_result;
  const bool abandon_event = kind == EventKind::abandoned || (kind == EventKind::snapshot && f.abandoned_by);
  if (st.is_terminal() || abandon_event) {
    protocol::MatchResult r{st.winner().value_or(-1), st.match_score(), st.hand_results()};
    if (abandon_event && f.abandoned_by) {
      r.winner = abandon_winner(*f.abandoned_by);
      r.abandoned = true;
      r.abandoned_by = *f.abandoned_by;
      e.deal.reset();
    }
    e.match_result = std::move(r);
  }
  // The action as `viewer` may see it: a played card is public, but cards named by another seat's
  // action (an announced combination) are withheld unless the viewer's observation shows them.
  e.last = last;
  if (e.last && e.last->seat != viewer && !(e.last->action.cards - e.observation.visible).empty()) {
    e.last->action.cards = CardSet{};
    e.last->redacted = true;
  }
  if (live && f.turn_left) e.turn_ms_left = static_cast<int>(f.turn_left->count());
  return e;
}

std::optional<std::vector<protocol::Event>> SeatView::since(const State& live, std::uint64_t seq, Seat viewer,
                                                            std::uint64_t last_seq, const Facts& f,
                                                            const ActionLog& log) const {
  std::vector<protocol::Event> out;
  if (last_seq == seq) return out;
  // The seqs this table issued: the start event (1), each action's, the snapshot seq of a restart
  // (a multiple of kSeqsPerRun), and the current one (an abandon event has no action).
  const bool issued = last_seq <= 1 || (last_seq % kSeqsPerRun == 0 && last_seq < seq) ||
                      std::binary_search(log.seqs.begin(), log.seqs.end(), last_seq);
  if (last_seq > seq || !issued) return std::nullopt;
  const auto first_missed =
      static_cast<std::size_t>(std::upper_bound(log.seqs.begin(), log.seqs.end(), last_seq) - log.seqs.begin());
  const std::uint64_t last_action_seq = log.seqs.empty() ? 1 : log.seqs.back();
  const bool abandon_missed = f.abandoned_by && seq > last_action_seq;
  const std::uint64_t missed = (last_seq < 1 ? 1 : 0) + (log.seqs.size() - first_missed) + (abandon_missed ? 1 : 0);
  if (missed > kMaxReplayEvents) return std::nullopt;

  // Rebuild the state as of `last_seq` and replay from there.
  Record header = live.record();
  const std::vector<RecordedAction> actions = std::move(header.actions);
  if (actions.size() != log.seqs.size()) return std::nullopt;
  header.actions.clear();
  CreateResult created = create_state(header);
  if (!created.state) return std::nullopt;
  State& replay = *created.state;
  for (std::size_t i = 0; i < first_missed; ++i) replay.apply(actions[i].seat, actions[i].action);
  auto add = [&](protocol::Event e) {
    e.replayed = true;
    // A turn that is over offers nothing to act on: only the current event keeps its legal list.
    if (e.seq != seq) e.observation.legal.clear();
    out.push_back(std::move(e));
  };
  if (last_seq < 1) add(event(replay, 1, EventKind::start, viewer, std::nullopt, std::nullopt, f, seq == 1));
  for (std::size_t i = first_missed; i < actions.size(); ++i) {
    const RecordedAction& a = actions[i];
    const Step step = replay.step(a.seat, a.action);
    add(event(replay, log.seqs[i], EventKind::action, viewer,
              protocol::LastAction{a.seat, step.action, false, static_cast<bool>(log.by_server[i]),
                                   i < log.by_bot.size() ? log.by_bot[i] : std::nullopt},
              step.hand_ended, f, log.seqs[i] == seq));
  }
  if (abandon_missed) add(event(replay, seq, EventKind::abandoned, viewer, std::nullopt, std::nullopt, f, true));
  return out;
}

}  // namespace atout::server
