// The table's match in play: its start, each action and the server's play for a seat whose time
// is up, the reconnect windows and abandonment, and the events each member is sent.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/fallback.hpp"
#include "atout/protocol/view_delta.hpp"
#include "atout/server/table.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::EventKind;
using protocol::RequestId;
using protocol::TableStatus;

void Table::start_match() {
  phase_ = Lifecycle::running;
  if (journal_) {
    MatchOpened opened;
    opened.match_id = match_id_;
    opened.table_id = id_;
    opened.is_private = private_;
    opened.invite = invite_;
    opened.settings = settings_;
    opened.header = state_->record();
    opened.header.actions.clear();
    for (std::size_t s = 0; s < seating_.size(); ++s)
      opened.seat_players.push_back(seating_.at(static_cast<Seat>(s)).holder->player_id);
    journal_->match_started(opened);
  }
  changed();
  ++seq_;
  begin_deal(state_->deal());
  schedule_turn();
  broadcast_event(EventKind::start, std::nullopt, std::nullopt);
}

void Table::do_act(const Member& m, const Action& action, const RequestId& id,
                   std::chrono::steady_clock::time_point started) {
  const auto seat = seating_.seat_of(m.conn);
  if (!seat) return reply_not_member(m, ErrorCode::not_seated, "you have no seat at " + id_, id);
  if (phase_ == Lifecycle::waiting)
    return reply_error(m.link, ErrorCode::match_not_running, "the match at " + id_ + " starts when every seat is taken",
                       id);
  if (phase_ == Lifecycle::abandoned)
    return reply_error(m.link, ErrorCode::match_not_running, "the match at " + id_ + " was abandoned", id);
  if (status() == TableStatus::paused)
    return reply_error(m.link, ErrorCode::match_not_running,
                       "the match at " + id_ + " is paused until the empty seat is taken", id);
  // Another server may be taking the table over (table_lease.hpp): as when a server has stopped,
  // the player reconnects to any server and resumes.
  if (phase_ == Lifecycle::closed || !leased())
    return reply_moving(m.link, "this server cannot vouch for " + id_ + " just now; reconnect to any server and resume",
                        id);

  const Step step = state_->step(*seat, action);
  if (!step.applied())
    return reply_error(m.link, ErrorCode::illegal_action,
                       "the engine refused '" + to_string(action) + "': " + to_string(step.refusal), id,
                       to_string(step.refusal));
  // The acknowledgement goes first so the actor can tell its own action's event from others'.
  // With `ack: "event"` there is none: the actor's event carries the request id instead.
  const bool by_event = m.ack == protocol::Ack::event;
  if (!by_event) deliver(m.link, wire(protocol::Accepted{id_, seq_ + 1}, id));
  Seating::SeatSlot& slot = seating_.at(*seat);
  slot.timeouts = 0;
  const bool was_away = std::exchange(slot.away, false);
  after_action(*seat, action, step, false, std::nullopt, by_event ? id : RequestId{});
  if (metrics_) metrics_->action_done(started);
  if (was_away) changed();
}

void Table::after_action(Seat seat, const Action& action, const Step& step, bool by_server,
                         std::optional<protocol::BotLevel> by_bot, const RequestId& ack) {
  ++seq_;
  log_.add(seq_, by_server, by_bot);
  if (journal_) journal_->action(match_id_, seq_, seat, action, by_server, by_bot);
  if (step.hand_ended && journal_) journal_->hand_ended(match_id_, *step.hand_ended, seq_);
  if (step.match_ended) {
    phase_ = Lifecycle::finished;
    deal_.reset();
  }
  if (step.deal_started) begin_deal(*step.deal_started);
  schedule_turn();
  // The action as applied: a take names the trump it took, as the deal's bids do.
  broadcast_event(EventKind::action, protocol::LastAction{seat, step.action, false, by_server, by_bot}, step.hand_ended,
                  ack);
  if (step.match_ended) {
    if (journal_) journal_->match_ended(match_id_, state_->winner(), state_->match_score(), MatchEnd::finished);
    clocks_.stop_all();
    hold_after_end(std::nullopt);
    spdlog::debug("table {}: match {} finished; the table stays open while a seat is held ({})", id_, match_id_,
                  seating_.any_held() ? "one is" : "none is");
    changed();
  }
}

// ---- Timers --------------------------------------------------------------------------------------

protocol::TableStatus Table::status() const {
  switch (phase_) {
    case Lifecycle::waiting:
      return TableStatus::waiting;
    case Lifecycle::running:
      // A seat left empty (not held for a player who may come back) pauses the match.
      return seating_.all_seated() ? TableStatus::playing : TableStatus::paused;
    case Lifecycle::finished:
    case Lifecycle::abandoned:
    case Lifecycle::closed:
      break;
  }
  return TableStatus::finished;
}

