// The SQLite store: one file in WAL mode, one batching writer connection and one reading
// connection beside it.
#pragma once

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "atout/store/store.hpp"

namespace atout::store {

class SqliteStore final : public Store {
 public:
  // Opens (creating, checking and migrating) the database file at `path`.
  static std::unique_ptr<SqliteStore> open(const std::string& path, const OpenOptions& options, std::string& error);
  ~SqliteStore() override;

  void add_player(const std::string& id, const std::string& name, const std::string& token_hash,
                  std::int64_t now) override;
  void touch_player(const std::string& id, std::int64_t now) override;
  void begin_match(const MatchStart& m) override;
  void add_action(const std::string& uid, std::int64_t seq, int seat, std::string action_json,
                  std::int64_t at) override;
  void begin_hand(const std::string& uid, const HandRow& hand) override;
  void end_hand(const std::string& uid, int number, std::int64_t last_seq, std::string result_json) override;
  void change_seat(const std::string& uid, int seat, const std::string& player) override;
  void end_match(const std::string& uid, std::int64_t ended_at, std::optional<int> score0, std::optional<int> score1,
                 std::optional<int> winner, const std::string& reason) override;

  std::optional<PlayerRow> player_by_token_hash(const std::string& token_hash) override;
  std::optional<PlayerRow> player(const std::string& id) override;
  std::vector<RatingRow> ratings_of(const std::string& id) override;
  std::vector<RatingRow> leaderboard(const std::string& ladder, int offset, int limit, int& total) override;
  std::vector<MatchSummary> history(const std::string& player, int offset, int limit,
                                    const std::string& viewer = {}) override;
  std::optional<MatchRow> match(const std::string& uid, bool with_secrets) override;
  std::optional<bool> match_over(const std::string& uid) override;
  std::vector<MatchRow> unfinished_matches() override;
  std::vector<MatchRef> unfinished_refs() override;
  std::optional<TakenMatch> take_over(const std::string& uid) override;
  std::optional<std::uint64_t> reserve_ids(const std::string& kind, std::uint64_t count) override;
  std::optional<std::string> backup(const std::string& target) override;

  void flush() override { writer_->flush(); }
  WriterStats writer_stats() const override { return writer_->stats(); }
  void on_write_error(std::function<void(const std::string&)> f) override { writer_->on_error(std::move(f)); }
  Writer& writer() { return *writer_; }

  // Live matches' actions are appended to `action_log` in the order they were accepted. After
  // every OpenOptions::log_pass_rows rows appended, a pass copies the log's rows older than the
  // newest OpenOptions::log_keep_rows into `match_actions` (each row once, whether its match is
  // live or over) and drops them: a sliding window, so one pass's work is bounded. Queues a pass
  // now.
  void compact_log();
  // Passes that completed (read it after a flush).
  std::uint64_t log_passes() const { return passes_.load(); }

 private:
  SqliteStore() = default;
  enum class LogRead { own, later };  // read the match's log rows now, or leave them to the caller
  std::optional<MatchRow> load_match(Statement& st, bool with_secrets, LogRead log = LogRead::own);
  std::optional<std::string> compact_log(Tx& tx);
  // A match's actions from match_actions, then those from the log: in seq order, the first write
  // of a seq kept (as the (match, seq) key kept it when every action went to match_actions).
  static void merge_logged(std::vector<ActionRow>& actions, std::vector<ActionRow>&& logged);

  std::int64_t pass_rows_ = 0, keep_rows_ = 0;  // OpenOptions::log_pass_rows, log_keep_rows
  // The writer thread's: rows appended since the last pass, and each live match's last seq written
  // by this process (by match row id).
  std::int64_t appended_since_pass_ = 0;
  std::unordered_map<std::int64_t, std::int64_t> last_logged_;
  std::atomic<std::uint64_t> passes_{0};

  std::unique_ptr<Writer> writer_;
  std::mutex read_mu_;
  Db reader_;
};

}  // namespace atout::store
