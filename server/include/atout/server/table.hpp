// One table: an actor on its own strand that owns a match's engine state, its seats and watchers.
// It orders the commands; seating, clocks and per-seat views are plain pieces it drives.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/protocol/view_delta.hpp"
#include "atout/server/bot_pool.hpp"
#include "atout/server/journal.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"
#include "atout/server/seat_view.hpp"
#include "atout/server/seating.hpp"
#include "atout/server/table_clock.hpp"
#include "atout/server/table_clocks.hpp"
#include "atout/server/table_lease.hpp"
#include "atout/state.hpp"

namespace atout::server {

class Lobby;

// Everything a table starts from.
struct TableInit {
  std::string id;        // "t<n>", shown in the lobby
  std::string match_id;  // random, unique across restarts; bound into deal commitments
  bool is_private = false;
  std::optional<std::string> invite;
  protocol::TableSettings settings;
  std::unique_ptr<State> state;  // a new match, dealt from a secret match seed
  std::weak_ptr<server::Lobby> lobby;
  std::optional<Member> owner;               // its creator keeps an empty table open until it leaves
  std::shared_ptr<server::Journal> journal;  // may be null: nothing is persisted
  // Restoring a match after a restart (server/src/recovery.cpp): each seat held for its stored
  // player (conn == 0), the event seq reached, whether the match had started, and the hands whose
  // rows the store already keeps (those below this number).
  std::vector<std::optional<Member>> held;
  std::uint64_t seq = 0;
  SeatView::ActionLog log;  // each stored action's event seq and whether the server played it
  bool started = false;
  int hands_stored = 0;
  std::shared_ptr<server::Metrics> metrics;  // may be null: nothing is counted
  std::shared_ptr<TableClock> clock;         // null: the steady clock
  // Where bots think. Null: a bot's seat, and an absent player's, get the server's cautious
  // fallback action instead (still never on the caller's stack).
  std::shared_ptr<BotRunner> bots{};
  // Seats given to bots as the table is made (create_table's `bots`).
  std::vector<std::pair<Seat, protocol::BotLevel>> seat_bots{};
  // In a cluster, the node's lease on its tables: while it has lapsed the table changes nothing.
  // Null: a single server, whose tables are always held.
  std::shared_ptr<const TableLease> lease{};
};

class Table : public std::enable_shared_from_this<Table> {
 public:
  // A client that missed more events than this gets a snapshot instead of the events.
  static constexpr std::uint64_t kMaxReplayEvents = SeatView::kMaxReplayEvents;
  // How long the server waits before playing for a seat whose player is away or disconnected.
  static constexpr std::chrono::milliseconds kAbsentDelay{1000};
  // A connection that drops this soon after its match ended may have dropped before the end
  // reached it (the end went out as its close was on the way), so its seat is held as for a
  // player away at the end. Later, its player is taken to have seen the end.
  static constexpr std::chrono::milliseconds kEndDeliveryGrace{10'000};

  // The table starts the match once every seat is filled.
  Table(net::any_io_executor ex, TableInit init);

  const std::string& id() const { return id_; }
  const std::string& match_id() const { return match_id_; }

  // Each of these posts onto the table's strand and answers through the member's peer.
  // `last_seq`: the member takes back its held seat (or view) and gets only the events after it.
  void sit(Member m, std::optional<int> seat, protocol::RequestId id, std::optional<std::uint64_t> last_seq = {});
  void spectate(Member m, protocol::RequestId id, std::optional<std::uint64_t> last_seq = {});
  void stand(Member m, protocol::RequestId id);
  void leave(Member m, protocol::RequestId id);
  void act(Member m, Action action, protocol::RequestId id);
  void chat(Member m, std::string text, protocol::RequestId id);
  // The owner seats a bot of `level` (in any free seat when `seat` is empty), or removes one,
  // before the match starts.
  void add_bot(Member m, std::optional<int> seat, protocol::BotLevel level, protocol::RequestId id);
  void remove_bot(Member m, int seat, protocol::RequestId id);
  // The connection closed. A seat in a running match is held for its player (who may resume
  // with their token and sit again); everything else the connection had here is released.
  void detach(std::uint64_t conn);
  // The table was rebuilt from the store after a restart: tells the lobby of it, and starts the
  // held seats' reconnect windows and the turn timer.
  void restored();

  // In a cluster: another node took this table over while this node's lease had lapsed. On the
  // strand, the table stops here for good, and each member is sent `redirect` to `url` (the new
  // owner), or `unknown_table` when it is not known yet. The lobby has already let it go.
  void moved(std::string url);

  // The lobby found the table unstarted with nobody seated or watching for too long: on the strand,
  // if that is still so, the table closes and its owner, if any, is sent lobby_remove for it
  // (server/src/table_expiry.cpp).
  void close_if_idle();

  // The summary as of now; call on the strand only (the lobby gets copies through updates).
  protocol::TableSummary summary() const;

 private:
  // Where the table is in its life. A closed table has nobody left to play or watch.
  enum class Lifecycle : std::uint8_t { waiting, running, finished, abandoned, closed };

  void do_sit(Member m, std::optional<int> seat, const protocol::RequestId& id, std::optional<std::uint64_t> last_seq);
  void do_spectate(Member m, const protocol::RequestId& id, std::optional<std::uint64_t> last_seq);
  void do_stand(const Member& m, const protocol::RequestId& id);
  void do_leave(const Member& m, const protocol::RequestId& id);
  // `started`: when act() was called, for the action-latency metric of an accepted action.
  void do_act(const Member& m, const Action& action, const protocol::RequestId& id,
              std::chrono::steady_clock::time_point started);
  void do_chat(const Member& m, const std::string& text, const protocol::RequestId& id);
  void do_detach(std::uint64_t conn);
  void do_add_bot(const Member& m, std::optional<int> seat, protocol::BotLevel level, const protocol::RequestId& id);
  void do_remove_bot(const Member& m, int seat, const protocol::RequestId& id);
  // Refuses (and answers) a bot request from anyone but the owner of a table still waiting.
  bool refuse_bot_request(const Member& m, const protocol::RequestId& id);
  // The seat asked for (`want`) if it exists and is free, else the first free one; when there is
  // none, replies the error (bad_seat, seat_taken, table_full) and returns nothing.
  std::optional<Seat> choose_free_seat(const Member& m, std::optional<int> want, const protocol::RequestId& id);

  // Asks a bot of `level` for `seat`'s action at the current seq (once per seq); the answer comes
  // back on the strand to on_bot_decision. `by_server`: the bot plays for an absent player.
  void ask_bot(Seat seat, protocol::BotLevel level, bool by_server);
  // Applies the bot's action if the turn it was asked for is still the current one; the server's
  // fallback when the bot gave none (a failure, or no bot runner). `level`: the level that chose
  // (with no worker room, the rules or random bot chose on the strand).
  void on_bot_decision(std::uint64_t seq, Seat seat, protocol::BotLevel level, bool by_server,
                       std::optional<Action> chosen);

  // Every seat is filled: the match starts.
  void start_match();
  bool running() const { return phase_ == Lifecycle::running; }
  protocol::TableStatus status() const;
  // Times the turn of the seat to act, or stops the turn clock when nobody is to act.
  void schedule_turn();
  void on_turn_timeout();
  // Whether this node may still change the table (table_lease.hpp).
  bool leased() const { return !lease_ || lease_->held(); }
  // The lease has lapsed: the turn (a timeout, or a bot's answer) is tried again a little later.
  void wait_for_lease();
  void start_reconnect_window(Seat seat);
  void on_reconnect_expired(Seat seat);
  // Ends the running match of a table that closes with nobody left to play it (see table.cpp).
  void end_deserted_match();
  // The match ended: each seat held for a disconnected player (but `except`) is kept for a fresh
  // reconnect window, so its player can come back for the final events.
  void hold_after_end(std::optional<Seat> except);
  // Whether a connection dropping now may not have had the match's end (kEndDeliveryGrace).
  bool end_maybe_unread() const;

  void reply_error(const std::weak_ptr<Peer>& to, protocol::ErrorCode code, std::string message,
                   const protocol::RequestId& id, std::optional<std::string> reason = std::nullopt);
  // unknown_table marked `moving`: this node cannot vouch for the table while another may be
  // taking it over; the client reconnects and resumes shortly.
  void reply_moving(const std::weak_ptr<Peer>& to, std::string message, const protocol::RequestId& id);
  // What a `moving` answer says a take-over of this table may take (0 on a single server).
  std::int64_t takeover_ms() const { return lease_ ? lease_->takeover().count() : 0; }
  // Non-members of a private table are told it does not exist, so ids reveal nothing.
  void reply_not_member(const Member& m, protocol::ErrorCode code, std::string message, const protocol::RequestId& id);
  SeatView::Facts facts() const;
  void send_snapshot(const Member& m, Seat seat);
  // Sends `e` to `m`: whole, or for a connection that asked for deltas, as the change from the
  // last event it got here (whole when it has none, and for a snapshot). `text`: serialize(e), when
  // the caller has it already.
  void send_event(const Member& m, const protocol::Event& e, std::shared_ptr<const std::string> text = nullptr);
  // Sends `m` the events after `last_seq` as `viewer` saw them; a snapshot when there are too
  // many or `last_seq` is not one of this table's.
  void send_since(const Member& m, Seat viewer, std::uint64_t last_seq);
  // Sends every seat and watcher its own view of the event just produced. `ack`: the request id
  // that the acting seat's event answers (its connection asked for `ack: "event"`).
  void broadcast_event(protocol::EventKind kind, std::optional<protocol::LastAction> last,
                       std::optional<HandResult> hand_result, const protocol::RequestId& ack = {});
  // Commits to the deal that just began and tells the journal of it, unless the store has it.
  void begin_deal(const DealInfo& d);
  // After an accepted action (`step` says what it did): journal it, answer, and tell everyone.
  // `by_bot`: the bot that chose the action.
  void after_action(Seat seat, const Action& action, const Step& step, bool by_server,
                    std::optional<protocol::BotLevel> by_bot, const protocol::RequestId& ack = {});
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
  std::weak_ptr<Lobby> lobby_;
  std::shared_ptr<server::Journal> journal_;
  std::shared_ptr<server::Metrics> metrics_;
  std::shared_ptr<BotRunner> bots_;
  std::shared_ptr<const TableLease> lease_;
  std::optional<std::uint64_t> bot_asked_;  // the seq a bot decision is pending for
  Seating seating_;
  TableClocks clocks_;
  SeatView view_;
  Lifecycle phase_ = Lifecycle::waiting;
  std::uint64_t seq_ = 0;
  SeatView::ActionLog log_;
  std::optional<Seat> abandoned_by_;
  std::optional<TableClock::TimePoint> ended_at_;  // when the match finished or was abandoned here
  int hands_stored_ = 0;
  std::optional<protocol::DealCommitment> deal_;  // of the live hand, made once when it is dealt
  // The last view sent to each connection (by id) that asked for deltas: the base of its next one.
  struct DeltaBase {
    std::uint64_t seq = 0;
    protocol::ViewText view;
  };
  std::unordered_map<std::uint64_t, DeltaBase> delta_bases_;
};

}  // namespace atout::server
