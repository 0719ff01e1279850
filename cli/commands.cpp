// replay, legal and simulate: thin shells over the engine and the record format.
#include "commands.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "atout/protocol/engine_json.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"
#include "flags.hpp"
#include "record_input.hpp"

namespace atout::cli {

namespace {
using protocol::json;

// The inputs of replay and legal: they take no flags, so every argument but -h is an input.
FlagsOutcome inputs_of(const std::vector<std::string>& args, const std::string& cmd, std::ostream& err,
                       std::vector<std::string>& inputs) {
  std::vector<Flag> none;
  return parse_flags(none, args, cmd, err, &inputs);
}

json result_json(const State& s) {
  json hands = json::array();
  for (const HandResult& r : s.hand_results()) hands.push_back(protocol::to_json(r));
  json j = {{"variant", s.record().variant},
            {"options", protocol::to_json(s.record().options)},
            {"actions", s.record().actions.size()},
            {"complete", s.is_terminal()},
            {"phase", to_string(s.phase())},
            {"match_score", s.match_score()},
            {"hands", hands}};
  j["winner"] = s.winner() ? json(*s.winner()) : json(nullptr);
  j["next"] = s.is_terminal() ? json(nullptr) : json(s.current_player());
  return j;
}

}  // namespace

int run_replay(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::vector<std::string> inputs;
  const FlagsOutcome parsed = inputs_of(args, "replay", err, inputs);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout replay FILE|-\n\n"
           "Reads a record (docs/records.md), checks every action with the engine and prints the\n"
           "scored result as JSON. Exits 1 naming the first refused action's index and reason, and 2\n"
           "on input that is not a well-formed record.\n";
    return kExitOk;
  }
  std::unique_ptr<State> state;
  if (int rc = read_record("replay", inputs, in, err, state)) return rc;
  out << result_json(*state).dump(2) << "\n";
  return kExitOk;
}

namespace {
int legal_for_position(const json& j, std::ostream& out, std::ostream& err) {
  auto bad = [&](const std::string& m) {
    err << "atout legal: bad position: " << m << "\n";
    return kExitBadInput;
  };
  const auto v = j.find("variant");
  if (v == j.end() || !v->is_string()) return bad("needs a string field 'variant'");
  const VariantInfo* info = find_variant(v->get<std::string>());
  if (!info) return bad("unknown variant '" + v->get<std::string>() + "'");
  Options options;
  if (const auto o = j.find("options"); o != j.end()) {
    auto p = protocol::parse_options(*o);
    if (!p) return bad(p.error);
    options = *p.value;
  }
  if (auto e = normalise_options(*info, options)) return bad(e->message);
  const auto c = j.find("contract");
  if (c == j.end() || !c->is_object() || !c->contains("trump") || !(*c)["trump"].is_string())
    return bad("needs a field 'contract' with a string 'trump'");
  const auto trump = parse_trump((*c)["trump"].get<std::string>());
  if (!trump) return bad("'" + (*c)["trump"].get<std::string>() + "' is not a trump");
  const auto s = j.find("seat");
  if (s == j.end() || !s->is_number_integer() || s->get<long long>() < 0 || s->get<long long>() >= info->players)
    return bad("needs a field 'seat' between 0 and " + std::to_string(info->players - 1));
  const auto h = j.find("hand");
  if (h == j.end()) return bad("needs a field 'hand'");
  auto hand = protocol::parse_cards(*h);
  if (!hand) return bad("hand: " + hand.error);
  if (hand.value->empty()) return bad("the hand is empty");
  Trick trick;
  const Seat seat = static_cast<Seat>(s->get<int>());
  if (const auto t = j.find("trick"); t != j.end()) {
    if (!t->is_object()) return bad("'trick' must be an object with 'cards' (and optionally 'leader')");
    auto cards = protocol::parse_cards(t->value("cards", json::array()));
    if (!cards) return bad("trick: " + cards.error);
    const auto list = t->value("cards", json::array());
    if (static_cast<int>(list.size()) >= info->players) return bad("the trick already holds every seat's card");
    if (!(*cards.value & *hand.value).empty()) return bad("a card is both in the hand and in the trick");
    for (const json& x : list) trick.add(*protocol::parse_card(x).value, *trump);
    trick.leader = static_cast<Seat>((seat - trick.count + info->players) % info->players);
  }
  const PlayRules rules = info->play_rules(options);
  json legal = json::array();
  for (Card card : legal_plays(*hand.value, trick, *trump, rules))
    legal.push_back(protocol::to_json(Action::play(card)));
  out << json{{"seat", seat}, {"legal", legal}}.dump(2) << "\n";
  return kExitOk;
}
}  // namespace

