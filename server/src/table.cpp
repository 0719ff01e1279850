// The table actor: commands posted onto the strand and handled in order (seats, watchers, chat),
// its summary and its closing. The match in play is in table_play.cpp.
#include "atout/server/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/server/error_wire.hpp"
#include "atout/server/lobby.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::EventKind;
using protocol::RequestId;
using protocol::TableStatus;

std::string to_string(MatchEnd e) {
  switch (e) {
    case MatchEnd::finished:
      return "finished";
    case MatchEnd::abandoned:
      return "abandoned";
    case MatchEnd::aborted:
      return "aborted";
  }
  return "aborted";
}

Table::Table(net::any_io_executor ex, TableInit init)
    : strand_(net::make_strand(ex)),
      id_(std::move(init.id)),
      match_id_(std::move(init.match_id)),
      private_(init.is_private),
      invite_(std::move(init.invite)),
      settings_(init.settings),
      state_(std::move(init.state)),
      lobby_(std::move(init.lobby)),
      journal_(std::move(init.journal)),
      metrics_(std::move(init.metrics)),
      bots_(std::move(init.bots)),
      lease_(std::move(init.lease)),
      seating_(static_cast<std::size_t>(state_->players()), std::move(init.owner)),
      clocks_(init.clock ? std::move(init.clock) : steady_table_clock(), strand_, seating_.size()),
      view_(id_, match_id_),
      seq_(init.seq),
      log_(std::move(init.log)),
      hands_stored_(init.hands_stored) {
  for (std::size_t s = 0; s < init.held.size() && s < seating_.size(); ++s) {
    // A restored seat whose player is a bot's gets its bot back, rather than a reconnect window.
    const auto bot = init.held[s] ? protocol::bot_of_player(init.held[s]->player_id) : std::nullopt;
    if (bot) {
      seating_.seat_bot(static_cast<Seat>(s), *bot);
    } else {
      seating_.at(static_cast<Seat>(s)).holder = std::move(init.held[s]);
    }
  }
  for (const auto& [seat, level] : init.seat_bots)
    if (seat >= 0 && static_cast<std::size_t>(seat) < seating_.size() && !seating_.at(seat).holder)
      seating_.seat_bot(seat, level);
  if (init.started) phase_ = state_->is_terminal() ? Lifecycle::finished : Lifecycle::running;
}

// ---- Posting onto the strand ---------------------------------------------------------------------

void Table::sit(Member m, std::optional<int> seat, RequestId id, std::optional<std::uint64_t> last_seq) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), seat, id = std::move(id), last_seq]() mutable {
    self->do_sit(std::move(m), seat, id, last_seq);
  });
}

void Table::spectate(Member m, RequestId id, std::optional<std::uint64_t> last_seq) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id), last_seq]() mutable {
    self->do_spectate(std::move(m), id, last_seq);
  });
}

void Table::stand(Member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] { self->do_stand(m, id); });
}

void Table::leave(Member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] { self->do_leave(m, id); });
}

void Table::act(Member m, Action action, RequestId id) {
  // The action's latency runs from here to its event being queued to every recipient.
  net::post(strand_, [self = shared_from_this(), m = std::move(m), action, id = std::move(id),
                      started = std::chrono::steady_clock::now()] { self->do_act(m, action, id, started); });
}

void Table::chat(Member m, std::string text, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), text = std::move(text), id = std::move(id)] {
    self->do_chat(m, text, id);
  });
}

void Table::add_bot(Member m, std::optional<int> seat, protocol::BotLevel level, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), seat, level, id = std::move(id)] {
    self->do_add_bot(m, seat, level, id);
  });
}

void Table::remove_bot(Member m, int seat, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), seat, id = std::move(id)] {
    self->do_remove_bot(m, seat, id);
  });
}

void Table::detach(std::uint64_t conn) {
  net::post(strand_, [self = shared_from_this(), conn] { self->do_detach(conn); });
}

