// Seeded random Bazar matches through the shared harness, with an oracle written from the Bazar
// rules and docs/rules/bazar.md alone: it re-reads each match's record, re-plays the auction,
// the tricks and the showing with its own tables, checks that the engine offered exactly the legal
// actions those rules allow at every step, and recomputes every hand result and the match end. It
// uses the engine only through the State API (to replay the record and read what it offered).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "sim_harness.hpp"

namespace atout {
namespace {

// ---- the Bazar rules' tables, written out again ------------------------------------------------------

// Weakest to strongest (Bazar rules: plain order A 10 K Q J 9 8 7), by rank letter.
constexpr const char* kPlainOrder = "789JQKTA";
constexpr const char* kTrumpOrder = "78QKTA9J";
// Natural order for sequences and heights (Bazar rules: a tierce is 2 (in tens)).
constexpr const char* kNatural = "789TJQKA";
// Carrés, weakest to strongest (Bazar rules: only the side with the strongest combination scores): Q < K < 10 < A < 9 <
// J < 8.
constexpr const char* kCarreOrder = "QKTA9J8";

int pos(const char* order, Rank r) { return static_cast<int>(std::strchr(order, rank_letter(r)) - order); }

bool is_trump(const Contract& c, Card x) { return c.trump.mode == Mode::suit && c.trump.suit == x.suit(); }

// Bazar rules: card values A 11.
int points(const Contract& c, Card x) {
  const char r = rank_letter(x.rank());
  if (is_trump(c, x) && r == 'J') return 20;
  if (is_trump(c, x) && r == '9') return 14;
  if (c.trump.mode == Mode::no_trumps && r == 'A') return 19;
  switch (r) {
    case 'A':
      return 11;
    case 'T':
      return 10;
    case 'K':
      return 4;
    case 'Q':
      return 3;
    case 'J':
      return 2;
    default:
      return 0;
  }
}

// Whether `x` beats `best`, the card holding the trick (Bazar rules: any trump beats any plain card).
bool beats(const Contract& c, Card x, Card best) {
  if (x.suit() == best.suit()) {
    const char* order = is_trump(c, x) ? kTrumpOrder : kPlainOrder;
    return pos(order, x.rank()) > pos(order, best.rank());
  }
  return is_trump(c, x);
}

// Bazar rules: follow a plain suit led if able and the `undertrump` option: may `x` be played from `hand` to `trick`?
bool may_play(const Contract& c, bool forced_undertrump, CardSet hand, const std::vector<std::pair<Seat, Card>>& trick,
              Seat seat, Card x) {
  if (!hand.contains(x)) return false;
  if (trick.empty()) return true;
  const Suit led = trick[0].second.suit();
  std::size_t win = 0;
  for (std::size_t i = 1; i < trick.size(); ++i)
    if (beats(c, trick[i].second, trick[win].second)) win = i;
  const Card best = trick[win].second;
  const CardSet follow = hand.in_suit(led);
  if (!follow.empty()) {
    if (x.suit() != led) return false;
    if (!is_trump(c, x)) return true;  // Bazar rules: a plain suit, no need to beat
    // Bazar rules: trumps led, a stronger trump if the player has one.
    bool can_beat = false;
    for (Card y : follow) can_beat = can_beat || beats(c, y, best);
    return !can_beat || beats(c, x, best);
  }
  if (c.trump.mode != Mode::suit) return true;
  const CardSet trumps = hand.in_suit(c.trump.suit);
  if (trumps.empty()) return true;                    // Bazar rules: no trump, any card
  if (trick[win].first % 2 == seat % 2) return true;  // Bazar rules: the partner holds the trick
  bool can_beat = false;
  for (Card y : trumps) can_beat = can_beat || beats(c, y, best);
  if (can_beat) return beats(c, x, best);       // Bazar rules: beat with a trump
  return !forced_undertrump || is_trump(c, x);  // seed silent: the option
}

struct Shown {
  Seat seat;
  CardSet cards;
};

// A shown combination's points in tens (Bazar rules: a tierce is 2 (in tens)) and its strength (Bazar rules: only the
// side with the strongest combination scores).
struct ComboFacts {
  int tens = 0;
  int strength = 0;
};

ComboFacts combo_facts(const Contract& c, CardSet cards) {
  ComboFacts f;
  const Card first = cards.first();
  const bool carre = cards == CardSet::rank_mask(first.rank());
  const bool height = c.trump.mode == Mode::no_trumps;
  if (carre) {
    switch (rank_letter(first.rank())) {
      case 'J':
        f.tens = 20;
        break;
      case '9':
        f.tens = height ? 10 : 14;
        break;
      case 'A':
        f.tens = height ? 19 : 10;
        break;
      case '8':
        f.tens = 0;
        break;
      default:
        f.tens = 10;
    }
    f.strength = 10000 + pos(kCarreOrder, first.rank());
    return f;
  }
  // A run of 3, 4 or 5 in one suit.
  const int len = cards.size();
  EXPECT_TRUE(cards == cards.in_suit(first.suit())) << to_string(cards);
  EXPECT_TRUE(len >= 3 && len <= 5) << to_string(cards);
  Rank top = first.rank();
  for (Card x : cards) top = std::max(top, x.rank());
  EXPECT_EQ(pos(kNatural, top) - pos(kNatural, first.rank()), len - 1) << to_string(cards);
  f.tens = len == 3 ? 2 : len == 4 ? 5 : 10;
  f.strength = len * 100 + pos(kNatural, top) * 2 + (is_trump(c, first) ? 1 : 0);
  return f;
}

// Every combination in `hand` (Bazar rules: a tierce is 2 (in tens)): runs of 3, 4 and 5 in a suit, carrés of 8 to ace.
std::vector<CardSet> all_combos(CardSet hand) {
  std::vector<CardSet> out;
  for (int s = 0; s < kSuits; ++s)
    for (int len = 3; len <= 5; ++len)
      for (int start = 0; start + len <= kRanks; ++start) {
        CardSet run;
        for (int r = start; r < start + len; ++r) run.insert(Card(static_cast<Suit>(s), static_cast<Rank>(r)));
        if ((hand & run) == run) out.push_back(run);
      }
  for (int r = 1; r < kRanks; ++r) {
    const CardSet four = CardSet::rank_mask(static_cast<Rank>(r));
    if ((hand & four) == four) out.push_back(four);
  }
  return out;
}

// ---- the oracle -----------------------------------------------------------------------------------

class Replayer {
 public:
  Replayer(const State& s, const std::vector<sim::DealFacts>& deals) : s_(s), deals_(deals) {
    const Options& o = s.record().options;
    forced_undertrump_ = std::get<std::string>(o.at("undertrump")) == "forced";
    target_ = std::get<int>(o.at("target"));
    Record header = s.record();
    header.actions.clear();
    twin_ = create_state(header).state;
  }

