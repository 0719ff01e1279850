// Fair dealing: before each deal the server publishes a commitment to its seed; after the deal it
// reveals the seed, and anyone can recompute the deal and check the commitment (docs/fair-dealing.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "atout/card.hpp"
#include "atout/rng.hpp"

namespace atout {

// Lower-case hex SHA-256 of "atout-deal-commit/1\n<seed hex>\n<match id>\n<hand number>".
// Binding the match and hand ids stops a seed committed for one deal being reused for another.
std::string deal_commitment(const Seed& seed, std::string_view match_id, int hand);

// The deck order `seed` gives under a fresh shuffle: the variant's deck in card-index order,
// shuffled with Rng(seed). Dealing then takes cards from the front.
std::vector<Card> shuffled_deck(const Seed& seed, CardSet deck);

}  // namespace atout
