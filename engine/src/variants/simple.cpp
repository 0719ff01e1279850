// Simple belote: the deal, the offered card and the forced Jack, concede, the match.
#include "simple.hpp"

#include "french_duel.hpp"
#include "option_specs.hpp"
#include "registry.hpp"

namespace atout {

SimpleGame::SimpleGame(Record header) : VariantGame(std::move(header), 2, CardSet::deck24()) {
  play_rules_ = simple_play_rules();
  declaration_rules_ = simple_declarations();
  // Combinations are announced in the first trick and shown in the second, by the players.
  manual_declarations_ = true;
  no_trumps_ = option_bool(options(), "no_trumps");
  concede_ = option_bool(options(), "concede");
  scoring_.kaput_value = option_int(options(), "kaput");
  match_ = *parse_simple_match(option_str(options(), "match"));
  if (!match_.games) match_target_ = match_.goal;
}

void SimpleGame::deal_first(const std::vector<Card>&) {
  // Six cards each, in packets of 3 from the dealer's opponent, then the offered card,
  // face up for both (an open card).
  static constexpr int kPackets[] = {3, 3};
  deal_packets(kPackets);
  turn_up_ = stock_[stock_pos_++];
  turn_up_public_ = true;
  auction_ = SimpleAuction(*turn_up_, no_trumps_);
  phase_ = Phase::bidding;
  current_ = next(dealer_);  // the dealer's opponent is the first player
}

void SimpleGame::bidding_legal(std::vector<Action>& out) const { auction_.legal(out); }

void SimpleGame::complete_deal(Seat taker, bool with_offered) {
  // With the offered card the taker gets 2 more and the other player 3; the dealer's
  // opponent is served first. Without it both get 3 and the offered card is set
  // aside, out of play, so both still hold 9.
  deal_after_take(with_offered ? taker : kNoSeat);
  // A card set aside is in no hand; it stays known to both players from the taking, but the
  // play-phase view only shows cards in play.
  turn_up_public_ = with_offered;
}

Refusal SimpleGame::apply_bid(Seat seat, const Action& a) {
  if (const Refusal r = auction_.refusal(a); r != Refusal::none) return r;
  bids_.push_back({seat, auction_.apply(seat, a)});
  if (auction_.status() == SimpleAuction::Status::open) {
    current_ = next(current_);
    return Refusal::none;
  }
  complete_deal(seat, auction_.with_offered());
  start_play(auction_.contract(), next(dealer_));  // the dealer's opponent leads, whoever took
  return Refusal::none;
}

void SimpleGame::extra_play_legal(Seat, std::vector<Action>& out) const {
  if (concede_) out.push_back(Action::concede());
}

Refusal SimpleGame::apply_extra_play(Seat seat, const Action& a) {
  if (a.type != ActionType::concede) return Refusal::wrong_phase;
  if (!concede_) return Refusal::not_allowed;
  // Conceding gives away the cards, not the combinations: before the showing trick is
  // over, a player who has not yet played to it still shows what they announced.
  if (tricks_.size() <= 1) {
    for (int s = 0; s < players_; ++s) {
      const bool played_second =
          tricks_.size() == 1 && play_.trick.count > (s - play_.trick.leader + players_) % players_;
      if (played_second) continue;
      for (Declared& d : declared_[static_cast<std::size_t>(s)]) d.shown = true;
    }
  }
  concede_rest(seat);
  return Refusal::none;
}

void SimpleGame::score_hand(HandResult& r) {
  tally_cards(r, simple_points());
  tally_declarations(r);
  score_simple(r, team_of(contract_->taker), scoring_);
}

bool SimpleGame::match_finished() {
  const SimpleMatch& m = match_;
  // First to the target; both past it: the higher; equal: play on (as in `french`).
  if (!m.games) return VariantGame::match_finished();
  // The first to win the set number of games, a game being one deal ("the
  // winner of the game in that round").
  std::array<int, 2> won{};
  for (const HandResult& r : results_) ++won[static_cast<std::size_t>(simple_deal_winner(r))];
  for (int t = 0; t < 2; ++t)
    if (won[static_cast<std::size_t>(t)] >= m.goal) winner_ = t;
  return winner_.has_value();
}

VariantInfo simple_variant() {
  VariantInfo v;
  v.id = "simple";
  v.title = "Simple belote (2 players, 24 cards)";
  v.players = 2;
  v.deck_size = 24;
  v.options = {
      choice_option("match", "points_101", {"points_51", "points_101", "points_201", "games_1", "games_3", "games_5"},
                    "first to 501, 1001 or 2001 points (51, 101, 201 in tens), or first to win 1, 3 or 5 deals",
                    "published Simple belote rules"),
      integer_option("kaput", 210, {210, 372},
                     "what the cards of a kaput hand are worth: 210 (\"21\" in place of the 16) or 372 (16 + 21)",
                     "published Simple belote rules; docs/rules/simple.md"),
      boolean_option("no_trumps", true, "the choice of another trump may name no trump",
                     "published Simple belote rules (tables without a trump); docs/rules/simple.md"),
      boolean_option("concede", true, "a player may give all the remaining cards to the opponent",
                     "published Simple belote rules"),
      deal_option(),
  };
  v.play_rules = [](const Options&) { return simple_play_rules(); };
  v.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<SimpleGame>(r);
    g->begin();
    return g;
  };
  return v;
}

}  // namespace atout
