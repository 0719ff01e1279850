// Where the rules bot's card play differs from the sampling bot's, and what the difference costs by
// the sampling bot's own measure: matches of the rules bot against the random bot (the rules bot
// on one side, alternating by match), and at each card the rules bot plays from two or more, the
// sampling bot is asked for its per-card averages of the declarer's points over the same view. A
// card's gap is how far the rules bot's card falls short of the best average (for its side: more
// points as the taker, fewer as the defence). The gaps are summed by the rules bot's reason and
// side, and, where the two bots differ by more than half a point, by the kind of card the sampling
// bot preferred. Sampled worlds are solved as if every card were seen, so a gap is a lead to
// follow, not a proof: a rule suggested by it must be measured in the arena.
// Usage: atout_rules_gaps [matches] [worlds] [variant]   (defaults: 100, 30, duel)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "atout/bots/bot.hpp"
#include "atout/bots/solver.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace {

using namespace atout;

struct Gap {
  int decisions = 0;
  int differ = 0;  // the sampling bot's best beats the rules bot's card by more than half a point
  double total = 0;
};

// The sampling bot's reason ends with "the declarer's average:" and a card and its average for
// each legal card.
std::map<std::string, double> averages_of(const std::string& reason) {
  std::map<std::string, double> out;
  const std::size_t at = reason.find("average:");
  if (at == std::string::npos) return out;
  std::istringstream in(reason.substr(at + 8));
  std::string card;
  double value = 0;
  while (in >> card >> value) out[card] = value;
  return out;
}

// What kind of card the sampling bot preferred, next to the rules bot's.
std::string kind_of(Card preferred, Card played, Trump trump, const bots::HandValue& values) {
  std::string kind = trump.is_trump_suit(preferred.suit())                              ? "a trump"
                     : values.points[static_cast<std::size_t>(preferred.index())] >= 10 ? "a plain card of 10 or more"
                                                                                        : "a plain card under 10";
  return kind + (preferred.suit() == played.suit() ? " of the same suit" : " of another suit");
}

void print(const std::map<std::string, Gap>& gaps, const char* title) {
  std::vector<std::pair<double, std::string>> rows;
  for (const auto& [key, g] : gaps) rows.emplace_back(g.total, key);
  std::sort(rows.rbegin(), rows.rend());
  std::printf("%s\n%10s %9s %8s %7s  %s\n", title, "total gap", "decisions", "mean", "differ", "what");
  for (const auto& [total, key] : rows) {
    const Gap& g = gaps.at(key);
    std::printf("%10.1f %9d %8.2f %6.1f%%  %s\n", total, g.decisions, total / g.decisions,
                100.0 * g.differ / g.decisions, key.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int matches = argc > 1 ? std::atoi(argv[1]) : 100;
  const int worlds = argc > 2 ? std::atoi(argv[2]) : 30;
  const std::string variant = argc > 3 ? argv[3] : "duel";
  if (matches <= 0 || worlds <= 0 || !find_variant(variant)) {
    std::fprintf(stderr, "usage: atout_rules_gaps [matches > 0] [worlds > 0] [variant]\n");
    return 2;
  }
  std::map<std::string, Gap> by_reason, by_preference;
  std::uint64_t decision = 0;
  int unvalued = 0;
  for (int m = 0; m < matches; ++m) {
    Record header;
    header.variant = variant;
    header.deal.seed = Seed{0x9a95, static_cast<std::uint64_t>(m)};
    auto created = create_state(header);
    if (created.error) {
      std::fprintf(stderr, "atout_rules_gaps: %s\n", created.error->message.c_str());
      return 1;
    }
    std::unique_ptr<State> state = std::move(created.state);
    const Options options = state->record().options;
    const int rules_side = m % 2;
    for (int steps = 0; !state->is_terminal() && steps < 20000; ++steps) {
      const Seat seat = state->current_player();
      const Observation view = state->observation(seat);
      bots::Request request;
      request.view = &view;
      request.options = &options;
      request.seed = ++decision;
      const bool rules = seat % 2 == rules_side;
      request.level = rules ? bots::Level::rules : bots::Level::random;
      const bots::Decision d = bots::decide(request);
      const int cards = static_cast<int>(std::count_if(view.legal.begin(), view.legal.end(),
                                                       [](const Action& a) { return a.type == ActionType::play; }));
      if (rules && d.action.type == ActionType::play && cards >= 2 && view.contract) {
        bots::Request ask = request;
        ask.level = bots::Level::sampling;
        ask.budget.worlds = worlds;
        const std::map<std::string, double> avg = averages_of(bots::decide(ask).reason);
        const auto mine = avg.find(to_string(d.action.card));
        if (mine == avg.end()) {
          ++unvalued;  // the sampling bot fell back to the rules bot: no averages
        } else {
          const bool taker = view.contract->taker % 2 == seat % 2;
          auto better = [taker](const auto& a, const auto& b) {
            return taker ? a.second < b.second : a.second > b.second;
          };
          const auto best = std::max_element(avg.begin(), avg.end(), better);
          const double gap = taker ? best->second - mine->second : mine->second - best->second;
          const std::string key =
              d.reason + (taker ? " (taker, " : " (defence, ") + (view.trick.empty() ? "leading)" : "following)");
          Gap& g = by_reason[key];
          ++g.decisions;
          g.total += gap;
          if (gap > 0.5) {
            ++g.differ;
            const Card preferred = parse_card(best->first).value_or(d.action.card);
            // Every registered variant has card values; the variant was checked above.
            const Trump trump = view.contract->trump;
            const bots::HandValue values = *bots::hand_value(variant, options, trump);
            Gap& p = by_preference[key + " -> " + kind_of(preferred, d.action.card, trump, values)];
            ++p.decisions;
            ++p.differ;
            p.total += gap;
          }
        }
      }
      if (state->apply(seat, d.action) != Refusal::none) {
        std::fprintf(stderr, "atout_rules_gaps: a bot's action was refused\n");
        return 1;
      }
    }
  }
  std::printf(
      "%s: %d matches, rules against random, %d worlds a card; %d of the rules bot's cards left out (the "
      "sampling bot found no world and gave no averages)\n\n",
      variant.c_str(), matches, worlds, unvalued);
  print(by_reason, "By the rules bot's reason:");
  std::printf("\n");
  print(by_preference, "Where they differ, by what the sampling bot preferred:");
  return 0;
}
