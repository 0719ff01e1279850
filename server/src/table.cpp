// The table actor: seats, watchers, timers and the match, changed only on the table's strand.
#include "atout/server/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/fair_deal.hpp"
#include "atout/fallback.hpp"
#include "atout/server/lobby.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::EventKind;
using protocol::RequestId;
using protocol::TableStatus;

namespace {

bool connected(const std::optional<member>& m) { return m && m->conn != 0; }

}  // namespace

std::string to_string(match_end e) {
  switch (e) {
    case match_end::finished:
      return "finished";
    case match_end::abandoned:
      return "abandoned";
    case match_end::aborted:
      return "aborted";
  }
  return "aborted";
}

table::table(net::any_io_executor ex, table_init init)
    : strand_(net::make_strand(ex)),
      id_(std::move(init.id)),
      match_id_(std::move(init.match_id)),
      private_(init.is_private),
      invite_(std::move(init.invite)),
      settings_(init.settings),
      state_(std::move(init.state)),
      lobby_(std::move(init.lobby)),
      journal_(std::move(init.journal)),
      seats_(static_cast<std::size_t>(state_->players())),
      owner_(std::move(init.owner)),
      turn_timer_(strand_),
      metrics_(std::move(init.metrics)) {
  for (std::size_t s = 0; s < init.held.size() && s < seats_.size(); ++s) seats_[s].holder = std::move(init.held[s]);
  seq_ = init.seq;
  hands_stored_ = init.hands_stored;
  if (init.started) {
    started_ = true;
    status_ =
        state_->is_terminal() ? TableStatus::finished : (all_seated() ? TableStatus::playing : TableStatus::paused);
  }
}

// ---- Posting onto the strand ---------------------------------------------------------------------

void table::sit(member m, std::optional<int> seat, RequestId id, std::optional<std::uint64_t> last_seq) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), seat, id = std::move(id), last_seq]() mutable {
    self->do_sit(std::move(m), seat, id, last_seq);
  });
}

void table::spectate(member m, RequestId id, std::optional<std::uint64_t> last_seq) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id), last_seq]() mutable {
    self->do_spectate(std::move(m), id, last_seq);
  });
}

void table::stand(member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] { self->do_stand(m, id); });
}

void table::leave(member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] { self->do_leave(m, id); });
}

void table::act(member m, Action action, RequestId id) {
  // The action's latency runs from here to its event being queued to every recipient.
  net::post(strand_, [self = shared_from_this(), m = std::move(m), action, id = std::move(id),
                      started = std::chrono::steady_clock::now()] {
    const std::uint64_t seq_before = self->seq_;
    self->do_act(m, action, id);
    if (self->metrics_ && self->seq_ != seq_before) self->metrics_->action_done(started);
  });
}

void table::chat(member m, std::string text, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), text = std::move(text), id = std::move(id)] {
    self->do_chat(m, text, id);
  });
}

void table::detach(std::uint64_t conn) {
  net::post(strand_, [self = shared_from_this(), conn] { self->do_detach(conn); });
}

void table::restored() {
  net::post(strand_, [self = shared_from_this()] {
    if (self->running())
      for (std::size_t s = 0; s < self->seats_.size(); ++s)
        if (self->seats_[s].holder && self->seats_[s].holder->conn == 0)
          self->start_reconnect_window(static_cast<Seat>(s));
    self->note_hand();
    self->schedule_turn();
    // changed() would close a table nobody is at; a running match's held seats keep it open.
    if (self->running()) return self->changed();
    if (auto l = self->lobby_.lock()) l->table_changed(self->summary());
  });
}

// ---- Handlers (on the strand) --------------------------------------------------------------------

