// Solve times over fixed seeded deals: median, p99 and mean nodes of full 8-trick solves per
// four-seat variant and contract mode, on one core. Usage: atout_solver_timing [deals] [all]
// ("all": the value of every first card, not only the position's value).
//
// Settings: ATOUT_SOLVER_TABLE_BITS sets the table's size and ATOUT_SOLVER_NEAR_BITS the near
// table's (0: none); ATOUT_SOLVER_SEED_OFFSET picks another set of deals; ATOUT_SOLVER_PVS=0 turns
// the principal-variation search off; ATOUT_SOLVER_CHECK prints MISMATCH for every deal whose value
// a solver with the other PVS setting gives differently (the times then include both solvers).
//
// A baseline in the same run: ATOUT_SOLVER_BASE_NEAR_BITS, ATOUT_SOLVER_BASE_TABLE_BITS,
// ATOUT_SOLVER_BASE_PVS, ATOUT_SOLVER_BASE_LENGTH (0: quick tricks without length) or
// ATOUT_SOLVER_BASE_RUN_KEYS (0: the table keys every card left as it is) add a second solver with
// that setting changed. Each deal is solved by both,
// each first in turn, so that both meet the same moments of a shared machine, and the baseline's
// figures are printed below the solver's ("(baseline)").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "atout/bots/solver.hpp"
#include "bots/positions.hpp"

namespace {

// One solver's figures over a set of solves: wall and process CPU time (what a shared, loaded
// machine does not inflate) and nodes, a value per solve.
struct Timings {
  std::vector<double> ms, cpu_ms, nodes;