void Table::schedule_turn() {
  const Seat seat = running() ? state_->current_player() : kNoSeat;
  if (seat == kNoSeat || status() != TableStatus::playing) return clocks_.stop_turn();
  const Seating::SeatSlot& slot = seating_.at(seat);
  // A bot's seat is not timed: its bot is asked at once, and answers within its budget.
  if (slot.bot) {
    clocks_.stop_turn();
    return ask_bot(seat, *slot.bot, false);
  }
  // The turn is the state after event seq_: called again in the same turn (someone sat, resumed,
  // watched or left), the clock keeps its deadline.
  const bool absent = !Seating::connected(slot.holder) || slot.away;
  clocks_.time_turn(seq_, std::chrono::milliseconds(settings_.turn_ms), absent, kAbsentDelay,
                    [self = shared_from_this()] { self->on_turn_timeout(); });
}

void Table::wait_for_lease() {
  // When the lease is back, the turn starts afresh: its player could not act while it was away.
  clocks_.retry_turn(kAbsentDelay, [self = shared_from_this()] { self->schedule_turn(); });
}

void Table::on_turn_timeout() {
  const Seat seat = state_->current_player();
  if (!running() || seat == kNoSeat) return;
  if (!leased()) return wait_for_lease();
  Seating::SeatSlot& slot = seating_.at(seat);
  bool away_now = false;
  if (Seating::connected(slot.holder) && !slot.away && ++slot.timeouts >= settings_.away_after) {
    slot.away = true;
    away_now = true;
  }
  // With bot workers, the table's bot plays for the seat; its answer comes back on the strand.
  if (bots_) {
    if (away_now) changed();
    return ask_bot(seat, settings_.bot_level, true);
  }
  const Observation view = state_->observation(seat);
  if (view.legal.empty()) {
    spdlog::error("table {}: seat {} is to act but has no legal action", id_, seat);
    return;
  }
  const Action action = fallback_action(view);
  const Step step = state_->step(seat, action);
  if (!step.applied()) {
    spdlog::error("table {}: the engine refused the fallback '{}' for seat {}: {}", id_, to_string(action), seat,
                  to_string(step.refusal));
    return;
  }
  after_action(seat, action, step, true, std::nullopt);
  if (away_now) changed();
}

void Table::start_reconnect_window(Seat seat) {
  clocks_.open_window(static_cast<std::size_t>(seat), std::chrono::milliseconds(settings_.reconnect_ms),
                      [self = shared_from_this(), seat] { self->on_reconnect_expired(seat); });
}

void Table::on_reconnect_expired(Seat seat) {
  if (!seating_.held(seat)) return;
  if (phase_ == Lifecycle::finished || phase_ == Lifecycle::abandoned) {
    // The match is over and its player did not come back for the end: the table forgets them.
    seating_.vacate(seat);
    return changed();
  }
  if (!running()) return;
  if (!leased()) {
    // Abandoning writes the match's end: it waits for the lease, and the player may still come.
    return clocks_.open_window(static_cast<std::size_t>(seat), kAbsentDelay,
                               [self = shared_from_this(), seat] { self->on_reconnect_expired(seat); });
  }
  if (settings_.abandon == protocol::TableSettings::Abandon::free_seat) {
    spdlog::info("table {}: seat {} freed; its player did not come back", id_, seat);
    seating_.vacate(seat);
    schedule_turn();
    changed();
    return;
  }
  spdlog::info("table {}: match abandoned by seat {}", id_, seat);
  phase_ = Lifecycle::abandoned;
  abandoned_by_ = seat;
  ++seq_;
  if (journal_) journal_->match_ended(match_id_, abandon_winner(seat), state_->match_score(), MatchEnd::abandoned);
  clocks_.stop_all();
  broadcast_event(EventKind::abandoned, std::nullopt, std::nullopt);
  // The player who did not come back has had their window.
  seating_.vacate(seat);
  hold_after_end(seat);
  changed();
}