void table::do_sit(member m, std::optional<int> want, const RequestId& id, std::optional<std::uint64_t> last_seq) {
  if (closed_) return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seat_of(m.conn)) return reply_error(m.link, ErrorCode::already_seated, "you already sit at " + id_, id);
  const int players = state_->players();

  // A seat held for this player (after a disconnect, or from another connection) is theirs again.
  std::optional<Seat> held;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->player_id == m.player_id) held = static_cast<Seat>(s);

  // Resuming names no new seat: without a held one, a private table stays unknown to strangers.
  if (last_seq && !held)
    return reply_not_member(m, ErrorCode::not_seated, "no seat at " + id_ + " is held for you", id);

  Seat chosen = kNoSeat;
  if (held) {
    if (want && *want != *held)
      return reply_error(m.link, ErrorCode::already_seated,
                         "seat " + std::to_string(*held) + " at " + id_ + " is held for you; sit there", id);
    chosen = *held;
    const member& previous = *seats_[static_cast<std::size_t>(chosen)].holder;
    if (previous.conn != 0)
      if (auto p = previous.link.lock()) p->departed(id_);
  } else if (want) {
    if (*want < 0 || *want >= players)
      return reply_error(
          m.link, ErrorCode::bad_seat,
          id_ + " has seats 0 to " + std::to_string(players - 1) + "; there is no seat " + std::to_string(*want), id);
    if (seats_[static_cast<std::size_t>(*want)].holder)
      return reply_error(m.link, ErrorCode::seat_taken, "seat " + std::to_string(*want) + " at " + id_ + " is taken",
                         id);
    chosen = static_cast<Seat>(*want);
  } else {
    const auto free = std::find_if(seats_.begin(), seats_.end(), [](const seat_slot& s) { return !s.holder; });
    if (free == seats_.end())
      return reply_error(m.link, ErrorCode::table_full, "every seat at " + id_ + " is taken", id);
    chosen = static_cast<Seat>(free - seats_.begin());
  }

  // Sitting and watching are exclusive: a watcher who sits gets the seat's view instead.
  std::erase_if(spectators_, [&](const member& s) { return s.conn == m.conn; });
  seat_slot& slot = seats_[static_cast<std::size_t>(chosen)];
  slot.holder = m;
  slot.timeouts = 0;
  slot.away = false;
  if (slot.reconnect) {
    slot.reconnect->cancel();
    slot.reconnect.reset();
  }
  // The connection learns of its membership before the reply, so a request it sends on seeing the
  // reply finds the table without a detour through the lobby.
  if (auto p = m.link.lock()) p->joined(id_, weak_from_this());
  deliver(m.link, wire(protocol::Seated{id_, chosen, held.has_value()}, id));

  if (!started_ && all_seated()) {
    started_ = true;
    status_ = TableStatus::playing;
    if (journal_) {
      match_opened opened;
      opened.match_id = match_id_;
      opened.table_id = id_;
      opened.is_private = private_;
      opened.invite = invite_;
      opened.settings = settings_;
      opened.header = state_->record();
      opened.header.actions.clear();
      for (const seat_slot& s : seats_) opened.seat_players.push_back(s.holder->player_id);
      journal_->match_started(opened);
    }
    changed();
    ++seq_;
    note_hand();
    schedule_turn();
    broadcast_event(EventKind::start, std::nullopt, std::nullopt);
    return;
  }
  if (started_) {
    if (!held && running() && journal_) journal_->seat_changed(match_id_, chosen, m.player_id);
    if (status_ == TableStatus::paused && all_seated()) status_ = TableStatus::playing;
    schedule_turn();
    if (held && last_seq) {
      send_since(m, chosen, *last_seq);
    } else {
      send_snapshot(m, chosen);
    }
  }
  changed();
}

void table::do_spectate(member m, const RequestId& id, std::optional<std::uint64_t> last_seq) {
  if (closed_) return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seat_of(m.conn))
    return reply_error(m.link, ErrorCode::already_seated, "you sit at " + id_ + "; stand up to watch", id);
  const bool watching =
      std::any_of(spectators_.begin(), spectators_.end(), [&](const member& s) { return s.conn == m.conn; });
  if (!watching) spectators_.push_back(m);
  if (auto p = m.link.lock()) p->joined(id_, weak_from_this());
  deliver(m.link, wire(protocol::Watching{id_}, id));
  if (started_) {
    if (last_seq) {
      send_since(m, kNoSeat, *last_seq);
    } else {
      send_snapshot(m, kNoSeat);
    }
  }
  if (!watching) changed();
}

