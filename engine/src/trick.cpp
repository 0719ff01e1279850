// Trick winner and legal plays, written on bitsets so that random play stays cheap.
#include "atout/trick.hpp"

#include "atout/action.hpp"

namespace atout {

CardSet legal_plays(CardSet hand, const Trick& trick, Trump t, const PlayRules& rules) {
  if (trick.empty()) return hand;

  const Suit led = trick.led();
  const CardSet follow = hand.in_suit(led);
  const int win = trick.win;
  const Card best = trick.cards[win];

  // Trumps led (or any suit in All Trumps): follow, and beat the best card if able, even a
  // partner's.
  const bool beat_when_following = t.is_trump_suit(led) || (t.mode == Mode::all_trumps && rules.all_trumps_must_beat);
  if (!follow.empty()) {
    if (beat_when_following && best.suit() == led) {
      const CardSet over = follow & stronger_in_suit(t, best);
      if (!over.empty()) return over;
    }
    return follow;
  }

  // Void in the suit led. Without a single trump suit, anything goes.
  if (t.mode != Mode::suit) return hand;
  const CardSet trumps = hand & t.trump_cards();
  if (trumps.empty()) return hand;

  // Partner holds the trick: free choice.
  const int current = trick.count;
  const bool partner_winning = rules.players == 4 && ((current - win) % 2 == 0);
  if (partner_winning && rules.partner_master_frees) return hand;

  if (!t.is_trump_suit(best.suit())) return trumps;  // must trump

  // An opponent has trumped: overtrump if able ...
  const CardSet over = trumps & stronger_in_suit(t, best);
  if (!over.empty()) return over;
  // ... and otherwise undertrump or discard, by the variant's knob.
  return rules.undertrump == Undertrump::forced ? trumps : hand;
}

Refusal refusal_for(CardSet hand, const Trick& t, Trump tr, Card c) {
  if (!hand.contains(c)) return Refusal::card_not_in_hand;
  const CardSet follow = hand.in_suit(t.led());
  if (!follow.empty()) return c.suit() != t.led() ? Refusal::must_follow_suit : Refusal::must_beat;
  // Void in the suit led, and the card was refused: a trump was owed.
  const Card best = t.cards[t.win];
  if (!tr.is_trump_suit(best.suit())) return Refusal::must_trump;
  const CardSet over = hand & tr.trump_cards() & stronger_in_suit(tr, best);
  return over.empty() ? Refusal::must_undertrump : Refusal::must_overtrump;
}

}  // namespace atout
