// French classic belote and head-to-head belote: a turned-up card, two rounds of taking.
#pragma once

#include "../game_base.hpp"

namespace atout {

// The rules that differ between `french` (4 players) and `duel` (2 players, 9 cards each).
struct TakingConfig {
  int players = 4;
  int first_packets[2] = {3, 2};  // seed 002 line 7 / seed 003 line 44: 3 then 2 (duel: 3 then 3)
};

class TakingGame final : public GameBase {
 public:
  TakingGame(Record header, TakingConfig config);
  std::unique_ptr<State> clone() const override { return std::make_unique<TakingGame>(*this); }

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;
  bool match_finished() override;
  DeclarationRules declaration_rules() const override;
  PlayRules play_rules() const override;

 private:
  int round() const { return static_cast<int>(bids_.size()) < players_ ? 1 : 2; }
  TakingConfig config_;
};

// The declaration table of seed 003 lines 60-71, shared by the French-family variants.
DeclarationRules french_declarations(bool enabled);
PlayRules taking_play_rules(int players, const Options& options);
PointTable french_points();

}  // namespace atout
