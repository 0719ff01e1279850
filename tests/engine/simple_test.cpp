// Simple belote: every number of the simple belote rules in tables, the pure scoring rule, and the
// machine on hand-built decks: the offered card, the forced Jack, the obliged choice, play
// constraints, announcing and showing, concede, kaput, the match formats and every refusal.
#include "variants/simple.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "atout/state.hpp"
#include "test_util.hpp"

namespace atout {
namespace {
using test::C;
using test::S;

// ---- The rules' numbers -------------------------------------------------------------------

struct PointRow {
  Rank rank;
  int trump;     // "Game with a Trump card", the card in the trump suit
  int plain;     // the same game, the card in another suit
  int no_trump;  // "Game without a Trump card"
  const char* source;
};

// simple belote rules: two columns flattened into one list, untangled here.
const PointRow kPoints[] = {
    {Rank::jack, 20, 2, 2, "simple belote rules (with a trump) (without)"},
    {Rank::nine, 14, 0, 0, "simple belote rules"},
    {Rank::ace, 11, 11, 19, "simple belote rules"},
    {Rank::ten, 10, 10, 10, "simple belote rules"},
    {Rank::king, 4, 4, 4, "simple belote rules"},
    {Rank::queen, 3, 3, 3, "simple belote rules"},
};

TEST(SimpleSeedNumbers, CardPointsWithAndWithoutTrump) {
  const PointTable p = simple_points();
  const Trump hearts = Trump::of(Suit::hearts);
  for (const PointRow& row : kPoints) {
    EXPECT_EQ(p.value(hearts, Card(Suit::hearts, row.rank)), row.trump) << row.source;
    EXPECT_EQ(p.value(hearts, Card(Suit::clubs, row.rank)), row.plain) << row.source;
    EXPECT_EQ(p.value(Trump::no_trumps(), Card(Suit::clubs, row.rank)), row.no_trump) << row.source;
  }
}

TEST(SimpleSeedNumbers, TwentyFourCardsWorth152PlusTenFor162) {
  // simple belote rules: nine to ace; 162 in all, which is 152 for the cards and 10 for the last
  // trick (simple belote rules), under every trump and without one.
  EXPECT_EQ(CardSet::deck24().size(), 24);
  for (Card c : CardSet::deck24()) EXPECT_GE(c.rank(), Rank::nine);
  const PointTable p = simple_points();
  for (int s = 0; s < kSuits; ++s) EXPECT_EQ(p.sum(Trump::of(static_cast<Suit>(s)), CardSet::deck24()), 152);
  EXPECT_EQ(p.sum(Trump::no_trumps(), CardSet::deck24()), 152);
  EXPECT_EQ(p.last_trick, 10);
  EXPECT_EQ(152 + p.last_trick, kSimpleHandTotal);
  EXPECT_EQ(kSimpleHandTotal, 162);
}

TEST(SimpleSeedNumbers, CardOrders) {
  // The tables of simple belote rules list the cards strongest first: trumps J 9 A 10 K Q, other suits
  // (and every suit without a trump) A 10 K Q J 9.
  const Rank trump[] = {Rank::jack, Rank::nine, Rank::ace, Rank::ten, Rank::king, Rank::queen};
  const Rank plain[] = {Rank::ace, Rank::ten, Rank::king, Rank::queen, Rank::jack, Rank::nine};
  const Trump h = Trump::of(Suit::hearts);
  for (int i = 0; i + 1 < 6; ++i) {
    EXPECT_TRUE(beats(Card(Suit::hearts, trump[i]), Card(Suit::hearts, trump[i + 1]), h));
    EXPECT_TRUE(beats(Card(Suit::spades, plain[i]), Card(Suit::spades, plain[i + 1]), h));
    EXPECT_TRUE(beats(Card(Suit::spades, plain[i]), Card(Suit::spades, plain[i + 1]), Trump::no_trumps()));
  }
  EXPECT_TRUE(beats(C("9H"), C("AS"), h));                    // simple belote rules: a trump covers another suit
  EXPECT_FALSE(beats(C("9H"), C("AS"), Trump::no_trumps()));  // without a trump nothing does
}

struct CarreRow {
  Rank rank;
  int with_trump;
  int without_trump;
  const char* source;
};

const CarreRow kCarres[] = {
    {Rank::jack, 200, 100, "simple belote rules: four jacks are 200"},
    {Rank::nine, 140, 0, "simple belote rules"},
    {Rank::ace, 110, 190, "simple belote rules"},
    {Rank::ten, 100, 100, "simple belote rules"},
    {Rank::king, 100, 100, "simple belote rules"},
    {Rank::queen, 100, 100, "simple belote rules"},
};

TEST(SimpleSeedNumbers, CarreTables) {
  const DeclarationRules rules = simple_declarations();
  for (const CarreRow& row : kCarres) {
    const CardSet four = CardSet::rank_mask(row.rank) & CardSet::deck24();
    for (const auto& [trump, points] :
         {std::pair{Trump::of(Suit::spades), row.with_trump}, std::pair{Trump::no_trumps(), row.without_trump}}) {
      const auto combos = find_combos(four, trump, rules);
      ASSERT_EQ(combos.size(), 1u) << row.source;
      EXPECT_EQ(combos[0].kind, ComboKind::carre) << row.source;
      EXPECT_EQ(combos[0].points, points) << row.source;
    }
  }
}

TEST(SimpleSeedNumbers, CarreOrders) {
  // simple belote rules (and simple belote rules: longer and higher combinations are stronger, "the higher the last
  // card"): with a trump J > 9 > A > 10 > K > Q; without, A > 10 > K > Q > J > 9. Any carré beats any other combination
  // (simple belote rules).
  const DeclarationRules rules = simple_declarations();
  const Rank with[] = {Rank::jack, Rank::nine, Rank::ace, Rank::ten, Rank::king, Rank::queen};
  const Rank without[] = {Rank::ace, Rank::ten, Rank::king, Rank::queen, Rank::jack, Rank::nine};
  auto carre = [&](Rank r, Trump t) { return find_combos(CardSet::rank_mask(r) & CardSet::deck24(), t, rules)[0]; };
  Combo quint;
  quint.kind = ComboKind::quint;
  quint.suit = Suit::spades;
  quint.top = Rank::ace;
  for (const Trump t : {Trump::of(Suit::spades), Trump::no_trumps()}) {
    const Rank* order = t.mode == Mode::suit ? with : without;
    for (int i = 0; i + 1 < 6; ++i)
      EXPECT_GT(combo_strength(carre(order[i], t), t, rules), combo_strength(carre(order[i + 1], t), t, rules));
    EXPECT_GT(combo_strength(carre(order[5], t), t, rules), combo_strength(quint, t, rules));
  }
}

struct SequenceRow {
  std::vector<const char*> cards;
  ComboKind kind;
  int points;
  const char* source;
};

TEST(SimpleSeedNumbers, Sequences) {
  const DeclarationRules rules = simple_declarations();
  const SequenceRow rows[] = {
      {{"9C", "TC", "JC", "QC", "KC"}, ComboKind::quint, 100, "simple belote rules"},
      {{"TD", "JD", "QD", "KD"}, ComboKind::quarte, 50, "simple belote rules"},
      {{"9S", "TS", "JS"}, ComboKind::tierce, 20, "simple belote rules: the lowest run, 9 10 J (no 7s or 8s)"},
      {{"QH", "KH", "AH"}, ComboKind::tierce, 20, "simple belote rules"},
  };
  for (const SequenceRow& row : rows) {
    CardSet hand;
    for (const char* c : row.cards) hand.insert(C(c));
    const auto best = best_combos(hand, Trump::of(Suit::hearts), rules);
    ASSERT_EQ(best.size(), 1u) << row.source;
    EXPECT_EQ(best[0].kind, row.kind) << row.source;
    EXPECT_EQ(best[0].points, row.points) << row.source;
  }
  // simple belote rules: five cards at most. The whole suit, 9 to ace, is a quint (to the ace) and no more.
  const auto six = find_combos(CardSet::suit_mask(Suit::clubs) & CardSet::deck24(), Trump::of(Suit::hearts), rules);
  for (const Combo& c : six) EXPECT_LE(c.cards.size(), 5);
  EXPECT_EQ(best_combos(CardSet::suit_mask(Suit::clubs) & CardSet::deck24(), Trump::of(Suit::hearts), rules).size(),
            1u);
  EXPECT_EQ(rules.belote_points, 20);  // simple belote rules
}

TEST(SimpleSeedNumbers, CombinationComparison) {
  // simple belote rules: more cards win; then the higher last card; then trumps; then the first to announce
  // (the first trick's order, the leader first). simple belote rules: a carré beats everything.
  const DeclarationRules rules = simple_declarations();
  const Trump hearts = Trump::of(Suit::hearts);
  auto best = [&](std::initializer_list<const char*> cards) { return best_combos(S(cards), hearts, rules); };
  struct Row {
    std::vector<Combo> seat0, seat1;
    std::vector<Seat> order;
    std::optional<int> winner;
    const char* source;
  };
  const Row rows[] = {
      {best({"9S", "TS", "JS", "QS"}), best({"TD", "JD", "QD"}), {1, 0}, 0, "simple belote rules: more cards"},
      {best({"9S", "TS", "JS"}), best({"QD", "KD", "AD"}), {0, 1}, 1, "simple belote rules: the higher last card"},
      {best({"JS", "QS", "KS"}), best({"JH", "QH", "KH"}), {0, 1}, 1, "simple belote rules: trumps win the tie"},
      {best({"JS", "QS", "KS"}), best({"JD", "QD", "KD"}), {1, 0}, 1, "simple belote rules: the first to announce"},
      {best({"JS", "QS", "KS"}), best({"JD", "QD", "KD"}), {0, 1}, 0, "simple belote rules: the first to announce"},
      {best({"QS", "QH", "QD", "QC"}), best({"9D", "TD", "JD", "QD", "KD"}), {1, 0}, 0, "simple belote rules: carré"},
      {{}, {}, {0, 1}, std::nullopt, "nothing shown, nothing counts"},
  };
  for (const Row& row : rows)
    EXPECT_EQ(declaration_winner({row.seat0, row.seat1}, row.order, hearts, rules), row.winner) << row.source;
}

TEST(SimpleSeedNumbers, MatchFormats) {
  // simple belote rules: "501 (51), 1001 (101) or 2001 (201)" and "a defined number of games (1, 3 or 5)".
  const struct {
    const char* name;
    bool games;
    int goal;
  } rows[] = {{"points_51", false, 501}, {"points_101", false, 1001}, {"points_201", false, 2001},
              {"games_1", true, 1},      {"games_3", true, 3},        {"games_5", true, 5}};
  for (const auto& row : rows) {
    const auto m = parse_simple_match(row.name);
    ASSERT_TRUE(m.has_value()) << row.name;
    EXPECT_EQ(m->games, row.games) << row.name;
    EXPECT_EQ(m->goal, row.goal) << row.name;
  }
  EXPECT_FALSE(parse_simple_match("points_100").has_value());
  const VariantInfo* info = find_variant("simple");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->players, 2);
  EXPECT_EQ(info->deck_size, 24);
  const auto match =
      std::find_if(info->options.begin(), info->options.end(), [](const OptionSpec& o) { return o.name == "match"; });
  ASSERT_NE(match, info->options.end());
  EXPECT_EQ(match->choices.size(), 6u);
  for (const auto& row : rows)
    EXPECT_NE(std::find(match->choices.begin(), match->choices.end(), row.name), match->choices.end());
}

// ---- The scoring rule, pure ------------------------------------------------------------------

struct Side {
  int cards, last, decl, belote, tricks;
};
struct ScoreRow {
  int taker;
  Side s0, s1;
  int kaput;
  Outcome outcome;
  int score0, score1;
  const char* source;
};

// simple belote rules: the cards are worth 162 (16). The taker who makes writes 162 less the opponent's card points,
// plus its own combinations; the opponent keeps its own. A taker who fails (ties too) gives everything, 162 and both
// players' combinations, to the opponent; belote stays with its holder (simple belote rules: declare before one's move;
// belote counts regardless). Kaput: 210 (or 372) in place of 162.
const ScoreRow kScores[] = {
    {0,
     {90, 10, 20, 0, 6},
     {50, 0, 0, 20, 3},
     210,
     Outcome::made,
     162 - 50 + 20,
     70,
     "simple belote rules: the taker with more points wins the deal"},
    {1,
     {90, 10, 20, 0, 6},
     {50, 0, 0, 20, 3},
     210,
     Outcome::failed,
     162 + 20 + 0 + 0,
     20,
     "simple belote rules: the taker with fewer points loses them; kaput"},
    {0,
     {60, 0, 0, 20, 4},
     {80, 10, 50, 0, 5},
     210,
     Outcome::failed,
     20,
     162 + 0 + 50,
     "simple belote rules: the taker with fewer points loses them; kaput, belote kept"},
    {0,
     {75, 10, 0, 0, 5},
     {65, 0, 20, 0, 4},
     210,
     Outcome::failed,
     0,
     162 + 20,
     "simple belote rules: equal is not more"},
    {1,
     {65, 0, 0, 0, 4},
     {75, 10, 20, 0, 5},
     210,
     Outcome::made,
     65,
     162 - 65 + 20,
     "simple belote rules: the taker with more points wins the deal"},
    {0, {140, 10, 50, 20, 9}, {0, 0, 0, 0, 0}, 210, Outcome::made, 210 + 50 + 20, 0, "simple belote rules: kaput"},
    {0, {140, 10, 50, 20, 9}, {0, 0, 0, 0, 0}, 372, Outcome::made, 372 + 50 + 20, 0, "kaput: 372"},
    {0,
     {0, 0, 20, 20, 0},
     {130, 10, 0, 0, 9},
     210,
     Outcome::failed,
     20,
     210 + 20,
     "simple belote rules: the taker kaput"},
    {0,
     {0, 0, 200, 20, 0},
     {140, 10, 0, 0, 9},
     210,
     Outcome::made,
     220,
     210,
     "combinations outweigh a kaput: the taker makes with no trick"},
};

TEST(SimpleScoring, TableOfHands) {
  for (const ScoreRow& row : kScores) {
    HandResult r;
    const Side sides[2] = {row.s0, row.s1};
    for (int t = 0; t < 2; ++t) {
      TeamTally& tt = r.teams[static_cast<std::size_t>(t)];
      tt.card_points = sides[t].cards;
      tt.last_trick = sides[t].last;
      tt.declarations = sides[t].decl;
      tt.belote = sides[t].belote;
      tt.tricks = sides[t].tricks;
      if (sides[1 - t].tricks == 0) {
        r.capot = true;
        r.capot_team = t;
      }
    }
    score_simple(r, row.taker, SimpleScoring{row.kaput});
    EXPECT_EQ(r.outcome, row.outcome) << row.source;
    EXPECT_EQ(r.teams[0].score, row.score0) << row.source;
    EXPECT_EQ(r.teams[1].score, row.score1) << row.source;
    for (const TeamTally& t : r.teams)
      EXPECT_EQ(t.raw, t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote) << row.source;
    if (r.capot) {
      const TeamTally& k = r.teams[static_cast<std::size_t>(r.capot_team)];
      EXPECT_EQ(k.card_points + k.last_trick + k.capot_bonus, row.kaput) << row.source;
    }
    r.contract = Contract{};
    r.contract->taker = static_cast<Seat>(row.taker);
    EXPECT_EQ(simple_deal_winner(r), row.outcome == Outcome::made ? row.taker : 1 - row.taker) << row.source;
  }
}

// ---- The machine on hand-built decks -------------------------------------------------------

// Dealer 0, so seat 1 is the first player. Positions: 0-2 to seat 1, 3-5 to seat 0, 6-8 to seat 1,
// 9-11 to seat 0, 12 the offered card, then seat 1's completion and seat 0's (simple belote rules: 6 cards each and an
// offered card).
using Deck = std::array<const char*, 24>;
const Deck kDeck = {"JS", "QS", "KS", "JD", "QD", "KD", "9C", "TC", "AS", "9S", "TS", "AC",
                    "9H", "TH", "AH", "KC", "QH", "JC", "QC", "KH", "JH", "9D", "TD", "AD"};
// The same with the Jack of hearts offered (swapped with the nine).
const Deck kJackDeck = {"JS", "QS", "KS", "JD", "QD", "KD", "9C", "TC", "AS", "9S", "TS", "AC",
                        "JH", "TH", "AH", "KC", "QH", "JC", "QC", "KH", "9H", "9D", "TD", "AD"};

Record record_for(const Deck& deck, Options options = {}) {
  Record r;
  r.variant = "simple";
  r.options = std::move(options);
  r.first_dealer = 0;
  std::vector<Card> d;
  for (const char* c : deck) d.push_back(C(c));
  r.deal.decks.push_back(d);
  r.deal.seed = Seed{9, 9};  // later deals
  return r;
}

std::unique_ptr<State> make(const Deck& deck, Options options = {}) {
  auto c = create_state(record_for(deck, std::move(options)));
  EXPECT_FALSE(c.error.has_value()) << (c.error ? c.error->message : "");
  return std::move(c.state);
}

Action take_with(Trump t, const char* offered) {
  Action a = Action::take(t);
  a.cards = S({offered});
  return a;
}

bool has(const std::vector<Action>& v, const Action& a) { return std::find(v.begin(), v.end(), a) != v.end(); }

// Applies the first legal `play` of the seat to act.
void play_first(State& s) {
  const auto acts = s.legal_actions();
  const auto it = std::find_if(acts.begin(), acts.end(), [](const Action& a) { return a.type == ActionType::play; });
  ASSERT_NE(it, acts.end());
  ASSERT_EQ(s.apply(*it), Refusal::none);
}

// Plays the hand out with first legal cards. Each seat announces `announce[seat]` before its first
// card and shows it before its second when `show[seat]`.
void play_hand(State& s, const std::array<std::vector<CardSet>, 2>& announce, std::array<bool, 2> show) {
  const std::size_t before = s.hand_results().size();
  std::array<bool, 2> announced{}, shown{};
  while (s.hand_results().size() == before) {
    const Seat seat = s.current_player();
    const auto k = static_cast<std::size_t>(seat);
    const Observation o = s.observation(seat);
    if (o.tricks.empty() && !announced[k]) {
      for (CardSet c : announce[k]) ASSERT_EQ(s.apply(Action::announce(c)), Refusal::none) << to_string(c);
      announced[k] = true;
    }
    if (o.tricks.size() == 1 && show[k] && !shown[k]) {
      for (CardSet c : announce[k]) ASSERT_EQ(s.apply(Action::show(c)), Refusal::none) << to_string(c);
      shown[k] = true;
    }
    play_first(s);
  }
}

TEST(Simple, DealSixEachAndOfferACard) {
  auto s = make(kDeck);
  const Observation o = s->observation(1);
  EXPECT_EQ(o.phase, Phase::bidding);
  EXPECT_EQ(o.current, 1);  // simple belote rules: the dealer's opponent
  EXPECT_EQ(o.own, S({"JS", "QS", "KS", "9C", "TC", "AS"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC"}));
  ASSERT_TRUE(o.turn_up.has_value());
  EXPECT_EQ(*o.turn_up, C("9H"));  // simple belote rules: an open card, seen by both
  EXPECT_EQ(*s->observation(0).turn_up, C("9H"));
  EXPECT_EQ(o.legal, (std::vector<Action>{Action::pass(), Action::take()}));
}

TEST(Simple, FirstPlayerTakesGetsTwoOpponentThree) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  // simple belote rules: the offered card and 2 more for the first player, 3 for the dealer.
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "9H", "TH", "AH"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "KC", "QH", "JC"}));
  EXPECT_EQ(s->phase(), Phase::playing);
  EXPECT_EQ(s->current_player(), 1);
  const Observation o = s->observation(0);
  EXPECT_EQ(o.contract->taker, 1);
  EXPECT_EQ(o.contract->trump, Trump::of(Suit::hearts));
  EXPECT_EQ(o.bids.back().action, take_with(Trump::of(Suit::hearts), "9H"));
}

