// Seeded random matches of `belot` through the shared harness. The oracle re-plays every hand from
// the match record on its own, from Bulgarian Belot rules and docs/rules: the bidding and its contract,
// every trick, card points, belotes, which declarations count, the rounding to tens, inside,
// hanging points, doubles, kaput and the end of the match. It calls none of the variant's code
// (only the shared best_combos, for each seat's automatic declarations).
#include <gtest/gtest.h>

#include <map>

#include "sim_harness.hpp"
#include "variants/belot.hpp"

namespace atout {
namespace {

struct Rules {
  bool tie_hangs, takes_all, nt_double, strictly_ahead, manual;
  int target;
};

Rules rules_of(const Options& o) {
  return {std::get<std::string>(o.at("tie")) == "hanging",
          std::get<std::string>(o.at("double_scoring")) == "winner_takes_all",
          std::get<bool>(o.at("no_trumps_double")),
          std::get<bool>(o.at("strictly_ahead")),
          std::get<std::string>(o.at("declare")) == "manual",
          std::get<int>(o.at("target"))};
}

// Ranks are indexed 7 8 9 10 J Q K A.
constexpr int kTrumpValue[kRanks] = {0, 0, 14, 10, 20,
                                     3, 4, 11};  // Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0
constexpr int kPlainValue[kRanks] = {0, 0, 0, 10, 2,
                                     3, 4, 11};  // Bulgarian Belot rules: plain values A 11, 10 10, K 4, Q 3, J 2, 9 0
constexpr int kTrumpRank[kRanks] = {0, 1, 6, 4, 7, 2, 3, 5};  // Bulgarian Belot rules: J 9 A 10 K Q 8 7
constexpr int kPlainRank[kRanks] = {0, 1, 2, 6, 3, 4, 5, 7};  // Bulgarian Belot rules: A 10 K Q J 9 8 7

bool trump_suit(Card c, Trump t) { return t.mode == Mode::suit && c.suit() == t.suit; }
bool trump_ordered(Card c, Trump t) { return t.mode == Mode::all_trumps || trump_suit(c, t); }

int value(Card c, Trump t, bool nt_double) {
  const auto r = static_cast<std::size_t>(c.rank());
  if (t.mode == Mode::no_trumps) return kPlainValue[r] * (nt_double ? 2 : 1);
  return trump_ordered(c, t) ? kTrumpValue[r] : kPlainValue[r];
}

int height(Card c, Trump t) {
  const auto r = static_cast<std::size_t>(c.rank());
  return trump_ordered(c, t) ? kTrumpRank[r] : kPlainRank[r];
}

int trick_winner(const std::vector<Card>& cards, Trump t) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < cards.size(); ++i) {
    const Card b = cards[best], c = cards[i];
    if (trump_suit(c, t) && !trump_suit(b, t)) best = i;
    if (c.suit() == b.suit() && height(c, t) > height(b, t)) best = i;
  }
  return static_cast<int>(best);
}

int ladder(Trump t) { return t.mode == Mode::suit ? static_cast<int>(t.suit) : t.mode == Mode::no_trumps ? 4 : 5; }

// One declared combination, as the oracle reads it.
struct Decl {
  bool carre = false;
  int length = 0;
  int top = 0;  // rank index
  int points = 0;
};

Decl read_combo(CardSet cards) {
  Decl d;
  const Card first = cards.first();
  if (cards == CardSet::rank_mask(first.rank())) {
    d.carre = true;
    d.top = static_cast<int>(first.rank());
    // Bulgarian Belot rules: jacks 200, nines 150, A K Q 10 100.
    d.points = first.rank() == Rank::jack ? 200 : first.rank() == Rank::nine ? 150 : 100;
    return d;
  }
  d.length = cards.size();
  for (Card c : cards) d.top = std::max(d.top, static_cast<int>(c.rank()));
  d.points = d.length == 3 ? 20 : d.length == 4 ? 50 : 100;  // Bulgarian Belot rules: a sequence of three is 20
  return d;
}

