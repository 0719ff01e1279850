// The PostgreSQL batching writer.
#include "pg_writer.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace atout::store {

namespace {

// A job failed on its own: the batch runs again with each job in a savepoint, so the others keep
// their writes.
struct JobFailed {};

// The server is going away or gone (class 08, connection exception; 57P, operator intervention:
// a shutdown or restart), as opposed to a statement that failed on its own.
bool connection_lost(const pqxx::sql_error& e, const pqxx::connection& c) {
  const std::string& state = e.sqlstate();
  return !c.is_open() || state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0;
}

}  // namespace

PgWriter::PgWriter(std::function<std::unique_ptr<pqxx::connection>()> connect,
                   std::unique_ptr<pqxx::connection> connection, std::size_t max_batch,
                   std::chrono::microseconds gather)
    : connect_(std::move(connect)), conn_(std::move(connection)), max_batch_(max_batch), gather_(gather) {
  thread_ = std::thread([this] { run(); });
}

PgWriter::~PgWriter() { stop(); }

void PgWriter::post(PgJob job) { enqueue({std::move(job), nullptr}); }

void PgWriter::post_action(PgActionRow row, PgJob row_by_row) {
  enqueue({std::move(row_by_row), std::make_shared<const PgActionRow>(std::move(row))});
}

void PgWriter::set_append(PgAppend append) {
  std::lock_guard lock(mu_);
  append_ = std::move(append);
}

void PgWriter::enqueue(Queued item) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      ++stats_.errors;
      return;
    }
    queue_.push_back(std::move(item));
    ++posted_;
    wake = idle_ || queue_.size() >= max_batch_;
  }
  if (wake) wake_.notify_one();
}

void PgWriter::flush() {
  std::unique_lock lock(mu_);
  const std::uint64_t target = posted_;
  ++flushing_;
  wake_.notify_one();
  done_.wait(lock, [&] { return finished_ >= target || stopped_; });
  --flushing_;
}

void PgWriter::stop(std::chrono::milliseconds give_up) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    give_up_at_ = std::chrono::steady_clock::now() + give_up;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
  }
  done_.notify_all();
}

WriterStats PgWriter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

std::uint64_t PgWriter::retries() const {
  std::lock_guard lock(mu_);
  return retries_;
}

void PgWriter::on_error(std::function<void(const std::string&)> f) {
  std::lock_guard lock(mu_);
  on_error_ = std::move(f);
}

void PgWriter::run_batch(std::vector<Queued>& batch, bool savepoints, std::vector<std::string>& errors,
                         PgAppend* append, std::uint64_t& appends, std::uint64_t& appended_rows) {
  pqxx::work w(*conn_);
  PgTx tx(w, ids_);
  // Without savepoints, a statement that fails aborts the transaction: the batch runs again with
  // savepoints, unless the connection or the transaction itself is what failed.
  const auto plain = [&](auto&& f) {
    try {
      f();
    } catch (const pqxx::sql_error& x) {
      if (dynamic_cast<const pqxx::transaction_rollback*>(&x) != nullptr) throw;
      if (connection_lost(x, *conn_)) throw pqxx::broken_connection(x.what());
      throw JobFailed{};
    }
  };
  std::vector<const PgActionRow*> pending;
  const auto write_pending = [&] {
    if (pending.empty()) return;
    plain([&] { (*append)(tx, pending, errors); });
    ++appends;
    appended_rows += pending.size();
    pending.clear();
  };
  for (Queued& item : batch) {
    if (!savepoints) {
      if (item.row && append != nullptr && *append) {
        pending.push_back(item.row.get());
        continue;
      }
      write_pending();
      std::optional<std::string> e;
      plain([&] { e = item.job(tx); });
      // A job's own refusal ("no match") wrote nothing: the others go on.
      if (e) errors.push_back(*e);
      continue;
    }
    // Savepoints by hand: pqxx's subtransaction does not recover from a statement that failed.
    w.exec("SAVEPOINT job");
    std::optional<std::string> e;
    try {
      e = item.job(tx);
    } catch (const pqxx::transaction_rollback&) {
      throw;
    } catch (const pqxx::broken_connection&) {
      throw;
    } catch (const pqxx::sql_error& x) {
      if (connection_lost(x, *conn_)) throw pqxx::broken_connection(x.what());
      e = x.what();
    }
    if (e) {
      errors.push_back(*e);
      w.exec("ROLLBACK TO SAVEPOINT job");
    } else {
      w.exec("RELEASE SAVEPOINT job");
    }
  }
  write_pending();
  w.commit();
}