void table::do_stand(const member& m, const RequestId& id) {
  const auto seat = seat_of(m.conn);
  if (!seat) return reply_not_member(m, ErrorCode::not_seated, "you have no seat at " + id_, id);
  seats_[static_cast<std::size_t>(*seat)].holder.reset();
  seats_[static_cast<std::size_t>(*seat)].away = false;
  // Standing up leaves you watching; `leave` goes away altogether.
  spectators_.push_back(m);
  if (status_ == TableStatus::playing) status_ = TableStatus::paused;
  schedule_turn();
  deliver(m.link, wire(protocol::Ok{"stand", id_}, id));
  if (started_) send_snapshot(m, kNoSeat);
  changed();
}

void table::do_leave(const member& m, const RequestId& id) {
  bool was_member = false;
  if (const auto seat = seat_of(m.conn)) {
    seats_[static_cast<std::size_t>(*seat)].holder.reset();
    seats_[static_cast<std::size_t>(*seat)].away = false;
    if (status_ == TableStatus::playing) status_ = TableStatus::paused;
    schedule_turn();
    was_member = true;
  }
  if (std::erase_if(spectators_, [&](const member& s) { return s.conn == m.conn; }) > 0) was_member = true;
  if (owner_ && owner_->conn == m.conn) {
    owner_.reset();
    was_member = true;
  }
  if (!was_member) return reply_not_member(m, ErrorCode::not_at_table, "you are not at " + id_, id);
  if (auto p = m.link.lock()) p->departed(id_);
  deliver(m.link, wire(protocol::Ok{"leave", id_}, id));
  changed();
}

void table::do_act(const member& m, const Action& action, const RequestId& id) {
  const auto seat = seat_of(m.conn);
  if (!seat) return reply_not_member(m, ErrorCode::not_seated, "you have no seat at " + id_, id);
  if (!started_)
    return reply_error(m.link, ErrorCode::match_not_running, "the match at " + id_ + " starts when every seat is taken",
                       id);
  if (abandoned_)
    return reply_error(m.link, ErrorCode::match_not_running, "the match at " + id_ + " was abandoned", id);
  if (status_ == TableStatus::paused)
    return reply_error(m.link, ErrorCode::match_not_running,
                       "the match at " + id_ + " is paused until the empty seat is taken", id);

  const std::size_t hands_before = state_->hand_results().size();
  const Refusal refusal = state_->apply(*seat, action);
  if (refusal != Refusal::none)
    return reply_error(m.link, ErrorCode::illegal_action,
                       "the engine refused '" + to_string(action) + "': " + to_string(refusal), id, to_string(refusal));
  // The acknowledgement goes first so the actor can tell its own action's event from others'.
  // With `ack: "event"` there is none: the actor's event carries the request id instead.
  const bool by_event = m.ack == protocol::Ack::event;
  if (!by_event) deliver(m.link, wire(protocol::Accepted{id_, seq_ + 1}, id));
  seat_slot& slot = seats_[static_cast<std::size_t>(*seat)];
  slot.timeouts = 0;
  const bool was_away = std::exchange(slot.away, false);
  after_action(*seat, action, hands_before, false, by_event ? id : RequestId{});
  if (was_away) changed();
}

void table::do_chat(const member& m, const std::string& text, const RequestId& id) {
  if (closed_ || !is_member(m.conn)) return reply_not_member(m, ErrorCode::not_at_table, "you are not at " + id_, id);
  protocol::ChatMessage line;
  line.table_id = id_;
  line.player_id = m.player_id;
  line.name = m.name;
  if (const auto seat = seat_of(m.conn)) line.seat = *seat;
  line.text = text;
  deliver_to_members(wire(line));
  deliver(m.link, wire(protocol::Ok{"chat", id_}, id));
}

