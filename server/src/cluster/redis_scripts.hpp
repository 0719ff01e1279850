// The Lua scripts a cluster node runs in Redis, each one round trip and atomic. The keys they
// work on (cluster_node.hpp names them):
//   atout:node:<node id>   "<nonce> <public url>", PX lease, renewed by its node
//   atout:table:<table id> "<node id>", PX lease, renewed by its owner
//   atout:tables           the set of table ids with an owner (to find the orphaned ones)
//   atout:private          private table id -> its invite code (a private table is never named by id)
//   atout:invites          invite code -> its table id (an invite works on every node)
//   atout:seated           private table id -> the players it seats, one id a line (only they are
//                          sent to a private table named by its id)
//   atout:closed:<table id> set when a node closes the table, kept a day: a node whose lease on it
//                          lapsed does not take it back
#pragma once

namespace atout::server::cluster::scripts {

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

}  // namespace atout::server::cluster::scripts
