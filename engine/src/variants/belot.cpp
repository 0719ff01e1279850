// Bulgarian belot: the state machine and its variant entry.
#include "belot.hpp"

#include "option_specs.hpp"
#include "registry.hpp"

namespace atout {

namespace {
constexpr int kPlayers = 4;
constexpr int kBelotePoints = 20;
}  // namespace

PlayRules belot_play_rules(const Options&) {
  PlayRules r;
  r.players = kPlayers;
  r.partner_master_frees = true;    // void & partner winning: free
  r.undertrump = Undertrump::free;  // cannot overtrump: free discard
  r.all_trumps_must_beat = true;    // beat in every suit led in All Trumps
  return r;
}

DeclarationRules belot_declarations() {
  DeclarationRules d;
  d.enabled = true;
  d.none_in_no_trumps = true;
  d.sequence_points = {20, 50, 100};  // longer runs split
  // Carrés of 9, 10, J, Q, K, A; none of 7s or 8s. Ranks: 7 8 9 10 J Q K A.
  d.carre_ranks = 0b11111100;
  d.carre_points = {0, 0, 150, 100, 200, 100, 100, 100};
  d.carre_points_no_trumps = d.carre_points;  // unused: nothing is declared in No Trumps
  d.carre_order = {0, 0, 5, 3, 6, 1, 2, 4};   // J > 9 > A > 10 > K > Q
  d.carre_order_no_trumps = d.carre_order;
  // The shared single-winner comparison is not used to count (belot compares sequences and carrés
  // apart, belot_declaration_sides); equal best combinations cancel, as equal sequences do.
  d.equal_first_wins = false;
  d.belote_points = kBelotePoints;
  return d;
}

BelotGame::BelotGame(Record header) : VariantGame(std::move(header), kPlayers, CardSet::deck32()) {
  play_rules_ = belot_play_rules(options());
  declaration_rules_ = belot_declarations();
  no_trumps_double_ = option_bool(options(), "no_trumps_double");
  scoring_.tie_hangs = option_str(options(), "tie") == "hanging";
  scoring_.double_takes_all = option_str(options(), "double_scoring") == "winner_takes_all";
  match_target_ = option_int(options(), "target");
  strictly_ahead_ = option_bool(options(), "strictly_ahead");
}

void BelotGame::deal_first(const std::vector<Card>&) {
  auction_ = BelotAuction{};
  // 3 cards to each, then 2, from the dealer's successor in play order
  // (seats follow the direction of play, so the rules' "anti-clockwise" is only a label).
  static constexpr int kPackets[] = {3, 2};
  deal_packets(kPackets);
  phase_ = Phase::bidding;
  current_ = next(dealer_);  // the player after the dealer is first
}

void BelotGame::bidding_legal(std::vector<Action>& out) const { auction_.legal(current_, out); }

Refusal BelotGame::apply_bid(Seat seat, const Action& a) {
  if (const Refusal r = auction_.refusal(seat, a); r != Refusal::none) return r;
  bids_.push_back({seat, auction_.apply(seat, a)});
  switch (auction_.status()) {
    case BelotAuction::Status::open:
      current_ = next(current_);
      break;
    case BelotAuction::Status::all_passed:
      all_passed();  // four passes: the next dealer deals again
      break;
    case BelotAuction::Status::closed:
      end_bidding();
      break;
  }
  return Refusal::none;
}

void BelotGame::end_bidding() {
  // Three more cards each, in the same order.
  static constexpr int kLastPacket[] = {3};
  deal_packets(kLastPacket);
  start_play(auction_.contract(), next(dealer_));  // the player after the dealer plays first
  // Belot counts sequences and carrés apart (add_variant_view, score_hand), so the shared machine's
  // single counting side must show nothing.
  if (!manual_declarations()) decl_team_.reset();
}

bool BelotGame::belote_call(Seat seat, Card c) const {
  // K and Q of one suit, which must be trump: none in No Trumps, any suit in All
  // Trumps. Called when the first of the two is played; in All Trumps only when it leads or follows
  // the suit led (established Bulgarian rule, docs/rules/belot.md).
  if (c.rank() != Rank::king && c.rank() != Rank::queen) return false;
  const Trump& t = play_.trump;
  if (t.mode == Mode::no_trumps) return false;
  if (t.mode == Mode::suit && c.suit() != t.suit) return false;
  if (t.mode == Mode::all_trumps && !play_.trick.empty() && play_.trick.led() != c.suit()) return false;
  const Card other(c.suit(), c.rank() == Rank::king ? Rank::queen : Rank::king);
  return play_.hands[static_cast<std::size_t>(seat)].contains(other);
}

std::vector<std::vector<Combo>> BelotGame::counted_combos() const {
  const bool manual = manual_declarations();
  std::vector<std::vector<Combo>> out(static_cast<std::size_t>(players_));
  for (std::size_t s = 0; s < out.size(); ++s)
    for (const Declared& d : declared_[s])
      if (!manual || d.shown) out[s].push_back(d.combo);
  return out;
}

void BelotGame::add_variant_view(Seat, Observation& o) const {
  if (phase_ != Phase::playing || manual_declarations() || !decl_shown_) return;
  // Automatic declarations: once the first trick is over, the combinations that count are shown,
  // sequences and carrés each by their own counting side.
  const BelotDeclarationSides sides = belot_declaration_sides(counted_combos());
  std::array<std::size_t, 4> next_index{};
  for (DeclarationView& d : o.declarations) {
    const auto s = static_cast<std::size_t>(d.seat);
    const Combo& c = declared_[s][next_index[s]++].combo;
    const std::optional<int>& side = c.kind == ComboKind::carre ? sides.carres : sides.sequences;
    if (!side || *side != team_of(d.seat)) continue;
    d.shown = true;
    d.cards = c.cards;
    o.visible |= c.cards;
  }
}

void BelotGame::score_hand(HandResult& r) {
  const Trump t = contract_->trump;
  const bool nt_double = no_trumps_double_;
  tally_cards(r, belot_points(t, nt_double));
  const auto combos = counted_combos();
  const auto points = belot_declaration_points(combos, belot_declaration_sides(combos));
  for (std::size_t k = 0; k < 2; ++k) r.teams[k].declarations = points[k];
  for (Seat s : belote_calls_) r.teams[static_cast<std::size_t>(team_of(s))].belote += kBelotePoints;
  last_hand_winner_ =
      score_belot(r, team_of(contract_->taker), belot_whole(t, nt_double), contract_->multiplier, scoring_, held_);
}

bool BelotGame::match_finished() {
  winner_ = belot_match_winner(match_score_, match_target_, strictly_ahead_, last_hand_winner_);
  return winner_.has_value();
}

VariantInfo belot_variant() {
  VariantInfo v;
  v.id = "belot";
  v.title = "Bulgarian belot";
  v.players = kPlayers;
  v.options = {
      integer_option("target", 151, {151}, "match target, in tens", "commonly published Bulgarian Belot rules"),
      choice_option("tie", "hanging", {"hanging", "inside"},
                    "bidders level with the defence: their points hang for the next hand's winner, or they are "
                    "inside",
                    "established Bulgarian play (hanging); inside as an option"),
      choice_option("double_scoring", "winner_takes_all", {"winner_takes_all", "each_side"},
                    "doubled hands: the winner of the hand takes the whole hand x2 (x4 redoubled), or each side's "
                    "usual score is multiplied",
                    "established Bulgarian play (winner takes all); each side as an option"),
      boolean_option("no_trumps_double", false,
                     "No Trumps card points (and last trick) count double, 260 (26) a hand, as in established "
                     "Bulgarian play; off: the plain card values, 130 (13)",
                     "commonly published Bulgarian Belot card values; docs/rules/belot.md"),
      boolean_option("strictly_ahead", true,
                     "the match ends only with one side strictly ahead; off: equal scores at the target go to "
                     "the side that won the last hand",
                     "established Bulgarian play"),
      declare_option(),
      deal_option(),
  };
  v.play_rules = belot_play_rules;
  v.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<BelotGame>(r);
    g->begin();
    return g;
  };
  return v;
}

}  // namespace atout