TEST(Simple, SecondPlayerTakesFirstGetsThree) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::pass(), Action::take()}));
  ASSERT_EQ(s->apply(0, Action::take(Trump::of(Suit::hearts))), Refusal::none);
  // simple belote rules: the first player gets 3, the dealer the offered card and 2 more.
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "TH", "AH", "KC"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "9H", "QH", "JC"}));
  EXPECT_EQ(s->current_player(), 1);  // simple belote rules: the dealer's opponent leads, whoever took
  EXPECT_EQ(s->observation(1).contract->taker, 0);
}

TEST(Simple, FirstPlayerChoosesAnotherTrumpWithoutTheOfferedCard) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  // simple belote rules: pass, or another trump (three other suits, or no trump), with or without the card.
  const auto legal = s->legal_actions();
  EXPECT_EQ(legal.size(), 1u + 4 * 2);
  EXPECT_EQ(legal.front(), Action::pass());
  EXPECT_TRUE(has(legal, Action::take(Trump::no_trumps())));
  EXPECT_TRUE(has(legal, take_with(Trump::of(Suit::spades), "9H")));
  EXPECT_FALSE(has(legal, Action::take(Trump::of(Suit::hearts))));
  EXPECT_EQ(s->apply(1, Action::take(Trump::of(Suit::hearts))), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(1, Action::take()), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(1, Action::take(Trump::all_trumps())), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(1, take_with(Trump::of(Suit::spades), "AH")), Refusal::invalid_bid);
  ASSERT_EQ(s->apply(1, Action::take(Trump::of(Suit::diamonds))), Refusal::none);
  // Both get 3; the offered card is set aside (docs/rules/simple.md).
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "TH", "AH", "KC"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "QH", "JC", "QC"}));
  const Observation o = s->observation(0);
  EXPECT_EQ(o.contract->trump, Trump::of(Suit::diamonds));
  EXPECT_EQ(o.contract->taker, 1);
  EXPECT_FALSE(o.turn_up.has_value());
  EXPECT_EQ(o.current, 1);
}

