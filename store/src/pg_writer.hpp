// The PostgreSQL writer: a thread that owns the write connection and commits queued jobs in
// batches, like the SQLite Writer, and that survives the database server going away: a batch
// whose connection broke is run again on a new connection until it commits.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "atout/store/writer.hpp"

namespace atout::store {

// What a job sees: the batch's transaction (or the job's savepoint inside it) and the scratch
// the jobs share (match uid → row id), which is forgotten whenever a transaction rolls back.
class PgTx {
 public:
  PgTx(pqxx::transaction_base& t, std::unordered_map<std::string, std::int64_t>& ids) : t_(t), ids_(ids) {}
  pqxx::transaction_base& t() { return t_; }
  std::unordered_map<std::string, std::int64_t>& ids() { return ids_; }

 private:
  pqxx::transaction_base& t_;
  std::unordered_map<std::string, std::int64_t>& ids_;
};

// A job throws pqxx's errors or returns its own. A failed job does not undo the rest of its batch.
using PgJob = std::function<std::optional<std::string>(PgTx&)>;

// An action to append to a match's log, handed to the writer as data, so that the actions of a
// batch go to the database in one statement instead of one round trip each.
struct PgActionRow {
  std::string uid;
  std::int64_t seq = 0;
  int seat = 0;
  std::string action;
  std::int64_t at = 0;
};

// Writes `rows` (in order) in one go, or throws pqxx's errors. A row it refuses on its own (its
// match is unknown) goes to `errors` and the others are written.
using PgAppend = std::function<void(PgTx&, const std::vector<const PgActionRow*>&, std::vector<std::string>&)>;

// The store's PgAppend (pg_append_actions.cpp): the ids of the matches the batch has not seen yet
// in one query, then every row in one INSERT of server-side unnested arrays.
void append_actions(PgTx& tx, const std::vector<const PgActionRow*>& rows, std::vector<std::string>& errors);
// Prepares on `c` the statement append_actions runs: call it on every connection the writer uses.
void prepare_append(pqxx::connection& c);

class PgWriter {
 public:
  // `connect` opens and prepares a new connection, or throws. `connection` is the first one.
  PgWriter(std::function<std::unique_ptr<pqxx::connection>()> connect, std::unique_ptr<pqxx::connection> connection,
           std::size_t max_batch, std::chrono::microseconds gather);
  ~PgWriter();
  PgWriter(const PgWriter&) = delete;
  PgWriter& operator=(const PgWriter&) = delete;

  void post(PgJob job);
  // Queues an action. Consecutive actions of a batch are written together by `append` (see
  // set_append); if that fails, the batch runs again with each job, `row_by_row` for this one, in a
  // savepoint of its own, so a bad action is dropped alone.
  void post_action(PgActionRow row, PgJob row_by_row);
  // Set before the first post_action; without it, actions are written row by row.
  void set_append(PgAppend append);
  // Blocks until every job posted before the call is committed (or has failed).
  void flush();
  // Commits what is queued, then stops the thread. If the database stays unreachable, it gives up
  // after `give_up` and counts what was queued as errors. Later posts are dropped.
  void stop(std::chrono::milliseconds give_up = std::chrono::milliseconds(10000));
  WriterStats stats() const;
  void on_error(std::function<void(const std::string&)> f);
  // Batches run again after a broken connection, a deadlock or a commit of unknown outcome.
  std::uint64_t retries() const;

 private:
  struct Queued {
    PgJob job;
    std::shared_ptr<const PgActionRow> row;  // set for an action
  };

  void run();
  // Runs `batch` in one transaction. `savepoints`: each job in its own savepoint (after a job
  // failed with a plain run). Throws what should make the whole batch run again.
  // `append` writes runs of actions (counted in `appends` and `appended_rows`) when not in savepoints.
  void run_batch(std::vector<Queued>& batch, bool savepoints, std::vector<std::string>& errors, PgAppend* append,
                 std::uint64_t& appends, std::uint64_t& appended_rows);
  void enqueue(Queued item);

  std::function<std::unique_ptr<pqxx::connection>()> connect_;
  std::unique_ptr<pqxx::connection> conn_;
  std::size_t max_batch_;
  std::chrono::microseconds gather_;
  std::unordered_map<std::string, std::int64_t> ids_;
  mutable std::mutex mu_;
  std::condition_variable wake_, done_;
  std::vector<Queued> queue_;
  PgAppend append_;
  std::uint64_t posted_ = 0, finished_ = 0, retries_ = 0;
  bool stopping_ = false;
  bool stopped_ = false;
  bool idle_ = false;
  int flushing_ = 0;
  std::chrono::steady_clock::time_point give_up_at_;
  WriterStats stats_;
  std::function<void(const std::string&)> on_error_;
  std::thread thread_;
};

}  // namespace atout::store