  void run() {
    Seat dealer = s_.record().first_dealer;
    for (const HandResult& r : s_.hand_results()) {
      SCOPED_TRACE("hand " + std::to_string(r.hand));
      ASSERT_EQ(r.dealer, dealer);
      check_hand(r, dealer);
      if (::testing::Test::HasFatalFailure()) return;
      dealer = static_cast<Seat>((dealer + 1) % 4);
    }
    ASSERT_EQ(next_, s_.record().actions.size());  // every action was accounted for
    check_match_end();
  }

 private:
  // An action as one comparable number (cheaper than its text on 681-action bidding lists).
  static std::uint64_t key(const Action& a) {
    std::uint64_t k = static_cast<std::uint64_t>(a.type);
    k = k << 1 | (a.capot ? 1u : 0u);
    k = k << 1 | (a.has_trump ? 1u : 0u);
    k = k << 2 | (a.has_trump ? static_cast<std::uint64_t>(a.trump.mode) : 0u);
    k = k << 2 | (a.has_trump && a.trump.mode == Mode::suit ? static_cast<std::uint64_t>(a.trump.suit) : 0u);
    k = k << 8 | static_cast<std::uint64_t>(a.value);
    k = k << 5 | (a.type == ActionType::play ? static_cast<std::uint64_t>(a.card.index()) : 0u);
    return k << 32 | a.cards.bits();
  }