TEST(Simple, FirstPlayerChoosesAnotherTrumpAndTheOfferedCard) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, take_with(Trump::of(Suit::spades), "9H")), Refusal::none);
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "9H", "TH", "AH"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "KC", "QH", "JC"}));
  EXPECT_EQ(s->observation(0).contract->trump, Trump::of(Suit::spades));
  EXPECT_EQ(*s->observation(0).turn_up, C("9H"));  // in a hand, so still shown
}

TEST(Simple, SecondPlayerIsObligedToChoose) {
  auto s = make(kDeck);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(s->apply(s->current_player(), Action::pass()), Refusal::none);
  EXPECT_EQ(s->current_player(), 0);
  // simple belote rules: no pass.
  const auto legal = s->legal_actions();
  EXPECT_EQ(legal.size(), 4u * 2);
  EXPECT_FALSE(has(legal, Action::pass()));
  EXPECT_EQ(s->apply(0, Action::pass()), Refusal::not_allowed);
  EXPECT_EQ(s->apply(0, Action::take(Trump::of(Suit::hearts))), Refusal::invalid_trump);
  ASSERT_EQ(s->apply(0, take_with(Trump::of(Suit::clubs), "9H")), Refusal::none);
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "TH", "AH", "KC"}));
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "9H", "QH", "JC"}));
  EXPECT_EQ(s->observation(1).contract->taker, 0);
  EXPECT_EQ(s->current_player(), 1);
}

