// One trick: the cards on the table, who wins it, and which cards a player may legally add.
#pragma once

#include <array>
#include <cstdint>

#include "atout/card.hpp"
#include "atout/contract.hpp"

namespace atout {

using Seat = std::int8_t;
inline constexpr Seat kNoSeat = -1;

// When a player cannot follow, an opponent has trumped and the player cannot overtrump:
// must they still play a trump (undertrump, "pisser") or may they discard freely?
// Variants disagree here, so it is a knob.
enum class Undertrump : std::uint8_t { forced, free };

// The trick-play knobs on which variants disagree. Every variant fills one of these.
struct PlayRules {
  int players = 4;  // 4 (partners sit opposite) or 2 (no partner)
  // Void in the suit led while the partner holds the trick: any card.
  bool partner_master_frees = true;
  Undertrump undertrump = Undertrump::forced;
  // In All Trumps every suit follows the trump order, and a player following suit must beat
  // the best card of that suit if able (Bulgarian belot; the coinche rule too).
  bool all_trumps_must_beat = true;
};

// Beats `best` under `t`, where `best` is the card holding the trick.
constexpr bool beats(Card c, Card best, Trump t) {
  if (c.suit() == best.suit()) return strength(t, c) > strength(t, best);
  return t.is_trump_suit(c.suit());
}

// A trick keeps its winner and card set up to date as cards are added, so neither is
// recomputed on the hot path.
struct Trick {
  Seat leader = kNoSeat;
  std::uint8_t count = 0;
  std::uint8_t win = 0;  // index in `cards` of the card holding the trick
  CardSet set;
  std::array<Card, 4> cards{};

  bool empty() const { return count == 0; }
  Suit led() const { return cards[0].suit(); }
  CardSet as_set() const { return set; }
  void add(Card c, Trump t) {
    if (count > 0 && beats(c, cards[win], t)) win = count;
    cards[count++] = c;
    set.insert(c);
  }
};

// Index in trick.cards of the card currently winning; the trick must not be empty.
inline int winning_index(const Trick& trick, Trump) { return trick.win; }

// The seat that played trick.cards[i].
inline Seat seat_of(const Trick& trick, int i, int players) { return static_cast<Seat>((trick.leader + i) % players); }

// The cards of `hand` that may legally be played to `trick` (never empty when hand is not).
CardSet legal_plays(CardSet hand, const Trick& trick, Trump t, const PlayRules& rules);

// Why `c` may not be played from `hand` to `trick` (a card that legal_plays refuses).
enum class Refusal : std::uint8_t;
Refusal refusal_for(CardSet hand, const Trick& trick, Trump t, Card c);

}  // namespace atout
