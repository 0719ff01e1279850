// This process as one node of a cluster coordinated through Redis: its registration (a heartbeat
// key with a TTL), the leases on the tables it owns, and the look-up of another node's tables.
// Every call blocks on Redis: call them off the I/O threads (post() runs work on the node's own
// thread).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "atout/server/cluster/redis_client.hpp"
#include "atout/server/net.hpp"
#include "atout/server/table_lease.hpp"

namespace atout::server::cluster {

struct ClusterOptions {
  std::string redis_url;                    // redis://host[:port][/db]
  std::string node_id;                      // unique among the nodes sharing the Redis
  std::string public_url;                   // where clients reach this node's WebSocket (ws[s]://host:port/ws)
  std::chrono::milliseconds lease{10'000};  // a silent node's registration and leases expire then
};

class ClusterNode {
 public:
  // Connects and registers this node; nullptr with `error` set when Redis cannot be reached or
  // another live node already has this id. A key left by a node of that id that died is waited
  // for (at most one lease) before the id is called a duplicate.
  static std::unique_ptr<ClusterNode> join(ClusterOptions options, std::string& error);
  ~ClusterNode();
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;

  const std::string& node_id() const { return options_.node_id; }
  const ClusterOptions& options() const { return options_; }
  // Until when this node's leases are known to hold: moved on by each heartbeat that renewed the
  // registration and every table lease (table_lease.hpp).
  std::shared_ptr<const TableLease> lease() const { return lease_; }

  // Takes the lease on `table_id` if no node holds it; true when this node owns it now.
  bool claim(const std::string& table_id);
  // Takes the lease on a table this node has just created (no other node can hold it: table ids
  // are unique). While Redis cannot be reached, the heartbeat keeps trying.
  void own(const std::string& table_id);
  // Gives up the lease on `table_id`, if this node holds it, and its invite code with it. `closed`:
  // the table closed here, and is marked so (closed_key); otherwise a claim is given back (a
  // take-over that found nothing to rebuild).
  void release(const std::string& table_id, bool closed);
  // Records that `table_id`, run here, is private with invite code `invite`: every node then knows
  // the code (invited_table) and answers for the table named by its id alone as for no table
  // (whereabouts), except to the players it seats (put_seated). Kept until the table closes here;
  // made again if Redis loses it.
  // `restored`: a table rebuilt here whose lease is already taken (written only under it), not a
  // new one (written before its lease is taken).
  void put_invite(const std::string& table_id, const std::string& invite, bool restored);
  // Records the players private table `table_id`, run here, now seats (bots aside): those whom every
  // node sends to it when they name it by its id, to take a seat back or to play on. Nobody else
  // learns from another node that the table exists. Kept and made again as the invite is.
  void put_seated(const std::string& table_id, const std::vector<std::string>& players);
  // The table whose invite code is `invite`, on whichever node (`table_id`: none when no table has
  // it), or `unreachable` when Redis cannot be read and nobody can tell.
  struct Invited {
    std::optional<std::string> table_id;
    bool unreachable = false;
  };
  Invited invited_table(const std::string& invite);
  // Who asks where a table runs, which decides what a private table shows them. Through its invite
  // code (`invite`), anyone finds it. Named by its id alone, to join or watch it (`join`), nobody
  // does. As player `player_id`, for a table the player is at (`member`: taking a seat back,
  // playing, standing up, leaving), only the players it seats do.
  struct Asker {
    enum class Way { invite, join, member };
    Way way = Way::invite;
    std::string player_id;
  };
  // Where `table_id` runs, as Redis tells it in one round trip: on another live node (`url`, its
  // public URL), or in the middle of a change of hands (`moving`: listed with its lease lapsed,
  // leased by a node that is gone, or leased by this node while its lobby does not have it; also
  // while Redis cannot be reached). Neither: no node knows the table, or the table is private and
  // not shown to `asker`.
  struct Whereabouts {
    std::optional<std::string> url;
    bool moving = false;
  };
  Whereabouts whereabouts(const std::string& table_id, const Asker& asker);
  // The public URL of the live node that owns `table_id`, when that is another node.
  std::optional<std::string> owner_url(const std::string& table_id) { return whereabouts(table_id, Asker{}).url; }
  // Tables listed as owned whose lease has expired (their node stopped renewing).
  std::vector<std::string> orphans();
  // Forgets an orphan that no node could take over (a table that had not started).
  void forget(const std::string& table_id);

