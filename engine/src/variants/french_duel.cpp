// French classic and head-to-head belote.
#include "french_duel.hpp"

#include "option_specs.hpp"
#include "registry.hpp"

namespace atout {

DeclarationRules french_declarations(bool enabled) {
  DeclarationRules d;
  d.enabled = enabled;
  d.sequence_points = {20, 50, 100};
  // Carrés of 9, 10, J, Q, K, A; ranks are 7 8 9 10 J Q K A.
  d.carre_ranks = 0b11111100;
  d.carre_points = {0, 0, 150, 100, 200, 100, 100, 100};
  d.carre_points_no_trumps = d.carre_points;
  // J > 9 > A > 10 > K > Q: by value, then by height.
  d.carre_order = {0, 0, 5, 3, 6, 1, 2, 4};
  d.carre_order_no_trumps = d.carre_order;
  d.equal_first_wins = true;
  d.belote_points = 20;
  return d;
}

PointTable french_points() {
  PointTable p;
  p.trump = kTrumpPoints;
  p.plain = kPlainPoints;
  p.no_trumps = kPlainPoints;
  p.all_trumps = kTrumpPoints;
  p.last_trick = 10;
  return p;
}

FrenchDuelGame::FrenchDuelGame(Record header, FrenchDuelConfig config)
    : VariantGame(std::move(header), config.players, CardSet::deck32()), config_(config) {
  play_rules_ = french_duel_play_rules(players_, options());
  declaration_rules_ = french_declarations(option_bool(options(), "declarations"));
  scoring_.capot_value = option_int(options(), "capot");
  scoring_.tie_loses = option_str(options(), "tie") == "tie_loses";
  // The first side past the target wins. Equal scores past the target: play on (docs/rules/french.md).
  match_target_ = option_int(options(), "target");
  any_suit_second_round_ = option_str(options(), "second_round") == "any_suit";
}

PlayRules french_duel_play_rules(int players, const Options& options) {
  PlayRules r;
  r.players = players;
  r.partner_master_frees = true;
  // Two players never meet the undertrump case with a choice to make; french has the option.
  const auto it = options.find("undertrump");
  r.undertrump =
      it != options.end() && std::get<std::string>(it->second) == "free" ? Undertrump::free : Undertrump::forced;
  return r;
}

void FrenchDuelGame::deal_first(const std::vector<Card>&) {
  // Packets go round from the player after the dealer.
  deal_packets(config_.first_packets);
  turn_up_ = stock_[stock_pos_++];
  turn_up_public_ = true;
  auction_ = FrenchAuction(players_, *turn_up_, any_suit_second_round_);
  phase_ = Phase::bidding;
  current_ = next(dealer_);
}

void FrenchDuelGame::bidding_legal(std::vector<Action>& out) const { auction_.legal(out); }

Refusal FrenchDuelGame::apply_bid(Seat seat, const Action& a) {
  if (const Refusal r = auction_.refusal(a); r != Refusal::none) return r;
  bids_.push_back({seat, auction_.apply(seat, a)});
  switch (auction_.status()) {
    case FrenchAuction::Status::open:
      current_ = next(current_);
      break;
    case FrenchAuction::Status::all_passed:
      all_passed();  // all pass twice, the next player deals
      break;
    case FrenchAuction::Status::closed:
      // The taker gets the turned-up card and two more; the others three.
      deal_after_take(auction_.contract().taker);
      start_play(auction_.contract(), next(dealer_));  // the player after the dealer leads
      break;
  }
  return Refusal::none;
}

void score_french(HandResult& r, int taker, const FrenchScoring& rules, int& held) {
  // All the points won in the round: 162 with four players,
  // less in head-to-head, where 18 of the 32 cards are dealt.
  const int all_cards = r.teams[0].card_points + r.teams[0].last_trick + r.teams[1].card_points + r.teams[1].last_trick;
  if (r.capot) {
    TeamTally& c = r.teams[static_cast<std::size_t>(r.capot_team)];
    c.capot_bonus = rules.capot_value - (c.card_points + c.last_trick);
  }
  for (TeamTally& t : r.teams) t.raw = t.card_points + t.last_trick + t.capot_bonus + t.declarations + t.belote;

  const int defence = 1 - taker;
  TeamTally& tt = r.teams[static_cast<std::size_t>(taker)];
  TeamTally& dt = r.teams[static_cast<std::size_t>(defence)];
  int hand_winner = -1;
  if (tt.raw > dt.raw) {
    // Made (the taker's side scored more than the defence): each side scores what it took.
    r.outcome = Outcome::made;
    tt.score = tt.raw;
    dt.score = dt.raw;
    hand_winner = taker;
  } else if (tt.raw < dt.raw || rules.tie_loses) {
    // Failed: the defence takes all the card points and every declaration; belote stays with
    // the side that held it.
    r.outcome = Outcome::failed;
    const int cards = (r.capot && r.capot_team == defence) ? rules.capot_value : all_cards;
    dt.score = cards + tt.declarations + dt.declarations + dt.belote;
    tt.score = tt.belote;
    hand_winner = defence;
  } else {
    // Litige (the default): the defence scores; the taker's points wait for the next hand.
    r.outcome = Outcome::tie_held;
    dt.score = dt.raw;
    tt.score = tt.belote;
    held += tt.raw - tt.belote;
  }
  if (hand_winner >= 0 && r.held_before > 0) {
    r.teams[static_cast<std::size_t>(hand_winner)].score += r.held_before;
    r.held_to = hand_winner;
    held = 0;
  }
}

void FrenchDuelGame::score_hand(HandResult& r) {
  tally_cards(r, french_points());
  tally_declarations(r);
  score_french(r, team_of(contract_->taker), scoring_, held_);
}

namespace {
OptionSpec second_round_option() {
  return choice_option(
      "second_round", "other_suits", {"other_suits", "any_suit"},
      "the second round of taking names a suit other than the turned-up one, or any suit",
      "commonly published French belote rules (other suits); some published rules allow any of the four");
}
}  // namespace

VariantInfo french_variant() {
  VariantInfo f;
  f.id = "french";
  f.title = "French classic belote";
  f.players = 4;
  f.options = {
      boolean_option("declarations", true, "count carrés and sequences (belote always counts)",
                     "commonly published French belote rules, where online play lets tables switch them off"),
      integer_option("target", 501, {501, 701, 1001}, "match target in points",
                     "commonly published French belote rules (501); longer matches as online play offers"),
      integer_option("capot", 250, {250, 252}, "what a capot is worth",
                     "commonly published French belote rules (250); some online play counts 252"),
      choice_option(
          "tie", "litige", {"litige", "tie_loses"},
          "litige: the defence scores, the taker's points go to the next hand's winner; tie_loses: a tie fails",
          "house choice: the litige of commonly published French rules; a tie that fails as an option"),
      choice_option("undertrump", "forced", {"forced", "free"},
                    "void, an opponent has trumped, cannot overtrump: must undertrump, or may discard",
                    "commonly published French belote rules (forced); free as an option"),
      second_round_option(),
      declare_option(),
      deal_option(),
  };
  f.play_rules = [](const Options& o) { return french_duel_play_rules(4, o); };
  f.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<FrenchDuelGame>(r, FrenchDuelConfig{4, {3, 2}});
    g->begin();
    return g;
  };
  return f;
}

VariantInfo duel_variant() {
  VariantInfo d;
  d.id = "duel";
  d.title = "Head-to-head belote (2 players)";
  d.players = 2;
  d.options = {
      boolean_option("declarations", true, "count carrés and sequences (belote always counts)",
                     "commonly published French belote rules, where online play lets tables switch them off"),
      integer_option("target", 1001, {1001}, "match target in card points (1001 is 101 in tens)",
                     "published head-to-head belote rules: 101, counted in tens"),
      integer_option("capot", 250, {250, 252}, "what a capot is worth", "as in french"),
      choice_option("tie", "litige", {"litige", "tie_loses"}, "as in french", "as in french"),
      second_round_option(),
      declare_option(),
      deal_option(),
  };
  d.play_rules = [](const Options& o) { return french_duel_play_rules(2, o); };
  d.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<FrenchDuelGame>(r, FrenchDuelConfig{2, {3, 3}});
    g->begin();
    return g;
  };
  return d;
}

}  // namespace atout
