// Seeded random matches of `simple` through the shared harness, with an oracle written from seed
// 001 and docs/rules/simple.md (its own point tables, combination finder and scoring formula; it
// calls none of the variant's scoring code).
#include <gtest/gtest.h>

#include <array>
#include <map>

#include "sim_harness.hpp"

namespace atout {
namespace {

// simple belote rules: the value tables with a trump, indexed by rank 7 8 9 10 J Q K A (7s and 8s are never dealt).
constexpr std::array<int, 8> kTrump = {0, 0, 14, 10, 20, 3, 4, 11};
constexpr std::array<int, 8> kPlain = {0, 0, 0, 10, 2, 3, 4, 11};
constexpr std::array<int, 8> kNoTrump = {0, 0, 0, 10, 2, 3, 4, 19};
// simple belote rules: four jacks are 200.
constexpr std::array<int, 8> kCarreTrump = {0, 0, 140, 100, 200, 100, 100, 110};
constexpr std::array<int, 8> kCarreNoTrump = {0, 0, 0, 100, 100, 100, 100, 190};

int card_value(Card c, Trump t) {
  const auto r = static_cast<std::size_t>(c.rank());
  if (t.mode == Mode::no_trumps) return kNoTrump[r];
  return c.suit() == t.suit ? kTrump[r] : kPlain[r];
}

int points_of(CardSet cards, Trump t) {
  int sum = 0;
  for (Card c : cards) sum += card_value(c, t);
  return sum;
}

// Every value a player could have counted: the sums of sets of non-overlapping combinations of
// the hand (runs of 3-5 in 9..A, simple belote rules; carrés, simple belote rules: four jacks are 200).
std::vector<std::pair<CardSet, int>> combos_of(CardSet hand, Trump t) {
  std::vector<std::pair<CardSet, int>> out;
  for (int s = 0; s < kSuits; ++s)
    for (int len = 3; len <= 5; ++len)
      for (int low = 2; low + len <= 8; ++low) {
        CardSet run;
        for (int r = low; r < low + len; ++r) run.insert(Card(static_cast<Suit>(s), static_cast<Rank>(r)));
        if ((hand & run) == run) out.push_back({run, len == 3 ? 20 : len == 4 ? 50 : 100});
      }
  for (int r = 2; r < 8; ++r) {
    CardSet four;
    for (int s = 0; s < kSuits; ++s) four.insert(Card(static_cast<Suit>(s), static_cast<Rank>(r)));
    if ((hand & four) == four)
      out.push_back({four, t.mode == Mode::no_trumps ? kCarreNoTrump[static_cast<std::size_t>(r)]
                                                     : kCarreTrump[static_cast<std::size_t>(r)]});
  }
  return out;
}

void sums(const std::vector<std::pair<CardSet, int>>& all, std::size_t from, CardSet used, int total,
          std::vector<int>& out) {
  out.push_back(total);
  for (std::size_t i = from; i < all.size(); ++i)
    if ((all[i].first & used).empty()) sums(all, i + 1, used | all[i].first, total + all[i].second, out);
}

bool reachable(CardSet hand, Trump t, int value) {
  std::vector<int> all;
  sums(combos_of(hand, t), 0, CardSet(), 0, all);
  return std::find(all.begin(), all.end(), value) != all.end();
}

// What the record says of each deal: the offered card, the taking actions, a concession.
struct Taking {
  Card offered;
  Seat dealer = kNoSeat;
  std::vector<RecordedAction> bids;
  bool conceded = false;
};

std::map<int, Taking> takings(const State& s) {
  Record header = s.record();
  header.actions.clear();
  auto replayed = create_state(header).state;
  std::map<int, Taking> out;
  for (const RecordedAction& a : s.record().actions) {
    const Observation o = replayed->observation(kNoSeat);
    Taking& t = out[o.hand];
    t.dealer = o.dealer;
    if (o.phase == Phase::bidding) {
      t.offered = *o.turn_up;
      t.bids.push_back(a);
    }
    if (a.action.type == ActionType::concede) t.conceded = true;
    EXPECT_EQ(replayed->apply(a.seat, a.action), Refusal::none);
  }
  return out;
}

// The taking rules of simple belote rules: first player takes: 2 more, the other 3, checked against what was dealt.
void check_taking(const Taking& t, const sim::DealFacts& deal, const Options& o) {
  const Seat first = static_cast<Seat>(1 - t.dealer);
  const Seat taker = deal.contract.taker;
  ASSERT_FALSE(t.bids.empty());
  for (std::size_t i = 0; i < t.bids.size(); ++i) {
    ASSERT_EQ(t.bids[i].seat, i % 2 == 0 ? first : t.dealer);  // the first player speaks first
    ASSERT_EQ(t.bids[i].action.type, i + 1 == t.bids.size() ? ActionType::take : ActionType::pass);
  }
  ASSERT_LE(t.bids.size(), 4u);
  ASSERT_EQ(taker, t.bids.back().seat);
  const bool jack = t.offered.rank() == Rank::jack;
  bool with_offered = true;
  if (t.bids.size() <= 2) {
    ASSERT_EQ(deal.contract.trump,
              Trump::of(t.offered.suit()));  // simple belote rules: first player takes: 2 more, the other 3
  } else {
    ASSERT_FALSE(jack);  // simple belote rules: no other trump after a Jack
    const Trump tr = deal.contract.trump;
    ASSERT_TRUE((tr.mode == Mode::suit && tr.suit != t.offered.suit()) ||
                (tr.mode == Mode::no_trumps && std::get<bool>(o.at("no_trumps"))));
    with_offered = !t.bids.back().action.cards.empty();
  }
  ASSERT_EQ(deal.start_hands[static_cast<std::size_t>(taker)].contains(t.offered), with_offered);
  ASSERT_FALSE(deal.start_hands[static_cast<std::size_t>(1 - taker)].contains(t.offered));
  ASSERT_EQ(deal.start_hands[0].size(), 9);
  ASSERT_EQ(deal.start_hands[1].size(), 9);
  ASSERT_EQ(deal.leader, first);  // simple belote rules: the dealer's opponent leads; follow suit, else trump
}

void check_simple_results(const State& s, const std::vector<sim::DealFacts>& deals) {
  const Options& o = s.record().options;
  const int kaput = std::get<int>(o.at("kaput"));
  const std::string match = std::get<std::string>(o.at("match"));
  const bool games = match.rfind("games_", 0) == 0;
  const int goal = games ? std::stoi(match.substr(6)) : std::stoi(match.substr(7)) * 10 - 9;  // 51 -> 501
  const auto taking = takings(s);
  std::array<int, 2> running{}, won{};
  const auto& results = s.hand_results();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const HandResult& r = results[i];
    SCOPED_TRACE("hand " + std::to_string(i));
    ASSERT_EQ(r.dealer, static_cast<Seat>((s.record().first_dealer + static_cast<int>(i)) % 2));
    ASSERT_TRUE(r.contract.has_value());  // nobody can pass the deal out (simple belote rules: then the dealer must
                                          // choose another trump)
    const sim::DealFacts& deal = deals.at(i);
    const Taking& tk = taking.at(static_cast<int>(i));
    check_taking(tk, deal, o);
    if (::testing::Test::HasFatalFailure()) return;
    const Trump trump = deal.contract.trump;
    const int taker = deal.contract.taker;
    const TeamTally& t = r.teams[static_cast<std::size_t>(taker)];
    const TeamTally& d = r.teams[static_cast<std::size_t>(1 - taker)];

    // The cards: 18 dealt, every one won by somebody; 10 for the last trick (simple belote rules).
    ASSERT_EQ(deal.dealt.size(), 18);
    ASSERT_EQ(t.card_points + d.card_points, points_of(deal.dealt, trump));
    ASSERT_EQ(t.last_trick + d.last_trick, 10);
    ASSERT_EQ(t.tricks + d.tricks, 9);
    ASSERT_EQ(r.capot, t.tricks == 0 || d.tricks == 0);

    // Belote: K and Q of trumps in one hand, counted automatically (simple belote rules: declare before one's move;
    // belote counts regardless).
    for (int p = 0; p < 2; ++p) {
      const CardSet h = deal.start_hands[static_cast<std::size_t>(p)];
      const bool kq = trump.mode == Mode::suit && h.contains(Card(trump.suit, Rank::king)) &&
                      h.contains(Card(trump.suit, Rank::queen));
      ASSERT_EQ(r.teams[static_cast<std::size_t>(p)].belote, kq ? 20 : 0);
    }
    // Combinations: one player's at most, shown by that player (or still to show when the hand
    // was conceded before the showing), made of its own cards.
    ASSERT_TRUE(t.declarations == 0 || d.declarations == 0);
    for (int p = 0; p < 2; ++p) {
      const int v = r.teams[static_cast<std::size_t>(p)].declarations;
      ASSERT_TRUE(reachable(deal.start_hands[static_cast<std::size_t>(p)], trump, v)) << v;
      if (v > 0 && !tk.conceded) {
        ASSERT_NE(std::find(deal.shown_by.begin(), deal.shown_by.end(), p), deal.shown_by.end());
      }
    }

    // The score (simple belote rules: the cards are worth 162 (16); docs/rules/simple.md): kaput makes the cards worth
    // `kaput`.
    const int hand_total = r.capot ? kaput : 162;
    const int t_cards = r.capot ? (t.tricks == 0 ? 0 : kaput) : t.card_points + t.last_trick;
    const int d_cards = r.capot ? (d.tricks == 0 ? 0 : kaput) : d.card_points + d.last_trick;
    ASSERT_EQ(t.raw, t_cards + t.declarations + t.belote);
    ASSERT_EQ(d.raw, d_cards + d.declarations + d.belote);
    int t_score, d_score, winner;
    if (t_cards + t.declarations + t.belote > d_cards + d.declarations + d.belote) {
      ASSERT_EQ(r.outcome, Outcome::made);
      t_score = hand_total - d_cards + t.declarations + t.belote;
      d_score = d_cards + d.declarations + d.belote;
      winner = taker;
    } else {
      ASSERT_EQ(r.outcome, Outcome::failed);
      d_score = hand_total + t.declarations + d.declarations + d.belote;
      t_score = t.belote;
      winner = 1 - taker;
    }
    ASSERT_EQ(t.score, t_score);
    ASSERT_EQ(d.score, d_score);
    running[static_cast<std::size_t>(taker)] += t_score;
    running[static_cast<std::size_t>(1 - taker)] += d_score;
    ++won[static_cast<std::size_t>(winner)];
    ASSERT_EQ(r.match_score, running);

    // simple belote rules: the match ends at the first deal that settles it, and not before.
    std::optional<int> over;
    if (games) {
      for (int p = 0; p < 2; ++p)
        if (won[static_cast<std::size_t>(p)] >= goal) over = p;
    } else if ((running[0] >= goal || running[1] >= goal) && running[0] != running[1]) {
      over = running[0] > running[1] ? 0 : 1;
    }
    ASSERT_EQ(over.has_value(), i + 1 == results.size());
    if (over) {
      ASSERT_EQ(s.winner(), over);
    }
  }
  ASSERT_TRUE(s.is_terminal());
  ASSERT_EQ(s.match_score(), running);
}

class SimpleSim : public ::testing::TestWithParam<sim::SimCase> {};

TEST_P(SimpleSim, InvariantsHoldAtEveryStep) { sim::run_random_sim(GetParam(), check_simple_results); }

std::vector<sim::SimCase> simple_cases() {
  // 15 shards, 10,750 matches, every option value in some shard. Without `concede` the hands are
  // played out to the last trick; with it (the default) a random player concedes often. Long
  // matches (to 1001 or 2001 played out, 5 deals won) play fewer per shard, so that each shard
  // stays well within a minute under AddressSanitizer. Shard 0, which also runs there, plays 250
  // matches, and the last shard (the same options) the other 750 of its thousand.
  const std::pair<const char*, int> shards[] = {
      {"", 250},
      {R"({"concede": false, "match": "points_51"})", 1000},
      {R"({"match": "games_3", "kaput": 372, "deal": "cut"})", 1000},
      {R"({"concede": false, "no_trumps": false, "match": "games_1"})", 1000},
      {R"({"concede": false, "match": "points_201", "kaput": 372})", 200},
      {R"({"concede": false, "match": "games_5"})", 500},
      {R"({"concede": false, "deal": "cut"})", 400},
      {R"({"match": "points_51", "no_trumps": false})", 1000},
      {R"({"match": "games_1", "kaput": 372})", 1000},
      {R"({"concede": false, "match": "points_201"})", 150},
      {R"({"match": "games_5"})", 1000},
      {R"({"match": "points_201"})", 500},
      {"", 1000},
      {R"({"concede": false, "match": "games_1", "deal": "cut"})", 1000},
      {"", 750},
  };
  std::vector<sim::SimCase> v;
  int shard = 0;
  for (const auto& [options, games] : shards) v.push_back({"simple", shard++, games, options});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, SimpleSim, ::testing::ValuesIn(simple_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
