// Solve times over fixed seeded deals: median, p99 and mean nodes of full 8-trick solves per
// four-seat variant and contract mode, on one core. Usage: atout_solver_timing [deals] [all]
// ("all": the value of every first card, not only the position's value).
//
// Settings: ATOUT_SOLVER_TABLE_BITS sets the table's size and ATOUT_SOLVER_NEAR_BITS the near
// table's (0: none); ATOUT_SOLVER_SEED_OFFSET picks another set of deals; ATOUT_SOLVER_PVS=0 turns
// the principal-variation search off; ATOUT_SOLVER_CHECK prints MISMATCH for every deal whose value
// a solver with the other PVS setting gives differently (the times then include both solvers).
//
// A baseline in the same run: ATOUT_SOLVER_BASE_NEAR_BITS, ATOUT_SOLVER_BASE_TABLE_BITS or
// ATOUT_SOLVER_BASE_PVS add a second solver with that setting changed. Each deal is solved by both,
// each first in turn, so that both meet the same moments of a shared machine, and the baseline's
// figures are printed below the solver's ("(baseline)").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <vector>

#include "atout/bots/solver.hpp"
#include "bots/positions.hpp"

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
  std::vector<double> every;
  std::vector<double> every_cpu;
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
    if (near || pvs || bits) base.emplace(base_options);
  }
  std::vector<double> base_every;
  std::printf("%-8s %-11s %7s %9s %9s %9s %9s %9s %11s %11s\n", "variant", "contract", "deals", "median_ms", "p99_ms",
              "max_ms", "cpu_med", "cpu_p99", "med_nodes", "mean_nodes");
  for (const Case& c : cases) {
    const Options options = bots::testing::options_of(c.variant);
    Rng rng(Seed{0x5eed + seed_offset,
                 static_cast<std::uint64_t>(c.trump.mode) * 8 + static_cast<std::uint64_t>(c.trump.suit)});
    std::vector<double> ms;
    std::vector<double> cpu_ms;  // process CPU time: what a shared, loaded machine does not inflate
    std::vector<double> node_counts;
    std::vector<double> base_ms;
    double nodes = 0;
    for (int i = 0; i < deals; ++i) {
      const bots::Position p = bots::testing::random_deal(c.variant, options, rng, c.trump);
      const auto run_base = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        if (all) {
          base->solve(p);
        } else {
          base->value(p);
        }
        base_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      };
      if (base && i % 2 == 1) run_base();
      const std::clock_t c0 = std::clock();
      const auto t0 = std::chrono::steady_clock::now();
      if (all) {
        solver.solve(p);
      } else {
        const int v = solver.value(p);
        if (checking && check.value(p) != v) std::printf("MISMATCH deal %d\n", i);
      }
      const auto t1 = std::chrono::steady_clock::now();
      const std::clock_t c1 = std::clock();
      cpu_ms.push_back(1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      if (base && i % 2 == 0) run_base();
      nodes += static_cast<double>(solver.nodes());
      node_counts.push_back(static_cast<double>(solver.nodes()));
      if (std::getenv("ATOUT_SOLVER_SLOW") && solver.nodes() > 5000000) {
        std::printf("slow deal %d: %llu nodes, declarer %d, leader %d\n", i,
                    static_cast<unsigned long long>(solver.nodes()), p.declarer_team, p.current);
        for (int h = 0; h < 4; ++h) std::printf("  %s\n", to_string(p.hands[static_cast<std::size_t>(h)]).c_str());
      }
    }
    every.insert(every.end(), ms.begin(), ms.end());
    every_cpu.insert(every_cpu.end(), cpu_ms.begin(), cpu_ms.end());
    std::sort(ms.begin(), ms.end());
    std::sort(cpu_ms.begin(), cpu_ms.end());
    std::sort(node_counts.begin(), node_counts.end());
    std::printf("%-8s %-11s %7d %9.3f %9.3f %9.3f %9.3f %9.3f %11.0f %11.0f\n", c.variant, to_string(c.trump).c_str(),
                deals, ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back(), cpu_ms[cpu_ms.size() / 2],
                cpu_ms[cpu_ms.size() * 99 / 100], node_counts[node_counts.size() / 2], nodes / deals);
    if (base) {
      base_every.insert(base_every.end(), base_ms.begin(), base_ms.end());
      std::sort(base_ms.begin(), base_ms.end());
      std::printf("%-8s %-11s %7d %9.3f %9.3f %9.3f   (baseline)\n", "", "", deals, base_ms[base_ms.size() / 2],
                  base_ms[base_ms.size() * 99 / 100], base_ms.back());
    }
  }
  std::sort(every.begin(), every.end());
  std::sort(every_cpu.begin(), every_cpu.end());
  std::printf("%-20s %7zu %9.3f %9.3f %9.3f %9.3f %9.3f\n", "all", every.size(), every[every.size() / 2],
              every[every.size() * 99 / 100], every.back(), every_cpu[every_cpu.size() / 2],
              every_cpu[every_cpu.size() * 99 / 100]);
  if (base) {
    std::sort(base_every.begin(), base_every.end());
    std::printf("%-20s %7zu %9.3f %9.3f %9.3f   (baseline)\n", "all", base_every.size(),
                base_every[base_every.size() / 2], base_every[base_every.size() * 99 / 100], base_every.back());
  }
  return 0;
}