TEST(Simple, NoTrumpsOptionOff) {
  auto s = make(kDeck, {{"no_trumps", false}});
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  EXPECT_EQ(s->legal_actions().size(), 1u + 3 * 2);
  EXPECT_EQ(s->apply(1, Action::take(Trump::no_trumps())), Refusal::invalid_trump);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->apply(0, Action::take(Trump::no_trumps())), Refusal::invalid_trump);
  EXPECT_EQ(s->apply(0, Action::take(Trump::of(Suit::spades))), Refusal::none);
}

TEST(Simple, ForcedJack) {
  // simple belote rules: the first player may take the Jack or not; if not, the second player must.
  auto s = make(kJackDeck);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::pass(), Action::take()}));
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{Action::take()}));
  EXPECT_EQ(s->apply(0, Action::pass()), Refusal::not_allowed);
  EXPECT_EQ(s->apply(0, Action::take(Trump::of(Suit::spades))), Refusal::invalid_trump);  // no other trump
  ASSERT_EQ(s->apply(0, Action::take()), Refusal::none);
  EXPECT_EQ(s->hands()[0], S({"JD", "QD", "KD", "9S", "TS", "AC", "JH", "QH", "JC"}));
  EXPECT_EQ(s->hands()[1], S({"JS", "QS", "KS", "9C", "TC", "AS", "TH", "AH", "KC"}));
  EXPECT_EQ(s->observation(1).contract->trump, Trump::of(Suit::hearts));
}

