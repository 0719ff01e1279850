// What Atout keeps: players, matches with their action logs and hands, ratings, behind one
// interface with two backends: SQLite (one file, the default) and PostgreSQL. Writes go through a
// batching writer thread; reads use their own connection beside it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

// Which match, at which table.
struct MatchRef {
  std::string uid;
  std::string table_id;
};

// A match's log is written in runs. Its table's first run numbers its actions 1, 2, 3, ...; a table
// rebuilt from the log (after a restart, or on another node of a cluster) starts a new run at the
// next multiple of this, so the run of an action is its seq divided by this.
inline constexpr std::int64_t kSeqsPerRun = std::int64_t{1} << 32;
inline constexpr std::int64_t run_of(std::int64_t seq) { return seq / kSeqsPerRun; }

// A match taken over for a new run (Store::take_over): its record, and the seq the new run's
// table starts from (a multiple of kSeqsPerRun; its first action is the next seq).
struct TakenMatch {
  MatchRow match;
  std::int64_t start_seq = 0;
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

// True for a --db value that names a PostgreSQL database (postgres:// or postgresql://); anything
// else (a path, or sqlite://PATH) is an SQLite file.
bool is_postgres_url(const std::string& db);
// A --db value with any password in it hidden, for logs and error messages.
std::string redact_url(const std::string& db);

// An online, consistent copy of the database `source` into `target`, safe while a server writes to
// it; never overwrites `target`. SQLite: VACUUM INTO through a read-only connection. PostgreSQL:
// pg_dump in its custom format (restore it with pg_restore).
std::optional<std::string> backup_database(const std::string& source, const std::string& target);

class Store {
 public:
  // Opens (creating, checking and migrating) the database `db`: a PostgreSQL URL or an SQLite file
  // (a path, or sqlite://PATH).
  static std::unique_ptr<Store> open(const std::string& db, const OpenOptions& options, std::string& error);
  virtual ~Store() = default;

  // ---- writes: queued, never blocking on the disk ----
  virtual void add_player(const std::string& id, const std::string& name, const std::string& token_hash,
                          std::int64_t now) = 0;
  virtual void touch_player(const std::string& id, std::int64_t now) = 0;
  virtual void begin_match(const MatchStart& m) = 0;
  virtual void add_action(const std::string& uid, std::int64_t seq, int seat, std::string action_json,
                          std::int64_t at) = 0;
  virtual void begin_hand(const std::string& uid, const HandRow& hand) = 0;
  virtual void end_hand(const std::string& uid, int number, std::int64_t last_seq, std::string result_json) = 0;
  // Another player took over `seat` of a running match.
  virtual void change_seat(const std::string& uid, int seat, const std::string& player) = 0;
  // Ends the match. A rated match that finished or was abandoned updates the ladder (its variant)
  // in the same transaction; `winner` is the winning team (for an abandon, the side that stayed).
  virtual void end_match(const std::string& uid, std::int64_t ended_at, std::optional<int> score0,
                         std::optional<int> score1, std::optional<int> winner, const std::string& reason) = 0;

  // ---- reads ----
  virtual std::optional<PlayerRow> player_by_token_hash(const std::string& token_hash) = 0;
  virtual std::optional<PlayerRow> player(const std::string& id) = 0;
  virtual std::vector<RatingRow> ratings_of(const std::string& id) = 0;
  // The ladder's page, best first, and how many rated players it has.
  virtual std::vector<RatingRow> leaderboard(const std::string& ladder, int offset, int limit, int& total) = 0;
  // `player`'s matches, newest first. A private match still being played is left out unless
  // `viewer` (a player id; empty: anyone) sat in it.
  virtual std::vector<MatchSummary> history(const std::string& player, int offset, int limit,
                                            const std::string& viewer = {}) = 0;
  // A match with its hands and actions. `with_secrets`: include unrevealed seeds (recovery only).
  virtual std::optional<MatchRow> match(const std::string& uid, bool with_secrets) = 0;
  // Whether the match has ended, without reading its actions; nullopt when there is no such match.
  virtual std::optional<bool> match_over(const std::string& uid) = 0;
  // Every match not yet ended, with secrets, for rebuilding tables at start-up.
  virtual std::vector<MatchRow> unfinished_matches() = 0;
  // The same matches, by their ids alone, oldest first: for a cluster node, which takes over only
  // those at tables it can lease and reads each as it takes it (take_over).
  virtual std::vector<MatchRef> unfinished_refs() = 0;
  // Takes the unfinished match `uid` over for a new run of its table, as a cluster node does when
  // it adopts a table another node ran, and returns its record (with secrets) read after that. Each
  // take-over raises the match's fence, a run number: from then on the store refuses every write
  // for the match from an earlier run (an action, a hand, a seat change, the end), so a node that
  // lost the table while its writes were still on their way cannot add a second history beside
  // the new one. A write already committed is in the record returned: the take-over waits for it.
  // The new run is past the fence and every run in the log. nullopt: no such match, it has ended,
  // or another take-over raised the fence meanwhile. Blocks on the database; call it off the I/O
  // threads.
  virtual std::optional<TakenMatch> take_over(const std::string& uid) = 0;
  // Reserves `count` numbers of `kind` that were never reserved before, durably (it waits for the
  // writer's commit; call it off the I/O threads): the first of them, or nullopt on a failed write.
  virtual std::optional<std::uint64_t> reserve_ids(const std::string& kind, std::uint64_t count) = 0;
  // An online, consistent copy of the whole database (see backup_database). The target must not
  // exist.
  virtual std::optional<std::string> backup(const std::string& target) = 0;

  // ---- the writer ----
  // Blocks until every write queued before the call is committed (or has failed).
  virtual void flush() = 0;
  virtual WriterStats writer_stats() const = 0;
  // Called on the writer thread with each error's text (for logging).
  virtual void on_write_error(std::function<void(const std::string&)> f) = 0;
  int schema_version() const { return version_; }

 protected:
  Store() = default;
  int version_ = 0;
};

}  // namespace atout::store
