// The table actor: seats, watchers and the match, changed only on the table's strand.
#include "atout/server/table.hpp"

#include <algorithm>

#include "atout/fair_deal.hpp"
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
      metrics_(std::move(init.metrics)) {}

// ---- Posting onto the strand ---------------------------------------------------------------------

void table::sit(member m, std::optional<int> seat, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), seat, id = std::move(id)]() mutable {
    self->do_sit(std::move(m), seat, id);
  });
}

void table::spectate(member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)]() mutable {
    self->do_spectate(std::move(m), id);
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

void table::detach(std::uint64_t conn) {
  net::post(strand_, [self = shared_from_this(), conn] { self->do_detach(conn); });
}

// ---- Handlers (on the strand) --------------------------------------------------------------------

void table::do_sit(member m, std::optional<int> want, const RequestId& id) {
  if (closed_) return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seat_of(m.conn)) return reply_error(m.link, ErrorCode::already_seated, "you already sit at " + id_, id);
  const int players = state_->players();

  // A seat held for this player (after a disconnect, or from another connection) is theirs again.
  std::optional<Seat> held;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->player_id == m.player_id) held = static_cast<Seat>(s);

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
  seats_[static_cast<std::size_t>(chosen)].holder = m;
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
      for (const seat_slot& slot : seats_) opened.seat_players.push_back(slot.holder->player_id);
      journal_->match_started(opened);
    }
    changed();
    ++seq_;
    log_event(EventKind::start, kNoSeat, Action{});
    broadcast_event(EventKind::start, std::nullopt, std::nullopt);
    return;
  }
  if (started_) {
    if (status_ == TableStatus::paused && all_seated()) status_ = TableStatus::playing;
    send_snapshot(m, chosen);
  }
  changed();
}

void table::do_spectate(member m, const RequestId& id) {
  if (closed_) return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seat_of(m.conn))
    return reply_error(m.link, ErrorCode::already_seated, "you sit at " + id_ + "; stand up to watch", id);
  const bool watching =
      std::any_of(spectators_.begin(), spectators_.end(), [&](const member& s) { return s.conn == m.conn; });
  if (!watching) spectators_.push_back(m);
  if (auto p = m.link.lock()) p->joined(id_, weak_from_this());
  deliver(m.link, wire(protocol::Watching{id_}, id));
  if (started_) send_snapshot(m, kNoSeat);
  if (!watching) changed();
}

void table::do_stand(const member& m, const RequestId& id) {
  const auto seat = seat_of(m.conn);
  if (!seat) return reply_not_member(m, ErrorCode::not_seated, "you have no seat at " + id_, id);
  seats_[static_cast<std::size_t>(*seat)].holder.reset();
  // Standing up leaves you watching; `leave` goes away altogether.
  spectators_.push_back(m);
  if (status_ == TableStatus::playing) status_ = TableStatus::paused;
  deliver(m.link, wire(protocol::Ok{"stand", id_}, id));
  if (started_) send_snapshot(m, kNoSeat);
  changed();
}

