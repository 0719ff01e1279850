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
                                                             std::uint64_t last_seq, const Facts& f) const {
  std::vector<protocol::Event> out;
  if (last_seq == seq) return out;
  if (last_seq > seq || seq - last_seq > kMaxReplayEvents) return std::nullopt;
  // Event 1 started the match, and event k + 2 came from the record's action k; an abandoned
  // match has one more event. Rebuild the state as of `last_seq` and replay from there.
  Record header = live.record();
  const std::vector<RecordedAction> actions = std::move(header.actions);
  header.actions.clear();
  CreateResult created = create_state(header);
  if (!created.state) return std::nullopt;
  State& replay = *created.state;
  std::size_t next = 0;
  for (; next < actions.size() && next + 2 <= last_seq; ++next) replay.apply(actions[next].seat, actions[next].action);
  for (std::uint64_t s = last_seq + 1; s <= seq; ++s) {
    const bool is_live = s == seq;
    if (s == 1) {
      out.push_back(event(replay, s, EventKind::start, viewer, std::nullopt, std::nullopt, f, is_live));
    } else if (next < actions.size()) {
      const RecordedAction& a = actions[next++];
      const Step step = replay.step(a.seat, a.action);
      // Whether the server played it is not in the record; the live event said so at the time.
      out.push_back(event(replay, s, EventKind::action, viewer, protocol::LastAction{a.seat, step.action, false, false},
                          step.hand_ended, f, is_live));
    } else if (f.abandoned_by) {
      out.push_back(event(replay, s, EventKind::abandoned, viewer, std::nullopt, std::nullopt, f, is_live));
    }
  }
  return out;
}

}  // namespace atout::server