void Table::moved(std::string url) {
  net::post(strand_, [self = shared_from_this(), url = std::move(url)] {
    if (self->phase_ == Lifecycle::closed) return;
    self->phase_ = Lifecycle::closed;
    self->clocks_.stop_all();
    const protocol::Error moving = protocol::make_moving_error(
        "another server has taken " + self->id_ + " over; reconnect to any server and resume there", self->id_,
        self->takeover_ms());
    const auto message =
        url.empty() ? error_wire(moving, {}, self->metrics_.get()) : wire(protocol::Redirect{self->id_, url});
    self->seating_.deliver_to_members(message);
    // Their connections forget the table: what they ask of it next goes to the lobby, which sends
    // them on too.
    auto depart = [&](const std::optional<Member>& m) {
      if (!m || m->conn == 0) return;
      if (auto p = m->link.lock()) p->departed(self->id_);
    };
    for (std::size_t s = 0; s < self->seating_.size(); ++s) depart(self->seating_.at(static_cast<Seat>(s)).holder);
    for (const Member& w : self->seating_.watchers()) depart(w);
    depart(self->seating_.owner());
  });
}

void Table::restored() {
  net::post(strand_, [self = shared_from_this()] {
    // Every player was cut off by the restart (or the node's loss): for one turn's time, an absent
    // seat to act is given its whole turn, not the absent delay, so that clients can reconnect.
    self->clocks_.excuse_absence_for(std::chrono::milliseconds(self->settings_.turn_ms));
    if (self->running())
      for (std::size_t s = 0; s < self->seating_.size(); ++s)
        if (self->seating_.held(static_cast<Seat>(s))) self->start_reconnect_window(static_cast<Seat>(s));
    if (self->running() && !self->state_->is_terminal()) self->begin_deal(self->state_->deal());
    self->schedule_turn();
    // changed() would close a table nobody is at; a running match's held seats keep it open.
    if (self->running()) return self->changed();
    if (auto l = self->lobby_.lock()) l->table_changed(self->summary());
  });
}

// ---- Handlers (on the strand) --------------------------------------------------------------------

void Table::do_sit(Member m, std::optional<int> want, const RequestId& id, std::optional<std::uint64_t> last_seq) {
  if (phase_ == Lifecycle::closed)
    return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seating_.seat_of(m.conn)) return reply_error(m.link, ErrorCode::already_seated, "you already sit at " + id_, id);

  // A seat held for this player (after a disconnect, or from another connection) is theirs again.
  const std::optional<Seat> held = seating_.seat_for(m.player_id);

  // Resuming names no new seat: without a held one, a private table stays unknown to strangers.
  if (last_seq && !held)
    return reply_not_member(m, ErrorCode::not_seated, "no seat at " + id_ + " is held for you", id);

  Seat chosen = kNoSeat;
  if (held) {
    if (want && *want != *held)
      return reply_error(m.link, ErrorCode::already_seated,
                         "seat " + std::to_string(*held) + " at " + id_ + " is held for you; sit there", id);
    chosen = *held;
    const Member& previous = *seating_.at(chosen).holder;
    if (previous.conn != 0)
      if (auto p = previous.link.lock()) p->departed(id_);
  } else {
    // A new player in a running match is written to the log: not while the lease has lapsed.
    if (running() && !leased())
      return reply_moving(m.link, "this server cannot vouch for " + id_ + " just now; try again shortly", id);
    const auto free = choose_free_seat(m, want, id);
    if (!free) return;
    chosen = *free;
  }

  seating_.take(chosen, m);
  clocks_.end_window(static_cast<std::size_t>(chosen));
  // The connection learns of its membership before the reply, so a request it sends on seeing the
  // reply finds the table without a detour through the lobby.
  if (auto p = m.link.lock()) p->joined(id_, weak_from_this());
  deliver(m.link, wire(protocol::Seated{id_, chosen, held.has_value()}, id));

  if (phase_ == Lifecycle::waiting && seating_.all_seated()) return start_match();
  if (phase_ != Lifecycle::waiting) {
    if (!held && running() && journal_) journal_->seat_changed(match_id_, chosen, m.player_id);
    schedule_turn();
    if (held && last_seq) {
      send_since(m, chosen, *last_seq);
    } else {
      send_snapshot(m, chosen);
    }
  }
  changed();
}

void Table::do_spectate(Member m, const RequestId& id, std::optional<std::uint64_t> last_seq) {
  if (phase_ == Lifecycle::closed)
    return reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
  if (seating_.seat_of(m.conn))
    return reply_error(m.link, ErrorCode::already_seated, "you sit at " + id_ + "; stand up to watch", id);
  const bool watching = seating_.is_watching(m.conn);
  seating_.watch(m);
  if (auto p = m.link.lock()) p->joined(id_, weak_from_this());
  deliver(m.link, wire(protocol::Watching{id_}, id));
  if (phase_ != Lifecycle::waiting) {
    if (last_seq) {
      send_since(m, kNoSeat, *last_seq);
    } else {
      send_snapshot(m, kNoSeat);
    }
  }
  if (!watching) changed();
}

