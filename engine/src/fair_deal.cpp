// Deal commitments and the seeded deck order.
#include "atout/fair_deal.hpp"

#include "atout/sha256.hpp"

namespace atout {

std::string deal_commitment(const Seed& seed, std::string_view match_id, int hand) {
  std::string text = "atout-deal-commit/1\n";
  text += seed.hex();
  text += '\n';
  text += match_id;
  text += '\n';
  text += std::to_string(hand);
  return to_hex(sha256(text));
}

std::vector<Card> shuffled_deck(const Seed& seed, CardSet deck) {
  std::vector<Card> out;
  for (Card c : deck) out.push_back(c);
  Rng rng(seed);
  shuffle(out, rng);
  return out;
}

}  // namespace atout
