// The lobby actor: table creation, look-up by id or invite code, listings and subscriptions, and
// the bounds on what one player makes of it.
#include "atout/server/lobby.hpp"

#include <algorithm>
#include <utility>

#include "atout/server/error_wire.hpp"
#include "atout/server/random.hpp"
#include "atout/server/table.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::make_error;
using protocol::RequestId;
using protocol::TableStatus;

namespace {

constexpr std::size_t kInviteBytes = 16;   // 128 bits: not guessable
constexpr std::size_t kMatchIdBytes = 16;  // 128 bits: unique across restarts

}  // namespace

Lobby::Lobby(net::any_io_executor ex, std::shared_ptr<server::Journal> journal)
    : io_(ex), strand_(net::make_strand(ex)), journal_(std::move(journal)) {}

void Lobby::reply_error(const Member& m, ErrorCode code, std::string message, const RequestId& id) const {
  deliver(m.link, error_wire(make_error(code, std::move(message)), id, metrics_.get()));
}

void Lobby::create(protocol::CreateTable request, Member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), request = std::move(request), m = std::move(m), id = std::move(id)] {
    self->do_create(request, m, id);
  });
}

void Lobby::do_create(const protocol::CreateTable& request, Member m, const RequestId& id) {
  const VariantInfo* variant = find_variant(request.variant);
  if (!variant) {
    std::string known;
    for (const VariantInfo& v : variants()) known += (known.empty() ? "" : ", ") + v.id;
    return reply_error(m, ErrorCode::unknown_variant,
                       "unknown variant '" + request.variant.substr(0, 64) + "'; known: " + known, id);
  }
  // Bots asked for: the seats they take, and the lowest seat left, for the creator.
  std::vector<std::pair<Seat, protocol::BotLevel>> seat_bots;
  std::optional<Seat> creator_seat;
  if (request.bots) {
    std::vector<int> seats = request.bots->seats;
    if (seats.empty())
      for (int s = 1; s < variant->players; ++s) seats.push_back(s);
    for (const int s : seats) {
      if (s < 0 || s >= variant->players)
        return reply_error(m, ErrorCode::bad_seat,
                           variant->id + " has seats 0 to " + std::to_string(variant->players - 1) +
                               "; there is no seat " + std::to_string(s) + " for a bot",
                           id);
      seat_bots.emplace_back(static_cast<Seat>(s), request.bots->level);
    }
    for (int s = 0; s < variant->players && !creator_seat; ++s)
      if (std::find(seats.begin(), seats.end(), s) == seats.end()) creator_seat = static_cast<Seat>(s);
    if (!creator_seat)
      return reply_error(m, ErrorCode::bad_seat, "'bots.seats' names every seat; leave one for yourself", id);
  }
  Record header;
  header.variant = variant->id;
  header.options = request.options;
  header.deal.seed = random_seed();
  header.first_dealer = static_cast<Seat>(random_seed().lo % static_cast<std::uint64_t>(variant->players));
  if (limits_.max_open_tables > 0 && !m.player_id.empty()) {
    const auto owned = std::count_if(tables_.begin(), tables_.end(), [&](const auto& kv) {
      return kv.second.owner == m.player_id && kv.second.summary && kv.second.summary->status == TableStatus::waiting;
    });
    if (owned >= limits_.max_open_tables)
      return reply_error(m, ErrorCode::too_many_tables,
                         "you already own " + std::to_string(owned) +
                             " tables that have not started, as many as this server allows; start one, or leave one "
                             "(leave) to close it",
                         id);
  }
  CreateResult created = create_state(header);
  if (!created.state) {
    const ErrorCode code =
        created.error && created.error->code == "bad_option" ? ErrorCode::bad_option : ErrorCode::internal_error;
    protocol::Error e = make_error(code, created.error ? created.error->message : "could not create the match");
    if (created.error && !created.error->option.empty()) e.field = "options." + created.error->option;
    return deliver(m.link, error_wire(std::move(e), id, metrics_.get()));
  }

  // Creations wait their turn behind any that are already waiting for numbers.
  const std::optional<std::uint64_t> number = waiting_creates_.empty() ? numbers_.take() : std::nullopt;
  if (numbers_.start_reservation()) {
    reserve_(TableNumbers::kBlock, [self = shared_from_this()](std::optional<std::uint64_t> first) {
      net::post(self->strand_, [self, first] { self->on_numbers_reserved(first); });
    });
  }
  if (!number) {
    if (waiting_creates_.size() >= kMaxWaitingCreates)
      return reply_error(m, ErrorCode::internal_error,
                         "too many tables are being created at once for the store to keep up; try again", id);
    waiting_creates_.push_back(WaitingCreate{request, std::move(m), id});
    return;
  }
  // Appended rather than `"t" + std::to_string(...)`, which GCC 12 at -O3 flags with a false
  // -Wstringop-overflow once this file is inlined into its unity batch.
  std::string table_id = "t";
  table_id += std::to_string(*number);
  const std::uint64_t key = next_key_++;
  Entry e;
  if (request.is_private) e.invite = random_hex(kInviteBytes);
  TableInit init;
  init.id = table_id;
  init.match_id = random_hex(kMatchIdBytes);
  init.is_private = request.is_private;
  init.invite = e.invite;
  init.settings = request.settings;
  init.state = std::move(created.state);
  init.owner = m;
  init.seat_bots = std::move(seat_bots);
  e.t = build(std::move(init));
  e.owner = m.player_id;
  // Nothing else can reach the table yet, so reading its summary off its strand is safe here.
  update(e, e.t->summary());
  by_id_.emplace(table_id, key);
  if (e.invite) by_invite_.emplace(*e.invite, key);
  const Entry& added = tables_.emplace(key, std::move(e)).first->second;
  // The invite first: from the moment the lease names this node, another node asked for the
  // table's id must already find it private.
  if (added.invite && ownership_.private_table) ownership_.private_table(table_id, *added.invite, false);
  if (ownership_.opened) ownership_.opened(table_id);
  // Listed before its creator hears of it, so a listing asked for after the reply shows it.
  if (!request.is_private) publish();
  arm_expiry();
  if (auto p = m.link.lock()) p->joined(table_id, added.t);
  deliver(m.link, wire(protocol::TableCreated{*added.summary, added.invite}, id));
  if (!request.is_private) notify(wire(protocol::LobbyUpdate{*added.summary}));
  // Playing against bots is one request: the creator sits too (a `seated` without an id follows).
  if (creator_seat) added.t->sit(m, *creator_seat, RequestId{});
}