void table::after_action(Seat seat, const Action& action, std::size_t hands_before, bool by_server,
                         const RequestId& ack) {
  ++seq_;
  if (journal_) journal_->action(match_id_, seq_, seat, action, by_server);
  std::optional<HandResult> ended;
  if (state_->hand_results().size() > hands_before) {
    ended = state_->hand_results().back();
    if (journal_) journal_->hand_ended(match_id_, *ended, seq_);
  }
  const bool over = state_->is_terminal();
  if (over) status_ = TableStatus::finished;
  note_hand();
  schedule_turn();
  broadcast_event(EventKind::action, protocol::LastAction{seat, action, false, by_server}, ended, ack);
  if (over) {
    if (journal_) journal_->match_ended(match_id_, state_->winner(), state_->match_score(), match_end::finished);
    stop_timers();
    changed();
  }
}

void table::do_detach(std::uint64_t conn) {
  bool touched = false;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    seat_slot& slot = seats_[s];
    if (!slot.holder || slot.holder->conn != conn) continue;
    touched = true;
    if (running()) {
      // Held for its player, who may come back with their token; meanwhile the server plays it.
      slot.holder->conn = 0;
      slot.holder->link.reset();
      start_reconnect_window(static_cast<Seat>(s));
    } else {
      slot.holder.reset();
    }
  }
  if (std::erase_if(spectators_, [&](const member& s) { return s.conn == conn; }) > 0) touched = true;
  if (owner_ && owner_->conn == conn) {
    owner_.reset();
    touched = true;
  }
  if (touched) {
    schedule_turn();
    changed();
  }
}

// ---- Timers --------------------------------------------------------------------------------------

bool table::running() const { return started_ && !abandoned_ && !state_->is_terminal(); }

void table::schedule_turn() {
  turn_armed_ = false;
  const Seat seat = running() ? state_->current_player() : kNoSeat;
  if (closed_ || seat == kNoSeat || status_ != TableStatus::playing) {
    cancel_turn_wait();  // nothing to time: the wait goes, and with it its hold on the table
    return;
  }
  const seat_slot& slot = seats_[static_cast<std::size_t>(seat)];
  const std::chrono::milliseconds turn(settings_.turn_ms);
  const bool absent = !connected(slot.holder) || slot.away;
  const auto delay = absent ? std::min(turn, kAbsentDelay) : turn;
  turn_deadline_ = std::chrono::steady_clock::now() + delay;
  turn_armed_ = true;
  // Most actions push the deadline later: the wait under way stays (no cancellation and new wait
  // per action) and, when it fires early, waits again for the deadline.
  if (turn_waiting_ && turn_timer_.expiry() <= turn_deadline_) return;
  turn_timer_.expires_at(turn_deadline_);  // cancels a later wait: its handler is then stale
  wait_turn();
}

void table::cancel_turn_wait() {
  // The cancelled wait's handler still runs, later, with operation_aborted. Counting a new wait
  // makes it stale, so a schedule_turn before it (a sit queued behind a stand) starts a fresh one.
  turn_timer_.cancel();
  turn_waiting_ = false;
  ++turn_wait_;
}

void table::wait_turn() {
  turn_waiting_ = true;
  turn_timer_.async_wait([self = shared_from_this(), wait = ++turn_wait_](beast::error_code ec) {
    if (wait != self->turn_wait_) return;  // a cancelled wait, queued before the current one began
    self->turn_waiting_ = false;
    if (ec || !self->turn_armed_) return;
    if (std::chrono::steady_clock::now() < self->turn_deadline_) {
      self->turn_timer_.expires_at(self->turn_deadline_);
      return self->wait_turn();
    }
    self->on_turn_timeout();
  });
}

