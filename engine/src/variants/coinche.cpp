// French coinche belote: the deal, the auction and the state machine.
#include "coinche.hpp"

#include "french_duel.hpp"
#include "option_specs.hpp"
#include "registry.hpp"

namespace atout {

PointTable coinche_points() {
  PointTable p;
  p.trump = kTrumpPoints;
  p.plain = kPlainPoints;
  p.no_trumps = kHeightPoints;  // "in case of height A costs 19 points"
  p.all_trumps = kAllTrumpsPoints;
  p.last_trick = 10;
  return p;
}

// ---- The auction ----------------------------------------------------------------------------

namespace {

constexpr std::array<Trump, 6> kBidTrumps = {Trump::of(Suit::clubs),  Trump::of(Suit::diamonds),
                                             Trump::of(Suit::hearts), Trump::of(Suit::spades),
                                             Trump::no_trumps(),      Trump::all_trumps()};

Seat next_seat(Seat s) { return static_cast<Seat>((s + 1) % 4); }
bool same_side(Seat a, Seat b) { return a % 2 == b % 2; }
bool coinched(const CoincheAuction& a) { return a.best && a.best->doubled_by != kNoSeat; }

}  // namespace

CoincheAuction CoincheAuction::start(Seat dealer) {
  CoincheAuction a;
  a.current = next_seat(dealer);  // the player on the dealer's right starts
  return a;
}

int coinche_bid_rank(int value, bool capot) { return capot ? kCoincheMaxBid + kCoincheBidStep : value; }

Refusal coinche_auction_refusal(const CoincheAuction& a, Seat seat, const Action& action) {
  if (a.end != CoincheAuction::End::open) return Refusal::wrong_phase;
  if (seat != a.current) return Refusal::not_your_turn;
  switch (action.type) {
    case ActionType::pass:
      return Refusal::none;
    case ActionType::bid: {
      // A coinche closes the auction to new bids; only surcoinche or pass remain.
      if (coinched(a)) return Refusal::not_allowed;
      if (!action.has_trump) return Refusal::invalid_bid;
      if (action.capot) {
        if (action.value != 0 && action.value != kCoincheCapot) return Refusal::invalid_bid;
      } else if (action.value < kCoincheMinBid || action.value > kCoincheMaxBid ||
                 action.value % kCoincheBidStep != 0) {
        return Refusal::invalid_bid;  // from 80, in steps of 10
      }
      // A new contract must be higher than the one before.
      if (a.best && coinche_bid_rank(action.value, action.capot) <= coinche_bid_rank(a.best->value, a.best->capot))
        return Refusal::bid_too_low;
      return Refusal::none;
    }
    case ActionType::double_:
      // Contra (coinche) is said against the opponents' contract, once.
      if (!a.best || coinched(a) || same_side(seat, a.best->taker)) return Refusal::cannot_double;
      return Refusal::none;
    case ActionType::redouble:
      // The side whose contract was coinched may re-contra (surcoinche).
      if (!coinched(a) || a.best->redoubled_by != kNoSeat || !same_side(seat, a.best->taker))
        return Refusal::cannot_redouble;
      return Refusal::none;
    case ActionType::take:
      return Refusal::not_allowed;
    default:
      return Refusal::wrong_phase;  // plays, declarations, concession
  }
}

void coinche_auction_apply(CoincheAuction& a, Seat seat, const Action& action) {
  switch (action.type) {
    case ActionType::pass:
      if (coinched(a)) {
        // After a coinche only the bidding side speaks, each once; two passes close the auction.
        if (++a.passes_after_coinche == 2) {
          a.end = CoincheAuction::End::contract;
        } else {
          a.current = next_seat(next_seat(seat));
        }
        return;
      }
      ++a.passes;
      if (a.best && a.passes == 3) {
        a.end = CoincheAuction::End::contract;
      } else if (!a.best && a.passes == 4) {
        a.end = CoincheAuction::End::all_passed;
      } else {
        a.current = next_seat(seat);
      }
      return;
    case ActionType::bid: {
      Contract c;
      c.taker = seat;
      c.trump = action.trump;
      c.capot = action.capot;
      c.value = action.capot ? kCoincheCapot : action.value;
      a.best = c;
      a.passes = 0;
      a.current = next_seat(seat);
      return;
    }
    case ActionType::double_:
      a.best->multiplier = 2;
      a.best->doubled_by = seat;
      // The next seat always belongs to the bidding side.
      a.current = next_seat(seat);
      return;
    case ActionType::redouble:
      a.best->multiplier = 4;
      a.best->redoubled_by = seat;
      a.end = CoincheAuction::End::contract;
      return;
    default:
      return;
  }
}

void coinche_auction_legal(const CoincheAuction& a, std::vector<Action>& out) {
  out.push_back(Action::pass());
  if (!coinched(a)) {
    const int floor = a.best ? coinche_bid_rank(a.best->value, a.best->capot) : 0;
    for (int v = kCoincheMinBid; v <= kCoincheMaxBid; v += kCoincheBidStep)
      if (v > floor)
        for (Trump t : kBidTrumps) out.push_back(Action::bid(v, t));
    if (coinche_bid_rank(0, true) > floor)
      for (Trump t : kBidTrumps) out.push_back(Action::bid(0, t, true));
  }
  if (a.best && !coinched(a) && !same_side(a.current, a.best->taker)) out.push_back(Action::double_());
  if (coinched(a) && a.best->redoubled_by == kNoSeat && same_side(a.current, a.best->taker))
    out.push_back(Action::redouble());
}

// ---- The state machine ----------------------------------------------------------------------

PlayRules coinche_play_rules(const Options& options) {
  PlayRules r;
  r.players = 4;
  r.partner_master_frees = true;  // as in French play
  r.undertrump = option_str(options, "undertrump") == "free" ? Undertrump::free : Undertrump::forced;
  r.all_trumps_must_beat = option_bool(options, "all_trumps_must_beat");
  return r;
}

CoincheGame::CoincheGame(Record header) : VariantGame(std::move(header), 4, CardSet::deck32()) {
  play_rules_ = coinche_play_rules(options());
  // "Declarations as in French play" in every mode (docs/rules/coinche.md).
  declaration_rules_ = french_declarations(option_bool(options(), "declarations"));
  all_trumps_belote_ = option_str(options(), "all_trumps_belote") == "every_suit";
  scoring_.scheme =
      option_str(options(), "scoring") == "contract_only" ? CoincheScheme::contract_only : CoincheScheme::points_made;
  scoring_.declarations_make_contract = option_str(options(), "contract_counts") == "all";
  // The first to reach or pass the target; both at once: the higher; equal: play on.
  match_target_ = option_int(options(), "target");
}

bool CoincheGame::belote_call(Seat seat, Card c) const {
  if (play_.trump.mode != Mode::all_trumps) return GameBase::belote_call(seat, c);
  // In All Trumps every suit is a trump suit: a king and queen of one suit in one hand is a belote.
  if (!all_trumps_belote_ || (c.rank() != Rank::king && c.rank() != Rank::queen)) return false;
  CardSet kq;
  kq.insert(Card(c.suit(), Rank::king));
  kq.insert(Card(c.suit(), Rank::queen));
  return (play_hands_[static_cast<std::size_t>(seat)] & kq) == kq;
}

void CoincheGame::deal_first(const std::vector<Card>&) {
  // Packets of 3, 3 and 2, from the dealer's successor round to the dealer.
  static constexpr int kPackets[] = {3, 3, 2};
  deal_packets(kPackets);
  auction_ = CoincheAuction::start(dealer_);
  phase_ = Phase::bidding;
  current_ = auction_.current;
}

void CoincheGame::bidding_legal(std::vector<Action>& out) const { coinche_auction_legal(auction_, out); }

Refusal CoincheGame::apply_bid(Seat seat, const Action& action) {
  const Refusal r = coinche_auction_refusal(auction_, seat, action);
  if (r != Refusal::none) return r;
  bids_.push_back({seat, action});
  coinche_auction_apply(auction_, seat, action);
  switch (auction_.end) {
    case CoincheAuction::End::open:
      current_ = auction_.current;
      break;
    case CoincheAuction::End::all_passed:
      all_passed();  // four passes: the next dealer deals again
      break;
    case CoincheAuction::End::contract:
      // The player who spoke first leads the first trick.
      start_play(*auction_.best, next(dealer_));
      break;
  }
  return Refusal::none;
}

void CoincheGame::score_hand(HandResult& r) {
  tally_cards(r, coinche_points());
  tally_declarations(r);
  if (play_.trump.mode == Mode::all_trumps && all_trumps_belote_) {
    const int points = declaration_rules().belote_points;
    for (int s = 0; s < players_; ++s)
      for (int suit = 0; suit < kSuits; ++suit) {
        const CardSet kq = CardSet::of(Card(static_cast<Suit>(suit), Rank::king)) |
                           CardSet::of(Card(static_cast<Suit>(suit), Rank::queen));
        if ((play_hands_[static_cast<std::size_t>(s)] & kq) == kq)
          r.teams[static_cast<std::size_t>(team_of(static_cast<Seat>(s)))].belote += points;
      }
  }
  score_coinche(r, scoring_);
}

VariantInfo coinche_variant() {
  VariantInfo v;
  v.id = "coinche";
  v.title = "French coinche belote";
  v.players = 4;
  v.options = {
      integer_option("target", 501, {501, 701, 1001, 1501, 2001}, "match target in points",
                     "published coinche rules (501); common longer matches"),
      choice_option("scoring", "points_made", {"points_made", "contract_only"},
                    "points_made: made, points taken + the bid, failed, the defence takes 162 + the bid; "
                    "contract_only: the winner of the contract scores the bid alone",
                    "docs/rules/coinche.md, scoring"),
      choice_option("contract_counts", "all", {"all", "cards_only"},
                    "what counts towards making the contract: cards, last trick, declarations and belote; or "
                    "cards and last trick only",
                    "docs/rules/coinche.md, scoring"),
      boolean_option("declarations", true, "count carrés and sequences (belote always counts)",
                     "the base French rules; online play lets tables switch them off"),
      choice_option("all_trumps_belote", "every_suit", {"every_suit", "none"},
                    "in All Trumps, a king and queen of any one suit in one hand is a belote, or there is none",
                    "docs/rules/coinche.md, belote"),
      boolean_option("all_trumps_must_beat", true,
                     "in All Trumps, a player following suit must beat the best card of the suit if able",
                     "established coinche play; docs/rules/coinche.md"),
      choice_option("undertrump", "forced", {"forced", "free"},
                    "void, an opponent has trumped, cannot overtrump: must undertrump, or may discard",
                    "commonly published French rules (forced); free as an option"),
      declare_option(),
      deal_option(),
  };
  v.play_rules = coinche_play_rules;
  v.create = [](const Record& r) -> std::unique_ptr<State> {
    auto g = std::make_unique<CoincheGame>(r);
    g->begin();
    return g;
  };
  return v;
}

}  // namespace atout
