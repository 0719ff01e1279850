// Simple belote: two players, 24 cards, an offered trump card, announced combinations.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "../variant_game.hpp"
#include "simple_auction.hpp"

namespace atout {

// The match format: first to a target in card points (501, 1001, 2001, i.e.
// 51, 101, 201 in tens), or first to win a number of deals (1, 3, 5).
struct SimpleMatch {
  bool games = false;
  int goal = 1001;
};
std::optional<SimpleMatch> parse_simple_match(const std::string& name);

// The scoring rule, pure: `r.teams` holds each player's card points, last
// trick, counted declarations, belote and tricks, and r.capot / r.capot_team (kaput). Fills
// capot_bonus, raw, score and the outcome.
struct SimpleScoring {
  int kaput_value = 210;  // "21" in tens, in place of the hand's 162 (option `kaput`)
};
inline constexpr int kSimpleHandTotal = 162;
void score_simple(HandResult& r, int taker, const SimpleScoring& rules);

// The team that won the deal: the taker when made, the opponent when failed.
int simple_deal_winner(const HandResult& r);

PointTable simple_points();
DeclarationRules simple_declarations();
PlayRules simple_play_rules();

class SimpleGame final : public VariantGame<SimpleGame> {
 public:
  explicit SimpleGame(Record header);

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;
  bool match_finished() override;
  void extra_play_legal(Seat seat, std::vector<Action>& out) const override;
  Refusal apply_extra_play(Seat seat, const Action& action) override;

 private:
  void complete_deal(Seat taker, bool with_offered);

  SimpleAuction auction_;
  // The options, read once.
  bool no_trumps_ = false;
  bool concede_ = false;
  SimpleScoring scoring_;
  SimpleMatch match_;
};

}  // namespace atout
