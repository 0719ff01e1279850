// French classic belote and head-to-head belote: a turned-up card, two rounds of taking.
#pragma once

#include "../variant_game.hpp"
#include "french_auction.hpp"

namespace atout {

// The rules that differ between `french` (4 players) and `duel` (2 players, 9 cards each).
struct FrenchDuelConfig {
  int players = 4;
  int first_packets[2] = {3, 2};  // 3 then 2 (duel: 3 then 3)
};

// The scoring options of `french` and `duel`.
struct FrenchScoring {
  int capot_value = 250;  // 250 by default, 252 as an option
  bool tie_loses = false;
};

class FrenchDuelGame final : public VariantGame<FrenchDuelGame> {
 public:
  FrenchDuelGame(Record header, FrenchDuelConfig config);

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;

 private:
  FrenchDuelConfig config_;
  FrenchAuction auction_;
  // The options, read once.
  FrenchScoring scoring_;
  bool any_suit_second_round_ = false;
};

// The French scoring rule, pure: `r.teams` holds each side's card points, last trick,
// declarations, belote and tricks, and r.capot / r.capot_team. Fills capot_bonus, raw, score,
// the outcome and the held points (`held` is updated in place).
void score_french(HandResult& r, int taker_team, const FrenchScoring& rules, int& held);

// The French declaration table (carrés, sequences, belote), shared by the French-family variants.
DeclarationRules french_declarations(bool enabled);
PlayRules french_duel_play_rules(int players, const Options& options);
PointTable french_points();

}  // namespace atout