// Established Bulgarian counting (docs/rules/belot.md): the best sequence's side scores its
// sequences, equal best sequences of both sides cancel; the best carré's side scores its carrés.
std::array<int, 2> count_declarations(const std::array<std::vector<Decl>, 4>& by_seat) {
  const int carre_order[kRanks] = {0, 0, 5, 3, 6, 1, 2, 4};  // J > 9 > A > 10 > K > Q
  std::pair<int, int> best_seq{0, 0};
  std::array<bool, 2> seq_sides{};
  int best_carre = 0, carre_side = -1;
  for (int s = 0; s < 4; ++s)
    for (const Decl& d : by_seat[static_cast<std::size_t>(s)]) {
      if (d.carre) {
        if (carre_order[d.top] > best_carre) {
          best_carre = carre_order[d.top];
          carre_side = s % 2;
        }
        continue;
      }
      const std::pair<int, int> key{d.length, d.top + 1};
      if (key > best_seq) {
        best_seq = key;
        seq_sides = {};
      }
      if (key == best_seq) seq_sides[static_cast<std::size_t>(s % 2)] = true;
    }
  const int seq_side = seq_sides[0] == seq_sides[1] ? -1 : (seq_sides[0] ? 0 : 1);
  std::array<int, 2> points{};
  for (int s = 0; s < 4; ++s)
    for (const Decl& d : by_seat[static_cast<std::size_t>(s)])
      if ((d.carre ? carre_side : seq_side) == s % 2) points[static_cast<std::size_t>(s % 2)] += d.points;
  return points;
}

// Bulgarian Belot rules: a suit hand is 162 (16), All Trumps 258 (26), in tens: below half down, above half up but
// never past the whole hand, exactly half to the nearest (a 5 down).
int tens(int x, int whole) {
  const int whole_tens = whole == 162 ? 16 : whole == 258 ? 26 : whole == 130 ? 13 : 26;
  const int down = x / 10;
  const int up = x % 10 == 0 ? down : down + 1;
  if (2 * x < whole) return down;
  if (2 * x == whole) return x % 10 <= 5 ? down : up;
  const int other = (whole - x) / 10;
  return up + other > whole_tens ? whole_tens - other : up;
}

struct Coverage {
  std::map<Outcome, int> outcomes;
  int doubled = 0, redoubled = 0, kaputs = 0, belotes = 0, declarations = 0, held_collected = 0;
  std::array<int, 3> modes{};
};