void table::on_turn_timeout() {
  turn_armed_ = false;
  const Seat seat = state_->current_player();
  if (!running() || seat == kNoSeat) return;
  seat_slot& slot = seats_[static_cast<std::size_t>(seat)];
  bool away_now = false;
  if (connected(slot.holder) && !slot.away && ++slot.timeouts >= settings_.away_after) {
    slot.away = true;
    away_now = true;
  }
  const Observation view = state_->observation(seat);
  if (view.legal.empty()) {
    spdlog::error("table {}: seat {} is to act but has no legal action", id_, seat);
    return;
  }
  const Action action = fallback_action(view);
  const std::size_t hands_before = state_->hand_results().size();
  if (const Refusal r = state_->apply(seat, action); r != Refusal::none) {
    spdlog::error("table {}: the engine refused the fallback '{}' for seat {}: {}", id_, to_string(action), seat,
                  to_string(r));
    return;
  }
  after_action(seat, action, hands_before, true);
  if (away_now) changed();
}

void table::start_reconnect_window(Seat seat) {
  seat_slot& slot = seats_[static_cast<std::size_t>(seat)];
  if (slot.reconnect) slot.reconnect->cancel();
  slot.reconnect = std::make_shared<net::steady_timer>(strand_, std::chrono::milliseconds(settings_.reconnect_ms));
  slot.reconnect->async_wait([self = shared_from_this(), seat,
                              timer = std::weak_ptr<net::steady_timer>(slot.reconnect)](beast::error_code ec) {
    // A seat taken back (or a newer window) replaced this timer: only the current one counts.
    if (ec || timer.lock() != self->seats_[static_cast<std::size_t>(seat)].reconnect) return;
    self->on_reconnect_expired(seat);
  });
}

void table::on_reconnect_expired(Seat seat) {
  seat_slot& slot = seats_[static_cast<std::size_t>(seat)];
  slot.reconnect.reset();
  if (!slot.holder || slot.holder->conn != 0 || !running()) return;
  if (settings_.abandon == protocol::TableSettings::Abandon::free_seat) {
    spdlog::info("table {}: seat {} freed; its player did not come back", id_, seat);
    slot.holder.reset();
    slot.away = false;
    slot.timeouts = 0;
    if (status_ == TableStatus::playing) status_ = TableStatus::paused;
    schedule_turn();
    changed();
    return;
  }
  spdlog::info("table {}: match abandoned by seat {}", id_, seat);
  abandoned_ = true;
  abandoned_by_ = seat;
  status_ = TableStatus::finished;
  ++seq_;
  if (journal_) journal_->match_ended(match_id_, abandon_winner(seat), state_->match_score(), match_end::abandoned);
  stop_timers();
  broadcast_event(EventKind::abandoned, std::nullopt, std::nullopt);
  changed();
}

void table::stop_timers() {
  cancel_turn_wait();
  turn_armed_ = false;
  for (seat_slot& s : seats_)
    if (s.reconnect) {
      s.reconnect->cancel();
      s.reconnect.reset();
    }
}

// ---- Helpers -------------------------------------------------------------------------------------

std::optional<Seat> table::seat_of(std::uint64_t conn) const {
  if (conn == 0) return std::nullopt;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->conn == conn) return static_cast<Seat>(s);
  return std::nullopt;
}

bool table::is_member(std::uint64_t conn) const {
  if (seat_of(conn)) return true;
  if (owner_ && owner_->conn == conn) return true;
  return std::any_of(spectators_.begin(), spectators_.end(), [&](const member& s) { return s.conn == conn; });
}

bool table::all_seated() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const seat_slot& s) { return s.holder.has_value(); });
}

void table::reply_error(const std::weak_ptr<peer>& to, ErrorCode code, std::string message, const RequestId& id,
                        std::optional<std::string> reason) {
  protocol::Error e;
  e.code = code;
  e.message = std::move(message);
  e.reason = std::move(reason);
  e.table_id = id_;
  deliver(to, wire(e, id));
}