void Table::do_stand(const Member& m, const RequestId& id) {
  const auto seat = seating_.seat_of(m.conn);
  if (!seat) return reply_not_member(m, ErrorCode::not_seated, "you have no seat at " + id_, id);
  seating_.vacate(*seat);
  // Standing up leaves you watching; `leave` goes away altogether.
  seating_.watch(m);
  schedule_turn();
  deliver(m.link, wire(protocol::Ok{"stand", id_}, id));
  if (phase_ != Lifecycle::waiting) send_snapshot(m, kNoSeat);
  changed();
}

void Table::do_leave(const Member& m, const RequestId& id) {
  bool was_member = false;
  if (const auto seat = seating_.seat_of(m.conn)) {
    seating_.vacate(*seat);
    schedule_turn();
    was_member = true;
  }
  if (seating_.unwatch(m.conn)) was_member = true;
  if (seating_.drop_owner(m.conn)) was_member = true;
  if (!was_member) return reply_not_member(m, ErrorCode::not_at_table, "you are not at " + id_, id);
  delta_bases_.erase(m.conn);
  if (auto p = m.link.lock()) p->departed(id_);
  deliver(m.link, wire(protocol::Ok{"leave", id_}, id));
  changed();
}

void Table::do_chat(const Member& m, const std::string& text, const RequestId& id) {
  if (phase_ == Lifecycle::closed || !seating_.is_member(m.conn))
    return reply_not_member(m, ErrorCode::not_at_table, "you are not at " + id_, id);
  protocol::ChatMessage line;
  line.table_id = id_;
  line.player_id = m.player_id;
  line.name = m.name;
  if (const auto seat = seating_.seat_of(m.conn)) line.seat = *seat;
  line.text = text;
  seating_.deliver_to_members(wire(line));
  deliver(m.link, wire(protocol::Ok{"chat", id_}, id));
}

bool Table::refuse_bot_request(const Member& m, const RequestId& id) {
  if (phase_ == Lifecycle::closed) {
    reply_error(m.link, ErrorCode::unknown_table, "table " + id_ + " has closed", id);
    return true;
  }
  const auto& owner = seating_.owner();
  if (!owner || owner->player_id != m.player_id) {
    reply_not_member(m, ErrorCode::not_owner, "only the owner of " + id_ + " may seat or remove bots", id);
    return true;
  }
  if (phase_ != Lifecycle::waiting) {
    reply_error(m.link, ErrorCode::match_started, "the match at " + id_ + " has started; bots are seated before", id);
    return true;
  }
  return false;
}

std::optional<Seat> Table::choose_free_seat(const Member& m, std::optional<int> want, const RequestId& id) {
  const int players = state_->players();
  if (!want) {
    const auto free = seating_.first_free();
    if (!free) reply_error(m.link, ErrorCode::table_full, "every seat at " + id_ + " is taken", id);
    return free;
  }
  if (*want < 0 || *want >= players) {
    reply_error(m.link, ErrorCode::bad_seat,
                id_ + " has seats 0 to " + std::to_string(players - 1) + "; there is no seat " + std::to_string(*want),
                id);
    return std::nullopt;
  }
  if (seating_.at(static_cast<Seat>(*want)).holder) {
    reply_error(m.link, ErrorCode::seat_taken, "seat " + std::to_string(*want) + " at " + id_ + " is taken", id);
    return std::nullopt;
  }
  return static_cast<Seat>(*want);
}

void Table::do_add_bot(const Member& m, std::optional<int> want, protocol::BotLevel level, const RequestId& id) {
  if (refuse_bot_request(m, id)) return;
  const auto chosen = choose_free_seat(m, want, id);
  if (!chosen) return;
  // A match of bots alone is not played: nobody would take part in it, it would still be stored
  // and rated, and a loop of such tables would spend the bot workers for nothing.
  bool person_or_room = false;
  for (std::size_t s = 0; s < seating_.size(); ++s)
    if (static_cast<Seat>(s) != *chosen && !seating_.at(static_cast<Seat>(s)).bot) person_or_room = true;
  if (!person_or_room)
    return reply_error(m.link, ErrorCode::bad_seat,
                       "seat " + std::to_string(*chosen) + " is the last free seat at " + id_ +
                           " and no player sits there: a table of bots alone is not played",
                       id);
  seating_.seat_bot(*chosen, level);
  deliver(m.link, wire(protocol::Ok{"add_bot", id_}, id));
  if (seating_.all_seated()) return start_match();
  changed();
}