  // The next recorded action, after checking that the engine offered exactly `expected` at that
  // point; the action is then applied to a twin of the match.
  const RecordedAction& take(std::vector<Action> expected_actions) {
    static const RecordedAction kNone{kNoSeat, Action::pass()};
    if (next_ >= s_.record().actions.size()) {
      ADD_FAILURE() << "the record ends before the hand results do";
      return kNone;
    }
    const std::vector<Action> offered_actions = twin_->legal_actions();
    std::vector<std::uint64_t> offered, expected;
    for (const Action& a : offered_actions) offered.push_back(key(a));
    for (const Action& a : expected_actions) expected.push_back(key(a));
    std::sort(offered.begin(), offered.end());
    std::sort(expected.begin(), expected.end());
    if (offered != expected) {
      std::string extra, missing;
      for (const Action& a : offered_actions)
        if (!std::binary_search(expected.begin(), expected.end(), key(a))) extra += " [" + to_string(a) + "]";
      for (const Action& a : expected_actions)
        if (!std::binary_search(offered.begin(), offered.end(), key(a))) missing += " [" + to_string(a) + "]";
      ADD_FAILURE() << "at action " << next_ << " of the record the engine offered" << extra
                    << " beyond the rules, and not" << missing;
    }
    const RecordedAction& ra = s_.record().actions[next_++];
    EXPECT_EQ(twin_->apply(ra.seat, ra.action), Refusal::none);
    return ra;
  }

