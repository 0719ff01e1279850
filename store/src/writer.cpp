// The batching writer thread.
#include "atout/store/writer.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace atout::store {

Statement& Tx::stmt(const char* sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    it = cache_.emplace(sql, Statement()).first;
    if (auto e = db_.prepare(sql, it->second)) {
      cache_.erase(it);
      static thread_local Statement invalid;
      invalid = Statement();
      return invalid;  // binding and stepping a null statement fail; the job reports it
    }
  }
  it->second.reset();
  return it->second;
}

Writer::Writer(Db db, std::size_t max_batch, std::chrono::microseconds gather)
    : db_(std::move(db)), max_batch_(max_batch), gather_(gather) {
  thread_ = std::thread([this] { run(); });
}

Writer::~Writer() { stop(); }

void Writer::post(Job job) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      ++stats_.errors;
      return;
    }
    queue_.push_back(std::move(job));
    ++posted_;
    // While it gathers or commits, the writer comes back for the queue by itself.
    wake = idle_ || queue_.size() >= max_batch_;
  }
  if (wake) wake_.notify_one();
}

void Writer::flush() {
  std::unique_lock lock(mu_);
  const std::uint64_t target = posted_;
  ++flushing_;
  wake_.notify_one();
  done_.wait(lock, [&] { return finished_ >= target || stopped_; });
  --flushing_;
}

void Writer::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  {
    // Under the lock: a flush waiting meanwhile reads it (the thread object is not for sharing).
    std::lock_guard lock(mu_);
    stopped_ = true;
  }
  done_.notify_all();
}

WriterStats Writer::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void Writer::on_error(std::function<void(const std::string&)> f) {
  std::lock_guard lock(mu_);
  on_error_ = std::move(f);
}

void Writer::run() {
#ifdef __linux__
  // Linux applies a nice value to one thread when given its id. Commits have a durability window
  // of milliseconds, players' round trips do not: on a busy machine the scheduler should run the
  // I/O threads first and give the writer what is left.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice);
#endif
  Tx tx(db_);
  std::vector<Job> batch;
  for (;;) {
    std::function<void(const std::string&)> report;
    {
      std::unique_lock lock(mu_);
      idle_ = true;
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      idle_ = false;
      if (queue_.empty() && stopping_) return;
      // A short window for more writes to join this one: one commit for many actions.
      if (gather_.count() > 0 && !stopping_ && flushing_ == 0 && queue_.size() < max_batch_)
        wake_.wait_for(lock, gather_, [&] { return stopping_ || flushing_ > 0 || queue_.size() >= max_batch_; });
      // Everything queued while the last batch committed goes into this one too: under load,
      // batches grow by themselves.
      if (queue_.size() <= max_batch_) {
        batch.swap(queue_);
      } else {
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(max_batch_)));
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(max_batch_));
      }
      report = on_error_;
    }
    std::vector<std::string> errors;
    const auto began = std::chrono::steady_clock::now();
    if (auto e = db_.exec("BEGIN IMMEDIATE")) errors.push_back("begin: " + *e);
    for (Job& job : batch)
      if (auto e = job(tx)) errors.push_back(*e);
    bool committed = true;
    if (auto e = db_.exec("COMMIT")) {
      // A failed commit (disk full, I/O error) loses this batch; it is logged as an error.
      errors.push_back("commit of " + std::to_string(batch.size()) + " writes failed: " + *e);
      db_.exec("ROLLBACK");
      committed = false;
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
