// Node registration, table leases and their renewal, and orphan detection, as Redis keys:
//   atout:node:<node id>   "<nonce> <public url>", PX lease, renewed by its node
//   atout:table:<table id> "<node id>", PX lease, renewed by its owner
//   atout:tables           the set of table ids with an owner (to find the orphaned ones)
//   atout:private          private table id -> its invite code (a private table is never named by id)
//   atout:invites          invite code -> its table id (an invite works on every node)
//   atout:seated           private table id -> the players it seats, one id a line (only they are
//                          sent to a private table named by its id)
//   atout:closed:<table id> set when a node closes the table, kept a day: no node takes it again
#include "atout/server/cluster/cluster_node.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/server/cluster/cluster_bus.hpp"
#include "atout/server/random.hpp"

namespace atout::server::cluster {

namespace {

constexpr std::size_t kNonceBytes = 8;
constexpr std::size_t kMaxHellos = 1 << 16;

// KEYS[1] holds ARGV[1]: extend it by ARGV[2] ms. 1 when renewed, 0 when the key is another's or gone.
constexpr const char* kRenew =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
// Takes KEYS[1] for ARGV[1] for ARGV[2] ms if it is free, and lists ARGV[3] in KEYS[2]. 1 when
// taken (or already ours), 0 when another holds it. With KEYS[3] (the heartbeat taking back a lease
// it lost), 0 as well when a node has closed the table since. A take-over needs no such check: it
// claims only a match the store has unfinished, and taking that over fences off any other copy.
constexpr const char* kClaim =
    "if #KEYS > 2 and redis.call('EXISTS', KEYS[3]) == 1 then return 0 end "
    "local v = redis.call('GET', KEYS[1]) "
    "if v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) redis.call('SADD', KEYS[2], ARGV[3]) "
    "return 1 end "
    "if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) redis.call('SADD', KEYS[2], ARGV[3]) return 1 end "
    "return 0";
// Deletes KEYS[1] if it holds ARGV[1], unlists ARGV[2] from KEYS[2], and deletes its invite from
// KEYS[3] (table to code) and KEYS[4] (code to table) and its seated players from KEYS[5]. When
// ARGV[3] is not '0' (the table closed), KEYS[6] says so for ARGV[3] ms.
constexpr const char* kRelease =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) redis.call('SREM', KEYS[2], ARGV[2]) "
    "local code = redis.call('HGET', KEYS[3], ARGV[2]) "
    "if code then redis.call('HDEL', KEYS[4], code) redis.call('HDEL', KEYS[3], ARGV[2]) end "
    "redis.call('HDEL', KEYS[5], ARGV[2]) "
    "if ARGV[3] ~= '0' then redis.call('SET', KEYS[6], '1', 'PX', ARGV[3]) end return 1 end return 0";
// Deletes KEYS[1] if it holds ARGV[1] (a lease handed over: its table stays listed, an orphan).
constexpr const char* kDrop =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
// The members of KEYS[1] whose key ARGV[1]..member is gone.
constexpr const char* kOrphans =
    "local out = {} for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do "
    "if redis.call('EXISTS', ARGV[1] .. id) == 0 then table.insert(out, id) end end return out";
// Unlists ARGV[1] from KEYS[1], its lobby row from KEYS[3], its invite from KEYS[4] (table to
// code) and KEYS[5] (code to table) and its seated players from KEYS[6], if its lease KEYS[2] is
// still gone.
constexpr const char* kForget =
    "if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('HDEL', KEYS[3], ARGV[1]) "
    "local code = redis.call('HGET', KEYS[4], ARGV[1]) "
    "if code then redis.call('HDEL', KEYS[5], code) redis.call('HDEL', KEYS[4], ARGV[1]) end "
    "redis.call('HDEL', KEYS[6], ARGV[1]) return redis.call('SREM', KEYS[1], ARGV[1]) end return 0";
// Records private table ARGV[1]: its invite code ARGV[2] (unless empty, not known yet) in KEYS[1]
// (table to code) and KEYS[2] (code to table), and, when ARGV[5] is 1 (known), the players it
// seats, ARGV[3] (one id a line), in KEYS[3] (none: the field is deleted). With ARGV[4] (a node
// id), only while the table's lease KEYS[4] is that node's: a node that has lost the table to
// another writes nothing. 1 when written.
constexpr const char* kPutPrivate =
    "if ARGV[4] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[4] then return 0 end "
    "if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) redis.call('HSET', KEYS[2], ARGV[2], ARGV[1]) "
    "end if ARGV[5] ~= '1' then return 1 end "
    "if ARGV[3] == '' then redis.call('HDEL', KEYS[3], ARGV[1]) else redis.call('HSET', KEYS[3], ARGV[1], ARGV[3]) "
    "end return 1";
// Where table ARGV[1] runs, in one round trip, as player ARGV[2] may learn it ('' for a request
// to join by the id alone). When ARGV[3] is '1' (not an invite), a private table (in KEYS[1]) is
// shown only to a player it seats (KEYS[2], one id a line). Returns 0 when no node knows the table
// (or it is not shown), 1 while it is moving (listed in KEYS[4] with no lease on KEYS[3], leased by
// this node ARGV[4] that does not run it, or leased by a node whose key, ARGV[5] .. owner, is gone),
// or else the owner's registration (a nonce, a space and its public URL).
constexpr const char* kWhere =
    "if ARGV[3] == '1' and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then "
    "  if ARGV[2] == '' then return 0 end "
    "  local seated = redis.call('HGET', KEYS[2], ARGV[1]) if not seated then return 0 end "
    "  local found = false "
    "  for p in string.gmatch(seated, '[^\\n]+') do if p == ARGV[2] then found = true break end end "
    "  if not found then return 0 end "
    "end "
    "local owner = redis.call('GET', KEYS[3]) "
    "if not owner then return redis.call('SISMEMBER', KEYS[4], ARGV[1]) end "
    "if owner == ARGV[4] then return 1 end "
    "local node = redis.call('GET', ARGV[5] .. owner) "
    "if not node then return 1 end "
    "return node";
// Stores row ARGV[2] of table ARGV[1] in KEYS[1] and publishes ARGV[4] on channel ARGV[3].
constexpr const char* kPutRow =
    "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return redis.call('PUBLISH', ARGV[3], ARGV[4])";
// Deletes the row of table ARGV[1] from KEYS[1] and publishes ARGV[3] on channel ARGV[2].
constexpr const char* kDropRow = "redis.call('HDEL', KEYS[1], ARGV[1]) return redis.call('PUBLISH', ARGV[2], ARGV[3])";

// Numbers a connection of player ARGV[2] (KEYS[1] counts them, kept a day) and publishes it on
// channel ARGV[1] as ARGV[3] .. "<number> <player>"; returns the number.
constexpr const char* kHello =
    "local n = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], 86400000) "
    "redis.call('PUBLISH', ARGV[1], ARGV[3] .. n .. ' ' .. ARGV[2]) return n";

bool is_one(const std::optional<RedisReply>& r) { return r && r->kind == RedisReply::Kind::integer && r->integer == 1; }

}  // namespace

