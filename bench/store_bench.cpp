// Store speed: actions persisted per second through the batching writer (WAL, synchronous=NORMAL
// and FULL), spread over 1,000 live matches as a loaded server would post them.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "atout/store/store.hpp"

namespace {
using namespace atout::store;

void BM_PersistActions(benchmark::State& state) {
  const std::string sync = state.range(0) ? "FULL" : "NORMAL";
  const auto dir = std::filesystem::temp_directory_path() / ("atout_store_bench_" + sync);
  std::filesystem::remove_all(dir);
  std::string error;
  OpenOptions options;
  options.synchronous = sync;
  auto store = Store::open((dir / "bench.db").string(), options, error);
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
}
// Wall time, not CPU time: the writer works on its own thread, and the figure is end to end.
BENCHMARK(BM_PersistActions)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
