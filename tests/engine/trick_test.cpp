// Scenario tests for each play constraint, with the trick and the hand written out.
// Seats: the trick's leader is seat 0; seats 0 and 2 are partners, as are 1 and 3.
#include "atout/trick.hpp"

#include <gtest/gtest.h>

#include "atout/action.hpp"
#include "test_util.hpp"

namespace atout {
namespace {
using test::C;
using test::make_trick;
using test::S;

const Trump kHearts = Trump::of(Suit::hearts);

PlayRules french_rules(Undertrump u = Undertrump::forced) {
  PlayRules r;
  r.undertrump = u;
  return r;
}

struct Scenario {
  const char* name;
  const char* source;
  std::vector<const char*> trick;  // cards already played, from the leader (seat 0)
  std::vector<const char*> hand;
  std::vector<const char*> legal;
  Trump trump = kHearts;
  Undertrump undertrump = Undertrump::forced;
  Mode mode_override = Mode::suit;
};

CardSet set_of(const std::vector<const char*>& v) {
  CardSet s;
  for (const char* c : v) s.insert(C(c));
  return s;
}

const Scenario kScenarios[] = {
    {"lead: anything", "Bazar rules: the leader may play any card", {}, {"7S", "JH", "AD"}, {"7S", "JH", "AD"}},
    {"follow suit",
     "French belote rules: follow suit; trumps led, overtrump whoever holds the trick; Bazar rules: follow a plain "
     "suit led if able",
     {"KS"},
     {"7S", "AS", "JH", "AD"},
     {"7S", "AS"}},
    {"follow suit even when partner wins",
     "French belote rules: follow suit; trumps led, overtrump whoever holds the trick",
     {"AS", "7S"},
     {"8S", "JH"},
     {"8S"}},
    {"trumps led: must beat",
     "French belote rules: follow suit; trumps led, overtrump whoever holds the trick; Belote Classic rules: trumps "
     "led: a higher trump if possible",
     {"AH"},
     {"7H", "9H", "KS"},
     {"9H"}},
    {"trumps led: must beat partner's trump too",
     "French belote rules: follow suit; trumps led, overtrump whoever holds the trick; chosen rule: trumps led, beat "
     "the trick if able, even the partner's",
     {"AH", "7H"},
     {"8H", "JH"},
     {"JH"}},
    {"trumps led: cannot beat, any trump",
     "Bazar rules: trumps led, play a higher trump if able, else a trump",
     {"JH"},
     {"7H", "AH", "KS"},
     {"7H", "AH"}},
    {"trumps led: no trump, anything",
     "Bazar rules: trumps led, play a higher trump if able, else a trump",
     {"JH"},
     {"KS", "AD"},
     {"KS", "AD"}},
    {"void, opponent winning: must trump",
     "French belote rules: void, an opponent holds the trick: trump; Belote Classic rules: void, opponent winning: "
     "trump",
     {"AS"},
     {"7H", "KD"},
     {"7H"}},
    {"void, opponent winning, no trump: discard",
     "French belote rules: void, an opponent holds the trick: trump",
     {"AS"},
     {"KD", "7C"},
     {"KD", "7C"}},
    {"void, partner winning: free",
     "French belote rules: void, an opponent holds the trick: trump; chosen rule: void, the partner holds the trick: "
     "any card",
     {"AS", "7S"},
     {"7H", "KD"},
     {"7H", "KD"}},
    {"void, partner winning by a trump: free",
     "French belote rules: the partner holds the trick: free card",
     {"AS", "9H", "TS"},
     {"7H", "KD"},
     {"7H", "KD"}},
    {"opponent trumped: overtrump",
     "French belote rules: an opponent has trumped: overtrump, else undertrump; Belote Classic rules: an opponent has "
     "trumped: overtrump if possible",
     {"7S", "9H"},
     {"7H", "JH", "KD"},
     {"JH"}},
    {"opponent trumped, cannot overtrump: undertrump forced",
     "French belote rules: an opponent has trumped: overtrump, else undertrump; chosen rule for a player who cannot "
     "overtrump",
     {"7S", "JH"},
     {"7H", "KD"},
     {"7H"}},
    {"opponent trumped, cannot overtrump: free discard knob",
     "chosen rule for a player who cannot overtrump (belot, bazar option)",
     {"7S", "JH"},
     {"7H", "KD"},
     {"7H", "KD"},
     kHearts,
     Undertrump::free},
    {"opponent overtrumped partner's trump: overtrump",
     "French belote rules: an opponent has trumped: overtrump, else undertrump",
     {"7S", "8H", "9H"},
     {"JH", "7H", "KD"},
     {"JH"}},
    {"no trumps: follow, no need to beat",
     "Bulgarian Belot rules: in No Trumps a player may go low",
     {"QS"},
     {"TS", "9S", "AD"},
     {"TS", "9S"},
     Trump::no_trumps()},
    {"no trumps: void, anything",
     "Bulgarian Belot rules: follow suit if able; void, trump if able",
     {"QS"},
     {"AD", "7C"},
     {"AD", "7C"},
     Trump::no_trumps()},
    {"all trumps: must beat in the suit led",
     "chosen rule: trumps led, beat the trick if able, even the partner's (belot: every suit led)",
     {"TS"},
     {"9S", "KS", "AD"},
     {"9S"},
     Trump::all_trumps()},
    {"all trumps: must beat partner too",
     "chosen rule: trumps led, beat the trick if able, even the partner's (belot)",
     {"AS", "KS"},
     {"7S", "JS"},
     {"JS"},
     Trump::all_trumps()},
    {"all trumps: void, anything",
     "Bulgarian Belot rules: in All Trumps no suit beats another, every suit in trump order",
     {"TS"},
     {"AD", "7C"},
     {"AD", "7C"},
     Trump::all_trumps()},
};

TEST(Trick, LegalPlayScenarios) {
  for (const Scenario& s : kScenarios) {
    Trick t;
    t.leader = 0;
    for (const char* c : s.trick) t.add(C(c), s.trump);
    PlayRules rules = french_rules(s.undertrump);
    EXPECT_EQ(legal_plays(set_of(s.hand), t, s.trump, rules), set_of(s.legal))
        << s.name << " (" << s.source << "): got " << to_string(legal_plays(set_of(s.hand), t, s.trump, rules));
  }
}

TEST(Trick, TwoPlayersHaveNoPartner) {
  // Head-to-head and simple belote: void in the suit led, the only other card is an opponent's.
  PlayRules r;
  r.players = 2;
  const Trick t = make_trick(0, {"AS"}, kHearts);
  EXPECT_EQ(legal_plays(S({"7H", "KD"}), t, kHearts, r),
            S({"7H"}));  // simple belote rules: the dealer's opponent leads; follow suit, else trump
}

TEST(Trick, PartnerMasterRelaxationCanBeSwitchedOff) {
  PlayRules r;
  r.partner_master_frees = false;
  const Trick t = make_trick(0, {"AS", "7S"}, kHearts);
  EXPECT_EQ(legal_plays(S({"7H", "KD"}), t, kHearts, r), S({"7H"}));
}

struct WinnerCase {
  std::vector<const char*> cards;
  int winner;
  Trump trump;
  const char* source;
};

TEST(Trick, Winner) {
  const WinnerCase cases[] = {
      {{"7S", "AS", "TS", "KS"}, 1, kHearts, "Bazar rules: ace highest plain"},
      {{"7S", "AD", "TS", "KS"}, 2, kHearts, "off-suit cards never win"},
      {{"AS", "7H", "TS", "KS"}, 1, kHearts, "Bazar rules: a trump beats plain cards"},
      {{"AS", "7H", "JH", "9H"}, 2, kHearts, "Bazar rules: J beats 9 in trumps"},
      {{"AH", "9H", "TH", "KH"}, 1, kHearts, "Bazar rules: 9 beats A in trumps"},
      {{"JS", "9S", "AS", "TS"}, 2, Trump::no_trumps(), "Bulgarian Belot rules: no trumps, ace highest"},
      {{"AS", "9S", "JS", "TS"}, 2, Trump::all_trumps(), "Bulgarian Belot rules: all trumps, J highest"},
      {{"9S", "JD", "7S", "8S"}, 0, Trump::all_trumps(), "Bulgarian Belot rules: no suit beats another"},
  };
  for (const WinnerCase& c : cases) {
    Trick t;
    t.leader = 0;
    for (const char* x : c.cards) t.add(C(x), c.trump);
    EXPECT_EQ(winning_index(t, c.trump), c.winner) << c.source;
  }
}

}  // namespace
}  // namespace atout

