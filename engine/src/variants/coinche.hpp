// French coinche belote: an auction from 80 to capot in six modes, with
// coinche and surcoinche, and a "points made + contract" score.
#pragma once

#include <optional>
#include <vector>

#include "../variant_game.hpp"

namespace atout {

// ---- Numbers --------------------------------------------------------------------------------

inline constexpr int kCoincheMinBid = 80;   // the lowest bid
inline constexpr int kCoincheMaxBid = 160;  // the highest numeric bid; capot is above it
inline constexpr int kCoincheBidStep = 10;
inline constexpr int kCoincheCapot = 250;  // the value of a capot bid
inline constexpr int kCoincheDeal = 162;   // 152 in the cards + 10 for the last trick

// All Trumps card points (FFB table): J 14, 9 9, A 6, 10 5, K 3, Q 1; 38 a suit, 152 in all.
// Ranks are indexed 7 8 9 10 J Q K A.
inline constexpr std::array<int, kRanks> kAllTrumpsPoints = {0, 0, 9, 5, 14, 1, 3, 6};

// Suit contracts as French play, No Trumps with the ace at 19, All Trumps by
// kAllTrumpsPoints; 10 for the last trick.
PointTable coinche_points();

// ---- The auction: a pure value type ---------------------------------------------------------

// Where the bidding stands. Seats are in play order, so the dealer's successor (the player on
// the dealer's right in the published rules) speaks first.
struct CoincheAuction {
  enum class End : std::uint8_t { open, contract, all_passed };

  Seat current = 0;
  std::optional<Contract> best;  // the highest bid, with its coinche and surcoinche
  int passes = 0;                // passes in a row since the last bid (or since the start)
  int passes_after_coinche = 0;  // the bidding side's passes since the coinche
  End end = End::open;

  static CoincheAuction start(Seat dealer);
};

// The bid's place in the order: 80..160, then capot above 160.
int coinche_bid_rank(int value, bool capot);

// Why `action` by `seat` is refused now, or Refusal::none.
Refusal coinche_auction_refusal(const CoincheAuction& a, Seat seat, const Action& action);
// Applies an action that coinche_auction_refusal accepted.
void coinche_auction_apply(CoincheAuction& a, Seat seat, const Action& action);
// Every legal action of the seat to speak: pass, the bids above the best, coinche, surcoinche.
void coinche_auction_legal(const CoincheAuction& a, std::vector<Action>& out);

// ---- Scoring: a pure function ---------------------------------------------------------------

enum class CoincheScheme : std::uint8_t {
  points_made,    // made: points taken + the bid; failed: the defence takes 162 + the bid
  contract_only,  // the side that wins the contract scores the bid alone
};

struct CoincheScoring {
  CoincheScheme scheme = CoincheScheme::points_made;
  // Whether declarations and belote help to make the contract (`contract_counts: all`), or only
  // the cards, the last trick and capot (`cards_only`).
  bool declarations_make_contract = true;
};

// `r.contract` is the contract; `r.teams` holds each side's card points, last trick,
// declarations, belote and tricks, and r.capot / r.capot_team. Fills capot_bonus, raw, score
// and the outcome.
void score_coinche(HandResult& r, const CoincheScoring& rules);

// ---- The state machine ----------------------------------------------------------------------

PlayRules coinche_play_rules(const Options& options);

class CoincheGame final : public VariantGame<CoincheGame> {
 public:
  explicit CoincheGame(Record header);

 protected:
  void deal_first(const std::vector<Card>& deck) override;
  void bidding_legal(std::vector<Action>& out) const override;
  Refusal apply_bid(Seat seat, const Action& action) override;
  void score_hand(HandResult& r) override;
  bool belote_call(Seat seat, Card c) const override;

 private:
  CoincheAuction auction_;
  // The options, read once.
  bool all_trumps_belote_ = false;
  CoincheScoring scoring_;
};

}  // namespace atout