ClusterNode::ClusterNode(ClusterOptions options, RedisClient::Address address)
    : options_(std::move(options)),
      redis_(std::move(address), std::max(std::chrono::milliseconds(200), options_.lease / 4)),
      registration_(random_hex(kNonceBytes) + " " + options_.public_url) {}

std::unique_ptr<ClusterNode> ClusterNode::join(ClusterOptions options, std::string& error) {
  auto address = RedisClient::parse_url(options.redis_url, error);
  if (!address) {
    error = "--redis: " + error;
    return nullptr;
  }
  std::unique_ptr<ClusterNode> node(new ClusterNode(std::move(options), std::move(*address)));
  if (!node->register_node(error)) return nullptr;
  return node;
}

bool ClusterNode::register_node(std::string& error) {
  const std::string key = node_key(options_.node_id);
  const std::string px = std::to_string(options_.lease.count());
  // A node of this id that died leaves its key until its lease runs out; a live one renews it.
  const auto deadline = std::chrono::steady_clock::now() + options_.lease + options_.lease / 2;
  for (;;) {
    std::string e;
    const auto sent = TableLease::Clock::now();
    const auto r = redis_.command({"SET", key, registration_, "NX", "PX", px}, e);
    if (!r) {
      error = "--redis " + options_.redis_url + ": " + e;
      return false;
    }
    if (r->kind == RedisReply::Kind::status) {
      lease_->renewed_until(sent + options_.lease);
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      error = "--node-id " + options_.node_id + ": another live node already has this id";
      return false;
    }
    std::this_thread::sleep_for(std::min(std::chrono::milliseconds(100), options_.lease / 10));
  }
}

ClusterNode::~ClusterNode() { leave(); }

bool ClusterNode::claim(const std::string& table_id) {
  const auto r = redis_.command({"EVAL", kClaim, "2", table_key(table_id), kTablesKey, options_.node_id,
                                 std::to_string(options_.lease.count()), table_id});
  if (!is_one(r)) return false;
  std::lock_guard lock(mutex_);
  owned_.insert(table_id);
  return true;
}