void Table::do_remove_bot(const Member& m, int seat, const RequestId& id) {
  if (refuse_bot_request(m, id)) return;
  if (seat < 0 || seat >= state_->players() || !seating_.at(static_cast<Seat>(seat)).bot)
    return reply_error(m.link, ErrorCode::bad_seat, "no bot sits in seat " + std::to_string(seat) + " at " + id_, id);
  seating_.vacate(static_cast<Seat>(seat));
  deliver(m.link, wire(protocol::Ok{"remove_bot", id_}, id));
  changed();
}

void Table::do_detach(std::uint64_t conn) {
  delta_bases_.erase(conn);
  bool touched = false;
  for (std::size_t s = 0; s < seating_.size(); ++s) {
    Seating::SeatSlot& slot = seating_.at(static_cast<Seat>(s));
    if (!slot.holder || slot.holder->conn != conn) continue;
    touched = true;
    // Held for its player, who may come back with their token: to play on (meanwhile the server
    // plays the seat), or to see an end that went out as the connection was dropping.
    if (running() || end_maybe_unread()) {
      if (!running())
        spdlog::debug("table {}: seat {} held; its connection closed just after the end, which it may not have read",
                      id_, s);
      slot.holder->conn = 0;
      slot.holder->link.reset();
      start_reconnect_window(static_cast<Seat>(s));
    } else {
      slot.holder.reset();
    }
  }
  if (seating_.unwatch(conn)) touched = true;
  if (seating_.drop_owner(conn)) touched = true;
  if (touched) {
    schedule_turn();
    changed();
  }
}

// ---- Replies and events --------------------------------------------------------------------------

void Table::reply_error(const std::weak_ptr<Peer>& to, ErrorCode code, std::string message, const RequestId& id,
                        std::optional<std::string> reason) {
  protocol::Error e = protocol::make_error(code, std::move(message), id_);
  e.reason = std::move(reason);
  deliver(to, error_wire(e, id, metrics_.get()));
}

void Table::reply_moving(const std::weak_ptr<Peer>& to, std::string message, const RequestId& id) {
  deliver(to, error_wire(protocol::make_moving_error(std::move(message), id_, takeover_ms()), id, metrics_.get()));
}

void Table::reply_not_member(const Member& m, ErrorCode code, std::string message, const RequestId& id) {
  if (phase_ == Lifecycle::closed || (private_ && !seating_.is_member(m.conn)))
    return reply_error(m.link, ErrorCode::unknown_table, "there is no table " + id_, id);
  reply_error(m.link, code, std::move(message), id);
}

protocol::TableSummary Table::summary() const {
  protocol::TableSummary s;
  s.table_id = id_;
  s.variant = state_->record().variant;
  s.options = state_->record().options;
  s.is_private = private_;
  s.status = status();
  s.settings = settings_;
  for (std::size_t i = 0; i < seating_.size(); ++i) {
    const Seating::SeatSlot& slot = seating_.at(static_cast<Seat>(i));
    protocol::SeatInfo info;
    info.seat = static_cast<int>(i);
    if (const auto& h = slot.holder) {
      info.player_id = h->player_id;
      info.name = h->name;
      info.connected = h->conn != 0 || slot.bot.has_value();
      info.away = slot.away;
      info.bot = slot.bot;
    }
    s.seats.push_back(std::move(info));
  }
  s.spectators = static_cast<int>(seating_.watchers().size());
  s.seq = seq_;
  return s;
}

void Table::changed() {
  const protocol::TableSummary s = summary();
  const std::size_t sent = seating_.deliver_to_members(wire(protocol::TableUpdate{s}));
  auto l = lobby_.lock();
  if (l) l->table_changed(s);
  // Nobody left to play or watch, and no seat held for a player who may come back (to play on,
  // or to see how the match ended): close.
  if (sent == 0 && !(seating_.any_held() && phase_ != Lifecycle::waiting) && phase_ != Lifecycle::closed) {
    if (running()) end_deserted_match();
    spdlog::debug("table {}: closed; nobody is left at it to play on or to see the end", id_);
    phase_ = Lifecycle::closed;
    clocks_.stop_all();
    if (l) l->table_closed(id_);
  }
}

}  // namespace atout::server
