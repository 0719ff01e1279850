// What Atout keeps: players, matches with their action logs and hands, ratings. Writes go through
// the batching writer; reads use their own connection (WAL lets them run beside the writer).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "atout/store/migrations.hpp"
#include "atout/store/rating.hpp"
#include "atout/store/writer.hpp"

namespace atout::store {

struct SeatRow {
  int seat = 0;
  int team = 0;
  std::string player;  // public id
  std::string name;
};

struct MatchStart {
  std::string uid;       // the server's match id
  std::string table_id;  // the table it was played at
  std::string variant;
  std::string options_json;
  std::optional<std::string> match_seed;  // hex, when every deal derives from one seed
  int first_dealer = 0;
  bool rated = false;
  bool is_private = false;  // shown only to its players until it ends
  std::int64_t started_at = 0;
  std::vector<SeatRow> seats;
  // How the table ran (private, invite code, settings), as JSON; like the seed, only read back
  // with secrets, since it holds the invite code.
  std::string table_json;
};

struct HandRow {
  int number = 0;
  int dealer = 0;
  std::string commitment;
  std::string seed;  // hex; empty in public views until revealed
  bool revealed = false;
  std::int64_t first_seq = 0;
  std::optional<std::int64_t> last_seq;
  std::string result_json;  // empty until the hand ends
};

struct ActionRow {
  std::int64_t seq = 0;
  int seat = 0;
  std::string action_json;
};

struct MatchRow {
  MatchStart start;
  std::optional<std::int64_t> ended_at;
  std::optional<int> score0, score1, winner;
  std::string end_reason;  // finished, abandoned, aborted; empty while unfinished
  std::vector<HandRow> hands;
  std::vector<ActionRow> actions;
};

struct PlayerRow {
  std::string id;  // public id
  std::string name;
  std::int64_t created_at = 0;
  std::int64_t last_seen = 0;
};

struct RatingRow {
  std::string player;
  std::string name;
  std::string ladder;
  double mu = 0, sigma = 0, ordinal = 0;
  int matches = 0;
};

struct MatchSummary {
  std::string uid;
  std::string variant;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> ended_at;
  std::optional<int> score0, score1, winner;
  std::string end_reason;
  int seat = 0;  // the player's seat
  int team = 0;
};

// An online, consistent copy of the database at `source` into `target` (VACUUM INTO), through a
// read-only connection: safe while a server writes to `source`. Never overwrites `target`.
std::optional<std::string> backup_database(const std::string& source, const std::string& target);

class Store {
 public:
  // Opens (creating, checking and migrating) the database at `path`.
  static std::unique_ptr<Store> open(const std::string& path, const OpenOptions& options, std::string& error);
  ~Store();

  // ---- writes: queued, never blocking on the disk ----
  void add_player(const std::string& id, const std::string& name, const std::string& token_hash, std::int64_t now);
  void touch_player(const std::string& id, std::int64_t now);
  void begin_match(const MatchStart& m);
  void add_action(const std::string& uid, std::int64_t seq, int seat, std::string action_json, std::int64_t at);
  void begin_hand(const std::string& uid, const HandRow& hand);
  void end_hand(const std::string& uid, int number, std::int64_t last_seq, std::string result_json);
  // Another player took over `seat` of a running match.
  void change_seat(const std::string& uid, int seat, const std::string& player);
  // Ends the match. A rated match that finished or was abandoned updates the ladder (its variant)
  // in the same transaction; `winner` is the winning team (for an abandon, the side that stayed).
  void end_match(const std::string& uid, std::int64_t ended_at, std::optional<int> score0, std::optional<int> score1,
                 std::optional<int> winner, const std::string& reason);

  // ---- reads ----
  std::optional<PlayerRow> player_by_token_hash(const std::string& token_hash);
  std::optional<PlayerRow> player(const std::string& id);
  std::vector<RatingRow> ratings_of(const std::string& id);
  // The ladder's page, best first, and how many rated players it has.
  std::vector<RatingRow> leaderboard(const std::string& ladder, int offset, int limit, int& total);
  // `player`'s matches, newest first. A private match still being played is left out unless
  // `viewer` (a player id; empty: anyone) sat in it.
  std::vector<MatchSummary> history(const std::string& player, int offset, int limit, const std::string& viewer = {});
  // A match with its hands and actions. `with_secrets`: include unrevealed seeds (recovery only).
  std::optional<MatchRow> match(const std::string& uid, bool with_secrets);
  // Every match not yet ended, with secrets, for rebuilding tables at start-up.
  std::vector<MatchRow> unfinished_matches();
  // Reserves `count` numbers of `kind` that were never reserved before, durably (it waits for the
  // writer's commit; call it off the I/O threads): the first of them, or nullopt on a failed write.
  std::optional<std::uint64_t> reserve_ids(const std::string& kind, std::uint64_t count);
  // An online, consistent copy of the whole database (VACUUM INTO). The target must not exist.
  std::optional<std::string> backup(const std::string& target);

  Writer& writer() { return *writer_; }
  void flush() { writer_->flush(); }
  int schema_version() const { return version_; }

 private:
  Store() = default;
  std::optional<MatchRow> load_match(Statement& st, bool with_secrets);

  std::unique_ptr<Writer> writer_;
  std::mutex read_mu_;
  Db reader_;
  int version_ = 0;
};

}  // namespace atout::store