void ClusterNode::own(const std::string& table_id) {
  {
    std::lock_guard lock(mutex_);
    owned_.insert(table_id);
  }
  std::string error;
  const auto r = redis_.command({"EVAL", kClaim, "2", table_key(table_id), kTablesKey, options_.node_id,
                                 std::to_string(options_.lease.count()), table_id},
                                error);
  if (!r) spdlog::warn("cluster: cannot lease the new table {} yet: {}", table_id, error);
}

void ClusterNode::release(const std::string& table_id, bool closed) {
  {
    std::lock_guard lock(mutex_);
    forget_here(table_id);
  }
  // The table's invite goes with it, but only while the lease is this node's: a table another node
  // holds now is not ours to clean up after.
  redis_.command({"EVAL", kRelease, "6", table_key(table_id), kTablesKey, kPrivateKey, kInvitesKey, kSeatedKey,
                  closed_key(table_id), options_.node_id, table_id, closed ? std::to_string(kClosedMs.count()) : "0"});
}

void ClusterNode::forget_here(const std::string& table_id) {
  owned_.erase(table_id);
  invites_.erase(table_id);
  seated_.erase(table_id);
  unrecorded_.erase(table_id);
}

void ClusterNode::put_invite(const std::string& table_id, const std::string& invite, bool restored) {
  {
    std::lock_guard lock(mutex_);
    // A restored table lost to another node before this ran is not this node's to record.
    if (restored && !owned_.contains(table_id)) return;
    invites_[table_id] = invite;
  }
  // A new table's invite is not held to the lease: it is recorded before the lease is taken, so
  // that from the moment the lease names this node, the table is known to be private.
  record_private(table_id, restored);
}

void ClusterNode::put_seated(const std::string& table_id, const std::vector<std::string>& players) {
  {
    std::lock_guard lock(mutex_);
    // A table closed here since (its lease given up) is not recorded again.
    if (!owned_.contains(table_id)) return;
    std::string& text = seated_[table_id];
    text.clear();
    for (const std::string& p : players) text += p + "\n";
  }
  record_private(table_id, true);
}

void ClusterNode::retry_unrecorded() {
  std::vector<std::string> tables;
  {
    std::lock_guard lock(mutex_);
    retry_posted_ = false;
    tables.assign(unrecorded_.begin(), unrecorded_.end());
  }
  // Redis away again: the rest wait for the next heartbeat rather than each wait for a timeout.
  for (const std::string& t : tables)
    if (!record_private(t, true)) return;
}

bool ClusterNode::record_private(const std::string& table_id, bool leased) {
  std::string invite, seated;
  bool seated_known = false;  // before the lobby has handed the seats on, they are left as Redis has them
  {
    std::lock_guard lock(mutex_);
    if (leased && !owned_.contains(table_id)) {
      // Closed here or gone to another node (its invite forgotten too): nothing of it to record.
      // A new table whose lease is still to be taken is tried again after that.
      if (!invites_.contains(table_id)) unrecorded_.erase(table_id);
      return true;
    }
    if (const auto it = invites_.find(table_id); it != invites_.end()) invite = it->second;
    if (const auto it = seated_.find(table_id); it != seated_.end()) {
      seated = it->second;
      seated_known = true;
    }
  }
  std::string error;
  const auto r =
      redis_.command({"EVAL", kPutPrivate, "4", kPrivateKey, kInvitesKey, kSeatedKey, table_key(table_id), table_id,
                      invite, seated, leased ? options_.node_id : std::string(), seated_known ? "1" : "0"},
                     error);
  std::lock_guard lock(mutex_);
  if (is_one(r)) {
    unrecorded_.erase(table_id);
  } else {
    // Tried again after each heartbeat's renewals until Redis takes it. Refused (the lease not
    // being this node's): a lease lost is found by the heartbeat, which then forgets the table; a
    // lease not taken yet is taken by then.
    unrecorded_.insert(table_id);
    if (!r) spdlog::warn("cluster: cannot record private table {} yet: {}", table_id, error);
  }
  return r.has_value();
}

ClusterNode::Invited ClusterNode::invited_table(const std::string& invite) {
  const auto r = redis_.command({"HGET", kInvitesKey, invite});
  if (!r) return {std::nullopt, true};
  if (r->kind != RedisReply::Kind::text) return {};
  return {r->text, false};
}