void table::do_leave(const member& m, const RequestId& id) {
  bool was_member = false;
  if (const auto seat = seat_of(m.conn)) {
    seats_[static_cast<std::size_t>(*seat)].holder.reset();
    if (status_ == TableStatus::playing) status_ = TableStatus::paused;
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
  if (status_ == TableStatus::paused)
    return reply_error(m.link, ErrorCode::match_not_running,
                       "the match at " + id_ + " is paused until the empty seat is taken", id);

  const std::size_t hands_before = state_->hand_results().size();
  const Refusal refusal = state_->apply(*seat, action);
  if (refusal != Refusal::none)
    return reply_error(m.link, ErrorCode::illegal_action,
                       "the engine refused '" + to_string(action) + "': " + to_string(refusal), id, to_string(refusal));
  // The acknowledgement goes first so the actor can tell its own action's event from others'.
  deliver(m.link, wire(protocol::Accepted{id_, seq_ + 1}, id));
  after_action(*seat, action, hands_before, false);
}

void table::after_action(Seat seat, const Action& action, std::size_t hands_before, bool by_server) {
  ++seq_;
  log_event(EventKind::action, seat, action);
  if (journal_) journal_->action(match_id_, seq_, seat, action, by_server);
  std::optional<HandResult> ended;
  if (state_->hand_results().size() > hands_before) {
    ended = state_->hand_results().back();
    if (journal_) journal_->hand_ended(match_id_, *ended);
  }
  const bool over = state_->is_terminal();
  if (over) status_ = TableStatus::finished;
  broadcast_event(EventKind::action, protocol::LastAction{seat, action, false}, ended);
  if (over) {
    if (journal_)
      journal_->match_ended(match_id_, state_->winner(), state_->match_score(), match_end::finished, std::nullopt);
    changed();
  }
}

std::optional<protocol::DealCommitment> table::deal_commitment() {
  if (!started_ || state_->is_terminal()) return std::nullopt;
  const Observation public_view = state_->observation(kNoSeat);
  if (deal_ && deal_->hand == public_view.hand) return deal_;
  // Server matches deal every hand from the match seed; a match built from explicit decks (tests)
  // has nothing to commit to for those hands.
  const DealSource& source = state_->record().deal;
  const auto hand = static_cast<std::size_t>(public_view.hand);
  Seed seed;
  if (hand < source.decks.size()) return std::nullopt;
  if (hand < source.seeds.size()) {
    seed = source.seeds[hand];
  } else if (source.seed) {
    seed = derive_deal_seed(*source.seed, hand);
  } else {
    return std::nullopt;
  }
  deal_ = protocol::DealCommitment{match_id_, public_view.hand, atout::deal_commitment(seed, match_id_, public_view.hand)};
  if (journal_) journal_->hand_started(match_id_, public_view.hand, public_view.dealer, seed, deal_->commitment);
  return deal_;
}

void table::do_detach(std::uint64_t conn) {
  bool touched = false;
  const bool running = started_ && !state_->is_terminal();
  for (seat_slot& s : seats_) {
    if (!s.holder || s.holder->conn != conn) continue;
    touched = true;
    if (running) {
      s.holder->conn = 0;
      s.holder->link.reset();
    } else {
      s.holder.reset();
    }
  }
  if (std::erase_if(spectators_, [&](const member& s) { return s.conn == conn; }) > 0) touched = true;
  if (owner_ && owner_->conn == conn) {
    owner_.reset();
    touched = true;
  }
  if (touched) changed();
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

void table::send_snapshot(const member& m, Seat seat) {
  protocol::Event e;
  e.table_id = id_;
  e.seq = seq_;
  e.kind = EventKind::snapshot;
  e.observation = state_->observation(seat);
  e.deal = deal_commitment();
  if (state_->is_terminal())
    e.match_result =
        protocol::MatchResult{state_->winner().value_or(-1), state_->match_score(), state_->hand_results()};
  deliver(m.link, wire(e));
}

void table::broadcast_event(EventKind kind, std::optional<protocol::LastAction> last,
                            std::optional<HandResult> hand_result) {
  protocol::Event e;
  e.table_id = id_;
  e.seq = seq_;
  e.kind = kind;
  e.deal = deal_commitment();
  e.hand_result = std::move(hand_result);
  if (state_->is_terminal())
    e.match_result =
        protocol::MatchResult{state_->winner().value_or(-1), state_->match_score(), state_->hand_results()};

  // The action as `viewer` may see it: a played card is public, but cards named by another seat's
  // action (an announced combination) are withheld unless the viewer's observation shows them.
  auto view_of_last = [&](Seat viewer, CardSet visible) {
    std::optional<protocol::LastAction> v = last;
    if (v && v->seat != viewer && !(v->action.cards - visible).empty()) {
      v->action.cards = CardSet{};
      v->redacted = true;
    }
    return v;
  };

  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (!connected(seats_[s].holder)) continue;
    e.observation = state_->observation(static_cast<Seat>(s));
    e.last = view_of_last(static_cast<Seat>(s), e.observation.visible);
    deliver(seats_[s].holder->link, wire(e));
  }
  if (!spectators_.empty()) {
    e.observation = state_->observation(kNoSeat);
    e.last = view_of_last(kNoSeat, e.observation.visible);
    const auto shared = wire(e);
    for (const member& s : spectators_) deliver(s.link, shared);
  }
}

void table::log_event(EventKind kind, Seat seat, const Action& action) {
  if (log_.size() == kEventLogCapacity) log_.pop_front();
  log_.push_back(logged_event{seq_, kind, seat, action});
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
    }
    s.seats.push_back(std::move(info));
  }
  s.spectators = static_cast<int>(spectators_.size());
  s.seq = seq_;
  return s;
}

void table::changed() {
  const protocol::TableSummary s = summary();
  const auto update = wire(protocol::TableUpdate{s});
  std::vector<std::uint64_t> sent;
  auto send_once = [&](const member& m) {
    if (m.conn == 0 || std::find(sent.begin(), sent.end(), m.conn) != sent.end()) return;
    sent.push_back(m.conn);
    deliver(m.link, update);
  };
  for (const seat_slot& seat : seats_)
    if (seat.holder) send_once(*seat.holder);
  for (const member& m : spectators_) send_once(m);
  if (owner_) send_once(*owner_);

  auto l = lobby_.lock();
  if (l) l->table_changed(s);
  // Nobody left to play or watch: held seats go too (until resume outlives connections, issue 5).
  if (sent.empty() && !closed_) {
    closed_ = true;
    if (l) l->table_closed(id_);
  }
}

}  // namespace atout::server