TEST(Simple, ForcedJackTakenByTheFirstPlayer) {
  auto s = make(kJackDeck);
  ASSERT_EQ(s->apply(1, take_with(Trump::of(Suit::hearts), "JH")), Refusal::none);
  EXPECT_EQ(s->observation(0).contract->taker, 1);
  EXPECT_TRUE(s->hands()[1].contains(C("JH")));
}

TEST(Simple, BiddingRefusals) {
  auto s = make(kDeck);
  EXPECT_EQ(s->apply(0, Action::pass()), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(1, Action::play(C("JS"))), Refusal::wrong_phase);
  for (const Action& a : {Action::bid(80, Trump::of(Suit::hearts)), Action::double_(), Action::redouble(),
                          Action::concede(), Action::announce(S({"JS", "QS", "KS"})), Action::show(S({"JS"}))})
    EXPECT_EQ(s->apply(1, a), Refusal::not_allowed) << to_string(a);
  EXPECT_EQ(s->apply(1, Action::take(Trump::of(Suit::spades))),
            Refusal::invalid_trump);  // simple belote rules: the offered suit
  EXPECT_EQ(s->apply(1, take_with(Trump::of(Suit::hearts), "TH")), Refusal::invalid_bid);
  EXPECT_TRUE(s->record().actions.empty());
  EXPECT_EQ(s->observation(1).own.size(), 6);
}

TEST(Simple, PlayConstraintsAndRefusals) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::take()), Refusal::none);
  // Seat 1: JS QS KS 9C TC AS TH AH KC; seat 0: JD QD KD 9S TS AC 9H QH JC; hearts trump.
  EXPECT_EQ(s->apply(0, Action::play(C("JD"))), Refusal::not_your_turn);
  EXPECT_EQ(s->apply(1, Action::play(C("JD"))), Refusal::card_not_in_hand);
  ASSERT_EQ(s->apply(1, Action::play(C("TH"))), Refusal::none);
  // simple belote rules: trumps led, a higher trump must cover.
  EXPECT_EQ(s->apply(0, Action::play(C("QH"))), Refusal::must_beat);
  EXPECT_EQ(s->apply(0, Action::play(C("JD"))), Refusal::must_follow_suit);
  EXPECT_EQ(s->apply(0, Action::take()), Refusal::wrong_phase);
  EXPECT_EQ(s->apply(0, Action::pass()), Refusal::wrong_phase);
  ASSERT_EQ(s->apply(0, Action::play(C("9H"))), Refusal::none);
  EXPECT_EQ(s->current_player(), 0);
  ASSERT_EQ(s->apply(0, Action::play(C("JD"))), Refusal::none);
  // simple belote rules: no diamond, so a trump.
  EXPECT_EQ(s->apply(1, Action::play(C("AS"))), Refusal::must_trump);
  ASSERT_EQ(s->apply(1, Action::play(C("AH"))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("KC"))), Refusal::none);
  // A plain suit led: follow, with no duty to beat.
  const auto legal = s->legal_actions();
  EXPECT_TRUE(has(legal, Action::play(C("JC"))));
  EXPECT_TRUE(has(legal, Action::play(C("AC"))));
  EXPECT_FALSE(has(legal, Action::play(C("QH"))));
  EXPECT_EQ(s->apply(0, Action::play(C("QH"))), Refusal::must_follow_suit);
}