  void check_hand(const HandResult& r, Seat dealer) {
    // The auction (Bazar rules: bids are 'x of a suit', at least 10x points; docs/rules/bazar.md): speakers in turn
    // from the dealer's successor; bids from 8 to 84, each higher than the last; capot above 25; after a capot by one
    // side the other bids only capot; contra by the opponents, re-contra by the bidders, once each.
    Seat turn = static_cast<Seat>((dealer + 1) % 4);
    int passes = 0, high = 0, multiplier = 1;
    Seat taker = kNoSeat, doubled_by = kNoSeat, redoubled_by = kNoSeat;
    Trump trump{};
    bool capot_bid = false;
    std::array<bool, 2> said_capot{};
    for (;;) {
      const int side = turn % 2;
      std::vector<Action> expected = {Action::pass()};
      if (taker != kNoSeat && taker % 2 != side && multiplier == 1) expected.push_back(Action::double_());
      if (taker != kNoSeat && taker % 2 == side && multiplier == 2) expected.push_back(Action::redouble());
      for (int v = std::max(8, high + 1); v <= 84; ++v)
        for (Trump t : {Trump::of(Suit::clubs), Trump::of(Suit::diamonds), Trump::of(Suit::hearts),
                        Trump::of(Suit::spades), Trump::no_trumps()}) {
          if (!said_capot[static_cast<std::size_t>(1 - side)]) expected.push_back(Action::bid(v, t));
          if (v > 25) expected.push_back(Action::bid(v, t, true));
        }
      const RecordedAction& ra = take(expected);
      ASSERT_EQ(ra.seat, turn);
      const Action& a = ra.action;
      if (a.type == ActionType::pass) {
        ++passes;
      } else if (a.type == ActionType::bid) {
        ASSERT_TRUE(a.value >= 8 && a.value <= 84 && a.value > high) << to_string(a);
        ASSERT_TRUE(a.trump.mode == Mode::suit || a.trump.mode == Mode::no_trumps);
        if (a.capot) {
          ASSERT_GT(a.value, 25);
          said_capot[static_cast<std::size_t>(side)] = true;
        } else {
          ASSERT_FALSE(said_capot[static_cast<std::size_t>(1 - side)]) << to_string(a);
        }
        high = a.value;
        trump = a.trump;
        capot_bid = a.capot;
        taker = turn;
        multiplier = 1;
        doubled_by = redoubled_by = kNoSeat;
        passes = 0;
      } else if (a.type == ActionType::double_) {
        ASSERT_TRUE(taker != kNoSeat && taker % 2 != side && multiplier == 1);
        multiplier = 2;
        doubled_by = turn;
        passes = 0;
      } else {
        ASSERT_EQ(a.type, ActionType::redouble);
        ASSERT_TRUE(multiplier == 2 && taker % 2 == side);
        multiplier = 4;
        redoubled_by = turn;
        passes = 0;
      }
      turn = static_cast<Seat>((turn + 1) % 4);
      if (taker == kNoSeat && passes == 4) {
        ASSERT_EQ(r.outcome, Outcome::all_passed);
        ASSERT_FALSE(r.contract.has_value());
        ASSERT_EQ(r.match_score, running_);
        return;
      }
      if (taker != kNoSeat && passes == 3) break;
    }
    ASSERT_TRUE(r.contract.has_value());
    const Contract& c = *r.contract;
    ASSERT_EQ(c.taker, taker);
    ASSERT_EQ(c.trump, trump);
    ASSERT_EQ(c.value, high);
    ASSERT_EQ(c.capot, capot_bid);
    ASSERT_EQ(c.multiplier, multiplier);
    ASSERT_EQ(c.doubled_by, doubled_by);
    ASSERT_EQ(c.redoubled_by, redoubled_by);

    const sim::DealFacts& deal = deals_.at(static_cast<std::size_t>(r.hand));
    ASSERT_EQ(deal.leader, (dealer + 1) % 4);  // Bazar rules: 8 cards each; 7 to ace
    std::array<CardSet, 4> hands = deal.start_hands;
    for (const CardSet& h : hands) ASSERT_EQ(h.size(), 8);  // Bazar rules: 8 cards each; 7 to ace

    // The play (Bazar rules: the player after the dealer starts): tricks, announcing in trick 1, showing in trick 2.
    std::array<std::vector<CardSet>, 4> announced;
    std::vector<Shown> shown;
    std::array<int, 2> cards{}, tricks{};
    Seat leader = deal.leader, last_winner = kNoSeat;
    for (int t = 0; t < 8; ++t) {
      std::vector<std::pair<Seat, Card>> trick;
      while (trick.size() < 4) {
        const Seat seat = static_cast<Seat>((leader + static_cast<int>(trick.size())) % 4);
        const auto me = static_cast<std::size_t>(seat);
        std::vector<Action> expected;
        for (Card x : hands[me])
          if (may_play(c, forced_undertrump_, hands[me], trick, seat, x)) expected.push_back(Action::play(x));
        if (t == 0) {
          CardSet used;
          for (CardSet a : announced[me]) used |= a;
          for (CardSet combo : all_combos(deal.start_hands[me]))
            if ((combo & used).empty()) expected.push_back(Action::announce(combo));
        }
        if (t == 1)
          for (CardSet a : announced[me])
            if (std::none_of(shown.begin(), shown.end(),
                             [&](const Shown& x) { return x.seat == seat && x.cards == a; }))
              expected.push_back(Action::show(a));
        const RecordedAction& ra = take(expected);
        ASSERT_EQ(ra.seat, seat);
        const Action& a = ra.action;
        if (a.type == ActionType::announce) {
          // Bazar rules: before the first card, a combination of the seat's own cards not crossing one
          // announced already (Bazar rules: combinations must not cross; belote counts in any case).
          ASSERT_EQ(t, 0);
          ASSERT_TRUE((a.cards - deal.start_hands[static_cast<std::size_t>(seat)]).empty());
          for (CardSet other : announced[static_cast<std::size_t>(seat)]) ASSERT_TRUE((other & a.cards).empty());
          combo_facts(c, a.cards);
          announced[static_cast<std::size_t>(seat)].push_back(a.cards);
          continue;
        }
        if (a.type == ActionType::show) {
          // Bazar rules: before the second card, what was announced, once.
          ASSERT_EQ(t, 1);
          const auto& mine = announced[static_cast<std::size_t>(seat)];
          ASSERT_NE(std::find(mine.begin(), mine.end(), a.cards), mine.end());
          for (const Shown& x : shown) ASSERT_FALSE(x.seat == seat && x.cards == a.cards);
          shown.push_back({seat, a.cards});
          continue;
        }
        ASSERT_EQ(a.type, ActionType::play);
        ASSERT_TRUE(may_play(c, forced_undertrump_, hands[static_cast<std::size_t>(seat)], trick, seat, a.card))
            << "seat " << int(seat) << " played " << to_string(a.card) << " from "
            << to_string(hands[static_cast<std::size_t>(seat)]);
        hands[static_cast<std::size_t>(seat)].erase(a.card);
        trick.push_back({seat, a.card});
      }
      std::size_t win = 0;
      for (std::size_t i = 1; i < 4; ++i)
        if (beats(c, trick[i].second, trick[win].second)) win = i;
      leader = last_winner = trick[win].first;
      for (const auto& [seat, card] : trick) cards[static_cast<std::size_t>(leader % 2)] += points(c, card);
      ++tricks[static_cast<std::size_t>(leader % 2)];
    }

    // Bazar rules: the side with the strongest shown combination counts all its shown ones; :
    // equal strength goes to the first to show (the trump bit is inside the strength).
    int best = -1;
    int counting = -1;
    for (const Shown& x : shown) {
      const int st = combo_facts(c, x.cards).strength;
      if (st > best) {
        best = st;
        counting = x.seat % 2;
      }
    }
    std::array<int, 2> decl{}, belote{};
    for (const Shown& x : shown)
      if (x.seat % 2 == counting) decl[static_cast<std::size_t>(counting)] += combo_facts(c, x.cards).tens;
    // Bazar rules: belote-rebelote 2, held from the start, in any case.
    if (c.trump.mode == Mode::suit)
      for (int seat = 0; seat < 4; ++seat) {
        const CardSet kq = CardSet::of(Card(c.trump.suit, Rank::king)) | CardSet::of(Card(c.trump.suit, Rank::queen));
        if ((deal.start_hands[static_cast<std::size_t>(seat)] & kq) == kq)
          belote[static_cast<std::size_t>(seat % 2)] = 2;
      }

    // Bazar rules: 152 in cards, 10 for the last trick; a capot is 250.
    ASSERT_EQ(cards[0] + cards[1], 152);
    const int bidders = taker % 2, defence = 1 - bidders;
    std::array<int, 2> taken = cards;
    taken[static_cast<std::size_t>(last_winner % 2)] += 10;
    const bool capot = tricks[0] == 0 || tricks[1] == 0;
    if (capot) taken[static_cast<std::size_t>(tricks[0] == 8 ? 0 : 1)] = 250;
    for (int t = 0; t < 2; ++t) {
      const TeamTally& tt = r.teams[static_cast<std::size_t>(t)];
      ASSERT_EQ(tt.card_points, cards[static_cast<std::size_t>(t)]);
      ASSERT_EQ(tt.tricks, tricks[static_cast<std::size_t>(t)]);
      ASSERT_EQ(tt.last_trick, last_winner % 2 == t ? 10 : 0);
      ASSERT_EQ(tt.card_points + tt.last_trick + tt.capot_bonus, taken[static_cast<std::size_t>(t)]);
      ASSERT_EQ(tt.declarations, decl[static_cast<std::size_t>(t)]);
      ASSERT_EQ(tt.belote, belote[static_cast<std::size_t>(t)]);
    }
    ASSERT_EQ(r.capot, capot);

    // Bazar rules: bids are 'x of a suit', at least 10x points in tens, card points rounded down (docs/rules/bazar.md).
    std::array<int, 2> y{};
    for (int t = 0; t < 2; ++t)
      y[static_cast<std::size_t>(t)] = taken[static_cast<std::size_t>(t)] / 10 + decl[static_cast<std::size_t>(t)] +
                                       belote[static_cast<std::size_t>(t)];
    const bool made =
        y[static_cast<std::size_t>(bidders)] >= high && (!capot_bid || tricks[static_cast<std::size_t>(bidders)] == 8);
    const int z = decl[0] + decl[1] + belote[0] + belote[1];
    std::array<int, 2> score{};
    if (multiplier == 1 && made) {
      score[static_cast<std::size_t>(bidders)] = high + y[static_cast<std::size_t>(bidders)];
      score[static_cast<std::size_t>(defence)] = y[static_cast<std::size_t>(defence)];
    } else {
      score[static_cast<std::size_t>(made ? bidders : defence)] = multiplier * high + 16 + z;
    }
    ASSERT_EQ(r.outcome, made ? Outcome::made : Outcome::failed);
    for (int t = 0; t < 2; ++t) {
      ASSERT_EQ(r.teams[static_cast<std::size_t>(t)].raw, y[static_cast<std::size_t>(t)]);
      ASSERT_EQ(r.teams[static_cast<std::size_t>(t)].score, score[static_cast<std::size_t>(t)]);
      running_[static_cast<std::size_t>(t)] += score[static_cast<std::size_t>(t)];
    }
    ASSERT_EQ(r.match_score, running_);
    ++outcomes_[made ? (multiplier == 1 ? 0 : 1) : (multiplier == 1 ? 2 : 3)];
  }