void Lobby::on_numbers_reserved(std::optional<std::uint64_t> first) {
  numbers_.reserved(first);
  if (!first) {
    // The store failed: those waiting are told, as a creation that found no number would be.
    for (const WaitingCreate& w : std::exchange(waiting_creates_, {}))
      reply_error(w.m, ErrorCode::internal_error, "the store could not reserve table numbers; try again", w.id);
    return;
  }
  // Made in the order they came, while numbers last (do_create asks for the next block in time).
  // Each is made at once, so none joins the queue meanwhile; any left wait for the next block,
  // still first in line.
  std::deque<WaitingCreate> waiting = std::exchange(waiting_creates_, {});
  while (!waiting.empty() && numbers_.left() > 0) {
    WaitingCreate w = std::move(waiting.front());
    waiting.pop_front();
    if (w.m.link.lock()) do_create(w.request, std::move(w.m), w.id);  // unless its connection is gone
  }
  waiting_creates_ = std::move(waiting);
}

void Lobby::use_table_numbers(std::uint64_t first, Reserve reserve) {
  numbers_ = TableNumbers(first);
  reserve_ = std::move(reserve);
}

TableClock& Lobby::clock() {
  if (!clock_) clock_ = steady_table_clock();
  return *clock_;
}

void Lobby::arm_expiry() {
  if (limits_.empty_table_ttl.count() <= 0) return;
  std::optional<TableClock::TimePoint> earliest;
  for (const auto& [number, e] : tables_)
    if (e.idle_since && (!earliest || *e.idle_since < *earliest)) earliest = e.idle_since;
  if (!earliest) {
    if (expiry_) expiry_->cancel();
    return;
  }
  const TableClock::TimePoint due = *earliest + limits_.empty_table_ttl;
  if (!expiry_) expiry_ = clock().make_timer(strand_);
  if (expiry_->due() == due) return;
  // The timer must not keep the lobby alive: the lobby owns it.
  expiry_->wait_until(due, [weak = weak_from_this()] {
    if (auto self = weak.lock()) self->on_expiry();
  });
}

void Lobby::on_expiry() {
  const TableClock::TimePoint now = clock().now();
  for (auto& [number, e] : tables_) {
    if (!e.idle_since || *e.idle_since + limits_.empty_table_ttl > now) continue;
    // The table decides on its strand: someone may have sat down since its last summary. If so,
    // that summary is on its way and says the table is not idle.
    e.t->close_if_idle();
    e.idle_since.reset();
  }
  arm_expiry();
}

std::shared_ptr<Table> Lobby::build(TableInit init) {
  init.lobby = weak_from_this();
  init.journal = journal_;
  init.metrics = metrics_;
  init.clock = clock_;
  init.bots = bots_;
  init.lease = lease_;
  return std::make_shared<Table>(io_, std::move(init));
}

