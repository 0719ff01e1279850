// analyse, solve and hint: looking into the positions of a record. analyse and solve use the
// double-dummy solver, which needs every hand: a record names its deals, so the engine deals the
// same cards again. hint asks a bot, which sees only what the seat to act sees.
#include "atout/bots/analysis.hpp"

#include <iostream>

#include "atout/bots/bot.hpp"
#include "atout/bots/solver.hpp"
#include "commands.hpp"
#include "flags.hpp"
#include "record_input.hpp"

namespace atout::cli {

namespace {
using protocol::json;

json play_json(const bots::PlayCost& p) {
  return {{"action", p.action},
          {"seat", p.seat},
          {"card", protocol::to_json(p.card)},
          {"value", p.value},
          {"best", p.best},
          {"cost", p.cost},
          {"best_cards", protocol::to_json(p.best_cards)}};
}
}  // namespace

int run_analyse(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string deal_text;
  std::vector<Flag> flags = {{"--deal", &deal_text}};
  std::vector<std::string> inputs;
  const FlagsOutcome parsed = parse_flags(flags, args, "analyse", err, &inputs);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout analyse FILE|- [--deal N]\n\n"
           "Reads a record (a replay from the server is one) and, for every card played, solves the\n"
           "position before it with every hand known: the declaring side's final points with best\n"
           "play after the card (value) and after the seat's best card (best), and the points the card\n"
           "gave away (cost). Prints JSON: each deal's cards, and each seat's total cost. --deal N\n"
           "analyses deal N alone (numbered from 0). A deal of four hands takes up to seconds.\n";
    return kExitOk;
  }
  int only = -1;
  if (flags[0].given) {
    const auto d = whole_number(deal_text, 0, 1'000'000);
    if (!d) {
      err << "atout analyse: --deal must be a whole number from 0\n";
      return kExitBadInput;
    }
    only = static_cast<int>(*d);
  }
  std::unique_ptr<State> state;
  if (int rc = read_record("analyse", inputs, in, err, state)) return rc;
  const Record& record = state->record();
  // Deals dealt so far: the finished ones, and the one in progress if it has begun.
  const int dealt = state->deal().hand + 1;
  if (only >= dealt) {
    err << "atout analyse: the record has no deal " << only << " (deals 0 to " << dealt - 1 << ")\n";
    return kExitBadInput;
  }
  bots::Solver solver;
  json deals = json::array();
  std::vector<int> given(static_cast<std::size_t>(state->players()), 0);
  for (int d = only < 0 ? 0 : only; d < (only < 0 ? dealt : only + 1); ++d) {
    const bots::AnalysisResult r = bots::analyse_deal(record, d, solver);
    if (r.error) {
      err << "atout analyse: deal " << d << ": " << r.error->message << "\n";
      return kExitBadInput;
    }
    json plays = json::array();
    for (const bots::PlayCost& p : r.analysis->plays) {
      plays.push_back(play_json(p));
      given[static_cast<std::size_t>(p.seat)] += p.cost;
    }
    deals.push_back({{"deal_number", d},
                     {"declarer", r.analysis->declarer == kNoSeat ? json(nullptr) : json(r.analysis->declarer)},
                     {"plays", plays}});
  }
  out << json{{"variant", record.variant}, {"deals", deals}, {"cost_by_seat", given}}.dump(2) << "\n";
  return kExitOk;
}

int run_solve(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::vector<std::string> inputs;
  std::vector<Flag> none;
  const FlagsOutcome parsed = parse_flags(none, args, "solve", err, &inputs);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout solve FILE|-\n\n"
           "Reads a record that ends in the play phase and prints, for the seat to play, each legal\n"
           "card's double-dummy value: the declaring side's final points in the deal (card points and\n"
           "last trick, or the capot value) with every hand known and best play by both sides after it.\n";
    return kExitOk;
  }
  std::unique_ptr<State> state;
  if (int rc = read_record("solve", inputs, in, err, state)) return rc;
  const std::optional<bots::Position> p = bots::position_from(*state);
  if (!p) {
    err << "atout solve: the record ends in phase '" << to_string(state->phase()) << "', not with a card to play\n";
    return kExitBadInput;
  }
  bots::Solver solver;
  const bots::Solution s = solver.solve(*p);
  json cards = json::array();
  for (const bots::CardValue& c : s.cards) cards.push_back({{"card", protocol::to_json(c.card)}, {"value", c.value}});
  out << json{{"seat", p->current}, {"declarer", state->observation(kNoSeat).contract->taker},
              {"value", s.value},   {"best", protocol::to_json(s.best)},
              {"cards", cards},     {"nodes", s.nodes}}
             .dump(2)
      << "\n";
  return kExitOk;
}

int run_hint(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::string level_text = "sampling", worlds_text = "20", seed_text = "1";
  std::vector<Flag> flags = {{"--level", &level_text}, {"--worlds", &worlds_text}, {"--seed", &seed_text}};
  std::vector<std::string> inputs;
  const FlagsOutcome parsed = parse_flags(flags, args, "hint", err, &inputs);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout hint FILE|- [--level L] [--worlds W] [--seed S]\n\n"
           "Reads a record and asks a bot what the seat to act at its end should do, seeing only what\n"
           "that seat sees. Prints the action and the bot's reason: for the sampling bot's cards, how\n"
           "many consistent deals it solved and each legal card's average of the declaring side's\n"
           "points over them. L is random, rules or sampling (default); W fixes the sampled deals\n"
           "(1 to 10000, default 20) and S the bot's randomness (default 1), so a hint is reproducible.\n";
    return kExitOk;
  }
  const auto level = bots::parse_level(level_text);
  if (!level) {
    err << "atout hint: --level must be random, rules or sampling, not '" << level_text << "'\n";
    return kExitBadInput;
  }
  const auto worlds = whole_number(worlds_text, 1, 10'000);
  const auto seed = whole_number(seed_text, 0, 1'000'000'000'000LL);
  if (!worlds || !seed) {
    err << "atout hint: --worlds (1 to 10000) and --seed (a whole number) need whole numbers\n";
    return kExitBadInput;
  }
  std::unique_ptr<State> state;
  if (int rc = read_record("hint", inputs, in, err, state)) return rc;
  const Seat seat = state->current_player();
  if (seat == kNoSeat) {
    err << "atout hint: the match in the record is over; no seat is to act\n";
    return kExitBadInput;
  }
  const Observation view = state->observation(seat);
  bots::Request request;
  request.level = *level;
  request.view = &view;
  request.options = &state->record().options;
  request.seed = static_cast<std::uint64_t>(*seed);
  request.budget.worlds = static_cast<int>(*worlds);
  const bots::Decision d = bots::decide(request);
  out << json{{"seat", seat},
              {"level", bots::to_string(*level)},
              {"action", protocol::to_json(d.action)},
              {"reason", d.reason}}
             .dump(2)
      << "\n";
  return kExitOk;
}

}  // namespace atout::cli