ClusterNode::Whereabouts ClusterNode::whereabouts(const std::string& table_id, const Asker& asker) {
  // A private table is joined only through its invite code, and found by its id only by the
  // players it seats: to anyone else it is unknown here, as it is on its own node.
  const std::string player = asker.way == Asker::Way::member ? asker.player_id : std::string();
  const auto r =
      redis_.command({"EVAL", kWhere, "4", kPrivateKey, kSeatedKey, table_key(table_id), kTablesKey, table_id, player,
                      asker.way == Asker::Way::invite ? "0" : "1", options_.node_id, node_key("")});
  // Without Redis nobody can tell where the table runs, and it may well be running: the client is
  // told to try again (its tries are bounded), which also says nothing of whether the table exists.
  // So is a client asking while the table changes hands: listed with its lease lapsed (a node is
  // about to take it over), leased by a node that has stopped (the lease lapses within one lease),
  // or leased by this node without being in its lobby (claimed and not yet rebuilt, or closed and
  // the lease not yet given up): in a moment the table is somewhere, or the answer is final.
  const Whereabouts moving{std::nullopt, true};
  if (!r) return moving;
  if (r->kind == RedisReply::Kind::integer && r->integer == 0) return {};
  if (r->kind == RedisReply::Kind::text)
    if (const auto space = r->text.find(' '); space != std::string::npos) return {r->text.substr(space + 1), false};
  return moving;
}

std::vector<std::string> ClusterNode::orphans() {
  std::vector<std::string> out;
  const auto r = redis_.command({"EVAL", kOrphans, "1", kTablesKey, "atout:table:"});
  if (r && r->kind == RedisReply::Kind::array)
    for (const RedisReply& item : r->items)
      if (item.kind == RedisReply::Kind::text) out.push_back(item.text);
  return out;
}

void ClusterNode::forget(const std::string& table_id) {
  redis_.command({"EVAL", kForget, "6", kTablesKey, table_key(table_id), kRowsKey, kPrivateKey, kInvitesKey, kSeatedKey,
                  table_id});
}

void ClusterNode::put_row(const std::string& table_id, const std::string& summary_text) {
  const std::string value = options_.node_id + "\n" + summary_text;
  redis_.command({"EVAL", kPutRow, "1", kRowsKey, table_id, value, ClusterBus::kChannel,
                  ClusterBus::encode(options_.node_id, "row", table_id + "\n" + value)});
}

void ClusterNode::drop_row(const std::string& table_id) {
  redis_.command({"EVAL", kDropRow, "1", kRowsKey, table_id, ClusterBus::kChannel,
                  ClusterBus::encode(options_.node_id, "unrow", table_id)});
}

std::optional<std::vector<std::pair<std::string, std::string>>> ClusterNode::rows() {
  const auto r = redis_.command({"HGETALL", kRowsKey});
  if (!r || r->kind != RedisReply::Kind::array) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i + 1 < r->items.size(); i += 2) out.emplace_back(r->items[i].text, r->items[i + 1].text);
  return out;
}

void ClusterNode::publish(const std::string& kind, const std::string& body) {
  std::string error;
  if (!redis_.command({"PUBLISH", ClusterBus::kChannel, ClusterBus::encode(options_.node_id, kind, body)}, error))
    spdlog::warn("cluster: cannot publish {} to the other nodes: {}", kind, error);
}

void ClusterNode::announce_hello(const std::string& player_id) {
  std::string error;
  const auto r = redis_.command({"EVAL", kHello, "1", "atout:hello:" + player_id, ClusterBus::kChannel, player_id,
                                 ClusterBus::encode(options_.node_id, "hello", "")},
                                error);
  if (!r || r->kind != RedisReply::Kind::integer) {
    spdlog::warn("cluster: cannot tell the other nodes of a connection: {}", error);
    return;
  }
  std::lock_guard lock(mutex_);
  // Bounded: past this many players, the oldest numbers are forgotten, and a connection left
  // behind on this node then lasts until its idle timeout instead of being replaced.
  if (hellos_.size() >= kMaxHellos) hellos_.clear();
  long long& mine = hellos_[player_id];
  mine = std::max(mine, r->integer);
}

bool ClusterNode::superseded(const std::string& player_id, long long number) {
  std::lock_guard lock(mutex_);
  const auto it = hellos_.find(player_id);
  if (it == hellos_.end() || it->second >= number) return false;
  hellos_.erase(it);
  return true;
}

void ClusterNode::start(Hooks hooks) {
  hooks_ = std::move(hooks);
  heartbeat_ = std::thread([this] { heartbeat(); });
}