  // Publishes `body` of `kind` on the bus (cluster_bus.hpp) to the other nodes.
  void publish(const std::string& kind, const std::string& body);
  // A player said hello here: numbers this connection among the player's connections on every
  // node and tells the other nodes ("hello" on the bus, body "<number> <player id>").
  void announce_hello(const std::string& player_id);
  // Another node announced connection `number` of `player_id`: true when it is newer than the
  // player's connection here, which is then to be replaced.
  bool superseded(const std::string& player_id, long long number);

  // The lobby row of a public table here (lobby_rows.hpp), stored and sent to the other nodes;
  // dropped when the table closes.
  void put_row(const std::string& table_id, const std::string& summary_text);
  void drop_row(const std::string& table_id);
  // Every stored lobby row: table id and value; nullopt when Redis cannot be read.
  std::optional<std::vector<std::pair<std::string, std::string>>> rows();

  // What the heartbeat calls, on its thread.
  struct Hooks {
    std::function<void(const std::vector<std::string>&)> adopt;  // tables orphaned two rounds in a row
    std::function<void()> each_round;                            // after each renewal
    std::function<void()> registered_again;                      // Redis had lost this node (restart)
    std::function<void(const std::vector<std::string>&)> lost;   // tables another node has taken over
  };
  // Starts the heartbeat: every third of a lease it renews the registration and every lease.
  void start(Hooks hooks);
  // Stops the heartbeat and drops every lease and the registration (a graceful exit): the tables
  // stay listed, so that other nodes adopt them without waiting for the leases to expire.
  void leave();
  // Runs `work` on the node's own thread.
  void post(std::function<void()> work);

  static std::string table_key(const std::string& table_id) { return "atout:table:" + table_id; }
  static std::string node_key(const std::string& node_id) { return "atout:node:" + node_id; }
  // Set when a node closes the table: a node that was cut off meanwhile and still runs an old copy
  // finds it closed and lets the copy go, instead of taking the free lease again (its heartbeat
  // checks it; a take-over does not need to).
  static std::string closed_key(const std::string& table_id) { return "atout:closed:" + table_id; }
  // How long that mark is kept: a node cut off from Redis for longer may take such a table back.
  static constexpr std::chrono::milliseconds kClosedMs{24 * 60 * 60 * 1000};
  static constexpr const char* kTablesKey = "atout:tables";
  static constexpr const char* kPrivateKey = "atout:private";
  static constexpr const char* kInvitesKey = "atout:invites";
  static constexpr const char* kSeatedKey = "atout:seated";

 private:
  ClusterNode(ClusterOptions options, RedisClient::Address address);
  bool register_node(std::string& error);
  void heartbeat();
  // Renews everything; true when the registration had to be made again.
  bool renew_all();
  // Writes what this node knows of private table `table_id` (its invite, its seated players) to
  // Redis, if `leased` only while this node holds the table and its lease; when Redis cannot be
  // reached or refuses the command, marks it for the next heartbeat to try again and returns false.
  bool record_private(const std::string& table_id, bool leased);
  // Drops what this node keeps of `table_id` (owned, invite, seated players, retry); mutex_ held.
  void forget_here(const std::string& table_id);
  // Records again, on the node's thread, every private table Redis has not taken the latest of.
  void retry_unrecorded();

  ClusterOptions options_;
  RedisClient redis_;
  std::string registration_;  // the node key's value: "<nonce> <public url>"
  std::mutex mutex_;
  std::set<std::string> owned_;
  std::map<std::string, std::string> invites_;  // the invite code of each private table owned here
  std::map<std::string, std::string> seated_;   // the players each seats, one id a line
  std::set<std::string> unrecorded_;            // those Redis has not taken the latest of yet
  bool retry_posted_ = false;                   // a retry_unrecorded() is waiting on the node's thread
  // A stopped node's leases lapse within a lease; other nodes adopt its tables on the second
  // heartbeat (a third of a lease apart) that finds them orphaned, then rebuild them: two leases and
  // 5 seconds bound it.
  std::shared_ptr<TableLease> lease_ = std::make_shared<TableLease>(2 * options_.lease + std::chrono::seconds(5));
  std::set<std::string> suspects_;           // orphans seen in the last round
  std::map<std::string, long long> hellos_;  // the number of each player's connection here
  bool stopping_ = false;
  std::condition_variable wake_;
  Hooks hooks_;
  static constexpr const char* kRowsKey = "atout:lobby";
  std::thread heartbeat_;
  net::thread_pool worker_{1};
};

}  // namespace atout::server::cluster
