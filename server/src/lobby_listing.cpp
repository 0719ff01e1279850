// The lobby's listing: each public table's row, the published snapshot and its pages, the
// subscribers who hear of changes, lobby chat, and the rows other nodes relay.
#include <algorithm>
#include <utility>

#include "atout/server/error_wire.hpp"
#include "atout/server/lobby.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::RequestId;
using protocol::TableStatus;

void Lobby::update(Entry& e, protocol::TableSummary summary) {
  int free = 0;
  for (const protocol::SeatInfo& seat : summary.seats)
    if (!seat.player_id) ++free;
  const bool idle = summary.status == TableStatus::waiting && summary.spectators == 0 &&
                    free == static_cast<int>(summary.seats.size());
  if (!idle) {
    e.idle_since.reset();
  } else if (!e.idle_since) {
    e.idle_since = clock().now();
  }
  if (!e.invite) {
    auto row = std::make_shared<LobbySnapshot::Row>();
    row->variant = summary.variant;
    row->status = summary.status;
    row->free_seats = free;
    row->text = protocol::summary_text(summary);
    e.row = std::move(row);
    if (row_relay_) row_relay_(summary.table_id, e.row);
  } else if (ownership_.seated) {
    const auto players = [](const protocol::TableSummary* s) {
      std::vector<std::string> out;
      if (s)
        for (const protocol::SeatInfo& seat : s->seats)
          if (seat.player_id && !seat.bot) out.push_back(*seat.player_id);
      return out;
    };
    auto now = players(&summary);
    if (now != players(e.summary ? &*e.summary : nullptr)) ownership_.seated(summary.table_id, std::move(now));
  }
  e.summary = std::move(summary);
}

void Lobby::publish() {
  auto next = std::make_shared<LobbySnapshot>();
  next->rows.reserve(tables_.size());
  for (const auto& [number, e] : tables_)
    if (e.row) next->rows.push_back(e.row);
  for (const auto& [table_id, row] : remote_rows_)
    if (!by_id_.contains(table_id)) next->rows.push_back(row);
  const std::size_t first = std::min(next->rows.size(), static_cast<std::size_t>(protocol::Page::kDefaultLimit));
  for (std::size_t i = 0; i < first; ++i) {
    if (i > 0) next->first_page += ',';
    next->first_page += next->rows[i]->text;
  }
  std::shared_ptr<const LobbySnapshot> done = std::move(next);
  std::lock_guard lock(snapshot_mutex_);
  snapshot_.swap(done);
  // The old snapshot is released outside the lock, by `done`'s destructor, if no reader holds it.
}

std::shared_ptr<const LobbySnapshot> Lobby::snapshot() const {
  std::lock_guard lock(snapshot_mutex_);
  return snapshot_;
}

std::string LobbySnapshot::page(const protocol::ListTables& r, const RequestId& id) const {
  const bool filtered = r.variant || r.status || r.min_free > 0;
  if (!filtered && r.page.offset == 0 && r.page.limit == protocol::Page::kDefaultLimit)
    return protocol::tables_text(r.page, static_cast<int>(rows.size()), first_page, id);
  int total = 0;
  std::string items;
  const int end = r.page.offset + r.page.limit;
  for (const auto& row : rows) {
    if ((r.variant && row->variant != *r.variant) || (r.status && row->status != *r.status) ||
        row->free_seats < r.min_free)
      continue;
    if (total >= r.page.offset && total < end) {
      if (!items.empty()) items += ',';
      items += row->text;
    }
    ++total;
  }
  return protocol::tables_text(r.page, total, items, id);
}

void Lobby::subscribe(Member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] {
    self->subscribers_[m.conn] = m.link;
    // The first page of the largest size; later pages through list_tables.
    protocol::ListTables first;
    first.page.limit = protocol::Page::kMaxLimit;
    deliver(m.link, std::make_shared<const std::string>(self->snapshot()->page(first, id)));
  });
}

void Lobby::unsubscribe(Member m, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), id = std::move(id)] {
    self->subscribers_.erase(m.conn);
    deliver(m.link, wire(protocol::Ok{"unsubscribe_lobby", std::nullopt}, id));
  });
}

void Lobby::drop(std::uint64_t conn) {
  net::post(strand_, [self = shared_from_this(), conn] { self->subscribers_.erase(conn); });
}

void Lobby::chat(Member m, std::string text, RequestId id) {
  net::post(strand_, [self = shared_from_this(), m = std::move(m), text = std::move(text), id = std::move(id)] {
    if (!self->subscribers_.contains(m.conn))
      return self->reply_error(m, ErrorCode::not_at_table,
                               "subscribe to the lobby (subscribe_lobby) to chat there, or name a table", id);
    protocol::ChatMessage line;
    line.player_id = m.player_id;
    line.name = m.name;
    line.text = text;
    auto said = wire(line);
    self->notify(said);
    if (self->chat_relay_) self->chat_relay_(said);
    deliver(m.link, wire(protocol::Ok{"chat", std::nullopt}, id));
  });
}

void Lobby::remote_chat(std::shared_ptr<const std::string> text) {
  net::post(strand_, [self = shared_from_this(), text = std::move(text)] { self->notify(text); });
}

void Lobby::relay_all() {
  net::post(strand_, [self = shared_from_this()] {
    if (!self->row_relay_) return;
    for (const auto& [number, e] : self->tables_)
      if (e.row && e.summary) self->row_relay_(e.summary->table_id, e.row);
  });
}

bool Lobby::set_remote(const std::string& table_id, std::shared_ptr<const LobbySnapshot::Row> row) {
  const auto it = remote_rows_.find(table_id);
  std::shared_ptr<const std::string> told;
  if (!row) {
    if (it == remote_rows_.end()) return false;
    remote_rows_.erase(it);
    told = wire(protocol::LobbyRemove{table_id});
  } else {
    if (it != remote_rows_.end() && it->second->text == row->text) return false;
    // A lobby_update as serialize(LobbyUpdate) writes it (keys sorted), around the summary's text.
    told = std::make_shared<const std::string>("{\"table\":" + row->text + ",\"type\":\"lobby_update\"}");
    remote_rows_[table_id] = std::move(row);
  }
  // Listed before subscribers hear of it, so that a listing asked for after the news shows it. A
  // table this node runs now is listed, and told, as its own.
  if (by_id_.contains(table_id)) return true;
  publish();
  notify(told);
  return true;
}

void Lobby::remote_row(std::string table_id, std::shared_ptr<const LobbySnapshot::Row> row) {
  net::post(strand_, [self = shared_from_this(), table_id = std::move(table_id), row = std::move(row)]() mutable {
    self->set_remote(table_id, std::move(row));
  });
}

void Lobby::remote_rows(std::map<std::string, std::shared_ptr<const LobbySnapshot::Row>> rows) {
  net::post(strand_, [self = shared_from_this(), rows = std::move(rows)]() mutable {
    std::vector<std::string> gone;
    for (const auto& [table_id, row] : self->remote_rows_)
      if (!rows.contains(table_id)) gone.push_back(table_id);
    for (const std::string& table_id : gone) self->set_remote(table_id, nullptr);
    for (auto& [table_id, row] : rows) self->set_remote(table_id, std::move(row));
  });
}

void Lobby::notify(const std::shared_ptr<const std::string>& message) {
  std::erase_if(subscribers_, [&](auto& kv) {
    auto p = kv.second.lock();
    if (!p) return true;
    p->send(message);
    return false;
  });
}

}  // namespace atout::server
