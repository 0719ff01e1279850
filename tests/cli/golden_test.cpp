// Golden transcripts: seeded random matches and their `atout replay` output, stored under tests/data/golden/.
//
// Each case below is a complete match whose deal seed, first dealer, options and policy seed are fixed here. The
// policy is uniform over the legal actions: legal[rng.below(n)] with an atout::Rng seeded by the policy seed. Two
// files per case:
//   <name>.record.json  the match record (atout::protocol::to_json(record).dump(2) and a newline)
//   <name>.replay.json  what `atout replay <name>.record.json` prints
// The tests fail loudly when either changes: when the engine plays a different match from the same seeds, or when
// the CLI scores a stored record differently.
//
// To regenerate on purpose, after a deliberate change of rules, scoring or format (and review the diff!):
//   ATOUT_UPDATE_GOLDEN=1 ./build/tests/atout_cli_tests --gtest_filter='*CliGolden*'
// The tests then rewrite the files in the source tree (tests/data/golden/) before checking them.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace atout::cli_test {
namespace {

struct GoldenCase {
  const char* name;
  const char* variant;
  const char* options;  // JSON
  Seed deal;
  Seed policy;
  Seat dealer;
  int target;  // the match target these options give
  // The policy; nullptr is uniform (legal[rng.below(n)]).
  std::size_t (*choose)(const std::vector<Action>& legal, Rng& rng) = nullptr;
};
// Bazar's "low bids" policy: uniform play makes every Bazar auction climb to the highest bid, so
// this case bids low. In the auction: draw rng.below(6); 0-2 pass; 3 takes legal[1] (a contra or
// re-contra when one is offered, else the lowest bid); 4-5 one of the five lowest bids. In play:
// uniform, like the other cases.
std::size_t low_bids(const std::vector<Action>& legal, Rng& rng) {
  const auto n = static_cast<std::uint32_t>(legal.size());
  if (legal.front().type != ActionType::pass) return rng.below(n);  // play: no pass
  const std::uint32_t r = rng.below(6);
  if (r < 3 || n == 1) return 0;
  if (r == 3) return 1;
  std::size_t first = 1;
  while (first < legal.size() && legal[first].type != ActionType::bid) ++first;
  if (first == legal.size()) return 0;
  return std::min<std::size_t>(legal.size() - 1, first + rng.below(5));
}

// The seeds were picked (by trying policy seeds in order) so that the matches cover most outcomes: made and failed
// contracts, a capot, belote, declarations, a litige carried to the next hand (french_default, duel) and deals
// passed by everybody (french_options then cuts the passed deal; duel). The coinche cases cover All Trumps, No
// Trumps and suit contracts, coinche and surcoinche made and failed, a capot bid, belote and declarations.
const GoldenCase kCases[] = {
    {"french_default", "french", "{}", Seed{0x601de4, 1}, Seed{0x9011c7, 1}, 0, 501},
    {"french_options", "french",
     R"({"declarations": false, "capot": 252, "tie": "tie_loses", "deal": "cut", "target": 701})", Seed{0x601de4, 1879},
     Seed{0x9011c7, 1879}, 0, 701},
    {"duel", "duel", "{}", Seed{0x601de4, 1034}, Seed{0x9011c7, 1034}, 0, 1001},
    {"coinche_default", "coinche", "{}", Seed{0x601de4, 4024}, Seed{0x9011c7, 4024}, 0, 501},
    {"coinche_options", "coinche",
     R"({"scoring": "contract_only", "declare": "manual", "deal": "cut", "all_trumps_belote": "none", "target": 701})",
     Seed{0x601de4, 243}, Seed{0x9011c7, 243}, 0, 701},
    {"belot_default", "belot", "{}", Seed{0x601de4, 15976}, Seed{0x9011c7, 15976}, 0, 151},
    {"belot_options", "belot",
     R"({"declare": "manual", "tie": "inside", "double_scoring": "each_side", "no_trumps_double": true, )"
     R"("strictly_ahead": false, "deal": "cut"})",
     Seed{0x601de4, 16982}, Seed{0x9011c7, 16982}, 0, 151},
    // Uniform play climbs every Bazar auction to 84 (capot bids, a re-contra, failed contracts);
    // the low-bids case has made and failed contracts, with and without contra, a re-contra, a passed
    // deal then cut, declarations shown and belote.
    {"bazar", "bazar", "{}", Seed{0x601de4, 266}, Seed{0x9011c7, 266}, 0, 101},
    {"bazar_low_bids", "bazar", R"({"undertrump": "forced", "deal": "cut", "target": 51})", Seed{0x601de4, 856},
     Seed{0x9011c7, 856}, 0, 51, low_bids},
    // simple: made and failed, kaput, belote, shown combinations, no trump, the forced Jack, the obliged choice,
    // another trump with and without the offered card; the default match also has concessions, the other deals
    // played to the last trick (`target` is 3 deals won there).
    {"simple", "simple", "{}", Seed{0x601de4, 527}, Seed{0x9011c7, 527}, 0, 1001},
    {"simple_games", "simple", R"({"concede": false, "match": "games_3"})", Seed{0x601de4, 1742}, Seed{0x9011c7, 1742},
     0, 3},
};

// Test names and ctest output show the case by name.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

std::filesystem::path golden_dir() { return std::filesystem::path(ATOUT_TEST_DATA) / "golden"; }
std::filesystem::path record_path(const GoldenCase& c) { return golden_dir() / (std::string(c.name) + ".record.json"); }
std::filesystem::path replay_path(const GoldenCase& c) { return golden_dir() / (std::string(c.name) + ".replay.json"); }

bool updating() {
  const char* v = std::getenv("ATOUT_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// Plays the case's match with the random policy and returns its record text.
std::string generate_record(const GoldenCase& c) {
  auto s = new_match(c.variant, json::parse(c.options), c.deal, c.dealer);
  Rng rng(c.policy);
  if (c.choose) {
    std::vector<Action> legal;
    while (!s->is_terminal()) {
      s->legal_actions(legal);
      EXPECT_EQ(s->apply(legal[c.choose(legal, rng)]), Refusal::none);
    }
  } else {
    EXPECT_TRUE(play_random(*s, rng));
  }
  EXPECT_TRUE(s->is_terminal()) << c.name;
  return record_text(record_json(*s));
}

void update_golden(const GoldenCase& c) {
  std::filesystem::create_directories(golden_dir());
  write_text(record_path(c), generate_record(c));
  const CliRun r = run_cli({"replay", record_path(c).string()});
  ASSERT_TRUE(exited_with(r, kExitOk));
  write_text(replay_path(c), r.out);
  std::cout << "[ golden ] rewrote " << record_path(c) << " and " << replay_path(c) << "\n";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A readable account of where `actual` first departs from `expected`, with the actual text saved for `diff -u`.
std::string text_difference(const std::string& expected, const std::string& actual, const std::filesystem::path& stored,
                            const std::string& label) {
  const auto e = lines_of(expected);
  const auto a = lines_of(actual);
  std::size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i]) ++i;
  std::ostringstream s;
  s << label << " differs from " << stored << " (" << e.size() << " stored lines, " << a.size()
    << " actual lines), first at line " << (i + 1) << ":\n";
  const std::size_t from = i >= 3 ? i - 3 : 0;
  for (std::size_t k = from; k < std::min(e.size(), i + 4); ++k) s << "  stored " << (k + 1) << ": " << e[k] << "\n";
  for (std::size_t k = from; k < std::min(a.size(), i + 4); ++k) s << "  actual " << (k + 1) << ": " << a[k] << "\n";
  const auto saved = std::filesystem::path(testing::TempDir()) / (stored.filename().string() + ".actual");
  write_text(saved, actual);
  s << "full diff: diff -u " << stored << " " << saved << "\n"
    << "if the change is intended, regenerate with ATOUT_UPDATE_GOLDEN=1 (see tests/data/golden/README.md)";
  return s.str();
}

// For a record mismatch: the first header field or action that differs.
std::string record_difference(const std::string& stored_text, const std::string& generated_text) {
  const json stored = json::parse(stored_text, nullptr, false);
  const json generated = json::parse(generated_text, nullptr, false);
  if (stored.is_discarded()) return "the stored record is not JSON";
  std::ostringstream s;
  for (const auto& [key, value] : generated.items())
    if (key != "actions" && (!stored.contains(key) || stored[key] != value))
      s << "field '" << key << "': stored " << (stored.contains(key) ? stored[key].dump() : "(none)") << ", generated "
        << value.dump() << "\n";
  const json& sa = stored.value("actions", json::array());
  const json& ga = generated["actions"];
  for (std::size_t i = 0; i < std::max(sa.size(), ga.size()); ++i) {
    const std::string x = i < sa.size() ? sa[i].dump() : "(none)";
    const std::string y = i < ga.size() ? ga[i].dump() : "(none)";
    if (x != y) {
      s << "action " << i << ": stored " << x << ", generated " << y << " (" << sa.size() << " stored actions, "
        << ga.size() << " generated)\n";
      break;
    }
  }
  return s.str();
}

class CliGolden : public testing::TestWithParam<GoldenCase> {
 protected:
  void SetUp() override {
    if (updating()) update_golden(GetParam());
    ASSERT_TRUE(std::filesystem::exists(record_path(GetParam())))
        << record_path(GetParam()) << " is missing; create it with ATOUT_UPDATE_GOLDEN=1";
    ASSERT_TRUE(std::filesystem::exists(replay_path(GetParam())))
        << replay_path(GetParam()) << " is missing; create it with ATOUT_UPDATE_GOLDEN=1";
  }
};

TEST_P(CliGolden, ReplayOutputMatchesStoredOutput) {
  const GoldenCase& c = GetParam();
  const std::string expected = read_text(replay_path(c));
  const CliRun r = run_cli({"replay", record_path(c).string()});
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_TRUE(r.err.empty()) << describe(r);
  EXPECT_TRUE(r.out == expected) << text_difference(expected, r.out, replay_path(c), "atout replay output");
}

TEST_P(CliGolden, ReplayFromStandardInputMatchesStoredOutput) {
  const GoldenCase& c = GetParam();
  const std::string expected = read_text(replay_path(c));
  const CliRun r = run_cli({"replay", "-"}, read_text(record_path(c)));
  ASSERT_TRUE(exited_with(r, kExitOk));
  EXPECT_TRUE(r.out == expected) << text_difference(expected, r.out, replay_path(c), "atout replay - output");
}

TEST_P(CliGolden, RecordRegeneratesFromItsSeeds) {
  const GoldenCase& c = GetParam();
  const std::string stored = read_text(record_path(c));
  const std::string generated = generate_record(c);
  EXPECT_TRUE(stored == generated) << "the engine no longer plays the stored match from its seeds:\n"
                                   << record_difference(stored, generated)
                                   << text_difference(stored, generated, record_path(c), "the generated record");
}

// The coinche arithmetic of docs/rules/coinche.md ("Scoring a hand") on a stored replay.
void check_coinche_replay(const json& out, const GoldenCase& c) {
  const bool contract_only = out["options"]["scoring"] == "contract_only";
  const bool cards_only = out["options"]["contract_counts"] == "cards_only";
  std::array<int, 2> running{};
  for (const json& h : out["hands"]) {
    SCOPED_TRACE("hand " + h["deal_number"].dump());
    if (h["outcome"] != "all_passed") {
      std::array<int, 2> points{}, cards{}, tricks{}, belote{};
      int declarations = 0;
      for (std::size_t t = 0; t < 2; ++t) {
        const json& x = h["teams"][t];
        tricks[t] = x["tricks"];
        belote[t] = x["belote"];
        declarations += x["declarations"].get<int>();
        cards[t] = x["card_points"].get<int>() + x["last_trick"].get<int>() + x["capot_bonus"].get<int>();
        EXPECT_EQ(cards[t], tricks[t] == 8 ? 250 : x["card_points"].get<int>() + x["last_trick"].get<int>());
        points[t] = cards[t] + x["declarations"].get<int>() + belote[t];
        EXPECT_EQ(x["raw"], points[t]);
      }
      EXPECT_EQ(h["teams"][0]["card_points"].get<int>() + h["teams"][1]["card_points"].get<int>(), 152);
      EXPECT_EQ(tricks[0] + tricks[1], 8);
      const json& k = h["contract"];
      const auto T = static_cast<std::size_t>(k["taker"].get<int>() % 2), D = 1 - T;
      const bool capot_bid = k.value("capot", false);
      const int value = k["value"], m = k["multiplier"];
      const auto& counted = cards_only ? cards : points;
      const bool made = capot_bid ? tricks[T] == 8 : counted[T] >= value && counted[T] > counted[D];
      EXPECT_EQ(h["outcome"], made ? "made" : "failed");
      const std::size_t W = made ? T : D;
      std::array<int, 2> score = belote;
      if (contract_only) {
        score[W] += value * m;
      } else if (made && m == 1) {
        score[T] = points[T] + value;
        score[D] = points[D];
      } else {
        score[W] += ((capot_bid || tricks[W] == 8) ? 250 : 162) * m + value * m + declarations;
      }
      EXPECT_EQ(h["teams"][0]["score"], score[0]);
      EXPECT_EQ(h["teams"][1]["score"], score[1]);
    }
    running[0] += h["teams"][0]["score"].get<int>();
    running[1] += h["teams"][1]["score"].get<int>();
    EXPECT_EQ(h["match_score"], json(running));
  }
  EXPECT_EQ(out["match_score"], json(running));
  const int winner = out["winner"];
  EXPECT_GE(running[static_cast<std::size_t>(winner)], c.target);
  EXPECT_GT(running[static_cast<std::size_t>(winner)], running[static_cast<std::size_t>(1 - winner)]);
}

// Bulgarian belot's arithmetic (docs/rules/belot.md): scores in tens, card totals by contract, kaput +90.
void check_belot_adds_up(const json& out, const GoldenCase& c) {
  const bool nt_double = out["options"]["no_trumps_double"];
  std::array<int, 2> running{};
  int held = 0;
  for (const json& h : out["hands"]) {
    SCOPED_TRACE("hand " + h["deal_number"].dump());
    EXPECT_EQ(h["held_before"], held);
    if (h["outcome"] == "all_passed") {
      EXPECT_FALSE(h.contains("contract"));
      EXPECT_EQ(h["held_after"], held);
      continue;
    }
    const std::string trump = h["contract"]["trump"];
    const bool nt = trump == "no_trumps";
    const int whole = trump == "all_trumps" ? 258 : !nt ? 162 : nt_double ? 260 : 130;
    const json& t0 = h["teams"][0];
    const json& t1 = h["teams"][1];
    EXPECT_EQ(t0["card_points"].get<int>() + t1["card_points"].get<int>() + t0["last_trick"].get<int>() +
                  t1["last_trick"].get<int>(),
              whole);
    EXPECT_EQ(t0["tricks"].get<int>() + t1["tricks"].get<int>(), 8);
    for (const json& t : {t0, t1}) {
      EXPECT_EQ(t["raw"], t["card_points"].get<int>() + t["last_trick"].get<int>() + t["capot_bonus"].get<int>() +
                              t["declarations"].get<int>() + t["belote"].get<int>());
      EXPECT_EQ(t["capot_bonus"], t["tricks"] == 8 ? 90 : 0);
      if (nt) {
        EXPECT_EQ(t["declarations"].get<int>() + t["belote"].get<int>(), 0);
      }
    }
    EXPECT_TRUE(h.contains("rounding"));
    const int taker = h["contract"]["taker"].get<int>() % 2;
    const json& tt = h["teams"][taker];
    const json& dt = h["teams"][1 - taker];
    // Rounding moves each side by less than 10, and the rounded figures decide (Bulgarian Belot rules: more rounded
    // tens wins the hand; equal tens go by raw points).
    if (h["outcome"] == "failed") {
      EXPECT_EQ(tt["score"], 0);
      EXPECT_LT(tt["raw"].get<int>(), dt["raw"].get<int>() + 20);
    } else if (h["outcome"] == "tie_held") {
      EXPECT_EQ(tt["score"], 0);
      EXPECT_EQ(out["options"]["tie"], "hanging");
    } else {
      EXPECT_EQ(h["outcome"], "made");
      EXPECT_GT(tt["raw"].get<int>(), dt["raw"].get<int>() - 20);
    }
    held = h["held_after"];
    running[0] += t0["score"].get<int>();
    running[1] += t1["score"].get<int>();
    EXPECT_EQ(h["match_score"], json(running));
  }
  EXPECT_EQ(out["match_score"], json(running));
  const int winner = out["winner"];
  EXPECT_GE(running[static_cast<std::size_t>(winner)], c.target);
  EXPECT_GE(running[static_cast<std::size_t>(winner)], running[static_cast<std::size_t>(1 - winner)]);
}

// Bazar's arithmetic (docs/rules/bazar.md), in tens: y = (cards + last trick, or 250 for a capot) / 10
// rounded down + declarations + belote; made when y >= the bid (and the capot, for a capot bid); made:
// x + y and the defence's own y; failed: 0 and x + 16 + z; contra / re-contra: 2x or 4x + 16 + z to the
// side that was right, 0 to the other.
void check_bazar_arithmetic(const json& out, int target) {
  std::array<int, 2> running{};
  for (const json& h : out["hands"]) {
    SCOPED_TRACE("hand " + h["deal_number"].dump());
    if (h["outcome"] == "all_passed") {
      EXPECT_FALSE(h.contains("contract"));
      EXPECT_EQ(h["match_score"], json(running));
      continue;
    }
    const json& t0 = h["teams"][0];
    const json& t1 = h["teams"][1];
    EXPECT_EQ(t0["card_points"].get<int>() + t1["card_points"].get<int>(), 152);
    EXPECT_EQ(t0["last_trick"].get<int>() + t1["last_trick"].get<int>(), 10);
    EXPECT_EQ(t0["tricks"].get<int>() + t1["tricks"].get<int>(), 8);
    EXPECT_TRUE(t0["declarations"] == 0 || t1["declarations"] == 0);
    std::array<int, 2> y{};
    int z = 0;
    for (int t = 0; t < 2; ++t) {
      const json& tt = h["teams"][t];
      const int taken = tt["card_points"].get<int>() + tt["last_trick"].get<int>() + tt["capot_bonus"].get<int>();
      EXPECT_EQ(taken, tt["tricks"] == 8 ? 250 : tt["card_points"].get<int>() + tt["last_trick"].get<int>());
      y[static_cast<std::size_t>(t)] = taken / 10 + tt["declarations"].get<int>() + tt["belote"].get<int>();
      EXPECT_EQ(tt["raw"], y[static_cast<std::size_t>(t)]);
      z += tt["declarations"].get<int>() + tt["belote"].get<int>();
    }
    const json& c = h["contract"];
    const int x = c["value"];
    const int m = c["multiplier"];
    const auto b = static_cast<std::size_t>(c["taker"].get<int>() % 2);
    const bool made = y[b] >= x && (!c.value("capot", false) || h["teams"][b]["tricks"] == 8);
    EXPECT_EQ(h["outcome"], made ? "made" : "failed");
    std::array<int, 2> score{};
    if (m == 1 && made) {
      score[b] = x + y[b];
      score[1 - b] = y[1 - b];
    } else {
      score[made ? b : 1 - b] = m * x + 16 + z;
    }
    for (std::size_t t = 0; t < 2; ++t) {
      EXPECT_EQ(h["teams"][t]["score"], score[t]);
      running[t] += score[t];
    }
    EXPECT_EQ(h["match_score"], json(running));
  }
  EXPECT_EQ(out["match_score"], json(running));
  const auto w = static_cast<std::size_t>(out["winner"].get<int>());
  EXPECT_GE(running[w], target);
  EXPECT_GT(running[w], running[1 - w]);
}

// The arithmetic of a `simple` replay (docs/rules/simple.md): 9 tricks, 10 for the last, kaput worth the `kaput`
// option; made: the taker writes 162 (or the kaput value) less the opponent's cards, plus its combinations and
// belote; failed: the taker keeps only its belote. The match: points to the target, or deals won.
void check_simple_replay(const json& out, const GoldenCase& c) {
  const int kaput = out["options"]["kaput"];
  const bool games = out["options"]["match"].get<std::string>().rfind("games_", 0) == 0;
  std::array<int, 2> running{}, won{};
  for (const json& h : out["hands"]) {
    SCOPED_TRACE("hand " + h["deal_number"].dump());
    const int taker = h["contract"]["taker"];
    const json& tt = h["teams"][taker];
    const json& ot = h["teams"][1 - taker];
    EXPECT_EQ(tt["last_trick"].get<int>() + ot["last_trick"].get<int>(), 10);
    EXPECT_EQ(tt["tricks"].get<int>() + ot["tricks"].get<int>(), 9);
    for (const json& t : {tt, ot})
      EXPECT_EQ(t["raw"], t["card_points"].get<int>() + t["last_trick"].get<int>() + t["capot_bonus"].get<int>() +
                              t["declarations"].get<int>() + t["belote"].get<int>());
    int total = 162;
    if (h["capot"] == true) {
      const json& k = h["teams"][h["capot_team"].get<int>()];
      EXPECT_EQ(k["card_points"].get<int>() + k["last_trick"].get<int>() + k["capot_bonus"].get<int>(), kaput);
      total = kaput;
    }
    const int opponent_cards =
        ot["card_points"].get<int>() + ot["last_trick"].get<int>() + ot["capot_bonus"].get<int>();
    if (h["outcome"] == "made") {
      EXPECT_GT(tt["raw"].get<int>(), ot["raw"].get<int>());
      EXPECT_EQ(tt["score"], total - opponent_cards + tt["declarations"].get<int>() + tt["belote"].get<int>());
      EXPECT_EQ(ot["score"], ot["raw"]);
      ++won[static_cast<std::size_t>(taker)];
    } else {
      EXPECT_EQ(h["outcome"], "failed");
      EXPECT_LE(tt["raw"].get<int>(), ot["raw"].get<int>());
      EXPECT_EQ(tt["score"], tt["belote"]);
      EXPECT_EQ(ot["score"],
                total + tt["declarations"].get<int>() + ot["declarations"].get<int>() + ot["belote"].get<int>());
      ++won[static_cast<std::size_t>(1 - taker)];
    }
    running[0] += h["teams"][0]["score"].get<int>();
    running[1] += h["teams"][1]["score"].get<int>();
    EXPECT_EQ(h["match_score"], json(running));
  }
  EXPECT_EQ(out["match_score"], json(running));
  const auto winner = static_cast<std::size_t>(out["winner"].get<int>());
  if (games) {
    EXPECT_EQ(won[winner], c.target);
    EXPECT_LT(won[1 - winner], c.target);
  } else {
    EXPECT_GE(running[winner], c.target);
    EXPECT_GT(running[winner], running[1 - winner]);
  }
}

TEST_P(CliGolden, StoredReplayAddsUp) {
  // The stored output is only worth comparing against if its numbers are right: check the scoring arithmetic.
  const GoldenCase& c = GetParam();
  const json out = json::parse(read_text(replay_path(c)), nullptr, false);
  ASSERT_FALSE(out.is_discarded());
  const json record = json::parse(read_text(record_path(c)), nullptr, false);
  ASSERT_FALSE(record.is_discarded());
  EXPECT_EQ(out["variant"], c.variant);
  EXPECT_EQ(out["complete"], true);
  EXPECT_EQ(out["actions"], record["actions"].size());
  EXPECT_EQ(out["options"], record["options"]);
  if (c.variant == std::string("coinche")) return check_coinche_replay(out, c);
  if (c.variant == std::string("belot")) return check_belot_adds_up(out, c);
  if (c.variant == std::string("bazar")) {
    check_bazar_arithmetic(out, c.target);
    return;
  }
  if (c.variant == std::string("simple")) {
    check_simple_replay(out, c);
    return;
  }
  const int capot_value = out["options"]["capot"];
  const int players = c.variant == std::string("duel") ? 2 : 4;
  std::array<int, 2> running{};
  int held = 0;
  for (const json& h : out["hands"]) {
    SCOPED_TRACE("hand " + h["deal_number"].dump());
    EXPECT_EQ(h["held_before"], held);
    const json& t0 = h["teams"][0];
    const json& t1 = h["teams"][1];
    if (h["outcome"] == "all_passed") {
      EXPECT_FALSE(h.contains("contract"));
      EXPECT_EQ(h["held_after"], held);
    } else {
      // Every card of the deal is won by someone: all 32 in french (152 + 10 for the last trick); in duel only the
      // 18 cards played, so just the last trick is certain.
      const int cards = t0["card_points"].get<int>() + t1["card_points"].get<int>();
      const int last = t0["last_trick"].get<int>() + t1["last_trick"].get<int>();
      EXPECT_EQ(last, 10);
      if (players == 4)
        EXPECT_EQ(cards, 152);
      else
        EXPECT_LE(cards, 152);
      EXPECT_EQ(t0["tricks"].get<int>() + t1["tricks"].get<int>(), players == 4 ? 8 : 9);
      for (const json& t : {t0, t1})
        EXPECT_EQ(t["raw"], t["card_points"].get<int>() + t["last_trick"].get<int>() + t["capot_bonus"].get<int>() +
                                t["declarations"].get<int>() + t["belote"].get<int>());
      if (h["capot"] == true) {
        const json& winner = h["teams"][h["capot_team"].get<int>()];
        const json& loser = h["teams"][1 - h["capot_team"].get<int>()];
        EXPECT_EQ(loser["tricks"], 0);
        EXPECT_EQ(winner["card_points"].get<int>() + winner["last_trick"].get<int>() + winner["capot_bonus"].get<int>(),
                  capot_value);
      } else {
        EXPECT_GT(t0["tricks"].get<int>(), 0);
        EXPECT_GT(t1["tricks"].get<int>(), 0);
        EXPECT_EQ(t0["capot_bonus"], 0);
        EXPECT_EQ(t1["capot_bonus"], 0);
      }
      const int taker = h["contract"]["taker"].get<int>() % 2;
      const json& tt = h["teams"][taker];
      const json& dt = h["teams"][1 - taker];
      if (h["outcome"] == "made") {
        EXPECT_GT(tt["raw"].get<int>(), dt["raw"].get<int>());
        EXPECT_EQ(tt["score"].get<int>() - (h.value("held_to", -1) == taker ? held : 0), tt["raw"].get<int>());
      } else if (h["outcome"] == "failed") {
        EXPECT_LE(tt["raw"].get<int>(), dt["raw"].get<int>());
        EXPECT_EQ(tt["score"], tt["belote"]);
      } else {
        EXPECT_EQ(h["outcome"], "tie_held");
        EXPECT_EQ(tt["raw"], dt["raw"]);
        EXPECT_EQ(out["options"]["tie"], "litige");
      }
      held = h["held_after"];
    }
    running[0] += t0["score"].get<int>();
    running[1] += t1["score"].get<int>();
    EXPECT_EQ(h["match_score"], json(running));
  }
  EXPECT_EQ(out["match_score"], json(running));
  const int winner = out["winner"];
  EXPECT_GE(running[static_cast<std::size_t>(winner)], c.target);
  EXPECT_GT(running[static_cast<std::size_t>(winner)], running[static_cast<std::size_t>(1 - winner)]);
}

INSTANTIATE_TEST_SUITE_P(Cases, CliGolden, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<GoldenCase>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace atout::cli_test
