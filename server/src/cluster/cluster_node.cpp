// Node registration, table leases and their renewal, and orphan detection, kept in Redis (the
// keys and the scripts that change them: redis_scripts.hpp).
#include "atout/server/cluster/cluster_node.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "atout/server/cluster/cluster_bus.hpp"
#include "atout/server/random.hpp"
#include "redis_scripts.hpp"

namespace atout::server::cluster {

namespace {

using namespace scripts;

constexpr std::size_t kNonceBytes = 8;
constexpr std::size_t kMaxHellos = 1 << 16;

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