  void add(const Timings& other) {
    ms.insert(ms.end(), other.ms.begin(), other.ms.end());
    cpu_ms.insert(cpu_ms.end(), other.cpu_ms.begin(), other.cpu_ms.end());
    nodes.insert(nodes.end(), other.nodes.begin(), other.nodes.end());
  }
  // One row: median, p99 and worst time, CPU median and p99, median and mean nodes.
  void print(const char* variant, const std::string& contract, const char* note) {
    const auto at = [](std::vector<double>& v, std::size_t num, std::size_t den) {
      std::sort(v.begin(), v.end());
      return v[v.size() * num / den];
    };
    double mean_nodes = 0;
    for (double n : nodes) mean_nodes += n / static_cast<double>(nodes.size());
    std::printf("%-8s %-11s %7zu %9.3f %9.3f %9.3f %9.3f %9.3f %11.0f %11.0f%s\n", variant, contract.c_str(), ms.size(),
                at(ms, 1, 2), at(ms, 99, 100), at(ms, ms.size() - 1, ms.size()), at(cpu_ms, 1, 2), at(cpu_ms, 99, 100),
                at(nodes, 1, 2), mean_nodes, note);
  }
};

// Solves `p` once with `solver`, the value of the position or (`all`) of every first card, and
// records its figures; returns the value (every first card: the position's value too).
int time_one(atout::bots::Solver& solver, const atout::bots::Position& p, bool all, Timings& out) {
  const std::clock_t c0 = std::clock();
  const auto t0 = std::chrono::steady_clock::now();
  const int v = all ? solver.solve(p).value : solver.value(p);
  const auto t1 = std::chrono::steady_clock::now();
  const std::clock_t c1 = std::clock();
  out.cpu_ms.push_back(1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
  out.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  out.nodes.push_back(static_cast<double>(solver.nodes()));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace atout;
  const int deals = argc > 1 ? std::atoi(argv[1]) : 1000;
  const bool all = argc > 2 && std::strcmp(argv[2], "all") == 0;
  // "plain": alpha-beta without table or merged cards (the tests' reference); "nobounds": also
  // without the bounds.
  const bool plain = argc > 2 && std::strncmp(argv[2], "plain", 5) == 0;
  const bool nobounds = argc > 2 && std::strcmp(argv[2], "plainnobounds") == 0;
  struct Case {
    const char* variant;
    Trump trump;
  };
  const Case cases[] = {
      {"french", Trump::of(Suit::hearts)}, {"coinche", Trump::of(Suit::hearts)}, {"coinche", Trump::no_trumps()},
      {"coinche", Trump::all_trumps()},    {"belot", Trump::of(Suit::hearts)},   {"belot", Trump::no_trumps()},
      {"belot", Trump::all_trumps()},      {"bazar", Trump::of(Suit::hearts)},   {"bazar", Trump::no_trumps()}};
  Timings every, base_every;
  bots::SolverOptions so;
  if (plain)
    so = bots::SolverOptions{
        .table_bits = 0, .use_table = false, .merge_equivalent = false, .bounds = !nobounds, .last_two = false};
  if (const char* bits = std::getenv("ATOUT_SOLVER_TABLE_BITS")) so.table_bits = std::atoi(bits);
  if (const char* pvs = std::getenv("ATOUT_SOLVER_PVS")) so.pvs = std::atoi(pvs) != 0;
  if (const char* near = std::getenv("ATOUT_SOLVER_NEAR_BITS")) so.near_table_bits = std::atoi(near);
  bots::SolverOptions check_options = so;
  check_options.pvs = !so.pvs;
  bots::Solver check(check_options);
  const bool checking = std::getenv("ATOUT_SOLVER_CHECK") != nullptr;
  // Another set of deals than the recorded one, to check that a change tuned on one set holds on
  // another.
  std::uint64_t seed_offset = 0;
  if (const char* offset = std::getenv("ATOUT_SOLVER_SEED_OFFSET")) seed_offset = std::strtoull(offset, nullptr, 10);
  bots::Solver solver(so);
  std::optional<bots::Solver> base;
  {
    bots::SolverOptions base_options = so;
    const char* near = std::getenv("ATOUT_SOLVER_BASE_NEAR_BITS");
    const char* pvs = std::getenv("ATOUT_SOLVER_BASE_PVS");
    if (near) base_options.near_table_bits = std::atoi(near);
    if (pvs) base_options.pvs = std::atoi(pvs) != 0;
    const char* bits = std::getenv("ATOUT_SOLVER_BASE_TABLE_BITS");
    if (bits) base_options.table_bits = std::atoi(bits);
    const char* length = std::getenv("ATOUT_SOLVER_BASE_LENGTH");
    if (length) base_options.length_tricks = std::atoi(length) != 0;
    const char* runs = std::getenv("ATOUT_SOLVER_BASE_RUN_KEYS");
    if (runs) base_options.run_keys = std::atoi(runs) != 0;
    if (near || pvs || bits || length || runs) base.emplace(base_options);
  }
  std::printf("%-8s %-11s %7s %9s %9s %9s %9s %9s %11s %11s\n", "variant", "contract", "deals", "median_ms", "p99_ms",
              "max_ms", "cpu_med", "cpu_p99", "med_nodes", "mean_nodes");
  for (const Case& c : cases) {
    const Options options = bots::testing::options_of(c.variant);
    Rng rng(Seed{0x5eed + seed_offset,
                 static_cast<std::uint64_t>(c.trump.mode) * 8 + static_cast<std::uint64_t>(c.trump.suit)});
    Timings mine, base_times;
    for (int i = 0; i < deals; ++i) {
      const bots::Position p = bots::testing::random_deal(c.variant, options, rng, c.trump);
      if (base && i % 2 == 1) time_one(*base, p, all, base_times);
      const int v = time_one(solver, p, all, mine);
      if (checking && !all && check.value(p) != v) std::printf("MISMATCH deal %d\n", i);
      if (base && i % 2 == 0) time_one(*base, p, all, base_times);
      if (std::getenv("ATOUT_SOLVER_SLOW") && solver.nodes() > 5000000) {
        std::printf("slow deal %d: %llu nodes, declarer %d, leader %d\n", i,
                    static_cast<unsigned long long>(solver.nodes()), p.declarer_team, p.current);
        for (int h = 0; h < 4; ++h) std::printf("  %s\n", to_string(p.hands[static_cast<std::size_t>(h)]).c_str());
      }
    }
    every.add(mine);
    mine.print(c.variant, to_string(c.trump), "");
    if (base) {
      base_every.add(base_times);
      base_times.print("", "", "   (baseline)");
    }
  }
  every.print("all", "", "");
  if (base) base_every.print("all", "", "   (baseline)");
  return 0;
}
