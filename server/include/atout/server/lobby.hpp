// The lobby: an actor on its own strand that creates tables, finds them and tells subscribers of
// changes. It never touches a table's state; tables send it copies of their summaries. It bounds
// what one player can make of it: unstarted tables a player owns, and how long an empty table
// stays open. Listings are read from a snapshot that every reader shares.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/server/bot_pool.hpp"
#include "atout/server/journal.hpp"
#include "atout/server/limits.hpp"
#include "atout/server/metrics.hpp"
#include "atout/server/net.hpp"
#include "atout/server/peer.hpp"
#include "atout/server/table_clock.hpp"
#include "atout/server/table_lease.hpp"
#include "atout/server/table_numbers.hpp"

namespace atout::server {

class Table;
struct TableInit;

// The public tables as of the lobby's last change, oldest first: immutable, shared by every reader
// (WebSocket and HTTP, on any thread), replaced whole when a table changes.
struct LobbySnapshot {
  struct Row {
    std::string variant;
    protocol::TableStatus status = protocol::TableStatus::waiting;
    int free_seats = 0;
    std::string text;  // protocol::summary_text of the table's summary
  };
  std::vector<std::shared_ptr<const Row>> rows;
  // The summaries of the unfiltered first page of the default size, joined: the most asked-for
  // page is a ready string.
  std::string first_page;

  // The `tables` message answering `r`: the page of rows that match its filters, and their count.
  std::string page(const protocol::ListTables& r, const protocol::RequestId& id) const;
};

class Lobby : public std::enable_shared_from_this<Lobby> {
 public:
  // `ex` is the executor tables make their strands from; tables report to `journal` (may be null).
  explicit Lobby(net::any_io_executor ex, std::shared_ptr<server::Journal> journal = nullptr);

  // Creates a table and makes `m` its owner; answers `table_created` or an error.
  void create(protocol::CreateTable request, Member m, protocol::RequestId id);
  // Creations that find every reserved table number taken wait for the store's next block, at most
  // this many at once; one more is refused (internal_error: try again).
  static constexpr std::size_t kMaxWaitingCreates = 10'000;

  // Finds a table on the lobby strand and calls `then` there with it, or with an error. For a
  // join (sit, spectate) a private table is found only through its invite code.
  using FoundFn = std::function<void(std::shared_ptr<Table>, std::optional<protocol::Error>)>;
  void find(protocol::TableRef ref, bool join, FoundFn then);

  // The public tables as of now; safe from any thread.
  std::shared_ptr<const LobbySnapshot> snapshot() const;
  void subscribe(Member m, protocol::RequestId id);
  void unsubscribe(Member m, protocol::RequestId id);
  // The connection closed: forget its subscription.
  void drop(std::uint64_t conn);
  // Lobby chat: `m` says `text` to every subscriber (the speaker must be one).
  void chat(Member m, std::string text, protocol::RequestId id);
  // Calls `then` on the lobby strand with the seats of running matches held by `player_id`.
  void held_seats(std::string player_id, std::function<void(std::vector<protocol::HeldSeat>)> then);

  // Re-creates a table rebuilt from the store at start-up (server/src/recovery.cpp), under its
  // old table id, match id and invite code. The table is made here, its registration is posted
  // to the lobby strand (so call this before serving requests).
  void restore(TableInit init);

  // From tables (any strand).
  void table_changed(protocol::TableSummary summary);
  void table_closed(std::string table_id);
  // In a cluster: another node took `table_id` over while this node's lease had lapsed. The lobby
  // forgets the table without giving up its lease or its row (both are the new owner's now), and
  // the table sends its members to `url` (Table::moved).
  void table_moved(std::string table_id, std::string url);

  // Reserves table numbers durably (off the caller's thread) and calls `done` with the first of
  // `count`, or nullopt.
  using Reserve = std::function<void(std::uint64_t count, std::function<void(std::optional<std::uint64_t>)> done)>;
  // New tables take their numbers from blocks reserved in the store, the first starting at
  // `first`, so that no id is ever given twice; call before the server runs. Without this call,
  // numbers count from 1 in memory.
  void use_table_numbers(std::uint64_t first, Reserve reserve);