bool ClusterNode::renew_all() {
  const std::string px = std::to_string(options_.lease.count());
  std::string error;
  // Every key renewed below expires a lease after Redis ran the command, so no later than a lease
  // after this moment: until then no other node can take a table of this node's over.
  const auto round = TableLease::Clock::now();
  const auto me = redis_.command({"EVAL", kRenew, "1", node_key(options_.node_id), registration_, px}, error);
  if (!me) {
    spdlog::warn("cluster: cannot renew this node's registration: {}", error);
    return false;  // Redis is away: the tables here go on; the next round tries again
  }
  bool again_registered = false;
  if (!is_one(me)) {
    // Expired (Redis restarted, or was away longer than a lease): register again.
    const auto again = redis_.command({"SET", node_key(options_.node_id), registration_, "NX", "PX", px});
    again_registered = again && again->kind == RedisReply::Kind::status;
    if (again_registered)
      spdlog::warn("cluster: registration of node {} had expired; registered again", options_.node_id);
    else
      spdlog::error("cluster: node id {} is held by another node", options_.node_id);
  }
  std::vector<std::string> tables;
  {
    std::lock_guard lock(mutex_);
    tables.assign(owned_.begin(), owned_.end());
  }
  bool renewed = is_one(me) || again_registered;
  std::vector<std::string> lost;
  for (const std::string& t : tables) {
    const auto r = redis_.command({"EVAL", kRenew, "1", table_key(t), options_.node_id, px});
    if (is_one(r)) continue;
    // Lost with Redis's data, or expired while it was away: take it again unless another node has,
    // or has closed it since (this node was cut off, another took the table over and closed it:
    // this copy is stale).
    const auto c =
        r ? redis_.command({"EVAL", kClaim, "3", table_key(t), kTablesKey, closed_key(t), options_.node_id, px, t})
          : std::nullopt;
    if (!c) {
      renewed = false;  // Redis went away during the round: the next one tries again
      break;
    }
    if (is_one(c)) {
      spdlog::warn("cluster: the lease on table {} had expired; taken again", t);
      // Redis may have lost the invite and the seated players with the lease.
      std::lock_guard lock(mutex_);
      if (invites_.contains(t)) unrecorded_.insert(t);
      continue;
    }
    spdlog::error(
        "cluster: table {} is now owned by another node, or was closed by one; this node no longer answers "
        "for it",
        t);
    lost.push_back(t);
    std::lock_guard lock(mutex_);
    forget_here(t);
  }
  if (renewed) lease_->renewed_until(round + options_.lease);
  if (!lost.empty() && hooks_.lost) hooks_.lost(lost);
  // What Redis has not taken of the private tables still here is written again on the node's own
  // thread, in order with the changes it writes there (a retry never overtakes a newer list); one
  // retry at a time.
  {
    std::lock_guard lock(mutex_);
    if (!renewed || unrecorded_.empty() || retry_posted_) return again_registered;
    retry_posted_ = true;
  }
  post([this] { retry_unrecorded(); });
  return again_registered;
}

void ClusterNode::heartbeat() {
  const auto period = options_.lease / 3;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    if (renew_all() && hooks_.registered_again) hooks_.registered_again();
    if (hooks_.each_round) hooks_.each_round();
    // An orphan is adopted when seen two rounds in a row: its owner, back from a Redis outage,
    // has had a round to take its lease again.
    std::vector<std::string> found = orphans();
    std::vector<std::string> adopt;
    lock.lock();
    std::set<std::string> seen;
    for (const std::string& t : found) {
      if (suspects_.contains(t)) adopt.push_back(t);
      seen.insert(t);
    }
    suspects_ = std::move(seen);
    lock.unlock();
    if (!adopt.empty() && hooks_.adopt) hooks_.adopt(adopt);
    lock.lock();
    wake_.wait_for(lock, period, [this] { return stopping_; });
  }
}

void ClusterNode::leave() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
  worker_.join();
  std::vector<std::string> tables;
  {
    std::lock_guard lock(mutex_);
    tables.assign(owned_.begin(), owned_.end());
  }
  // Each table stays listed without a lease: another node adopts it (an unfinished match) or
  // forgets it (a table that had not started) within two heartbeats.
  // Without Redis, the leases expire instead: one timeout, not one per table.
  for (const std::string& t : tables)
    if (!redis_.command({"EVAL", kDrop, "1", table_key(t), options_.node_id})) return;
  redis_.command({"EVAL", kDrop, "1", node_key(options_.node_id), registration_});
}

void ClusterNode::post(std::function<void()> work) { net::post(worker_, std::move(work)); }

}  // namespace atout::server::cluster