int run_legal(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  std::vector<std::string> inputs;
  const FlagsOutcome parsed = inputs_of(args, "legal", err, inputs);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout legal FILE|-\n\n"
           "Given a record, prints the legal actions of the seat to act at its end. Given a position\n"
           "{\"variant\", \"options\"?, \"contract\": {\"trump\"}, \"seat\", \"hand\": [cards],\n"
           " \"trick\": {\"cards\": [cards in play order]}}, prints that seat's legal plays.\n";
    return kExitOk;
  }
  json j;
  if (int rc = read_json("legal", inputs, in, err, j)) return rc;
  if (j.is_object() && !j.contains("deal") && j.contains("hand")) return legal_for_position(j, out, err);
  std::unique_ptr<State> state;
  if (int rc = load_record("legal", j, err, state)) return rc;
  const Seat seat = state->current_player();
  json legal = json::array();
  for (const Action& a : state->legal_actions()) legal.push_back(protocol::to_json(a));
  out << json{{"phase", to_string(state->phase())},
              {"seat", seat == kNoSeat ? json(nullptr) : json(seat)},
              {"legal", legal}}
             .dump(2)
      << "\n";
  return kExitOk;
}

namespace {
int simulate_help(std::ostream& out) {
  out << "usage: atout simulate --variant V [--games N] [--seed S] [--options JSON]\n\n"
         "Plays N complete matches in which every seat picks uniformly among its legal actions,\n"
         "and prints a JSON summary. S is 32 hex digits or a decimal number (default 1); each\n"
         "game's seed is derived from it, so the same S always gives the same games.\n";
  return kExitOk;
}
}  // namespace

int run_simulate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string variant, options_text, games_text, seed_text;
  std::vector<Flag> flags = {
      {"--variant", &variant, true}, {"--games", &games_text}, {"--seed", &seed_text}, {"--options", &options_text}};
  const FlagsOutcome parsed = parse_flags(flags, args, "simulate", err);
  if (parsed == FlagsOutcome::help) return simulate_help(out);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  long long games = 1;
  if (flags[1].given) {
    try {
      std::size_t used = 0;
      games = std::stoll(games_text, &used);
      if (used != games_text.size()) throw std::invalid_argument(games_text);
    } catch (const std::exception&) {
      games = -1;
    }
    if (games < 1 || games > 10'000'000) {
      err << "atout simulate: --games must be a whole number from 1 to 10000000\n";
      return kExitBadInput;
    }
  }
  Seed seed{0, 1};
  if (flags[2].given) {
    if (auto s = Seed::parse(seed_text)) {
      seed = *s;
    } else if (!seed_text.empty() && seed_text.size() <= 19 &&
               seed_text.find_first_not_of("0123456789") == std::string::npos) {
      seed = Seed{0, std::stoull(seed_text)};
    } else {
      err << "atout simulate: --seed must be 32 hex digits or a decimal number\n";
      return kExitBadInput;
    }
  }
  Record header;
  header.variant = variant;
  if (!options_text.empty()) {
    auto j = protocol::parse_text(options_text);
    if (!j) {
      err << "atout simulate: --options: " << j.error << "\n";
      return kExitBadInput;
    }
    auto o = protocol::parse_options(*j.value);
    if (!o) {
      err << "atout simulate: --options: " << o.error << "\n";
      return kExitBadInput;
    }
    header.options = *o.value;
  }

  // An unknown variant is reported by create_state below; any seat count works until then.
  const VariantInfo* info = find_variant(variant);
  const int players = info ? info->players : 1;
  std::array<long long, 2> wins{};
  std::map<std::string, long long> outcomes;
  long long hands = 0, actions = 0, capots = 0;
  Rng policy(seed);
  std::vector<Action> legal;
  for (long long g = 0; g < games; ++g) {
    header.deal.seed = derive_deal_seed(seed, static_cast<std::uint64_t>(g));
    header.first_dealer = static_cast<Seat>(g % players);
    CreateResult c = create_state(header);
    if (c.error) {
      err << "atout simulate: " << c.error->code << ": " << c.error->message << "\n";
      return kExitBadInput;
    }
    State& s = *c.state;
    while (!s.is_terminal()) {
      s.legal_actions(legal);
      s.apply(legal[policy.below(static_cast<std::uint32_t>(legal.size()))]);
      ++actions;
    }
    for (const HandResult& r : s.hand_results()) {
      ++hands;
      ++outcomes[to_string(r.outcome)];
      capots += r.capot ? 1 : 0;
    }
    ++wins[static_cast<std::size_t>(*s.winner())];
  }
  json summary = {{"variant", variant},
                  {"games", games},
                  {"seed", seed.hex()},
                  {"hands", hands},
                  {"actions", actions},
                  {"wins", wins},
                  {"outcomes", json(outcomes)},
                  {"capots", capots},
                  {"options", protocol::to_json(header.options)}};
  out << summary.dump(2) << "\n";
  return kExitOk;
}

}  // namespace atout::cli
