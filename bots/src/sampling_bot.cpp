// The sampling bot: card play by sampling consistent worlds and solving each double-dummy.
//
// Each sampled world completes the hidden hands consistently with the seat's view, and is kept in
// proportion to how well it explains the other seats' plays and bids (play_inference.hpp,
// bid_inference.hpp); the solver values every legal card in it exactly, and the card with the best
// average over the worlds is played (for the defence, the lowest average of the declarer's points).
// Bids, doubles and declarations are the rules bot's: takes valued by simulation (deals solved
// double-dummy under every trump) were measured, and double-dummy play is too kind to the taker to
// beat them.
#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "atout/bots/bid_inference.hpp"
#include "atout/bots/play_inference.hpp"
#include "atout/bots/solver.hpp"
#include "atout/bots/worlds.hpp"
#include "levels.hpp"

namespace atout::bots {

namespace {

constexpr int kMaxWorlds = 400;  // a time budget stops here even on a fast machine

// The position the seat sees, every hand still to be filled in by a world: the same for every
// world of a decision, so worked out once (the card values alone were 7 % of a decision's time).
std::optional<Position> position_seen(const Observation& view, const Options& options) {
  const VariantInfo* info = find_variant(view.variant);
  if (!info || !info->play_rules || !view.contract) return std::nullopt;
  const auto value = hand_value(view.variant, options, view.contract->trump);
  if (!value) return std::nullopt;
  Position p;
  p.trump = view.contract->trump;
  p.rules = info->play_rules(options);
  p.value = *value;
  p.trick = view.trick;
  p.current = view.seat;
  p.declarer_team = view.contract->taker % 2;
  for (const Trick& t : view.tricks) {
    const auto team = static_cast<std::size_t>(seat_of(t, t.win, p.rules.players) % 2);
    for (int i = 0; i < t.count; ++i) p.points[team] += p.value.points[static_cast<std::size_t>(t.cards[i].index())];
    ++p.tricks_won[team];
  }
  return p;
}

constexpr auto kNoDeadline = std::chrono::steady_clock::time_point::max();
constexpr int kDrawsPerWorld = 32;  // worlds drawn for one solved, at most

// The misses of every world drawn in one decision. Late in a hand few deals remain and the same
// ones are drawn again and again, while each solves from the solver's table in a microsecond:
// counting a world's misses once keeps the reading from being most of the decision.
class MissCounts {
 public:
  MissCounts(const PlayInference& plays, BidInference& bids) : plays_(plays), bids_(bids) {}

  int of(const World& w) {
    const Key key{(std::uint64_t{w.hands[0].bits()} << 32) | w.hands[1].bits(),
                  (std::uint64_t{w.hands[2].bits()} << 32) | w.hands[3].bits()};
    const auto [it, fresh] = counts_.try_emplace(key, 0);
    if (fresh) it->second = plays_.misses(w, std::numeric_limits<int>::max()) + bids_.misses(w);
    return it->second;
  }

