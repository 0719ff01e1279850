// The fence that keeps a match's log to one history on PostgreSQL: which run of its table each
// live match on this node writes from, and the check every write of a match makes against the
// fence a take-over raised (Store::take_over).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "pg_writer.hpp"

namespace atout::store {

// Refuses a write from run `run` of a match's table once the match was taken over by a later run:
// the error, or nullopt when the write may go on. The match's row stays key-share-locked until
// the batch commits, so a take-over (FOR UPDATE) waits for the write, or the write waits for the
// take-over and sees its fence. A run the writer does not know (nullopt) is not checked.
std::optional<std::string> check_fence(PgTx& tx, const std::string& uid, std::int64_t id,
                                       std::optional<std::int64_t> run, const std::string& what);

// The run this node's table of each live match writes from (set at begin_match and take_over):
// the run a hand, a seat change or the match's end is checked against the fence with. A match
// missing here (a table rebuilt by a server on its own, which takes nothing over) is not checked.
class MatchRuns {
 public:
  void set(const std::string& uid, std::int64_t run);
  std::optional<std::int64_t> writing(const std::string& uid) const;
  // The match's run, forgotten: its end is the last write it makes.
  std::optional<std::int64_t> forget(const std::string& uid);

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::int64_t> runs_;
};

}  // namespace atout::store