void table::reply_not_member(const member& m, ErrorCode code, std::string message, const RequestId& id) {
  if (closed_ || (private_ && !is_member(m.conn)))
    return reply_error(m.link, ErrorCode::unknown_table, "there is no table " + id_, id);
  reply_error(m.link, code, std::move(message), id);
}

std::optional<table::hand_deal> table::current_deal(const State& st) {
  if (st.is_terminal()) return std::nullopt;
  const Observation public_view = st.observation(kNoSeat);
  // Server matches deal every hand from the match seed; a match built from explicit decks (tests)
  // has nothing to commit to for those hands.
  const DealSource& source = st.record().deal;
  const auto hand = static_cast<std::size_t>(public_view.hand);
  if (hand < source.decks.size()) return std::nullopt;
  if (hand < source.seeds.size()) return hand_deal{public_view.hand, public_view.dealer, source.seeds[hand]};
  if (source.seed) return hand_deal{public_view.hand, public_view.dealer, derive_deal_seed(*source.seed, hand)};
  return std::nullopt;
}

protocol::DealCommitment table::commitment_to(const hand_deal& d) const {
  return protocol::DealCommitment{match_id_, d.hand, atout::deal_commitment(d.seed, match_id_, d.hand)};
}

std::optional<protocol::DealCommitment> table::commitment_for(const State& st) const {
  const auto d = current_deal(st);
  if (!d) return std::nullopt;
  return commitment_to(*d);
}

void table::note_hand() {
  if (!started_ || state_->is_terminal()) return;
  // A new hand is dealt only when one ends, so the count of results tells when to recompute.
  const std::size_t results = state_->hand_results().size();
  if (results == deal_results_) return;
  deal_results_ = results;
  // The seed is derived (and the public view built) once per hand, for the commitment and the
  // journal alike.
  const auto d = current_deal(*state_);
  deal_.reset();
  if (!d) return;
  deal_ = commitment_to(*d);
  // A restored table recomputes the commitment of the hand in progress; the store may keep it.
  // The hand's first action will be the event after the current one.
  if (journal_ && d->hand >= hands_stored_)
    journal_->hand_started(match_id_, d->hand, d->dealer, d->seed, deal_->commitment, seq_ + 1);
}

