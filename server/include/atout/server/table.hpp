// One table: an actor on its own strand that owns a match's engine state, its seats and watchers.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"
#include "atout/state.hpp"

namespace atout::server {

class lobby;

class table : public std::enable_shared_from_this<table> {
 public:
  // Events kept for late readers (resume after a short disconnect comes with issue 5).
  static constexpr std::size_t kEventLogCapacity = 1024;

  // `state` is a new match; the table starts it once every seat is filled. The owner (its
  // creator) keeps an empty table open until it leaves or disconnects.
  table(net::any_io_executor ex, std::string id, bool is_private, std::unique_ptr<State> state,
        std::weak_ptr<lobby> owner_lobby, std::optional<member> owner);

  const std::string& id() const { return id_; }

  // Each of these posts onto the table's strand and answers through the member's peer.
  void sit(member m, std::optional<int> seat, protocol::RequestId id);
  void spectate(member m, protocol::RequestId id);
  void stand(member m, protocol::RequestId id);
  void leave(member m, protocol::RequestId id);
  void act(member m, Action action, protocol::RequestId id);
  // The connection closed. A seat in a running match is held for its player (who may resume
  // with their token and sit again); everything else the connection had here is released.
  void detach(std::uint64_t conn);

  // The summary as of now; call on the strand only (the lobby gets copies through updates).
  protocol::TableSummary summary() const;

 private:
  struct seat_slot {
    std::optional<member> holder;  // conn == 0: the holder disconnected and the seat is held
  };
  struct logged_event {
    std::uint64_t seq = 0;
    protocol::EventKind kind = protocol::EventKind::action;
    Seat seat = kNoSeat;
    Action action;
  };

  void do_sit(member m, std::optional<int> seat, const protocol::RequestId& id);
  void do_spectate(member m, const protocol::RequestId& id);
  void do_stand(const member& m, const protocol::RequestId& id);
  void do_leave(const member& m, const protocol::RequestId& id);
  void do_act(const member& m, const Action& action, const protocol::RequestId& id);
  void do_detach(std::uint64_t conn);

  std::optional<Seat> seat_of(std::uint64_t conn) const;
  bool is_member(std::uint64_t conn) const;
  bool all_seated() const;
  void reply_error(const std::weak_ptr<peer>& to, protocol::ErrorCode code, std::string message,
                   const protocol::RequestId& id, std::optional<std::string> reason = std::nullopt);
  // Non-members of a private table are told it does not exist, so ids reveal nothing.
  void reply_not_member(const member& m, protocol::ErrorCode code, std::string message, const protocol::RequestId& id);
  void send_snapshot(const member& m, Seat seat);
  // Sends every seat and watcher its own view of the event just logged.
  void broadcast_event(protocol::EventKind kind, std::optional<protocol::LastAction> last,
                       std::optional<HandResult> hand_result);
  void log_event(protocol::EventKind kind, Seat seat, const Action& action);
  // Tells members and the lobby that seats or status changed, then closes the table if nobody is
  // left to play or watch.
  void changed();

  net::strand<net::any_io_executor> strand_;
  std::string id_;
  bool private_;
  std::unique_ptr<State> state_;
  std::weak_ptr<lobby> lobby_;
  std::vector<seat_slot> seats_;
  std::vector<member> spectators_;
  std::optional<member> owner_;
  protocol::TableStatus status_ = protocol::TableStatus::waiting;
  bool started_ = false;
  bool closed_ = false;
  std::uint64_t seq_ = 0;
  std::deque<logged_event> log_;
};

}  // namespace atout::server
