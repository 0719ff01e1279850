// Who is at a table: each seat (free, taken, or held for a disconnected player), the watchers and
// the owner, with the look-ups the table's commands need. The table calls it on its strand.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atout/server/peer.hpp"
#include "atout/state.hpp"

namespace atout::server {

class seating {
 public:
  struct seat_slot {
    std::optional<member> holder;  // conn == 0: the holder disconnected and the seat is held
    int timeouts = 0;              // consecutive turn timeouts of the present player
    bool away = false;             // marked away after settings.away_after timeouts
  };

  seating(std::size_t seats, std::optional<member> owner);

  std::size_t size() const { return seats_.size(); }
  seat_slot& at(Seat s) { return seats_[static_cast<std::size_t>(s)]; }
  const seat_slot& at(Seat s) const { return seats_[static_cast<std::size_t>(s)]; }
  const std::vector<member>& watchers() const { return watchers_; }

  std::optional<Seat> seat_of(std::uint64_t conn) const;
  // The seat held for (or taken by) `player_id`.
  std::optional<Seat> seat_for(const std::string& player_id) const;
  std::optional<Seat> first_free() const;
  bool is_member(std::uint64_t conn) const;
  bool is_watching(std::uint64_t conn) const;
  bool all_seated() const;
  // A holder whose connection is open (conn == 0: the seat is held for a disconnected player).
  static bool connected(const std::optional<member>& m) { return m && m->conn != 0; }
  // A seat is held for a player who disconnected and may come back.
  bool any_held() const;

  // `m` takes `seat` afresh: no timeouts, not away. A watcher who sits stops watching.
  void take(Seat seat, member m);
  void vacate(Seat seat);
  void watch(member m);
  // True when `conn` was watching.
  bool unwatch(std::uint64_t conn);
  // True when `conn` was the owner.
  bool drop_owner(std::uint64_t conn);

  // Sends `message` once to every connected member (seated, watching or owner); returns how many.
  std::size_t deliver_to_members(const std::shared_ptr<const std::string>& message) const;

 private:
  std::vector<seat_slot> seats_;
  std::vector<member> watchers_;
  std::optional<member> owner_;  // its creator keeps an empty table open until it leaves
};

}  // namespace atout::server
