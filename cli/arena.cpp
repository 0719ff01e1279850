// `atout arena`: two bot levels (or a level and the server's fallback action) on the same deals,
// each deal played twice with the sides swapped.
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string_view>

#include "atout/bots/bot.hpp"
#include "atout/fallback.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/state.hpp"
#include "commands.hpp"
#include "flags.hpp"

namespace atout::cli {

namespace {

int arena_help(std::ostream& out) {
  out << "usage: atout arena --variant V --a LEVEL --b LEVEL [--deals N] [--seed S] [--worlds W] [--matches M]\n"
         "  Plays N deals of V twice each (duplicate): A in seats 0 and 2 against B, then the same\n"
         "  cards with the sides swapped. LEVEL is random, rules, sampling, or fallback (the\n"
         "  server's cautious stand-in for a seat no bot answers). --worlds fixes the\n"
         "  sampling bot's worlds per card (default 20); --worlds 0 gives it its default budget of\n"
         "  300 ms a card instead (the play then depends on the machine's speed). Prints a summary,\n"
         "  then one JSON line: the mean score difference A-B per deal, the share of deals won by A\n"
         "  (A's two scores against B's on the same cards), the share of hands won, and the Elo\n"
         "  difference of A over B with its 95% interval (from the share of deals won). --matches M\n"
         "  also plays M whole matches twice each, sides swapped, and gives the share A won.\n";
  return kExitOk;
}

// Elo difference for a share of points won, kept finite at 0 and 1.
double elo(double share, double n) {
  const double p = std::clamp(share, 0.5 / n, 1 - 0.5 / n);
  return -400.0 * std::log10(1.0 / p - 1.0);
}

// A side's player: a bot level, or the server's fallback action.
struct Player {
  bool fallback = false;
  bots::Level level = bots::Level::rules;  // when not `fallback`
};

std::optional<Player> parse_player(std::string_view text) {
  if (text == "fallback") return Player{true};
  if (const auto level = bots::parse_level(text)) return Player{false, *level};
  return std::nullopt;
}

// One deal (or match) of `header` with A on team `a_team`, played to its end.
std::unique_ptr<State> play(const Record& header, int a_team, const Player& a, const Player& b, int worlds,
                            std::uint64_t seed_base, std::string& error) {
  auto created = create_state(header);
  if (created.error) {
    error = created.error->message;
    return nullptr;
  }
  std::unique_ptr<State> state = std::move(created.state);
  const Options& options = state->record().options;
  std::uint64_t n = 0;
  while (!state->is_terminal()) {
    const Seat seat = state->current_player();
    const Observation view = state->observation(seat);
    const Player& player = seat % 2 == a_team ? a : b;
    ++n;
    Action action;
    if (!player.fallback) {
      bots::Request r;
      r.level = player.level;
      r.view = &view;
      r.options = &options;
      r.seed = seed_base * 1000003u + n;
      r.budget.worlds = worlds;
      action = bots::decide(r).action;
    } else {
      action = fallback_action(view);
    }
    if (state->apply(seat, action) != Refusal::none) {
      error = "a bot chose an illegal action";
      return nullptr;
    }
  }
  return state;
}

Record header_of(const VariantInfo& info, Seed seed, long long index) {
  Record header;
  header.variant = info.id;
  normalise_options(info, header.options);
  header.deal.seeds = {derive_deal_seed(seed, static_cast<std::uint64_t>(index))};
  header.first_dealer = static_cast<Seat>(index % info.players);
  return header;
}

}  // namespace

int run_arena(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string variant, a_text, b_text, deals_text = "100", seed_text = "1", worlds_text = "20", matches_text = "0";
  std::vector<Flag> flags = {{"--variant", &variant, true}, {"--a", &a_text, true}, {"--b", &b_text, true},
                             {"--deals", &deals_text},      {"--seed", &seed_text}, {"--worlds", &worlds_text},
                             {"--matches", &matches_text}};
  const FlagsOutcome parsed = parse_flags(flags, args, "arena", err);
  if (parsed == FlagsOutcome::help) return arena_help(out);
  if (parsed == FlagsOutcome::bad) return kExitBadInput;
  const VariantInfo* info = find_variant(variant);
  if (!info) {
    err << "atout arena: unknown variant '" << variant << "'\n";
    return kExitBadInput;
  }
  const auto a = parse_player(a_text), b = parse_player(b_text);
  if (!a || !b) {
    err << "atout arena: --a and --b must be random, rules, sampling or fallback\n";
    return kExitBadInput;
  }
  const auto deals = whole_number(deals_text, 1, 1'000'000);
  const auto seed = whole_number(seed_text, 0, 1'000'000'000'000LL);
  const auto worlds = whole_number(worlds_text, 0, 10'000);
  const auto matches = whole_number(matches_text, 0, 100'000);
  if (!deals || !seed || !worlds || !matches) {
    err << "atout arena: --deals (1 to 1000000), --seed (a whole number), --worlds (0 to 10000) and --matches (0 to "
           "100000) must be whole numbers\n";
    return kExitBadInput;
  }
  const Seed hand_seed{0x61726e61ULL, static_cast<std::uint64_t>(*seed)};
  const Seed match_seed{0x6d617463ULL, static_cast<std::uint64_t>(*seed)};

  double diff_sum = 0, diff_sq = 0, hand_points = 0, deal_points = 0;
  int hands = 0;
  for (long long d = 0; d < *deals; ++d) {
    Record header = header_of(*info, hand_seed, d);
    header.hand_limit = 1;
    double diff = 0;
    for (int a_team = 0; a_team < 2; ++a_team) {
      std::string error;
      const auto state = play(header, a_team, *a, *b, static_cast<int>(*worlds),
                              static_cast<std::uint64_t>(d) * 2 + static_cast<std::uint64_t>(a_team), error);
      if (!state) {
        err << "atout arena: " << error << "\n";
        return kExitRefused;
      }
      const HandResult& h = state->hand_results().back();
      const int mine = h.teams[static_cast<std::size_t>(a_team)].score;
      const int theirs = h.teams[static_cast<std::size_t>(1 - a_team)].score;
      diff += mine - theirs;
      hand_points += mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
      ++hands;
    }
    // The deal as a duplicate pair: A won it when A's two results on these cards beat B's two.
    deal_points += diff > 0 ? 1.0 : diff == 0 ? 0.5 : 0.0;
    diff /= 2;
    diff_sum += diff;
    diff_sq += diff * diff;
  }
  // Whole matches, also duplicate: each match seed played with A on each side.
  double match_points = 0;
  for (long long m = 0; m < *matches; ++m) {
    Record header = header_of(*info, match_seed, m);
    header.deal.seed = header.deal.seeds.front();  // a whole match: one match seed, a deal seed per hand
    header.deal.seeds.clear();
    for (int a_team = 0; a_team < 2; ++a_team) {
      std::string error;
      const auto state =
          play(header, a_team, *a, *b, static_cast<int>(*worlds),
               (1ULL << 40) + static_cast<std::uint64_t>(m) * 2 + static_cast<std::uint64_t>(a_team), error);
      if (!state) {
        err << "atout arena: " << error << "\n";
        return kExitRefused;
      }
      const auto w = state->winner();
      match_points += !w ? 0.5 : *w == a_team ? 1.0 : 0.0;
    }
  }
  const double n = static_cast<double>(*deals);
  const double mean = diff_sum / n;
  const double sd = n > 1 ? std::sqrt(std::max(0.0, (diff_sq - n * mean * mean) / (n - 1))) : 0.0;
  const double hand_share = hand_points / hands;
  // The Elo figure comes from the deals, not the hands: the two hands of a deal share their cards,
  // so only the pair tells play from luck (a hand is won by whoever held the cards more often than
  // by whoever played them better).
  const double share = deal_points / n;
  const double se = std::sqrt(std::max(share * (1 - share), 0.25 / n) / n);
  // Rounded away from -0 so that an even result prints as 0.
  auto tidy = [](double x) { return std::fabs(x) < 0.05 ? 0.0 : x; };
  const double e = tidy(elo(share, n)), lo = elo(share - 1.96 * se, n), hi = elo(share + 1.96 * se, n);

  char line[512];
  std::snprintf(line, sizeof line,
                "%s: %s (A) against %s (B), %lld deals played twice\n"
                "mean score difference A-B per deal: %.2f (standard error %.2f)\n"
                "deals won by A: %.1f%% of %lld (both hands of a deal together)\n"
                "hands won by A: %.1f%% of %d\n"
                "Elo A-B: %.0f (95%% interval %.0f to %.0f), from the deals won\n",
                variant.c_str(), a_text.c_str(), b_text.c_str(), *deals, mean, sd / std::sqrt(n), 100 * share, *deals,
                100 * hand_share, hands, e, lo, hi);
  out << line;
  if (*matches > 0) {
    std::snprintf(line, sizeof line, "matches won by A: %.1f%% of %lld\n",
                  100 * match_points / static_cast<double>(2 * *matches), 2 * *matches);
    out << line;
  }
  protocol::json j = {{"variant", variant},  {"a", a_text},       {"b", b_text},    {"deals", *deals},
                      {"seed", *seed},       {"mean_diff", mean}, {"hands", hands}, {"hand_share", hand_share},
                      {"deal_share", share}, {"elo", e},          {"elo_low", lo},  {"elo_high", hi}};
  auto samples = [](const Player& p) { return !p.fallback && p.level == bots::Level::sampling; };
  if (samples(*a) || samples(*b)) {
    j["worlds"] = *worlds;
    if (*worlds == 0) j["budget_ms"] = bots::Budget{}.time.count();
  }
  if (*matches > 0) {
    j["matches"] = 2 * *matches;
    j["match_share"] = match_points / static_cast<double>(2 * *matches);
  }
  out << j.dump() << "\n";
  return kExitOk;
}

}  // namespace atout::cli
