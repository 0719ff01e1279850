// Bazar belote: the deal, the auction, play and scoring wired into the shared match loop.
#include "bazar.hpp"

#include "bazar_scoring.hpp"
#include "french_duel.hpp"
#include "option_specs.hpp"
#include "registry.hpp"

namespace atout {

namespace {
// Each player gets 8 cards; the rules name no packets, so we deal 3, 2, 3 from the dealer's successor.
constexpr int kPackets[] = {3, 2, 3};
}  // namespace

BazarGame::BazarGame(Record header) : VariantGame(std::move(header), 4, CardSet::deck32()) {
  play_rules_ = bazar_play_rules(options());
  declaration_rules_ = bazar_declarations();
  // Every combination is announced and shown by its holder, as actions.
  manual_declarations_ = true;
  // The first side to reach the target wins; both at once, the higher; equal, play goes on.
  match_target_ = option_int(options(), "target");
}

PlayRules bazar_play_rules(const Options& options) {
  PlayRules r;
  r.players = 4;
  // Void, the partner holding the trick: any card.
  r.partner_master_frees = true;
  // The rule obliges only a trump "stronger than all the cards put before"; a player who cannot
  // overtrump is free by default. `undertrump: forced` makes them play a trump all the same.
  const auto it = options.find("undertrump");
  r.undertrump =
      it != options.end() && std::get<std::string>(it->second) == "forced" ? Undertrump::forced : Undertrump::free;
  return r;
}

void BazarGame::deal_first(const std::vector<Card>&) {
  deal_packets(kPackets);
  auction_ = BazarAuction{};
  phase_ = Phase::bidding;
  current_ = next(dealer_);  // the player next to the dealer speaks and plays first
}

void BazarGame::bidding_legal(std::vector<Action>& out) const { auction_.legal(current_, out); }

Refusal BazarGame::apply_bid(Seat seat, const Action& a) {
  if (const Refusal r = auction_.refusal(seat, a); r != Refusal::none) return r;
  auction_.apply(seat, a);
  bids_.push_back({seat, a});
  switch (auction_.status()) {
    case BazarAuction::Status::open:
      current_ = next(current_);
      break;
    case BazarAuction::Status::all_passed:
      all_passed();
      break;
    case BazarAuction::Status::closed:
      start_play(auction_.contract(), next(dealer_));  // the dealer's successor leads
      break;
  }
  return Refusal::none;
}

void BazarGame::score_hand(HandResult& r) {
  tally_cards(r, bazar_points());
  tally_declarations(r);
  score_bazar(r, team_of(contract_->taker));
}

VariantInfo bazar_variant() {
  VariantInfo v;
  v.id = "bazar";
  v.title = "Bazar belote";
  v.players = 4;
  v.options = {
      integer_option(
          "target", 101, {51, 101, 151, 201, 301},
          "match target in tens; the first side to reach it wins (equal scores play on)",
          "house choice: the published Bazar rules set no target; 101 in tens, as head-to-head belote plays"),
      choice_option(
          "undertrump", "free", {"free", "forced"},
          "void, an opponent holds the trick with a trump you cannot beat: any card, or a trump",
          "published Bazar rules ask only for a trump that beats the cards played (free); forced as an option"),
      deal_option(),
  };
  v.play_rules = bazar_play_rules;
  v.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<BazarGame>(r);
    g->begin();
    return g;
  };
  return v;
}

}  // namespace atout