  // Tables created from now on count their actions there; call before the server runs.
  void use_metrics(std::shared_ptr<server::Metrics> m) { metrics_ = std::move(m); }
  // Where its tables' bots think; call before the server runs. Without it, a bot's seat (and an
  // absent player's) gets the server's fallback action.
  void use_bots(std::shared_ptr<BotRunner> bots) { bots_ = std::move(bots); }
  // The bounds it holds players to; call before the server runs.
  void use_limits(LobbyLimits limits) { limits_ = limits; }
  // The clock its tables and its empty-table expiry run on (tests pass a fake one); call before
  // the server runs. Without one: the steady clock.
  void use_clock(std::shared_ptr<TableClock> clock) { clock_ = std::move(clock); }
  // In a cluster: told (on the lobby strand; they must not block) of each table it creates and of
  // each table that closes, so that the node takes and gives up their leases, and of the invite
  // code of each private table it creates or restores, so that the code works on every node, and of
  // the players each private table seats whenever they change (bots aside), so that every node sends
  // those players, and nobody else, to the table named by its id. Call before the server runs.
  struct Ownership {
    std::function<void(const std::string& table_id)> opened;
    std::function<void(const std::string& table_id)> closed;
    // `restored`: a table rebuilt from the store (its lease already taken), not a new one.
    std::function<void(const std::string& table_id, const std::string& invite, bool restored)> private_table;
    std::function<void(const std::string& table_id, std::vector<std::string> players)> seated;
  };
  void use_ownership(Ownership o) { ownership_ = std::move(o); }
  // In a cluster: the node's lease, which every table made from now on checks before it changes
  // anything (table_lease.hpp). Call before the server runs.
  void use_lease(std::shared_ptr<const TableLease> lease) { lease_ = std::move(lease); }
  // In a cluster: lobby chat said here is also handed to `relay` (on the lobby strand; it must not
  // block), and remote_chat() brings a line said on another node to this node's subscribers.
  void use_chat_relay(std::function<void(std::shared_ptr<const std::string>)> relay) { chat_relay_ = std::move(relay); }
  void remote_chat(std::shared_ptr<const std::string> text);
  // In a cluster: each change of a public table's listing here is handed to `relay` (on the lobby
  // strand; it must not block): the table's id and row, or null when it closed. Call before the
  // server runs.
  using RowRelay = std::function<void(const std::string& table_id, std::shared_ptr<const LobbySnapshot::Row> row)>;
  void use_row_relay(RowRelay relay) { row_relay_ = std::move(relay); }
  // Hands every public table's row to the relay again (Redis lost them).
  void relay_all();
  // A public table of another node changed (`row`) or closed (null): listed, and told to
  // subscribers, after this node's own tables.
  void remote_row(std::string table_id, std::shared_ptr<const LobbySnapshot::Row> row);
  // Every public table of the other nodes, replacing those listed before; subscribers are told of
  // each difference.
  void remote_rows(std::map<std::string, std::shared_ptr<const LobbySnapshot::Row>> rows);
  // Calls `then` on the lobby strand with every open table (private ones too) counted by variant
  // and status.
  void census(std::function<void(TableCensus)> then);

 private:
  struct Entry {
    std::shared_ptr<Table> t;
    std::optional<std::string> invite;
    std::optional<protocol::TableSummary> summary;  // the latest, for listing (public tables)
    std::shared_ptr<const LobbySnapshot::Row> row;  // the summary as listed (public tables)
    std::string owner;                              // the creator's player id; empty if restored
    // Since when it has been unstarted with nobody seated or watching (none: it is not).
    std::optional<TableClock::TimePoint> idle_since;
  };

  void do_create(const protocol::CreateTable& request, Member m, const protocol::RequestId& id);
  // Builds a table, new or restored, wired to this lobby, its journal and its metrics.
  std::shared_ptr<Table> build(TableInit init);
  void notify(const std::shared_ptr<const std::string>& text);
  // On the strand: drops the table `table_id` from this lobby (its entry, its invite, and for a
  // public table its row, telling the subscribers). The table, or null when it was not here.
  std::shared_ptr<Table> forget(const std::string& table_id, bool& was_private);
  void reply_error(const Member& m, protocol::ErrorCode code, std::string message, const protocol::RequestId& id) const;
  // Takes in a new summary of the table `e`: its listed row, and whether it has become idle.
  void update(Entry& e, protocol::TableSummary summary);
  // Publishes a new snapshot of the public tables.
  void publish();
  TableClock& clock();
  // Waits until the earliest idle table is due to close; closes those that are due.
  void arm_expiry();
  void on_expiry();

  net::any_io_executor io_;
  net::strand<net::any_io_executor> strand_;
  std::shared_ptr<server::Journal> journal_;
  TableNumbers numbers_;
  Reserve reserve_;
  // Creations that came while no table number was reserved (a burst ran ahead of the store): made
  // in order when the store's next block comes, answered with an error if its reservation fails.
  struct WaitingCreate {
    protocol::CreateTable request;
    Member m;
    protocol::RequestId id;
  };
  std::deque<WaitingCreate> waiting_creates_;
  // The store's answer to a reservation of table numbers.
  void on_numbers_reserved(std::optional<std::uint64_t> first);
  // Keyed in the order the lobby learned of them, so listings come oldest first.
  std::uint64_t next_key_ = 1;
  std::map<std::uint64_t, Entry> tables_;
  std::unordered_map<std::string, std::uint64_t> by_id_;
  std::unordered_map<std::string, std::uint64_t> by_invite_;
  std::unordered_map<std::uint64_t, std::weak_ptr<Peer>> subscribers_;
  std::shared_ptr<server::Metrics> metrics_;
  std::shared_ptr<BotRunner> bots_;
  LobbyLimits limits_;
  Ownership ownership_;
  std::shared_ptr<const TableLease> lease_;
  std::function<void(std::shared_ptr<const std::string>)> chat_relay_;
  RowRelay row_relay_;
  // The public tables of other nodes, by id (a cluster).
  std::map<std::string, std::shared_ptr<const LobbySnapshot::Row>> remote_rows_;
  // Takes in one remote row (null: gone); true when the listing changed.
  bool set_remote(const std::string& table_id, std::shared_ptr<const LobbySnapshot::Row> row);
  std::shared_ptr<TableClock> clock_;
  std::unique_ptr<TableTimer> expiry_;
  mutable std::mutex snapshot_mutex_;
  std::shared_ptr<const LobbySnapshot> snapshot_ = std::make_shared<const LobbySnapshot>();
};

}  // namespace atout::server
