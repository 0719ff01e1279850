// Bulgarian belot: deal 3+2, a bid ladder from Clubs to All Trumps with Double and
// Re-Double, 3 more cards, play, scores in tens to 151.
#pragma once

#include "../variant_game.hpp"
#include "belot_auction.hpp"
#include "belot_scoring.hpp"

namespace atout {

class BelotGame final : public VariantGame<BelotGame> {
 public:
  explicit BelotGame(Record header);

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;
  bool match_finished() override;
  bool belote_call(Seat seat, Card c) const override;
  void add_variant_view(Seat seat, Observation& o) const override;

 private:
  void end_bidding();
  // The combinations that count toward each seat: all declared ones (automatic) or the shown ones
  // (`declare: manual`).
  std::vector<std::vector<Combo>> counted_combos() const;

  BelotAuction auction_;
  int last_hand_winner_ = -1;

  // The options, read once.
  BelotScoring scoring_;
  bool no_trumps_double_ = false;
  bool strictly_ahead_ = true;
};

PlayRules belot_play_rules(const Options& options);
DeclarationRules belot_declarations();

}  // namespace atout
