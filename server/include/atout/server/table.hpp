// One table: an actor on its own strand that owns a match's engine state, its seats and watchers.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/server/journal.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"
#include "atout/state.hpp"

namespace atout::server {

class lobby;

// Everything a table starts from.
struct table_init {
  std::string id;        // "t<n>", shown in the lobby
  std::string match_id;  // random, unique across restarts; bound into deal commitments
  bool is_private = false;
  std::optional<std::string> invite;
  protocol::TableSettings settings;
  std::unique_ptr<State> state;  // a new match, dealt from a secret match seed
  std::weak_ptr<server::lobby> lobby;
  std::optional<member> owner;  // its creator keeps an empty table open until it leaves
  std::shared_ptr<server::journal> journal;  // may be null: nothing is persisted
  std::shared_ptr<server::metrics> metrics;  // may be null: nothing is counted
};

class table : public std::enable_shared_from_this<table> {
 public:
  // Events kept for late readers (resume after a short disconnect comes with issue 5).
  static constexpr std::size_t kEventLogCapacity = 1024;

  // The table starts the match once every seat is filled.
  table(net::any_io_executor ex, table_init init);

  const std::string& id() const { return id_; }
  const std::string& match_id() const { return match_id_; }

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
  // The commitment to the hand in progress (none once the match is over); tells the journal of
  // each hand the first time it is asked about it.
  std::optional<protocol::DealCommitment> deal_commitment();
  // After an accepted action: journal it, answer, and tell everyone.
  void after_action(Seat seat, const Action& action, std::size_t hands_before, bool by_server);
  // Tells members and the lobby that seats or status changed, then closes the table if nobody is
  // left to play or watch.
  void changed();

  net::strand<net::any_io_executor> strand_;
  std::string id_;
  std::string match_id_;
  bool private_;
  std::optional<std::string> invite_;
  protocol::TableSettings settings_;
  std::unique_ptr<State> state_;
  std::weak_ptr<lobby> lobby_;
  std::shared_ptr<server::journal> journal_;
  std::optional<protocol::DealCommitment> deal_;  // of hand deal_->hand, computed once
  std::vector<seat_slot> seats_;
  std::vector<member> spectators_;
  std::optional<member> owner_;
  protocol::TableStatus status_ = protocol::TableStatus::waiting;
  bool started_ = false;
  bool closed_ = false;
  std::uint64_t seq_ = 0;
  std::deque<logged_event> log_;
  std::shared_ptr<server::metrics> metrics_;
};

}  // namespace atout::server
