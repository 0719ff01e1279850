// Store speed: actions persisted per second through the batching writer (SQLite in WAL with
// synchronous=NORMAL and FULL; PostgreSQL when ATOUT_BENCH_PG_URL names a server), spread over
// 1,000 live matches as a loaded server would post them.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <pqxx/pqxx>
#include <string>

#include "atout/store/store.hpp"

namespace {
using namespace atout::store;

// Arg 0: SQLite, synchronous=NORMAL; 1: SQLite, FULL; 2: PostgreSQL, in a schema of its own.
void BM_PersistActions(benchmark::State& state) {
  const bool postgres = state.range(0) == 2;
  const std::string sync = state.range(0) == 1 ? "FULL" : "NORMAL";
  const auto dir = std::filesystem::temp_directory_path() / ("atout_store_bench_" + sync);
  std::filesystem::remove_all(dir);
  std::string error;
  OpenOptions options;
  options.synchronous = sync;
  std::string db = (dir / "bench.db").string();
  const char* pg_url = std::getenv("ATOUT_BENCH_PG_URL");
  const std::string schema = "bench_" + std::to_string(::getpid());
  if (postgres) {
    if (pg_url == nullptr) {
      state.SkipWithError("ATOUT_BENCH_PG_URL is not set");
      return;
    }
    pqxx::connection c(pg_url);
    pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
    db = std::string(pg_url) + (std::string(pg_url).find('?') == std::string::npos ? "?" : "&") +
         "options=-csearch_path%3D" + schema;
  }
  auto store = Store::open(db, options, error);
  if (!store) {
    state.SkipWithError(error.c_str());
    return;
  }
  constexpr int kTables = 1000;
  for (int p = 0; p < 4; ++p)
    store->add_player("p" + std::to_string(p), "P", std::string(32, static_cast<char>('a' + p)), 0);
  for (int t = 0; t < kTables; ++t) {
    MatchStart m;
    m.uid = "m" + std::to_string(t);
    m.table_id = "t" + std::to_string(t);
    m.variant = "french";
    m.options_json = "{}";
    m.seats = {{0, 0, "p0", ""}, {1, 1, "p1", ""}, {2, 0, "p2", ""}, {3, 1, "p3", ""}};
    store->begin_match(m);
  }
  store->flush();
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
  store.reset();
  std::filesystem::remove_all(dir);
  if (postgres) {
    pqxx::connection c(pg_url);
    pqxx::nontransaction(c).exec("DROP SCHEMA " + schema + " CASCADE");
  }
}
// Wall time, not CPU time: the writer works on its own thread, and the figure is end to end.
BENCHMARK(BM_PersistActions)->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
