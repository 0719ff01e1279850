// `atout verify-deal`: recompute a deal from its revealed seed and check the published commitment.
#include <iostream>
#include <map>

#include "atout/fair_deal.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"
#include "commands.hpp"
#include "flags.hpp"

namespace atout::cli {

int run_verify_deal(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::map<std::string, std::string> v;
  std::vector<Flag> flags;  // the required ones first, in the order their absence is reported
  for (const char* required : {"--seed", "--match", "--hand", "--commitment"})
    flags.push_back({required, &v[required], true});
  for (const char* optional : {"--variant", "--dealer"}) flags.push_back({optional, &v[optional]});
  const FlagsOutcome parsed = parse_flags(flags, args, "verify-deal", err);
  if (parsed == FlagsOutcome::help) {
    out << "usage: atout verify-deal --seed HEX --match ID --hand N --commitment HEX\n"
           "                         [--variant V] [--dealer D]\n\n"
           "Checks that HEX (the seed revealed after hand N of match ID) is the one the server\n"
           "committed to before the deal: the commitment must equal\n"
           "  SHA-256(\"atout-deal-commit/1\\n\" + seed + \"\\n\" + ID + \"\\n\" + N).\n"
           "With --variant, also prints the deck order the seed gives and each seat's first\n"
           "cards, dealt as the variant deals with D (default 0) as dealer. Exit code 0: the\n"
           "commitment matches; 1: it does not (the deal was not the one committed to); 2: bad input.\n"
           "Deals under the `deal: cut` option depend on the previous hand and are not covered.\n";
    return kExitOk;
  }
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  for (const Flag& f : flags)
    if (!f.given) v.erase(f.name);
  const auto seed = Seed::parse(v["--seed"]);
  if (!seed) {
    err << "atout verify-deal: --seed must be 32 hex digits\n";
    return kExitBadInput;
  }
  auto small_number = [&](const std::string& name, int max, int& outv) {
    const std::string& t = v[name];
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos || std::stoi(t) > max) {
      err << "atout verify-deal: " << name << " must be a whole number from 0 to " << max << "\n";
      return false;
    }
    outv = std::stoi(t);
    return true;
  };
  int hand = 0;
  if (!small_number("--hand", 1'000'000, hand)) return kExitBadInput;
  std::string commitment = v["--commitment"];
  for (char& c : commitment) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (commitment.size() != 64 || commitment.find_first_not_of("0123456789abcdef") != std::string::npos) {
    err << "atout verify-deal: --commitment must be 64 hex digits\n";
    return kExitBadInput;
  }

  const std::string expected = deal_commitment(*seed, v["--match"], hand);
  protocol::json report = {{"match", v["--match"]},    {"hand", hand},           {"seed", seed->hex()},
                           {"commitment", commitment}, {"recomputed", expected}, {"ok", expected == commitment}};
  if (v.count("--variant")) {
    const VariantInfo* info = find_variant(v["--variant"]);
    if (!info) {
      err << "atout verify-deal: unknown variant '" << v["--variant"] << "'\n";
      return kExitBadInput;
    }
    int dealer = 0;
    if (v.count("--dealer") && !small_number("--dealer", info->players - 1, dealer)) return kExitBadInput;
    Record r;
    r.variant = info->id;
    r.deal.seeds = {*seed};
    r.hand_limit = 1;
    r.first_dealer = static_cast<Seat>(dealer);
    CreateResult created = create_state(r);
    if (!created.state) {
      err << "atout verify-deal: " << created.error->message << "\n";
      return kExitBadInput;
    }
    const CardSet deck = info->deck_size == 24 ? CardSet::deck24() : CardSet::deck32();
    protocol::json order = protocol::json::array();
    for (Card c : shuffled_deck(*seed, deck)) order.push_back(to_string(c));
    report["deck"] = order;
    protocol::json hands = protocol::json::array();
    for (const CardSet& h : created.state->hands()) hands.push_back(protocol::to_json(h));
    report["first_cards"] = hands;
    report["dealer"] = dealer;
    if (auto up = created.state->observation(kNoSeat).turn_up) report["turn_up"] = to_string(*up);
  }
  if (expected != commitment) {
    // Like every failing command, nothing on standard output.
    err << "atout verify-deal: the commitment does not match this seed, match and hand: the seed " << seed->hex()
        << " commits to " << expected << "\n";
    return kExitRefused;
  }
  out << report.dump(2) << "\n";
  return kExitOk;
}

}  // namespace atout::cli