void PgWriter::run() {
#ifdef __linux__
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), Writer::kNice);
#endif
  std::vector<Queued> batch;
  for (;;) {
    std::function<void(const std::string&)> report;
    PgAppend append;
    {
      std::unique_lock lock(mu_);
      idle_ = true;
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      idle_ = false;
      if (queue_.empty() && stopping_) return;
      if (gather_.count() > 0 && !stopping_ && flushing_ == 0 && queue_.size() < max_batch_)
        wake_.wait_for(lock, gather_, [&] { return stopping_ || flushing_ > 0 || queue_.size() >= max_batch_; });
      if (queue_.size() <= max_batch_) {
        batch.swap(queue_);
      } else {
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(max_batch_)));
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(max_batch_));
      }
      report = on_error_;
      append = append_;
    }
    std::vector<std::string> errors;
    const auto began = std::chrono::steady_clock::now();
    bool committed = false;
    bool savepoints = false;
    std::uint64_t batch_appends = 0, batch_rows = 0;
    auto backoff = std::chrono::milliseconds(20);
    for (;;) {
      std::string failure;
      try {
        if (!conn_ || !conn_->is_open()) {
          conn_.reset();
          conn_ = connect_();
        }
        std::vector<std::string> job_errors;
        batch_appends = 0;
        batch_rows = 0;
        run_batch(batch, savepoints, job_errors, &append, batch_appends, batch_rows);
        errors.insert(errors.end(), job_errors.begin(), job_errors.end());
        committed = true;
        break;
      } catch (const JobFailed&) {
        ids_.clear();  // the rolled-back transaction may have named rows that do not exist
        savepoints = true;
        continue;
      } catch (const pqxx::transaction_rollback& e) {
        failure = e.what();  // a deadlock with another node, or a serialization failure: run it again
        backoff = std::chrono::milliseconds(0);
      } catch (const pqxx::in_doubt_error& e) {
        // The connection broke during COMMIT: the batch may or may not be in. Running it again is
        // safe: its jobs are idempotent or refused as duplicates (logged), never applied twice.
        failure = e.what();
        conn_.reset();
      } catch (const pqxx::broken_connection& e) {
        failure = e.what();
        conn_.reset();
      } catch (const std::exception& e) {
        if (conn_ && conn_->is_open()) {
          // Anything else from a live connection will not get better by trying again.
          errors.push_back("batch of " + std::to_string(batch.size()) + " writes failed: " + e.what());
          ids_.clear();
          break;
        }
        failure = e.what();
        conn_.reset();
      }
      ids_.clear();
      {
        std::unique_lock lock(mu_);
        ++retries_;
        if (stopping_ && std::chrono::steady_clock::now() >= give_up_at_) {
          errors.push_back("gave up on a batch of " + std::to_string(batch.size()) + " writes at shutdown: " + failure);
          break;
        }
        if (backoff.count() > 0) wake_.wait_for(lock, backoff);
      }
      if (report && retries_ % 50 == 1) report("writer retrying a batch: " + failure);
      backoff = std::min(std::chrono::milliseconds(1000), std::max(std::chrono::milliseconds(20), backoff * 2));
    }
    const auto took = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began).count());
    if (report)
      for (const std::string& e : errors) report(e);
    {
      std::lock_guard lock(mu_);
      stats_.errors += errors.size();
      if (committed) {
        stats_.jobs += batch.size();
        stats_.appends += batch_appends;
        stats_.appended_actions += batch_rows;
        ++stats_.batches;
        stats_.largest_batch = std::max<std::uint64_t>(stats_.largest_batch, batch.size());
        stats_.longest_batch_us = std::max(stats_.longest_batch_us, took);
      }
      finished_ += batch.size();
    }
    done_.notify_all();
    batch.clear();
  }
}

}  // namespace atout::store
