// Store speed: actions persisted per second through the batching writer (SQLite in WAL with
// synchronous=NORMAL and FULL; PostgreSQL when ATOUT_BENCH_PG_URL names a server), spread over
// 1,000 live matches as a loaded server would post them; and the time of a batch of one action.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "atout/store/store.hpp"

namespace {
using namespace atout::store;

// A store for one benchmark. Arg 0: SQLite, synchronous=NORMAL; 1: SQLite, FULL; 2: PostgreSQL,
// in a schema of its own (dropped with the store).
class BenchStore {
 public:
  explicit BenchStore(benchmark::State& state) : postgres_(state.range(0) == 2) {
    const std::string sync = state.range(0) == 1 ? "FULL" : "NORMAL";
    dir_ = std::filesystem::temp_directory_path() / ("atout_store_bench_" + sync);
    std::filesystem::remove_all(dir_);
    OpenOptions options;
    options.synchronous = sync;
    std::string db = (dir_ / "bench.db").string();
    if (postgres_) {
      const char* url = std::getenv("ATOUT_BENCH_PG_URL");
      if (url == nullptr) {
        state.SkipWithError("ATOUT_BENCH_PG_URL is not set");
        return;
      }
      pg_url_ = url;
      pqxx::connection c(pg_url_);
      pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
      db = pg_url_ + (pg_url_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
    }
    std::string error;
    store_ = Store::open(db, options, error);
    if (!store_) state.SkipWithError(error.c_str());
  }
  ~BenchStore() {
    store_.reset();
    std::filesystem::remove_all(dir_);
    if (!pg_url_.empty()) {
      pqxx::connection c(pg_url_);
      pqxx::nontransaction(c).exec("DROP SCHEMA " + schema_ + " CASCADE");
    }
  }
  Store* get() { return store_.get(); }

 private:
  bool postgres_;
  std::filesystem::path dir_;
  std::string pg_url_;
  std::string schema_ = "bench_" + std::to_string(::getpid());
  std::unique_ptr<Store> store_;
};

// `tables` four-player matches m0, m1, ... with their players.
void begin_matches(Store& store, int tables) {
  for (int p = 0; p < 4; ++p)
    store.add_player("p" + std::to_string(p), "P", std::string(32, static_cast<char>('a' + p)), 0);
  for (int t = 0; t < tables; ++t) {
    MatchStart m;
    m.uid = "m" + std::to_string(t);
    m.table_id = "t" + std::to_string(t);
    m.variant = "french";
    m.options_json = "{}";
    m.seats = {{0, 0, "p0", ""}, {1, 1, "p1", ""}, {2, 0, "p2", ""}, {3, 1, "p3", ""}};
    store.begin_match(m);
  }
  store.flush();
}

void BM_PersistActions(benchmark::State& state) {
  BenchStore opened(state);
  if (opened.get() == nullptr) return;
  Store* store = opened.get();
  constexpr int kTables = 1000;
  begin_matches(*store, kTables);
  std::int64_t seq = 0;
  const std::string action = R"({"seat":2,"type":"play","card":"JH"})";
  constexpr int kRounds = 10;
  for (auto _ : state) {
    // Ten rounds in which every table persists one action, then wait until all are committed:
    // the figure is actions durably in the database per second, not actions queued.
    for (int r = 0; r < kRounds; ++r, ++seq)
      for (int t = 0; t < kTables; ++t) store->add_action("m" + std::to_string(t), seq, t % 4, action, seq);
    store->flush();
  }
  const WriterStats s = store->writer_stats();
  state.SetItemsProcessed(state.iterations() * kTables * kRounds);
  state.counters["actions_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kTables * kRounds), benchmark::Counter::kIsRate);
  state.counters["mean_batch"] = static_cast<double>(s.jobs) / static_cast<double>(s.batches);
  state.counters["errors"] = static_cast<double>(s.errors);
}
// Wall time, not CPU time: the writer works on its own thread, and the figure is end to end.
BENCHMARK(BM_PersistActions)->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// One action, then a flush: a commit of a batch of one, as a quiet server makes them. Its time is
// what each batch costs beside its rows (PostgreSQL: the round trips of one transaction).
void BM_CommitOneAction(benchmark::State& state) {
  BenchStore opened(state);
  if (opened.get() == nullptr) return;
  Store* store = opened.get();
  begin_matches(*store, 1);
  std::int64_t seq = 1;
  const std::string action = R"({"seat":2,"type":"play","card":"JH"})";
  for (auto _ : state) {
    store->add_action("m0", seq, static_cast<int>(seq % 4), action, seq);
    ++seq;
    store->flush();
  }
  state.counters["errors"] = static_cast<double>(store->writer_stats().errors);
}
BENCHMARK(BM_CommitOneAction)->Arg(0)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