// A match still in play whose table closes (its players stood up or left, leaving empty seats and
// perhaps bots) can never go on: it ends as abandoned, so that it does not stay "in play" in the
// histories and is not rebuilt at every restart. When every empty seat is on one side, that side
// loses, as a forfeit; with empty seats on both sides, or none (bots alone), nobody wins.
void Table::end_deserted_match() {
  std::optional<Seat> first_empty;
  bool both_sides = false;
  for (std::size_t s = 0; s < seating_.size(); ++s) {
    const auto seat = static_cast<Seat>(s);
    if (seating_.at(seat).holder) continue;
    if (!first_empty) first_empty = seat;
    both_sides = both_sides || seat % 2 != *first_empty % 2;
  }
  const std::optional<int> winner =
      first_empty && !both_sides ? std::optional<int>(abandon_winner(*first_empty)) : std::nullopt;
  spdlog::info("table {}: closed with its match in play; match {} ends abandoned ({})", id_, match_id_,
               winner ? "won by team " + std::to_string(*winner) : std::string("no winner"));
  // Writing the end needs the lease, as any write does; without it, the node that holds the lease
  // now (or adopts the table) owns the match.
  if (journal_ && leased()) journal_->match_ended(match_id_, winner, state_->match_score(), MatchEnd::abandoned);
  phase_ = Lifecycle::abandoned;
}

void Table::hold_after_end(std::optional<Seat> except) {
  // A player away when the match ended gets a fresh reconnect window to come back and see how it
  // ended: the table stays open until every such window closes.
  ended_at_ = clocks_.now();
  for (std::size_t s = 0; s < seating_.size(); ++s) {
    const auto seat = static_cast<Seat>(s);
    if (seat != except && seating_.held(seat)) start_reconnect_window(seat);
  }
}

bool Table::end_maybe_unread() const {
  // A closed table (taken over elsewhere, say) holds nothing: its players are sent on.
  return phase_ != Lifecycle::closed && ended_at_ && clocks_.now() - *ended_at_ < kEndDeliveryGrace;
}

void Table::begin_deal(const DealInfo& d) {
  // The commitment is made once per hand and goes out with every event of that hand.
  deal_ = view_.commitment(d);
  // A hand dealt from an explicit deck (tests) has no seed to commit to or to store. A restored
  // table recomputes the commitment of the hand in progress, which the store may already hold.
  if (deal_ && journal_ && d.hand >= hands_stored_)
    journal_->hand_started(match_id_, d.hand, d.dealer, *d.seed, deal_->commitment, seq_ + 1);
}

SeatView::Facts Table::facts() const { return SeatView::Facts{deal_, abandoned_by_, clocks_.turn_left()}; }

void Table::send_snapshot(const Member& m, Seat seat) {
  send_event(m, view_.event(*state_, seq_, EventKind::snapshot, seat, std::nullopt, std::nullopt, facts(), true));
}

void Table::send_event(const Member& m, const protocol::Event& e, std::shared_ptr<const std::string> text) {
  if (!text) text = wire(e);
  if (m.views != protocol::Views::delta) return deliver(m.link, std::move(text));
  // The base is the event's own text (the frame's string when it goes out whole), and the delta
  // is worked out on text: a tree per recipient cost three times a full event's CPU.
  protocol::ViewText view(text);
  const auto base = delta_bases_.find(m.conn);
  if (base == delta_bases_.end() || e.kind == EventKind::snapshot) {
    deliver(m.link, std::move(text));
    delta_bases_.insert_or_assign(m.conn, DeltaBase{e.seq, std::move(view)});
    return;
  }
  deliver(m.link, std::make_shared<const std::string>(
                      protocol::serialize_delta(base->second.view, view, id_, e.seq, base->second.seq, e.id)));
  base->second = DeltaBase{e.seq, std::move(view)};
}

void Table::send_since(const Member& m, Seat viewer, std::uint64_t last_seq) {
  const auto events = view_.since(*state_, seq_, viewer, last_seq, facts(), log_);
  if (!events) return send_snapshot(m, viewer);
  for (const protocol::Event& e : *events) send_event(m, e);
  // A resume ends on the current view and its legal actions: when no missed event is the current
  // one (nothing was missed, or a restart came after the last), a snapshot follows.
  if (events->empty() || events->back().seq != seq_) send_snapshot(m, viewer);
}

void Table::broadcast_event(EventKind kind, std::optional<protocol::LastAction> last,
                            std::optional<HandResult> hand_result, const RequestId& ack) {
  const SeatView::Facts f = facts();
  for (std::size_t s = 0; s < seating_.size(); ++s) {
    const auto& holder = seating_.at(static_cast<Seat>(s)).holder;
    if (!Seating::connected(holder)) continue;
    protocol::Event e = view_.event(*state_, seq_, kind, static_cast<Seat>(s), last, hand_result, f, true);
    if (last && last->seat == static_cast<Seat>(s)) e.id = ack;
    send_event(*holder, e);
  }
  if (!seating_.watchers().empty()) {
    const protocol::Event e = view_.event(*state_, seq_, kind, kNoSeat, last, hand_result, f, true);
    const auto shared = wire(e);
    for (const Member& s : seating_.watchers()) {
      if (s.views == protocol::Views::delta)
        send_event(s, e, shared);
      else
        deliver(s.link, shared);
    }
  }
}

}  // namespace atout::server