protocol::Event table::make_event(const State& st, std::uint64_t seq, EventKind kind, Seat viewer,
                                  const std::optional<protocol::LastAction>& last,
                                  const std::optional<HandResult>& hand_result, bool live) const {
  protocol::Event e;
  e.table_id = id_;
  e.seq = seq;
  e.kind = kind;
  e.observation = st.observation(viewer);
  e.deal = live ? deal_ : commitment_for(st);
  if (st.is_terminal()) e.deal.reset();
  e.hand_result = hand_result;
  const bool abandon_event = kind == EventKind::abandoned || (kind == EventKind::snapshot && abandoned_);
  if (st.is_terminal() || abandon_event) {
    protocol::MatchResult r{st.winner().value_or(-1), st.match_score(), st.hand_results()};
    if (abandon_event) {
      r.winner = abandon_winner(abandoned_by_);
      r.abandoned = true;
      r.abandoned_by = abandoned_by_;
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
  if (live && turn_armed_) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(turn_deadline_ - std::chrono::steady_clock::now());
    e.turn_ms_left = static_cast<int>(std::max<std::int64_t>(0, left.count()));
  }
  return e;
}

void table::send_snapshot(const member& m, Seat seat) {
  deliver(m.link, wire(make_event(*state_, seq_, EventKind::snapshot, seat, std::nullopt, std::nullopt, true)));
}

void table::send_since(const member& m, Seat viewer, std::uint64_t last_seq) {
  if (last_seq >= seq_) {
    if (last_seq > seq_) send_snapshot(m, viewer);  // not a seq of ours: start afresh
    return;
  }
  if (seq_ - last_seq > kMaxReplayEvents) return send_snapshot(m, viewer);
  // Event 1 started the match, and event k + 2 came from the record's action k; an abandoned
  // match has one more event. Rebuild the state as of `last_seq` and replay from there.
  Record header = state_->record();
  const std::vector<RecordedAction> actions = std::move(header.actions);
  header.actions.clear();
  CreateResult created = create_state(header);
  if (!created.state) return send_snapshot(m, viewer);
  State& replay = *created.state;
  std::size_t next = 0;
  for (; next < actions.size() && next + 2 <= last_seq; ++next) replay.apply(actions[next].seat, actions[next].action);
  for (std::uint64_t seq = last_seq + 1; seq <= seq_; ++seq) {
    const bool live = seq == seq_;
    if (seq == 1) {
      deliver(m.link, wire(make_event(replay, seq, EventKind::start, viewer, std::nullopt, std::nullopt, live)));
    } else if (next < actions.size()) {
      const RecordedAction& a = actions[next++];
      const std::size_t before = replay.hand_results().size();
      replay.apply(a.seat, a.action);
      std::optional<HandResult> ended;
      if (replay.hand_results().size() > before) ended = replay.hand_results().back();
      // Whether the server played it is not in the record; the live event said so at the time.
      deliver(m.link, wire(make_event(replay, seq, EventKind::action, viewer,
                                      protocol::LastAction{a.seat, a.action, false, false}, ended, live)));
    } else if (abandoned_) {
      deliver(m.link, wire(make_event(replay, seq, EventKind::abandoned, viewer, std::nullopt, std::nullopt, live)));
    }
  }
}

void table::broadcast_event(EventKind kind, std::optional<protocol::LastAction> last,
                            std::optional<HandResult> hand_result, const RequestId& ack) {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (!connected(seats_[s].holder)) continue;
    protocol::Event e = make_event(*state_, seq_, kind, static_cast<Seat>(s), last, hand_result, true);
    if (last && last->seat == static_cast<Seat>(s)) e.id = ack;
    deliver(seats_[s].holder->link, wire(e));
  }
  if (!spectators_.empty()) {
    const auto shared = wire(make_event(*state_, seq_, kind, kNoSeat, last, hand_result, true));
    for (const member& s : spectators_) deliver(s.link, shared);
  }
}

protocol::TableSummary table::summary() const {
  protocol::TableSummary s;
  s.table_id = id_;
  s.variant = state_->record().variant;
  s.options = state_->record().options;
  s.is_private = private_;
  s.status = status_;
  s.settings = settings_;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    protocol::SeatInfo info;
    info.seat = static_cast<int>(i);
    if (const auto& h = seats_[i].holder) {
      info.player_id = h->player_id;
      info.name = h->name;
      info.connected = h->conn != 0;
      info.away = seats_[i].away;
    }
    s.seats.push_back(std::move(info));
  }
  s.spectators = static_cast<int>(spectators_.size());
  s.seq = seq_;
  return s;
}

std::size_t table::deliver_to_members(const std::shared_ptr<const std::string>& message) const {
  std::vector<std::uint64_t> sent;
  auto send_once = [&](const member& m) {
    if (m.conn == 0 || std::find(sent.begin(), sent.end(), m.conn) != sent.end()) return;
    sent.push_back(m.conn);
    deliver(m.link, message);
  };
  for (const seat_slot& seat : seats_)
    if (seat.holder) send_once(*seat.holder);
  for (const member& m : spectators_) send_once(m);
  if (owner_) send_once(*owner_);
  return sent.size();
}

void table::changed() {
  const protocol::TableSummary s = summary();
  const std::size_t sent = deliver_to_members(wire(protocol::TableUpdate{s}));
  const bool held = std::any_of(seats_.begin(), seats_.end(),
                                [](const seat_slot& seat) { return seat.holder && seat.holder->conn == 0; });

  auto l = lobby_.lock();
  if (l) l->table_changed(s);
  // Nobody left to play or watch, and no seat held for a player who may come back: close.
  if (sent == 0 && !(held && running()) && !closed_) {
    closed_ = true;
    stop_timers();
    if (l) l->table_closed(id_);
  }
}

}  // namespace atout::server