TEST(Simple, WithoutATrumpAVoidPlayerDiscardsAnything) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::take(Trump::no_trumps())), Refusal::none);
  // Seat 1: JS QS KS 9C TC AS TH AH KC; seat 0: JD QD KD 9S TS AC QH JC QC.
  ASSERT_EQ(s->apply(1, Action::play(C("AH"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("QH"))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("TH"))), Refusal::none);
  // Seat 0 has no hearts left and no trump exists: any card.
  int plays = 0;
  for (const Action& a : s->legal_actions()) plays += a.type == ActionType::play;
  EXPECT_EQ(plays, 8);
}

// ---- Announcing and showing (simple belote rules: announce in the first trick, show in the second; belote is not
// announced) -----------------------------------------------

// After seat 1 takes hearts: seat 1 holds JS QS KS, seat 0 JD QD KD; equal tierces to the king,
// neither in trumps.
TEST(SimpleDeclarations, EqualCombinationsGoToTheFirstToAnnounce) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  const CardSet spades = S({"JS", "QS", "KS"}), diamonds = S({"JD", "QD", "KD"});
  play_hand(*s, {std::vector<CardSet>{diamonds}, std::vector<CardSet>{spades}}, {true, true});
  const HandResult& r = s->hand_results().back();
  EXPECT_EQ(r.teams[1].declarations, 20);
  EXPECT_EQ(r.teams[0].declarations, 0);
}

TEST(SimpleDeclarations, UnannouncedOrUnshownDoesNotCount) {
  const CardSet spades = S({"JS", "QS", "KS"}), diamonds = S({"JD", "QD", "KD"});
  {
    auto s = make(kDeck);
    ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
    play_hand(*s, {std::vector<CardSet>{diamonds}, std::vector<CardSet>{}}, {true, true});
    EXPECT_EQ(s->hand_results().back().teams[0].declarations, 20);  // seat 1 never announced
    EXPECT_EQ(s->hand_results().back().teams[1].declarations, 0);
  }
  {
    auto s = make(kDeck);
    ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
    play_hand(*s, {std::vector<CardSet>{diamonds}, std::vector<CardSet>{spades}}, {true, false});
    EXPECT_EQ(s->hand_results().back().teams[0].declarations, 20);  // seat 1 announced, never showed
    EXPECT_EQ(s->hand_results().back().teams[1].declarations, 0);
  }
}

TEST(SimpleDeclarations, TrumpCombinationWinsTheTieAndBeloteCountsUnannounced) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::take(Trump::of(Suit::diamonds))), Refusal::none);
  // Seat 0 holds JD QD KD in trumps (and so belote); seat 1 JS QS KS, announced first.
  const CardSet spades = S({"JS", "QS", "KS"}), diamonds = S({"JD", "QD", "KD"});
  play_hand(*s, {std::vector<CardSet>{diamonds}, std::vector<CardSet>{spades}}, {true, true});
  const HandResult& r = s->hand_results().back();
  EXPECT_EQ(r.teams[0].declarations, 20);
  EXPECT_EQ(r.teams[1].declarations, 0);
  EXPECT_EQ(r.teams[0].belote, 20);  // simple belote rules: counted automatically
  EXPECT_EQ(r.teams[1].belote, 0);
}

TEST(SimpleDeclarations, AnnounceAndShowRefusals) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  const CardSet spades = S({"JS", "QS", "KS"});
  EXPECT_EQ(s->apply(1, Action::show(spades)), Refusal::wrong_phase);  // shown in the second trick
  EXPECT_EQ(s->apply(1, Action::announce(S({"JS", "QS", "AS"}))), Refusal::invalid_combination);
  EXPECT_EQ(s->apply(1, Action::announce(S({"JD", "QD", "KD"}))), Refusal::invalid_combination);  // not its own
  EXPECT_TRUE(has(s->legal_actions(), Action::announce(spades)));
  EXPECT_TRUE(has(s->legal_actions(), Action::concede()));
  EXPECT_EQ(s->apply(0, Action::announce(S({"JD", "QD", "KD"}))), Refusal::not_your_turn);
  ASSERT_EQ(s->apply(1, Action::announce(spades)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::announce(spades)), Refusal::invalid_combination);
  // Both hear the announcement; nobody sees its cards yet.
  const Observation heard = s->observation(0);
  ASSERT_EQ(heard.declarations.size(), 1u);
  EXPECT_EQ(heard.declarations[0].kind, ComboKind::tierce);
  EXPECT_FALSE(heard.declarations[0].shown);
  EXPECT_TRUE(heard.declarations[0].cards.empty());
  ASSERT_EQ(s->apply(1, Action::play(C("9C"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("AC"))), Refusal::none);  // seat 0 did not announce
  // Second trick: seat 0 leads. It announced nothing, so it can show nothing.
  EXPECT_EQ(s->apply(0, Action::show(S({"JD", "QD", "KD"}))), Refusal::not_announced);
  EXPECT_EQ(s->apply(0, Action::announce(S({"JD", "QD", "KD"}))),
            Refusal::wrong_phase);  // simple belote rules: too late
  ASSERT_EQ(s->apply(0, Action::play(C("KC"))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::show(spades)), Refusal::none);
  EXPECT_EQ(s->apply(1, Action::show(spades)), Refusal::not_allowed);  // already shown
  EXPECT_EQ(s->observation(0).declarations[0].cards, spades);
}