  void check_match_end() {
    // docs/rules/bazar.md: the first side to reach the target wins; equal scores play on.
    ASSERT_TRUE(s_.is_terminal());
    ASSERT_TRUE(s_.winner().has_value());
    const auto w = static_cast<std::size_t>(*s_.winner());
    ASSERT_GE(running_[w], target_);
    ASSERT_GT(running_[w], running_[1 - w]);
    const auto& results = s_.hand_results();
    for (std::size_t i = 0; i + 1 < results.size(); ++i) {
      const auto& ms = results[i].match_score;
      ASSERT_FALSE((ms[0] >= target_ || ms[1] >= target_) && ms[0] != ms[1]) << "the match should end at hand " << i;
    }
  }

  const State& s_;
  const std::vector<sim::DealFacts>& deals_;
  std::unique_ptr<State> twin_;
  bool forced_undertrump_ = false;
  int target_ = 0;
  std::size_t next_ = 0;
  std::array<int, 2> running_{};

 public:
  // Made, made under contra, failed, failed under contra: counted across matches for coverage.
  static inline std::array<long, 4> outcomes_{};
};

void check_bazar(const State& s, const std::vector<sim::DealFacts>& deals) { Replayer(s, deals).run(); }

// A policy that reaches every outcome: uniform play makes the auction climb to 84, where every
// contract fails. This one passes about half the time, contra's and re-contra's often, bids within
// two of the lowest bid allowed (sometimes a capot), and announces and shows when it may.
std::size_t lively(const std::vector<Action>& legal, Rng& rng) {
  const bool playing =
      std::any_of(legal.begin(), legal.end(), [](const Action& a) { return a.type == ActionType::play; });
  auto pick = [&](auto pred) -> std::optional<std::size_t> {
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (pred(legal[i])) idx.push_back(i);
    if (idx.empty()) return std::nullopt;
    return idx[rng.below(static_cast<std::uint32_t>(idx.size()))];
  };
  if (playing) {
    if (rng.below(3) != 0)
      if (auto i = pick([](const Action& a) { return a.type == ActionType::announce || a.type == ActionType::show; }))
        return *i;
    return *pick([](const Action& a) { return a.type == ActionType::play; });
  }
  const std::uint32_t r = rng.below(100);
  if (r < 50) return 0;  // pass
  if (r < 70)
    if (auto i = pick([](const Action& a) { return a.type == ActionType::double_ || a.type == ActionType::redouble; }))
      return *i;
  if (r < 75)
    if (auto i = pick([](const Action& a) { return a.type == ActionType::bid && a.capot; })) return *i;
  int low = 1000;
  for (const Action& a : legal)
    if (a.type == ActionType::bid) low = std::min<int>(low, a.value);
  if (auto i = pick([&](const Action& a) { return a.type == ActionType::bid && a.value <= low + 2; })) return *i;
  return 0;
}

class BazarSim : public ::testing::TestWithParam<sim::SimCase> {};

// Each lively shard also reaches every kind of outcome (the counts are printed for the record):
// made and failed, with and without a contra.
TEST_P(BazarSim, InvariantsAndTheSeedsScoringHoldAtEveryStep) {
  Replayer::outcomes_ = {};
  sim::run_random_sim(GetParam(), check_bazar);
  if (GetParam().choose != lively) return;
  const auto& o = Replayer::outcomes_;
  std::cout << "[ bazar  ] made " << o[0] << ", made under contra " << o[1] << ", failed " << o[2]
            << ", failed under contra " << o[3] << "\n";
  for (long n : o) EXPECT_GT(n, 0);
}

std::vector<sim::SimCase> bazar_cases() {
  std::vector<sim::SimCase> v;
  // 10,000 matches in shards of 500 (each well under a minute with AddressSanitizer): uniform play
  // (every auction climbs to 84) and the lively policy above, under each option value. Shard 0,
  // which also runs under the sanitizers, plays 125 of them, and shard 20 (the same options and
  // policy) the other 375.
  const char* options[] = {"", R"({"undertrump": "forced", "target": 51, "deal": "cut"})", R"({"target": 151})"};
  for (int shard = 0; shard <= 20; ++shard) {
    const int games = shard == 0 ? 125 : shard == 20 ? 375 : 500;
    v.push_back({"bazar", shard, games, options[shard == 20 ? 0 : shard % 3], shard % 2 ? lively : nullptr});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shards, BazarSim, ::testing::ValuesIn(bazar_cases()),
                         [](const auto& p) { return "bazar_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
