// Persistence through the server's own code: the start-up rebuild of 1,000 unfinished tables
// (load from the store, replay each log through the engine, construct the tables), a cluster
// node's adoption of one of them, and actions persisted per second through the server's journal
// (JSON and the batching writer).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <set>
#include <string>

#include "atout/fair_deal.hpp"
#include "atout/rng.hpp"
#include "atout/server/lobby.hpp"
#include "atout/server/recovery.hpp"
#include "atout/server/store_journal.hpp"
#include "atout/store/store.hpp"

namespace {
using namespace atout;
namespace srv = atout::server;

constexpr int kTables = 1000;
constexpr int kMaxActions = 220;  // up to six hands or so; tables stop part way

struct Filled {
  std::string path;
  std::int64_t actions = 0;
  std::vector<Record> records;  // the same matches in memory, for the engine-only baseline
};

// A database holding kTables french matches, each stopped after a random number of actions (up
// to kMaxActions), written through the server's journal exactly as tables write them.
const Filled& database() {
  static const Filled f = [] {
    Filled out;
    const auto dir = std::filesystem::temp_directory_path() / "atout_recovery_bench";
    std::filesystem::remove_all(dir);
    out.path = (dir / "bench.db").string();
    std::string error;
    std::shared_ptr<store::Store> s = store::Store::open(out.path, {}, error);
    if (!s) throw std::runtime_error(error);
    srv::StoreJournal journal(s);
    for (int p = 0; p < 4 * kTables; ++p)
      s->add_player("p" + std::to_string(p), "player " + std::to_string(p), "hash" + std::to_string(p), 0);
    Rng rng(Seed{0xBE4Cu, 1});
    std::vector<Action> legal;
    for (int t = 0; t < kTables; ++t) {
      srv::MatchOpened m;
      m.match_id = "m" + std::to_string(t);
      m.table_id = "t" + std::to_string(t + 1);
      m.header.variant = "french";
      m.header.options = Options{{"target", 1001}};  // long enough that no table ends within kMaxActions
      m.header.deal.seed = Seed{rng.next(), rng.next()};
      m.header.first_dealer = static_cast<Seat>(rng.below(4));
      auto created = create_state(m.header);
      m.header.options = created.state->record().options;
      for (int p = 0; p < 4; ++p) m.seat_players.push_back("p" + std::to_string(4 * t + p));
      journal.match_started(m);
      State& st = *created.state;
      const int actions = 1 + static_cast<int>(rng.below(kMaxActions));
      std::uint64_t seq = 1;
      int hand = -1;
      for (int a = 0; a < actions && !st.is_terminal(); ++a) {
        const Observation view = st.observation(kNoSeat);
        if (view.hand != hand) {
          hand = view.hand;
          const Seed seed = derive_deal_seed(*m.header.deal.seed, static_cast<std::uint64_t>(hand));
          journal.hand_started(m.match_id, hand, view.dealer, seed, deal_commitment(seed, m.match_id, hand), seq + 1);
        }
        st.legal_actions(legal);
        const Action act = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        const Seat seat = st.current_player();
        // Every table stays unfinished: stop before an action that would end the match.
        if (auto probe = st.clone(); probe->apply(seat, act) == Refusal::none && probe->is_terminal()) break;
        const std::size_t hands_before = st.hand_results().size();
        st.apply(seat, act);
        journal.action(m.match_id, ++seq, seat, act, false, std::nullopt);
        m.header.actions.push_back(RecordedAction{seat, act});
        if (st.hand_results().size() > hands_before) journal.hand_ended(m.match_id, st.hand_results().back(), seq);
        ++out.actions;
      }
      out.records.push_back(m.header);
    }
    s->flush();
    return out;
  }();
  return f;
}

// Start-up recovery of kTables unfinished tables: read every unfinished match with its log,
// replay each through the engine, build its table and register it with the lobby.
void BM_RecoverTables(benchmark::State& state) {
  const Filled& f = database();
  std::string error;
  std::shared_ptr<store::Store> s = store::Store::open(f.path, {}, error);
  if (!s) {
    state.SkipWithError(error.c_str());
    return;
  }
  int restored = 0;
  for (auto _ : state) {
    srv::net::io_context ioc;
    auto lobby = std::make_shared<srv::Lobby>(ioc.get_executor());
    const srv::RecoveryReport r = srv::recover(*s, *lobby);
    ioc.run();  // the lobby's registrations of the restored tables
    restored = r.restored;
    benchmark::DoNotOptimize(r);
  }
  state.counters["tables"] = restored;
  state.counters["actions_replayed"] = static_cast<double>(f.actions);
}
BENCHMARK(BM_RecoverTables)->UseRealTime()->Unit(benchmark::kMillisecond);

// A cluster node adopting one orphaned table among kTables unfinished matches: it finds the
// table's match, takes it over in the store and rebuilds it (the lease is granted at once here).
void BM_AdoptOneTable(benchmark::State& state) {
  const Filled& f = database();
  std::string error;
  std::shared_ptr<store::Store> s = store::Store::open(f.path, {}, error);
  if (!s) {
    state.SkipWithError(error.c_str());
    return;
  }
  srv::RecoveryClaims claims;
  claims.claim = [](const std::string&) { return true; };
  claims.only = std::set<std::string>{"t" + std::to_string(kTables / 2)};
  int restored = 0;
  for (auto _ : state) {
    srv::net::io_context ioc;
    auto lobby = std::make_shared<srv::Lobby>(ioc.get_executor());
    const srv::RecoveryReport r = srv::recover(*s, *lobby, claims);
    // The lobby's registration of the table; its clocks (a seat held for its absent player) are
    // left pending and dropped with the context.
    ioc.poll();
    restored += r.restored;
  }
  state.counters["restored_per_adoption"] = static_cast<double>(restored) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_AdoptOneTable)->UseRealTime()->Unit(benchmark::kMillisecond);

// What an adoption read before it listed the unfinished matches by their ids alone: every one of
// them with its whole log (the baseline of BM_AdoptOneTable).
void BM_ReadUnfinishedMatches(benchmark::State& state) {
  const Filled& f = database();
  std::string error;
  std::shared_ptr<store::Store> s = store::Store::open(f.path, {}, error);
  if (!s) {
    state.SkipWithError(error.c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(s->unfinished_matches());
}
BENCHMARK(BM_ReadUnfinishedMatches)->UseRealTime()->Unit(benchmark::kMillisecond);

// The baseline: the same logs replayed through the engine from memory (no store, no tables).
void BM_ReplayLogsOnly(benchmark::State& state) {
  const Filled& f = database();
  for (auto _ : state)
    for (const Record& r : f.records) benchmark::DoNotOptimize(replay(r));
  state.counters["actions_replayed"] = static_cast<double>(f.actions);
}
BENCHMARK(BM_ReplayLogsOnly)->UseRealTime()->Unit(benchmark::kMillisecond);

// Actions persisted per second through the journal the tables call: JSON, the queue and the
// writer's batched commits (WAL, synchronous=NORMAL), from 1,000 live matches.
void BM_JournalActions(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / "atout_journal_bench";
  std::filesystem::remove_all(dir);
  std::string error;
  std::shared_ptr<store::Store> s = store::Store::open((dir / "bench.db").string(), {}, error);
  if (!s) {
    state.SkipWithError(error.c_str());
    return;
  }
  srv::StoreJournal journal(s);
  for (int p = 0; p < 4; ++p) s->add_player("p" + std::to_string(p), "P", "hash" + std::to_string(p), 0);
  for (int t = 0; t < kTables; ++t) {
    srv::MatchOpened m;
    m.match_id = "m" + std::to_string(t);
    m.table_id = "t" + std::to_string(t);
    m.header.variant = "french";
    m.seat_players = {"p0", "p1", "p2", "p3"};
    journal.match_started(m);
  }
  s->flush();
  constexpr int kRounds = 10;
  const Action play = Action::play(Card(Suit::hearts, Rank::jack));
  std::uint64_t seq = 1;
  for (auto _ : state) {
    for (int r = 0; r < kRounds; ++r) {
      ++seq;
      for (int t = 0; t < kTables; ++t)
        journal.action("m" + std::to_string(t), seq, static_cast<Seat>(t % 4), play, false, std::nullopt);
    }
    s->flush();  // committed, not merely queued
  }
  state.counters["actions_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kTables * kRounds), benchmark::Counter::kIsRate);
  const store::WriterStats w = s->writer_stats();
  state.counters["mean_batch"] = static_cast<double>(w.jobs) / static_cast<double>(w.batches);
  state.counters["errors"] = static_cast<double>(w.errors);
  state.counters["largest_batch"] = static_cast<double>(w.largest_batch);
  state.counters["longest_batch_ms"] = static_cast<double>(w.longest_batch_us) / 1000.0;
  s.reset();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_JournalActions)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