// Seat 1: 9S TS JS QS KS 9D + QH 9C TC (a quint to the king); seat 0: the four aces, JD JC, then
// QC KC JH (the carré of aces and a club tierce).
const Deck kCarreDeck = {"9S", "TS", "JS", "AH", "AD", "AC", "QS", "KS", "9D", "AS", "JD", "JC",
                         "QH", "9C", "TC", "QC", "KC", "JH", "TD", "QD", "KD", "9H", "TH", "KH"};

TEST(SimpleDeclarations, CarreBeatsAQuintAnnouncedFirst) {
  auto s = make(kCarreDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  ASSERT_EQ(s->hands()[0], S({"AH", "AD", "AC", "AS", "JD", "JC", "QC", "KC", "JH"}));
  const CardSet quint = S({"9S", "TS", "JS", "QS", "KS"});
  const CardSet aces = S({"AH", "AD", "AC", "AS"}), clubs = S({"JC", "QC", "KC"});
  play_hand(*s, {std::vector<CardSet>{aces, clubs}, std::vector<CardSet>{quint}}, {true, true});
  const HandResult& r = s->hand_results().back();
  EXPECT_EQ(r.teams[0].declarations, 110 + 20);  // simple belote rules: all of the stronger player's
  EXPECT_EQ(r.teams[1].declarations, 0);
}

// Seat 1: TS JS QS KS TD AD + TH JH QH (a quarte and a tierce); seat 0: the four nines, AS AC,
// then AH TC JC. Seat 1 chooses no trump: the carré of nines is worth 0 and still wins.
const Deck kNinesDeck = {"TS", "JS", "QS", "9S", "9D", "9C", "KS", "TD", "AD", "9H", "AS", "AC",
                         "KH", "TH", "JH", "QH", "AH", "TC", "JC", "QC", "KC", "JD", "QD", "KD"};

TEST(SimpleDeclarations, WithoutATrumpCarreOfNinesIsWorthNothingButWins) {
  auto s = make(kNinesDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::take(Trump::no_trumps())), Refusal::none);
  ASSERT_EQ(s->hands()[0], S({"9S", "9D", "9C", "9H", "AS", "AC", "AH", "TC", "JC"}));
  const CardSet quarte = S({"TS", "JS", "QS", "KS"}), hearts = S({"TH", "JH", "QH"});
  const CardSet nines = S({"9S", "9D", "9C", "9H"});
  play_hand(*s, {std::vector<CardSet>{nines}, std::vector<CardSet>{quarte, hearts}}, {true, true});
  const HandResult& r = s->hand_results().back();
  EXPECT_EQ(r.teams[0].declarations, 0);  // simple belote rules
  EXPECT_EQ(r.teams[1].declarations, 0);
  EXPECT_EQ(r.teams[0].belote + r.teams[1].belote, 0);  // no belote without a trump
  // Without a trump an ace is worth 19 (simple belote rules): the cards dealt add up accordingly.
  const PointTable p = simple_points();
  const CardSet dealt = CardSet::deck24() - S({"KH", "QC", "KC", "JD", "QD", "KD"});
  EXPECT_EQ(r.teams[0].card_points + r.teams[1].card_points, p.sum(Trump::no_trumps(), dealt));
  EXPECT_EQ(p.sum(Trump::no_trumps(), dealt), 152 - 4 - 3 - 4 - 2 - 3 - 4);
}

// ---- Concede (simple belote rules: a player may give the rest of the cards to the opponent), kaput (simple belote
// rules: the taker with fewer points loses them; kaput) ---------------------------------------------------

TEST(SimpleConcede, GivesTheRestToTheOpponentScoredAsUsual) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::pass()), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::take()), Refusal::none);
  EXPECT_EQ(s->apply(0, Action::concede()), Refusal::not_your_turn);
  ASSERT_EQ(s->apply(1, Action::play(C("TH"))), Refusal::none);
  ASSERT_EQ(s->apply(0, Action::play(C("9H"))), Refusal::none);  // seat 0 wins 24
  ASSERT_EQ(s->apply(0, Action::play(C("JD"))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::play(C("AH"))), Refusal::none);  // seat 1 wins 13
  ASSERT_EQ(s->apply(1, Action::concede()), Refusal::none);
  ASSERT_EQ(s->hand_results().size(), 1u);
  const HandResult& r = s->hand_results()[0];
  // The 18 cards dealt are worth 104 with hearts trump; seat 1 keeps its 13.
  EXPECT_EQ(r.teams[1].card_points, 13);
  EXPECT_EQ(r.teams[1].tricks, 1);
  EXPECT_EQ(r.teams[0].card_points, 104 - 13);
  EXPECT_EQ(r.teams[0].tricks, 8);
  EXPECT_EQ(r.teams[0].last_trick, 10);
  EXPECT_FALSE(r.capot);
  EXPECT_EQ(r.outcome, Outcome::made);
  EXPECT_EQ(r.teams[0].score, 162 - 13);  // simple belote rules: the taker with more points wins the deal
  EXPECT_EQ(r.teams[1].score, 13);
  EXPECT_EQ(s->match_score(), (std::array<int, 2>{149, 13}));
  EXPECT_EQ(s->record().actions.back().action, Action::concede());
  // The next deal: the other player deals (seat 1), seat 0 speaks first.
  EXPECT_EQ(s->observation(kNoSeat).dealer, 1);
  EXPECT_EQ(s->current_player(), 0);
}

TEST(SimpleConcede, InTheFirstTrickAnnouncedCombinationsAreStillShown) {
  auto s = make(kDeck);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::announce(S({"JS", "QS", "KS"}))), Refusal::none);
  ASSERT_EQ(s->apply(1, Action::concede()), Refusal::none);
  const HandResult& r = s->hand_results()[0];
  // The taker conceded every trick: kaput, failed; its tierce moves to the opponent (simple belote rules: the taker
  // with fewer points loses them; kaput).
  EXPECT_TRUE(r.capot);
  EXPECT_EQ(r.capot_team, 0);
  EXPECT_EQ(r.teams[0].tricks, 9);
  EXPECT_EQ(r.outcome, Outcome::failed);
  EXPECT_EQ(r.teams[1].declarations, 20);
  EXPECT_EQ(r.teams[0].score, 210 + 20);
  EXPECT_EQ(r.teams[1].score, 0);
}

