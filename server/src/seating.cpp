// Seats, watchers and the owner of one table.
#include "atout/server/seating.hpp"

#include <algorithm>

namespace atout::server {

Seating::Seating(std::size_t seats, std::optional<Member> owner) : seats_(seats), owner_(std::move(owner)) {}

std::optional<Seat> Seating::seat_of(std::uint64_t conn) const {
  if (conn == 0) return std::nullopt;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->conn == conn) return static_cast<Seat>(s);
  return std::nullopt;
}

std::optional<Seat> Seating::seat_for(const std::string& player_id) const {
  std::optional<Seat> found;
  for (std::size_t s = 0; s < seats_.size(); ++s)
    if (seats_[s].holder && seats_[s].holder->player_id == player_id) found = static_cast<Seat>(s);
  return found;
}

std::optional<Seat> Seating::first_free() const {
  const auto free = std::find_if(seats_.begin(), seats_.end(), [](const SeatSlot& s) { return !s.holder; });
  if (free == seats_.end()) return std::nullopt;
  return static_cast<Seat>(free - seats_.begin());
}

bool Seating::is_member(std::uint64_t conn) const {
  if (seat_of(conn)) return true;
  if (owner_ && owner_->conn == conn) return true;
  return is_watching(conn);
}

bool Seating::is_watching(std::uint64_t conn) const {
  return std::any_of(watchers_.begin(), watchers_.end(), [&](const Member& s) { return s.conn == conn; });
}

bool Seating::all_seated() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const SeatSlot& s) { return s.holder.has_value(); });
}

bool Seating::any_held() const {
  return std::any_of(seats_.begin(), seats_.end(),
                     [](const SeatSlot& s) { return s.holder && s.holder->conn == 0 && !s.bot; });
}

void Seating::take(Seat seat, Member m) {
  // Sitting and watching are exclusive: a watcher who sits gets the seat's view instead.
  unwatch(m.conn);
  SeatSlot& slot = at(seat);
  slot.holder = std::move(m);
  slot.timeouts = 0;
  slot.away = false;
  slot.bot.reset();
}

void Seating::seat_bot(Seat seat, protocol::BotLevel level) {
  Member m;
  m.player_id = protocol::bot_player_id(level);
  m.name = m.player_id;
  take(seat, std::move(m));
  at(seat).bot = level;
}

void Seating::vacate(Seat seat) {
  SeatSlot& slot = at(seat);
  slot.holder.reset();
  slot.away = false;
  slot.timeouts = 0;
  slot.bot.reset();
}

void Seating::watch(Member m) {
  if (!is_watching(m.conn)) watchers_.push_back(std::move(m));
}

bool Seating::unwatch(std::uint64_t conn) {
  return std::erase_if(watchers_, [&](const Member& s) { return s.conn == conn; }) > 0;
}

bool Seating::drop_owner(std::uint64_t conn) {
  if (!owner_ || owner_->conn != conn) return false;
  owner_.reset();
  return true;
}

std::size_t Seating::deliver_to_members(const std::shared_ptr<const std::string>& message) const {
  std::vector<std::uint64_t> sent;
  auto send_once = [&](const Member& m) {
    if (m.conn == 0 || std::find(sent.begin(), sent.end(), m.conn) != sent.end()) return;
    sent.push_back(m.conn);
    deliver(m.link, message);
  };
  for (const SeatSlot& seat : seats_)
    if (seat.holder) send_once(*seat.holder);
  for (const Member& m : watchers_) send_once(m);
  if (owner_) send_once(*owner_);
  return sent.size();
}

}  // namespace atout::server