void Lobby::restore(TableInit init) {
  Entry e;
  e.invite = init.invite;
  const bool is_private = init.is_private;
  const std::string table_id = init.id;
  e.t = build(std::move(init));
  // Nothing else can reach the table yet, so reading its summary off its strand is safe here.
  protocol::TableSummary summary = e.t->summary();
  net::post(strand_, [self = shared_from_this(), table_id, is_private, e = std::move(e),
                      summary = std::move(summary)]() mutable {
    // The table keeps its id; its number came from a block reserved in an earlier run, so no new
    // table can be given it.
    if (self->by_id_.count(table_id)) return;  // two unfinished matches at one table: keep the first
    auto t = e.t;
    // The invite before the seated players (update() hands them on): the table is known to be
    // private before anything else of it is written.
    if (e.invite && self->ownership_.private_table) self->ownership_.private_table(table_id, *e.invite, true);
    self->update(e, std::move(summary));
    if (!is_private) self->notify(wire(protocol::LobbyUpdate{*e.summary}));
    const std::uint64_t key = self->next_key_++;
    self->by_id_.emplace(table_id, key);
    if (e.invite) self->by_invite_.emplace(*e.invite, key);
    self->tables_.emplace(key, std::move(e));
    if (!is_private) self->publish();
    self->arm_expiry();
    t->restored();
  });
}

void Lobby::find(protocol::TableRef ref, bool join, FoundFn then) {
  net::post(strand_, [self = shared_from_this(), ref = std::move(ref), join, then = std::move(then)] {
    if (ref.invite) {
      const auto it = self->by_invite_.find(*ref.invite);
      if (it == self->by_invite_.end())
        return then(nullptr, make_error(ErrorCode::bad_invite, "no table has that invite code"));
      const Entry& e = self->tables_.at(it->second);
      if (ref.table_id && *ref.table_id != e.t->id())
        return then(nullptr, make_error(ErrorCode::bad_invite, "that invite code is for another table", ref.table_id));
      return then(e.t, std::nullopt);
    }
    if (!ref.table_id) return then(nullptr, make_error(ErrorCode::unknown_table, "no table was named"));
    const auto it = self->by_id_.find(*ref.table_id);
    // A private table is joined only through its invite code; without it, it does not exist.
    if (it == self->by_id_.end() || (join && self->tables_.at(it->second).invite))
      return then(nullptr, make_error(ErrorCode::unknown_table, "there is no table " + *ref.table_id, ref.table_id));
    then(self->tables_.at(it->second).t, std::nullopt);
  });
}

void Lobby::held_seats(std::string player_id, std::function<void(std::vector<protocol::HeldSeat>)> then) {
  net::post(strand_, [self = shared_from_this(), player_id = std::move(player_id), then = std::move(then)] {
    std::vector<protocol::HeldSeat> out;
    for (const auto& [number, e] : self->tables_) {
      // A finished table still open keeps a seat for a player who was away at the end.
      if (!e.summary || e.summary->status == TableStatus::waiting) continue;
      for (const protocol::SeatInfo& seat : e.summary->seats)
        if (seat.player_id == player_id) out.push_back(protocol::HeldSeat{e.summary->table_id, seat.seat});
    }
    then(std::move(out));
  });
}

void Lobby::table_changed(protocol::TableSummary summary) {
  net::post(strand_, [self = shared_from_this(), summary = std::move(summary)] {
    const auto it = self->by_id_.find(summary.table_id);
    if (it == self->by_id_.end()) return;
    Entry& e = self->tables_.at(it->second);
    const bool was_idle = e.idle_since.has_value();
    self->update(e, summary);
    if (!e.invite) {
      self->publish();
      self->notify(wire(protocol::LobbyUpdate{summary}));
    }
    if (e.idle_since && !was_idle) self->arm_expiry();
  });
}

std::shared_ptr<Table> Lobby::forget(const std::string& table_id, bool& was_private) {
  const auto it = by_id_.find(table_id);
  if (it == by_id_.end()) return nullptr;
  const auto number = it->second;
  std::shared_ptr<Table> t = tables_.at(number).t;
  was_private = tables_.at(number).invite.has_value();
  if (was_private) by_invite_.erase(*tables_.at(number).invite);
  by_id_.erase(it);
  tables_.erase(number);
  if (!was_private) {
    publish();
    notify(wire(protocol::LobbyRemove{table_id}));
  }
  return t;
}

void Lobby::table_closed(std::string table_id) {
  net::post(strand_, [self = shared_from_this(), table_id = std::move(table_id)] {
    bool was_private = false;
    if (!self->forget(table_id, was_private)) return;
    if (self->ownership_.closed) self->ownership_.closed(table_id);
    if (!was_private && self->row_relay_) self->row_relay_(table_id, nullptr);
  });
}

void Lobby::table_moved(std::string table_id, std::string url) {
  net::post(strand_, [self = shared_from_this(), table_id = std::move(table_id), url = std::move(url)]() mutable {
    bool was_private = false;
    if (const std::shared_ptr<Table> t = self->forget(table_id, was_private)) t->moved(std::move(url));
  });
}

void Lobby::census(std::function<void(TableCensus)> then) {
  net::post(strand_, [self = shared_from_this(), then = std::move(then)] {
    TableCensus counts;
    for (const auto& [number, e] : self->tables_)
      if (e.summary) ++counts[{e.summary->variant, e.summary->status}];
    then(std::move(counts));
  });
}

}  // namespace atout::server