void check_match(const State& s, const std::vector<sim::DealFacts>& deals, Coverage& cov) {
  const Rules rules = rules_of(s.record().options);
  const auto& actions = s.record().actions;
  std::size_t i = 0;
  std::array<int, 2> running{};
  int held = 0;
  int last_winner = -1;
  const auto& results = s.hand_results();
  for (std::size_t h = 0; h < results.size(); ++h) {
    const HandResult& r = results[h];
    SCOPED_TRACE("hand " + std::to_string(h));
    ASSERT_EQ(r.held_before, held);
    // ---- Bidding (Bulgarian Belot rules: clubs is the lowest bid; three passes end it, four passes redeal).
    Seat seat = static_cast<Seat>((r.dealer + 1) % 4);
    Seat bidder = kNoSeat, doubled_by = kNoSeat, redoubled_by = kNoSeat;
    Trump best{};
    int multiplier = 1, passes = 0;
    for (;;) {
      ASSERT_LT(i, actions.size());
      const RecordedAction& ra = actions[i++];
      ASSERT_EQ(ra.seat, seat);
      const Action& a = ra.action;
      if (a.type == ActionType::pass) {
        ++passes;
      } else {
        passes = 0;
        if (a.type == ActionType::bid) {
          ASSERT_TRUE(bidder == kNoSeat || ladder(a.trump) > ladder(best));
          bidder = seat;
          best = a.trump;
          multiplier = 1;
          doubled_by = redoubled_by = kNoSeat;
        } else if (a.type == ActionType::double_) {
          ASSERT_TRUE(bidder != kNoSeat && seat % 2 != bidder % 2 && multiplier == 1);
          multiplier = 2;
          doubled_by = seat;
        } else {
          ASSERT_EQ(a.type, ActionType::redouble);
          ASSERT_TRUE(bidder != kNoSeat && seat % 2 == bidder % 2 && multiplier == 2);
          multiplier = 4;
          redoubled_by = seat;
        }
      }
      if ((bidder == kNoSeat && passes == 4) || (bidder != kNoSeat && passes == 3)) break;
      seat = static_cast<Seat>((seat + 1) % 4);
    }
    if (bidder == kNoSeat) {
      ASSERT_EQ(r.outcome, Outcome::all_passed);
      ASSERT_EQ(r.held_after, held);
      ASSERT_EQ(r.match_score, running);
      ++cov.outcomes[r.outcome];
      continue;
    }
    ASSERT_TRUE(r.contract.has_value());
    ASSERT_EQ(r.contract->taker, bidder);
    ASSERT_EQ(r.contract->trump, best);
    ASSERT_EQ(r.contract->multiplier, multiplier);
    ASSERT_EQ(r.contract->doubled_by, doubled_by);
    ASSERT_EQ(r.contract->redoubled_by, redoubled_by);
    const sim::DealFacts& deal = deals.at(h);
    ASSERT_EQ(deal.contract.trump, best);
    const Trump t = best;

    // ---- Play: every trick, again (Bulgarian Belot rules: trump order J 9 A 10 K Q 8 7).
    std::array<CardSet, 4> hands = deal.start_hands;
    for (const CardSet& hand : hands) ASSERT_EQ(hand.size(), 8);
    seat = static_cast<Seat>((r.dealer + 1) % 4);
    ASSERT_EQ(deal.leader, seat);
    std::array<int, 2> cards{}, tricks{}, belote{};
    std::array<std::vector<CardSet>, 4> announced, shown;
    std::vector<Card> trick;
    Seat leader = seat;
    int last_trick_side = -1;
    for (int played = 0; played < 32;) {
      ASSERT_LT(i, actions.size());
      const RecordedAction& ra = actions[i++];
      ASSERT_EQ(ra.seat, seat);
      if (ra.action.type == ActionType::announce) {
        ASSERT_TRUE(rules.manual);
        announced[static_cast<std::size_t>(seat)].push_back(ra.action.cards);
        continue;
      }
      if (ra.action.type == ActionType::show) {
        const auto& mine = announced[static_cast<std::size_t>(seat)];
        ASSERT_NE(std::find(mine.begin(), mine.end(), ra.action.cards), mine.end());
        shown[static_cast<std::size_t>(seat)].push_back(ra.action.cards);
        continue;
      }
      ASSERT_EQ(ra.action.type, ActionType::play);
      const Card c = ra.action.card;
      CardSet& hand = hands[static_cast<std::size_t>(seat)];
      ASSERT_TRUE(hand.contains(c));
      // Belote (Bulgarian Belot rules: belote, K and Q of trumps, is 20): K and Q of a trump suit, called with the
      // first of the two; in All Trumps when it leads or follows the suit led.
      if (c.rank() == Rank::king || c.rank() == Rank::queen) {
        const Card other(c.suit(), c.rank() == Rank::king ? Rank::queen : Rank::king);
        const bool trump_ok =
            trump_suit(c, t) || (t.mode == Mode::all_trumps && (trick.empty() || trick[0].suit() == c.suit()));
        if (trump_ok && hand.contains(other)) belote[static_cast<std::size_t>(seat % 2)] += 20;
      }
      hand.erase(c);
      trick.push_back(c);
      ++played;
      if (trick.size() == 4) {
        const Seat winner = static_cast<Seat>((leader + trick_winner(trick, t)) % 4);
        for (Card x : trick) cards[static_cast<std::size_t>(winner % 2)] += value(x, t, rules.nt_double);
        ++tricks[static_cast<std::size_t>(winner % 2)];
        trick.clear();
        leader = seat = winner;
        last_trick_side = winner % 2;
      } else {
        seat = static_cast<Seat>((seat + 1) % 4);
      }
    }
    const int last = t.mode == Mode::no_trumps && rules.nt_double
                         ? 20
                         : 10;  // Bulgarian Belot rules: the last trick is worth 10, and declarations are added
    const int whole = cards[0] + cards[1] + last;
    ASSERT_EQ(whole, t.mode == Mode::all_trumps ? 258 : t.mode == Mode::suit ? 162 : rules.nt_double ? 260 : 130);

    // ---- Declarations (Bulgarian Belot rules: declarations are announced in the first trick).
    std::array<std::vector<Decl>, 4> decls;
    for (std::size_t k = 0; k < 4; ++k) {
      if (rules.manual) {
        for (CardSet x : shown[k]) decls[k].push_back(read_combo(x));
      } else {
        for (const Combo& c : best_combos(deal.start_hands[k], t, belot_declarations()))
          decls[k].push_back(read_combo(c.cards));
      }
      if (t.mode == Mode::no_trumps) {
        ASSERT_TRUE(decls[k].empty());  // Bulgarian Belot rules: no declarations in No Trumps
      }
      for (const Decl& d : decls[k])
        if (!d.carre) {
          ASSERT_TRUE(d.length >= 3 && d.length <= 5);
        }
    }
    const std::array<int, 2> decl = count_declarations(decls);

    // ---- The tally.
    std::array<int, 2> raw{}, rounded{};
    int extras = 0;
    for (int k = 0; k < 2; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      const TeamTally& tt = r.teams[kk];
      const int my_last = last_trick_side == k ? last : 0;
      const int kaput =
          tricks[1 - kk] == 0 ? 90 : 0;  // Bulgarian Belot rules: a side with no trick is kaput: 90 more to the other
      ASSERT_EQ(tt.card_points, cards[kk]);
      ASSERT_EQ(tt.last_trick, my_last);
      ASSERT_EQ(tt.tricks, tricks[kk]);
      ASSERT_EQ(tt.declarations, decl[kk]);
      ASSERT_EQ(tt.belote, belote[kk]);
      ASSERT_EQ(tt.capot_bonus, kaput);
      raw[kk] = cards[kk] + my_last + kaput + decl[kk] + belote[kk];
      ASSERT_EQ(tt.raw, raw[kk]);
      rounded[kk] = tens(cards[kk] + my_last, whole) + (kaput + decl[kk] + belote[kk]) / 10;
      extras += kaput + decl[kk] + belote[kk];
      if (kaput) ++cov.kaputs;
      if (belote[kk]) ++cov.belotes;
      if (decl[kk]) ++cov.declarations;
    }
    ASSERT_EQ(r.capot, tricks[0] == 0 || tricks[1] == 0);

    // ---- The score (Bulgarian Belot rules: Double, by the other side, doubles the result; the chosen rule).
    const int b = bidder % 2, d = 1 - b;
    const auto bs = static_cast<std::size_t>(b), ds = static_cast<std::size_t>(d);
    int winner = -1;
    if (rounded[bs] != rounded[ds]) {
      winner = rounded[bs] > rounded[ds] ? b : d;
    } else if (raw[bs] != raw[ds]) {
      winner = raw[bs] > raw[ds] ? b : d;
    } else if (!rules.tie_hangs) {
      winner = d;
    }
    const Outcome outcome = winner == b ? Outcome::made : winner == d ? Outcome::failed : Outcome::tie_held;
    ASSERT_EQ(r.outcome, outcome);
    const int all = tens(whole, whole) + extras / 10;
    std::array<int, 2> score{};
    int hang = 0;
    if (multiplier > 1 && rules.takes_all) {
      if (winner >= 0)
        score[static_cast<std::size_t>(winner)] = all * multiplier;
      else
        hang = all * multiplier;
    } else {
      if (winner == b) score = rounded;
      if (winner == d) score[ds] = all;
      if (winner < 0) {
        score[ds] = rounded[ds];
        hang = rounded[bs];
      }
      score[0] *= multiplier;
      score[1] *= multiplier;
      hang *= multiplier;
    }
    if (winner >= 0) {
      if (held > 0) ++cov.held_collected;
      score[static_cast<std::size_t>(winner)] += held;
      ASSERT_EQ(r.held_to, held > 0 ? winner : -1);
      held = 0;
    }
    held += hang;
    ASSERT_EQ(r.teams[0].score, score[0]);
    ASSERT_EQ(r.teams[1].score, score[1]);
    ASSERT_EQ(r.held_after, held);
    running[0] += score[0];
    running[1] += score[1];
    ASSERT_EQ(r.match_score, running);
    last_winner = winner;
    ++cov.outcomes[r.outcome];
    if (multiplier == 2) ++cov.doubled;
    if (multiplier == 4) ++cov.redoubled;
    ++cov.modes[static_cast<std::size_t>(t.mode)];

    // ---- The end of the match (Bulgarian Belot rules: the first side to 151 wins; rule: strictly ahead).
    std::optional<int> over;
    if (running[0] >= rules.target || running[1] >= rules.target) {
      if (running[0] != running[1])
        over = running[0] > running[1] ? 0 : 1;
      else if (!rules.strictly_ahead && last_winner >= 0)
        over = last_winner;
    }
    ASSERT_EQ(over.has_value(), h + 1 == results.size()) << "the match should end exactly here";
    if (over) {
      ASSERT_EQ(s.winner(), over);
    }
  }
  ASSERT_EQ(i, actions.size());
  ASSERT_TRUE(s.is_terminal());
}