TEST(SimpleConcede, OptionOffAndOtherPhases) {
  auto s = make(kDeck, {{"concede", false}});
  EXPECT_EQ(s->apply(1, Action::concede()), Refusal::not_allowed);
  ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
  EXPECT_FALSE(has(s->legal_actions(), Action::concede()));
  EXPECT_EQ(s->apply(1, Action::concede()), Refusal::not_allowed);
  EXPECT_EQ(s->apply(1, Action::bid(80, Trump::of(Suit::hearts))), Refusal::wrong_phase);
  EXPECT_TRUE(s->hand_results().empty());
}

TEST(SimpleKaput, TakerWinsEveryTrick) {
  for (const int kaput : {210, 372}) {
    auto s = make(kDeck, {{"kaput", kaput}});
    ASSERT_EQ(s->apply(1, Action::take()), Refusal::none);
    ASSERT_EQ(s->apply(1, Action::play(C("AS"))), Refusal::none);
    ASSERT_EQ(s->apply(0, Action::concede()), Refusal::none);  // mid-trick: the trick goes too
    const HandResult& r = s->hand_results()[0];
    EXPECT_TRUE(r.capot);
    EXPECT_EQ(r.capot_team, 1);
    EXPECT_EQ(r.teams[1].tricks, 9);
    EXPECT_EQ(r.teams[1].card_points + r.teams[1].last_trick + r.teams[1].capot_bonus, kaput);
    EXPECT_EQ(r.outcome, Outcome::made);
    EXPECT_EQ(r.teams[1].score, kaput);
    EXPECT_EQ(r.teams[0].score, 0);
  }
}

// ---- The match (simple belote rules: targets 501, 1001, 2001 or games to 1, 3 or 5) and the dealer (simple belote
// rules: 6 cards each and an offered card) ------------------------------------------

// Every deal: the first player takes and concedes at once, so the dealer wins it by kaput.
std::unique_ptr<State> dealer_wins_every_deal(Options options, int max_deals) {
  Record r;
  r.variant = "simple";
  r.options = std::move(options);
  r.deal.seed = Seed{5, 5};
  auto s = std::move(create_state(r).state);
  for (int i = 0; i < max_deals && !s->is_terminal(); ++i) {
    EXPECT_EQ(s->apply(Action::take()), Refusal::none);
    EXPECT_EQ(s->apply(Action::concede()), Refusal::none);
  }
  return s;
}

TEST(SimpleMatch, GamesAreDealsWon) {
  for (const auto& [name, n] : {std::pair{"games_1", 1}, std::pair{"games_3", 3}, std::pair{"games_5", 5}}) {
    auto s = dealer_wins_every_deal({{"match", std::string(name)}}, 20);
    ASSERT_TRUE(s->is_terminal()) << name;
    const auto& results = s->hand_results();
    // Dealers alternate from seat 0, so seat 0 wins deals 0, 2, 4, ... and its n-th is deal 2n-2.
    ASSERT_EQ(results.size(), static_cast<std::size_t>(2 * n - 1)) << name;
    for (std::size_t i = 0; i < results.size(); ++i) {
      EXPECT_EQ(results[i].dealer, static_cast<Seat>(i % 2));
      EXPECT_EQ(results[i].outcome, Outcome::failed);
      EXPECT_EQ(simple_deal_winner(results[i]), static_cast<int>(i % 2));
    }
    EXPECT_EQ(s->winner(), 0) << name;
  }
}

TEST(SimpleMatch, PointsTargets) {
  for (const auto& [name, target] :
       {std::pair{"points_51", 501}, std::pair{"points_101", 1001}, std::pair{"points_201", 2001}}) {
    auto s = dealer_wins_every_deal({{"match", std::string(name)}}, 100);
    ASSERT_TRUE(s->is_terminal()) << name;
    const auto score = s->match_score();
    const int w = *s->winner();
    EXPECT_GE(score[static_cast<std::size_t>(w)], target) << name;
    EXPECT_GT(score[static_cast<std::size_t>(w)], score[static_cast<std::size_t>(1 - w)]) << name;
    const auto& results = s->hand_results();
    for (std::size_t i = 0; i + 1 < results.size(); ++i) {
      const auto& m = results[i].match_score;
      EXPECT_FALSE((m[0] >= target || m[1] >= target) && m[0] != m[1]) << name << " should have ended at " << i;
    }
  }
}

TEST(SimpleMatch, BadOptionsAndDecks) {
  Record r = record_for(kDeck, {{"match", std::string("points_100")}});
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r = record_for(kDeck, {{"kaput", 250}});
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r = record_for(kDeck,
                 {{"declare", std::string("auto")}});  // simple always announces (simple belote rules: announce in the
                                                       // first trick, show in the second; belote is not announced)
  EXPECT_EQ(create_state(r).error->code, "bad_option");
  r = record_for(kDeck);
  r.deal.decks[0][0] = C("7S");  // simple belote rules: nine to ace only
  EXPECT_EQ(create_state(r).error->code, "bad_deal");
  r = record_for(kDeck);
  r.deal.decks[0].push_back(C("8S"));
  EXPECT_EQ(create_state(r).error->code, "bad_deal");
  r = record_for(kDeck);
  r.first_dealer = 2;
  EXPECT_EQ(create_state(r).error->code, "bad_deal");
}

}  // namespace
}  // namespace atout
