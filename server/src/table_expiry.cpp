// An empty table's expiry: the lobby asks, the table checks on its strand and closes.
#include "atout/server/lobby.hpp"
#include "atout/server/table.hpp"

namespace atout::server {

void Table::close_if_idle() {
  net::post(strand_, [self = shared_from_this()] {
    if (self->phase_ != Lifecycle::waiting || !self->seating_.watchers().empty()) return;
    for (std::size_t s = 0; s < self->seating_.size(); ++s)
      if (self->seating_.at(static_cast<Seat>(s)).holder) return;
    if (const std::optional<Member> owner = self->seating_.owner()) {
      self->seating_.drop_owner(owner->conn);
      deliver(owner->link, wire(protocol::LobbyRemove{self->id_}));
      if (auto p = owner->link.lock()) p->departed(self->id_);
    }
    self->phase_ = Lifecycle::closed;
    self->clocks_.stop_all();
    if (auto l = self->lobby_.lock()) l->table_closed(self->id_);
  });
}

}  // namespace atout::server