class BelotSim : public ::testing::TestWithParam<sim::SimCase> {};

TEST_P(BelotSim, OracleAgreesOnEveryHand) {
  Coverage cov;
  sim::run_random_sim(GetParam(),
                      [&](const State& s, const std::vector<sim::DealFacts>& deals) { check_match(s, deals, cov); });
  if (HasFatalFailure()) return;
  // The shard went through the cases the oracle checks.
  EXPECT_GT(cov.outcomes[Outcome::made], 0);
  EXPECT_GT(cov.outcomes[Outcome::failed], 0);
  if (GetParam().options_json.find("\"inside\"") == std::string::npos) {
    EXPECT_GT(cov.outcomes[Outcome::tie_held], 0);
    EXPECT_GT(cov.held_collected, 0);
  }
  EXPECT_GT(cov.doubled, 0);
  EXPECT_GT(cov.redoubled, 0);
  EXPECT_GT(cov.kaputs, 0);
  EXPECT_GT(cov.belotes, 0);
  EXPECT_GT(cov.declarations, 0);
  for (int n : cov.modes) EXPECT_GT(n, 0);
}

std::vector<sim::SimCase> belot_cases() {
  const char* options[] = {
      "",
      R"({"declare": "manual", "deal": "cut"})",
      R"({"tie": "inside", "double_scoring": "each_side"})",
      R"({"no_trumps_double": true, "strictly_ahead": false})",
      R"({"declare": "manual", "tie": "inside", "no_trumps_double": true, "double_scoring": "each_side",
          "strictly_ahead": false})",
  };
  std::vector<sim::SimCase> v;
  // 10,000 matches (each match is several hands) in shards of 500, so a shard stays short under
  // ASan; shard 0, which runs there, plays 150 of them, and shard 20 the other 350.
  for (int shard = 0; shard <= 20; ++shard)
    v.push_back({"belot", shard, shard == 0 ? 150 : shard == 20 ? 350 : 500, options[shard % 5]});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, BelotSim, ::testing::ValuesIn(belot_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
