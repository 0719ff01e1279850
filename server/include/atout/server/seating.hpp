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

class Seating {
 public:
  struct SeatSlot {
    std::optional<Member> holder;  // conn == 0: the holder disconnected and the seat is held
    int timeouts = 0;              // consecutive turn timeouts of the present player
    bool away = false;             // marked away after settings.away_after timeouts
    // A server bot of this level sits here: its holder is the level's player (conn == 0), never
    // held for anyone, never away.
    std::optional<protocol::BotLevel> bot{};
  };

  Seating(std::size_t seats, std::optional<Member> owner);

  std::size_t size() const { return seats_.size(); }
  SeatSlot& at(Seat s) { return seats_[static_cast<std::size_t>(s)]; }
  const SeatSlot& at(Seat s) const { return seats_[static_cast<std::size_t>(s)]; }
  const std::vector<Member>& watchers() const { return watchers_; }
  const std::optional<Member>& owner() const { return owner_; }

  std::optional<Seat> seat_of(std::uint64_t conn) const;
  // The seat held for (or taken by) `player_id`.
  std::optional<Seat> seat_for(const std::string& player_id) const;
  std::optional<Seat> first_free() const;
  bool is_member(std::uint64_t conn) const;
  bool is_watching(std::uint64_t conn) const;
  bool all_seated() const;
  // A holder whose connection is open (conn == 0: the seat is held for a disconnected player).
  static bool connected(const std::optional<Member>& m) { return m && m->conn != 0; }
  // A seat is held for a player who disconnected and may come back.
  bool any_held() const;
  // The seat is held for a disconnected player (not a bot's).
  bool held(Seat s) const { return at(s).holder && at(s).holder->conn == 0 && !at(s).bot; }

  // `m` takes `seat` afresh: no timeouts, not away. A watcher who sits stops watching.
  void take(Seat seat, Member m);
  void vacate(Seat seat);
  // A bot of `level` takes the free `seat`.
  void seat_bot(Seat seat, protocol::BotLevel level);
  void watch(Member m);
  // True when `conn` was watching.
  bool unwatch(std::uint64_t conn);
  // True when `conn` was the owner.
  bool drop_owner(std::uint64_t conn);

  // Sends `message` once to every connected member (seated, watching or owner); returns how many.
  std::size_t deliver_to_members(const std::shared_ptr<const std::string>& message) const;

 private:
  std::vector<SeatSlot> seats_;
  std::vector<Member> watchers_;
  std::optional<Member> owner_;  // its creator keeps an empty table open until it leaves
};

}  // namespace atout::server