namespace atout {
namespace {
using test::C;
using test::make_trick;
using test::S;

struct RefusalCase {
  std::vector<const char*> trick;
  std::vector<const char*> hand;
  const char* card;
  Refusal expected;
};

TEST(Trick, RefusalReasons) {
  const Trump h = Trump::of(Suit::hearts);
  const RefusalCase cases[] = {
      {{"KS"}, {"7S", "AD"}, "QC", Refusal::card_not_in_hand},
      {{"KS"}, {"7S", "AD"}, "AD", Refusal::must_follow_suit},
      {{"AH"}, {"7H", "9H"}, "7H", Refusal::must_beat},
      {{"AS"}, {"7H", "KD"}, "KD", Refusal::must_trump},
      {{"7S", "9H"}, {"7H", "JH", "KD"}, "7H", Refusal::must_overtrump},
      {{"7S", "9H"}, {"7H", "JH", "KD"}, "KD", Refusal::must_overtrump},
      {{"7S", "JH"}, {"7H", "KD"}, "KD", Refusal::must_undertrump},
  };
  for (const RefusalCase& c : cases) {
    Trick t;
    t.leader = 0;
    for (const char* x : c.trick) t.add(C(x), h);
    CardSet hand;
    for (const char* x : c.hand) hand.insert(C(x));
    ASSERT_FALSE(legal_plays(hand, t, h, PlayRules{}).contains(C(c.card)));
    EXPECT_EQ(refusal_for(hand, t, h, C(c.card)), c.expected) << c.card;
  }
}

}  // namespace
}  // namespace atout
