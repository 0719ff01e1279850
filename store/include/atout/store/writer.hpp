// The one writer: a thread that owns the write connection and commits queued jobs in batches, so
// that nobody who posts a write ever waits on the disk.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "atout/store/sqlite.hpp"

namespace atout::store {

// What a job sees: the connection, inside the batch's transaction, and statements prepared once.
class Tx {
 public:
  explicit Tx(Db& db) : db_(db) {}
  // `sql` must be a string literal (or otherwise outlive the writer): statements are cached by it.
  Statement& stmt(const char* sql);
  Db& db() { return db_; }
  // Scratch the jobs may share across batches (e.g. match uid → row id).
  std::unordered_map<std::string, std::int64_t>& ids() { return ids_; }

 private:
  Db& db_;
  std::unordered_map<const char*, Statement> cache_;
  std::unordered_map<std::string, std::int64_t> ids_;
};

// A job returns its error, if any. A failed job does not undo the rest of its batch.
using Job = std::function<std::optional<std::string>(Tx&)>;

struct WriterStats {
  std::uint64_t jobs = 0;     // committed
  std::uint64_t batches = 0;  // transactions committed
  std::uint64_t errors = 0;   // failed jobs and failed commits
  std::uint64_t largest_batch = 0;
  // The longest time one batch took, BEGIN to COMMIT: a queued write waits at most about two of
  // these (the batch under way, then its own) plus the writer's gathering window.
  std::uint64_t longest_batch_us = 0;
  // PostgreSQL: statements that inserted a run of a batch's actions at once, and those actions
  // (the others went row by row, after a batch whose multi-row insert failed).
  std::uint64_t appends = 0;
  std::uint64_t appended_actions = 0;
};

class Writer {
 public:
  // The writer thread's nice value on Linux (docs/operations.md): below the I/O threads.
  static constexpr int kNice = 5;

  // Takes the write connection. `max_batch` bounds one transaction. After the first write of a
  // batch arrives, the writer gathers for up to `gather` more before it commits (unless the batch
  // fills, a flush waits, or it stops): under load, one commit then carries many writes instead
  // of a few (bench/RESULTS.md, "Server under load"). Zero commits at once.
  explicit Writer(Db db, std::size_t max_batch = 8192,
                  std::chrono::microseconds gather = std::chrono::microseconds(2000));
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void post(Job job);
  // Blocks until every job posted before the call is committed (or has failed).
  void flush();
  // Commits what is queued, then stops the thread. Later posts are dropped and counted as errors.
  void stop();
  WriterStats stats() const;
  // Called on the writer thread with each error's text (for logging).
  void on_error(std::function<void(const std::string&)> f);

 private:
  void run();

  Db db_;
  std::size_t max_batch_;
  std::chrono::microseconds gather_;
  mutable std::mutex mu_;
  std::condition_variable wake_, done_;
  std::vector<Job> queue_;
  std::uint64_t posted_ = 0, finished_ = 0;
  bool stopping_ = false;
  bool stopped_ = false;  // the thread has been joined
  bool idle_ = false;     // the writer waits for a first write (so a post must wake it)
  int flushing_ = 0;      // callers blocked in flush(): commit without gathering
  WriterStats stats_;
  std::function<void(const std::string&)> on_error_;
  std::thread thread_;
};

}  // namespace atout::store
