// Seats, watchers and the owner of one table.
#include "atout/server/seating.hpp"

#include <algorithm>

namespace atout::server {

seating::seating(std::size_t seats, std::optional<member> owner) : seats_(seats), owner_(std::move(owner)) {}

std::optional<Seat> seating::seat_of(std::uint64_t conn) const {
  if (conn == 0) return std::nullopt;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->conn == conn) return static_cast<Seat>(s);
  return std::nullopt;
}

std::optional<Seat> seating::seat_for(const std::string& player_id) const {
  std::optional<Seat> found;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->player_id == player_id) found = static_cast<Seat>(s);
  return found;
}

std::optional<Seat> seating::first_free() const {
  const auto free = std::find_if(seats_.begin(), seats_.end(), [](const seat_slot& s) { return !s.holder; });
  if (free == seats_.end()) return std::nullopt;
  return static_cast<Seat>(free - seats_.begin());
}

bool seating::is_member(std::uint64_t conn) const {
  if (seat_of(conn)) return true;
  if (owner_ && owner_->conn == conn) return true;
  return is_watching(conn);
}

bool seating::is_watching(std::uint64_t conn) const {
  return std::any_of(watchers_.begin(), watchers_.end(), [&](const member& s) { return s.conn == conn; });
}

bool seating::all_seated() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const seat_slot& s) { return s.holder.has_value(); });
}

bool seating::any_held() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const seat_slot& s) { return s.holder && s.holder->conn == 0; });
}

void seating::take(Seat seat, member m) {
  // Sitting and watching are exclusive: a watcher who sits gets the seat's view instead.
  unwatch(m.conn);
  seat_slot& slot = at(seat);
  slot.holder = std::move(m);
  slot.timeouts = 0;
  slot.away = false;
}

void seating::vacate(Seat seat) {
  seat_slot& slot = at(seat);
  slot.holder.reset();
  slot.away = false;
  slot.timeouts = 0;
}

void seating::watch(member m) {
  if (!is_watching(m.conn)) watchers_.push_back(std::move(m));
}

bool seating::unwatch(std::uint64_t conn) {
  return std::erase_if(watchers_, [&](const member& s) { return s.conn == conn; }) > 0;
}

bool seating::drop_owner(std::uint64_t conn) {
  if (!owner_ || owner_->conn != conn) return false;
  owner_.reset();
  return true;
}

std::size_t seating::deliver_to_members(const std::shared_ptr<const std::string>& message) const {
  std::vector<std::uint64_t> sent;
  auto send_once = [&](const member& m) {
    if (m.conn == 0 || std::find(sent.begin(), sent.end(), m.conn) != sent.end()) return;
    sent.push_back(m.conn);
    deliver(m.link, message);
  };
  for (const seat_slot& seat : seats_)
    if (seat.holder) send_once(*seat.holder);
  for (const member& m : watchers_) send_once(m);
  if (owner_) send_once(*owner_);
  return sent.size();
}

}  // namespace atout::server