 private:
  struct Key {
    std::uint64_t lo = 0, hi = 0;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return static_cast<std::size_t>(k.lo * 0x9e3779b97f4a7c15ULL ^ k.hi); }
  };
  const PlayInference& plays_;
  BidInference& bids_;
  // Open addressing in one block: thousands of worlds a decision, and a map of nodes took a
  // millisecond or more to free once the budget was spent.
  boost::unordered_flat_map<Key, int, KeyHash> counts_;
};

// A world drawn in proportion to how well it explains the other seats' plays and bids: each sampled
// world is kept with probability kMiss to the power of the plays and bids the rules bot would not
// have made in it (so the kept worlds follow the sampler's uniform draw weighted by that power).
// When no draw is kept, the one with the fewest misses is used (the first among equals).
// Under a time budget the draw stops at `deadline` (kNoDeadline: never) with nothing (`gave_up`
// set): reading a fresh world's misses costs tens of microseconds, and 32 of them can be slower
// than any world before.
std::optional<World> draw(const WorldSampler& sampler, MissCounts& counts, Rng& rng,
                          std::chrono::steady_clock::time_point deadline, bool& gave_up) {
  constexpr double miss = PlayInference::kMiss;
  std::optional<World> best;
  int best_misses = std::numeric_limits<int>::max();
  for (int i = 0; i < kDrawsPerWorld; ++i) {
    if (deadline != kNoDeadline && std::chrono::steady_clock::now() >= deadline) {
      gave_up = true;
      return std::nullopt;
    }
    std::optional<World> w = sampler.sample(rng);
    if (!w) return best;
    // Kept when miss^m > u, that is when m < log(u) / log(miss).
    const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
    const double bound = u > 0 ? std::ceil(std::log(u) / std::log(miss)) : 64;
    const int m = counts.of(*w);
    if (m < bound) return w;
    if (m < best_misses) {
      best_misses = m;
      best = std::move(w);
    }
  }
  return best;
}

std::string format_average(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

Decision decide_sampling(const Request& request) {
  // The budget counts from here: reading the bids and plays and setting up the sampler are part of
  // the decision's time, as whoever waits for it sees.
  const auto start = std::chrono::steady_clock::now();
  const Observation& view = *request.view;
  const Options& options = *request.options;
  CardSet plays;
  for (const Action& a : view.legal)
    if (a.type == ActionType::play) plays.insert(a.card);
  // Announcing and showing come before the card, as the rules bot does them.
  bool declares = false;
  for (const Action& a : view.legal)
    declares = declares || a.type == ActionType::announce || a.type == ActionType::show;
  if (plays.empty() || declares || !view.contract) {
    Decision d = decide_rules(view, options);
    d.reason = "rules: " + d.reason;
    return d;
  }
  if (plays.size() == 1) return {Action::play(plays.first()), "the only card"};

  const WorldSampler sampler(view, options);
  if (!sampler.valid()) {
    Decision d = decide_rules(view, options);
    d.reason = "no consistent world; rules: " + d.reason;
    return d;
  }
  const PlayInference plays_read(view, options);
  BidInference bids_read(view, options);
  MissCounts counts(plays_read, bids_read);
  Rng rng(Seed{request.seed, 0x243f6a8885a308d3ULL});
  // One solver per thread: its table is reused across decisions, and the values it returns are
  // exact whatever the table holds, so reuse keeps decisions deterministic.
  thread_local Solver solver;
  const bool declarer = view.contract->taker % 2 == view.seat % 2;
  std::map<int, double> sum;  // by card index: the declaring side's points, summed over worlds
  const int fixed = request.budget.worlds;
  // A fixed world count has no deadline, so that its decisions do not depend on the machine.
  const auto deadline = fixed > 0 ? kNoDeadline : start + request.budget.time;
  const std::optional<Position> seen = position_seen(view, options);
  int solved = 0;
  bool out_of_time = false;  // a world was given up
  // The longest a world took so far, its sampling included: the guess at what the next one takes.
  auto slowest = std::chrono::steady_clock::duration::zero();
  for (int attempt = 0; seen && attempt < (fixed > 0 ? fixed : kMaxWorlds); ++attempt) {
    const auto world_start = std::chrono::steady_clock::now();
    // After the first world, a world starts only if it should end in time.
    if (fixed <= 0 && solved > 0 && !request.budget.fits(world_start - start, slowest)) break;
    bool gave_up = false;
    const std::optional<World> w = draw(sampler, counts, rng, deadline, gave_up);
    if (gave_up) {
      out_of_time = true;
      break;
    }
    if (!w) continue;
    Position p = *seen;
    p.hands = w->hands;
    // Under a time budget, a world still unsolved at its end is given up and not counted.
    std::optional<Solution> s;
    if (fixed > 0)
      s = solver.solve(p);
    else
      s = solver.solve(p, deadline);
    if (!s) {
      out_of_time = true;
      break;
    }
    slowest = std::max(slowest, std::chrono::steady_clock::now() - world_start);
    for (const CardValue& cv : s->cards) sum[cv.card.index()] += cv.value;
    ++solved;
  }
  if (solved == 0) {
    Decision d = decide_rules(view, options);
    d.reason = std::string(out_of_time ? "no world solved in time" : "no world sampled") + "; rules: " + d.reason;
    return d;
  }
  // The declarer maximises its points, the defence minimises them; ties go to the lower index.
  Card best = plays.first();
  double best_value = 0;
  bool first = true;
  std::string reason = std::to_string(solved) + " worlds, the declarer's average:";
  for (Card c : plays) {
    const double avg = sum[c.index()] / solved;
    reason.append(" ").append(to_string(c)).append(" ").append(format_average(avg));
    if (first || (declarer ? avg > best_value : avg < best_value)) {
      best = c;
      best_value = avg;
      first = false;
    }
  }
  return {Action::play(best), reason};
}

}  // namespace atout::bots
