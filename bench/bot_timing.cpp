// Decision times of the built-in bots at their default budget: seeded deals of each variant played
// to their end by four bots of one level, every decision timed (wall clock and the thread's CPU
// time), and p50, p99 and max printed in microseconds per variant and kind of decision (a bid or any other
// auction or announcement call, and a card played). One core: the bots run one at a time. For the
// sampling bot's cards, also the worlds it solved (read from its reason): their mean, and the 10th
// percentile, which is the decisions that used the whole budget.
// Usage: atout_bot_timing LEVEL [deals] [variant...]   (LEVEL: random, rules or sampling)
// ATOUT_BOT_TIMING_OVER=1 also prints every decision over the default 300 ms, with its reason.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "atout/bots/bot.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace {

using namespace atout;

double thread_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e6 * static_cast<double>(t.tv_sec) + 1e-3 * static_cast<double>(t.tv_nsec);
}

double at(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

struct Times {
  std::vector<double> wall, cpu;
  std::vector<double> worlds;  // card decisions that solved worlds: how many
};

// The sampling bot's reason starts "N worlds, ..." when it solved N worlds; 0 otherwise.
double worlds_of(const std::string& reason) {
  const std::size_t space = reason.find(' ');
  if (space == std::string::npos || reason.compare(space, 7, " worlds") != 0) return 0;
  return std::atof(reason.substr(0, space).c_str());
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

}  // namespace

int main(int argc, char** argv) {
  const auto level = argc > 1 ? bots::parse_level(argv[1]) : std::nullopt;
  if (!level) {
    std::fprintf(stderr, "usage: atout_bot_timing random|rules|sampling [deals] [variant...]\n");
    return 2;
  }
  const int deals = argc > 2 ? std::atoi(argv[2]) : 20;
  std::vector<std::string> variants;
  for (int i = 3; i < argc; ++i) variants.emplace_back(argv[i]);
  if (variants.empty()) variants = {"french", "coinche", "belot", "bazar", "duel", "simple"};

  std::printf("%-8s %-9s %-5s %9s %9s %9s %9s %9s %9s %11s %10s\n", "variant", "level", "kind", "decisions", "p50_us",
              "p99_us", "max_us", "cpu_p50", "cpu_p99", "worlds_mean", "worlds_p10");
  for (const std::string& v : variants) {
    const VariantInfo* info = find_variant(v);
    if (!info) {
      std::fprintf(stderr, "atout_bot_timing: unknown variant %s\n", v.c_str());
      return 2;
    }
    Times bids, plays;
    for (int d = 0; d < deals; ++d) {
      Record header;
      header.variant = info->id;
      normalise_options(*info, header.options);
      header.deal.seeds = {derive_deal_seed(Seed{0xb07, 1}, static_cast<std::uint64_t>(d))};
      header.first_dealer = static_cast<Seat>(d % info->players);
      header.hand_limit = 1;  // one deal
      auto created = create_state(header);
      if (created.error) {
        std::fprintf(stderr, "atout_bot_timing: %s\n", created.error->message.c_str());
        return 1;
      }
      State& state = *created.state;
      std::uint64_t n = 0;
      while (!state.is_terminal()) {
        const Seat seat = state.current_player();
        const Observation view = state.observation(seat);
        bots::Request r;
        r.level = *level;
        r.view = &view;
        r.options = &state.record().options;
        r.seed = static_cast<std::uint64_t>(d) * 1000003u + ++n;  // the default budget: 300 ms
        const double c0 = thread_cpu_us();
        const auto t0 = std::chrono::steady_clock::now();
        const bots::Decision decision = bots::decide(r);
        const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        Times& into = decision.action.type == ActionType::play ? plays : bids;
        into.wall.push_back(wall);
        into.cpu.push_back(thread_cpu_us() - c0);
        if (const double w = worlds_of(decision.reason); w > 0) into.worlds.push_back(w);
        if (std::getenv("ATOUT_BOT_TIMING_OVER") && wall > 300000)  // what a decision over the default budget did
          std::printf("over: %s deal %d, %.1f us: %s\n", v.c_str(), d, wall, decision.reason.substr(0, 120).c_str());
        if (state.apply(seat, decision.action) != Refusal::none) {
          std::fprintf(stderr, "atout_bot_timing: a bot chose an illegal action\n");
          return 1;
        }
      }
    }
    for (const auto& [kind, t] : {std::pair<const char*, const Times*>{"bid", &bids}, {"play", &plays}})
      std::printf("%-8s %-9s %-5s %9zu %9.1f %9.1f %9.1f %9.1f %9.1f %11.1f %10.0f\n", v.c_str(), argv[1], kind,
                  t->wall.size(), at(t->wall, 0.5), at(t->wall, 0.99), at(t->wall, 1.0), at(t->cpu, 0.5),
                  at(t->cpu, 0.99), mean(t->worlds), at(t->worlds, 0.1));
    std::fflush(stdout);
  }
  return 0;
}
