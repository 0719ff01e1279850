// Bazar belote's tables and its hand scoring, in tens.
#pragma once

#include "atout/contract.hpp"
#include "atout/declarations.hpp"
#include "atout/state.hpp"

namespace atout {

// Bids are counted in tens. The rules name no minimum: 8 is the lowest bid that
// asks for about half the deal (82 of 162). No side can take more than 84 in one hand: a
// capot (25) and four carrés in height (J 20 + A 19 + two at 10); that is the highest bid.
inline constexpr int kMinBid = 8;
inline constexpr int kMaxBid = 84;
// Capot may be bid only above 25, i.e. above the capot's own 250 points.
inline constexpr int kCapotBidAbove = 25;
// The deal's 162 points in tens, which the side that wins the hand adds.
inline constexpr int kDealTens = 16;
// A capot is worth 250 card points instead of 162.
inline constexpr int kCapotPoints = 250;

// Card points: the French values, and the ace 19 in height (No Trumps).
PointTable bazar_points();

// Combinations in tens, carrés ordered 8 > J > 9 > A > 10 > K > Q,
// ties to the trump sequence and then to the first to show; belote-rebelote 2.
DeclarationRules bazar_declarations();

// Card points to tens: "divided by 10", rounded down, so that a side reaches a
// bid x in tens exactly when it takes "not less than 10x points".
constexpr int card_tens(int points) { return points / 10; }

// The Bazar rule, pure. `r.contract` holds the bid (value in tens, capot, multiplier); `r.teams`
// holds each side's card points, last trick, tricks, counted declarations and belote (both in
// tens), and r.capot / r.capot_team. Fills capot_bonus (card points), raw (what the side took, in
// tens: y for the bidders), score (tens), the outcome and the rounding note.
void score_bazar(HandResult& r, int taker_team);

}  // namespace atout
