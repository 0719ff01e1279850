// Bazar belote: four players, bids in tens, contra and re-contra,
// combinations announced and shown, the published scoring in tens.
#pragma once

#include "../variant_game.hpp"
#include "bazar_auction.hpp"

namespace atout {

class BazarGame final : public VariantGame<BazarGame> {
 public:
  explicit BazarGame(Record header);

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;

 private:
  BazarAuction auction_;
};

// Bazar's trick rules as PlayRules, with the `undertrump` option for the case they leave open.
PlayRules bazar_play_rules(const Options& options);

}  // namespace atout
