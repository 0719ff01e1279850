// The fence check of a match's writes on PostgreSQL, and the runs this node writes from.
#include "pg_fence.hpp"

#include "store_errors.hpp"

namespace atout::store {

std::optional<std::string> check_fence(PgTx& tx, const std::string& uid, std::int64_t id,
                                       std::optional<std::int64_t> run, const std::string& what) {
  if (!run) return std::nullopt;
  const pqxx::result r = tx.t().exec_params("SELECT run FROM matches WHERE id = $1 FOR KEY SHARE", id);
  if (r.empty()) return no_match(uid);
  const auto fence = r[0][0].as<std::int64_t>();
  if (*run < fence) return fenced(uid, *run, fence, what);
  return std::nullopt;
}

void MatchRuns::set(const std::string& uid, std::int64_t run) {
  std::lock_guard lock(mu_);
  runs_[uid] = run;
}

std::optional<std::int64_t> MatchRuns::writing(const std::string& uid) const {
  std::lock_guard lock(mu_);
  const auto it = runs_.find(uid);
  return it == runs_.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::int64_t> MatchRuns::forget(const std::string& uid) {
  std::lock_guard lock(mu_);
  const auto it = runs_.find(uid);
  if (it == runs_.end()) return std::nullopt;
  const std::int64_t run = it->second;
  runs_.erase(it);
  return run;
}

}  // namespace atout::store
