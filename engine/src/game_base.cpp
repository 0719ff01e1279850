// The shared match loop: deals, trick play, automatic declarations, observations.
#include "game_base.hpp"

#include <algorithm>
#include <numeric>

#include "atout/fair_deal.hpp"

namespace atout {

bool option_bool(const Options& o, const std::string& name) { return std::get<bool>(o.at(name)); }
int option_int(const Options& o, const std::string& name) { return std::get<int>(o.at(name)); }
const std::string& option_str(const Options& o, const std::string& name) { return std::get<std::string>(o.at(name)); }

GameBase::GameBase(Record header, int players, CardSet deck)
    : record_(std::move(header)), players_(players), deck_mask_(deck) {
  dealer_ = record_.first_dealer;
  // Both options are optional: a variant that does not offer one leaves the default.
  const auto declare_option = record_.options.find("declare");
  manual_declarations_ =
      declare_option != record_.options.end() && std::get<std::string>(declare_option->second) == "manual";
  const auto deal_option = record_.options.find("deal");
  cut_deal_ = deal_option != record_.options.end() && std::get<std::string>(deal_option->second) == "cut";
}

DealInfo GameBase::deal() const {
  // Once the match is over the deal number has moved past the last deal; its dealer and seed stay.
  const int hand = phase_ == Phase::match_over ? hand_index_ - 1 : hand_index_;
  return DealInfo{hand, dealer_, deal_seed_};
}

std::vector<CardSet> GameBase::hands() const { return std::vector<CardSet>(hands_.begin(), hands_.begin() + players_); }

std::vector<Card> GameBase::next_deck() {
  const auto i = static_cast<std::size_t>(hand_index_);
  deal_seed_.reset();
  if (i < record_.deal.decks.size()) return record_.deal.decks[i];
  Seed seed;
  if (i < record_.deal.seeds.size()) {
    seed = record_.deal.seeds[i];
  } else {
    seed = derive_deal_seed(*record_.deal.seed, static_cast<std::uint64_t>(hand_index_));
  }
  deal_seed_ = seed;
  Rng rng(seed);
  if (cut_deal_ && !gathered_.empty()) {
    std::vector<Card> deck = gathered_;
    cut(deck, rng);
    return deck;
  }
  return shuffled_deck(seed, deck_mask_);
}

void GameBase::start_deal() {
  hands_ = {};
  bids_.clear();
  contract_.reset();
  turn_up_.reset();
  turn_up_public_ = false;
  tricks_.clear();
  declared_.assign(static_cast<std::size_t>(players_), {});
  decl_team_.reset();
  decl_settled_ = false;
  decl_shown_ = false;
  belote_seat_.reset();
  belote_calls_.clear();
  play_ = PlayPhase{};
  stock_ = next_deck();
  stock_pos_ = 0;
  phase_ = Phase::bidding;
  deal_first(stock_);
}

void GameBase::give(Seat seat, int n) {
  for (int k = 0; k < n && stock_pos_ < stock_.size(); ++k)
    hands_[static_cast<std::size_t>(seat)].insert(stock_[stock_pos_++]);
}

void GameBase::deal_packets(std::span<const int> packets) {
  for (int packet : packets)
    for (int k = 1; k <= players_; ++k) give(static_cast<Seat>((dealer_ + k) % players_), packet);
}

void GameBase::deal_after_take(Seat taker) {
  if (taker != kNoSeat) hands_[static_cast<std::size_t>(taker)].insert(*turn_up_);
  for (int k = 1; k <= players_; ++k) {
    const Seat s = static_cast<Seat>((dealer_ + k) % players_);
    give(s, s == taker ? 2 : 3);
  }
}

void GameBase::all_passed() {
  HandResult r;
  r.hand = hand_index_;
  r.dealer = dealer_;
  r.outcome = Outcome::all_passed;
  r.held_before = held_;
  r.held_after = held_;
  r.match_score = match_score_;
  r.seed = deal_seed_;
  results_.push_back(r);
  // Gathered as they lie: each hand in seat order from the dealer's left, the turned-up card,
  // then the undealt rest.
  gathered_.clear();
  for (int k = 1; k <= players_; ++k) {
    const Seat s = static_cast<Seat>((dealer_ + k) % players_);
    for (Card c : hands_[static_cast<std::size_t>(s)]) gathered_.push_back(c);
  }
  if (turn_up_) gathered_.push_back(*turn_up_);
  for (std::size_t k = stock_pos_; k < stock_.size(); ++k) gathered_.push_back(stock_[k]);
  complete_gathered();
  ++hand_index_;
  if (record_.hand_limit && hand_index_ >= *record_.hand_limit) {
    phase_ = Phase::match_over;
    return;
  }
  dealer_ = next(dealer_);  // the next player in rotation deals
  start_deal();
}

void GameBase::start_play(const Contract& contract, Seat leader) {
  contract_ = contract;
  phase_ = Phase::playing;
  play_ = PlayPhase{};
  play_.trump = contract.trump;
  play_.rules = play_rules();
  play_.hands = hands_;
  play_.tricks_total = hands_[0].size();
  play_hands_ = hands_;
  play_.start(leader);
  current_ = leader;

  const DeclarationRules& rules = declaration_rules();
  show_order_.clear();
  for (int k = 0; k < players_; ++k) show_order_.push_back(static_cast<Seat>((leader + k) % players_));
  declared_.assign(static_cast<std::size_t>(players_), {});
  if (!manual_declarations()) {
    std::vector<std::vector<Combo>> all(static_cast<std::size_t>(players_));
    for (Seat s : show_order_) {
      all[static_cast<std::size_t>(s)] = best_combos(hands_[static_cast<std::size_t>(s)], contract.trump, rules);
      for (const Combo& c : all[static_cast<std::size_t>(s)]) declared_[static_cast<std::size_t>(s)].push_back({c});
    }
    decl_team_ = declaration_winner(all, show_order_, contract.trump, rules);
    decl_settled_ = true;
  }
  std::vector<CardSet> hs(hands_.begin(), hands_.begin() + players_);
  if (rules.belote_points > 0) belote_seat_ = belote_holder(hs, contract.trump);
}

bool GameBase::belote_call(Seat seat, Card c) const {
  return belote_seat_ && *belote_seat_ == seat && play_.trump.mode == Mode::suit && c.suit() == play_.trump.suit &&
         (c.rank() == Rank::king || c.rank() == Rank::queen);
}

void GameBase::declarations_legal(Seat seat, std::vector<Action>& out) const {
  const auto& mine = declared_[static_cast<std::size_t>(seat)];
  if (tricks_.empty()) {
    // Before the first card: any combination of the hand that does not cross one already
    // announced.
    CardSet used;
    for (const Declared& d : mine) used |= d.combo.cards;
    for (const Combo& c : find_combos(play_hands_[static_cast<std::size_t>(seat)], play_.trump, declaration_rules()))
      if ((c.cards & used).empty()) out.push_back(Action::announce(c.cards));
  } else if (tricks_.size() == 1) {
    for (const Declared& d : mine)
      if (!d.shown) out.push_back(Action::show(d.combo.cards));
  }
}

Refusal GameBase::apply_declaration(Seat seat, const Action& a) {
  if (!manual_declarations()) return Refusal::not_allowed;
  auto& mine = declared_[static_cast<std::size_t>(seat)];
  if (a.type == ActionType::announce) {
    // Seat is current, so in the first trick it has not played yet.
    if (!tricks_.empty()) return Refusal::wrong_phase;
    CardSet used;
    for (const Declared& d : mine) used |= d.combo.cards;
    for (const Combo& c : find_combos(play_hands_[static_cast<std::size_t>(seat)], play_.trump, declaration_rules())) {
      if (c.cards != a.cards) continue;
      if (!(c.cards & used).empty()) return Refusal::invalid_combination;  // crosses one announced
      mine.push_back({c});
      return Refusal::none;
    }
    return Refusal::invalid_combination;
  }
  // Showing, before the second card.
  if (tricks_.size() != 1) return Refusal::wrong_phase;
  for (Declared& d : mine) {
    if (d.combo.cards != a.cards) continue;
    if (d.shown) return Refusal::not_allowed;
    d.shown = true;
    return Refusal::none;
  }
  return Refusal::not_announced;
}

void GameBase::settle_declarations() {
  if (decl_settled_) return;
  decl_settled_ = true;
  // Only shown combinations count. Equal best ones go to the
  // trump one, then to the first in the order the variant names (DeclarationRules).
  const DeclarationRules& rules = declaration_rules();
  std::vector<std::vector<Combo>> shown(static_cast<std::size_t>(players_));
  for (int s = 0; s < players_; ++s)
    for (const Declared& d : declared_[static_cast<std::size_t>(s)])
      if (d.shown) shown[static_cast<std::size_t>(s)].push_back(d.combo);
  std::vector<Seat> order = show_order_;
  if (rules.ties_to_first_shown && !tricks_.empty()) {
    const Seat lead2 = seat_of(tricks_[0], tricks_[0].win, players_);
    order.clear();
    for (int k = 0; k < players_; ++k) order.push_back(static_cast<Seat>((lead2 + k) % players_));
  }
  decl_team_ = declaration_winner(shown, order, play_.trump, rules);
}

void GameBase::legal_actions(std::vector<Action>& out) const {
  out.clear();
  switch (phase_) {
    case Phase::bidding:
      bidding_legal(out);
      return;
    case Phase::playing: {
      for (Card c : play_.legal()) out.push_back(Action::play(c));
      if (manual_declarations()) declarations_legal(current_, out);
      extra_play_legal(current_, out);
      return;
    }
    case Phase::match_over:
      return;
  }
}

Refusal GameBase::play_refusal(Seat seat, Card c) const {
  return refusal_for(play_.hands[static_cast<std::size_t>(seat)], play_.trick, play_.trump, c);
}

Refusal GameBase::apply_play(Seat seat, Card c) {
  if (!play_.legal().contains(c)) return play_refusal(seat, c);
  // Belote and rebelote are announced as the king and queen of trumps are played.
  if (belote_call(seat, c)) belote_calls_.push_back(seat);
  Trick done;
  if (play_.play(c, &done)) {
    tricks_.push_back(done);
    if (tricks_.size() == 1) decl_shown_ = true;  // combinations are shown after the first trick
    if (tricks_.size() == 2) settle_declarations();
    on_trick_done(done);
  }
  current_ = play_.current;
  hands_ = play_.hands;
  if (play_.done()) finish_hand();
  return Refusal::none;
}

Refusal GameBase::apply(Seat seat, const Action& action) {
  if (phase_ == Phase::match_over) return Refusal::game_over;
  if (seat != current_) return Refusal::not_your_turn;
  Refusal r = Refusal::none;
  if (phase_ == Phase::playing) {
    if (action.type == ActionType::play) {
      r = apply_play(seat, action.card);
    } else if (action.type == ActionType::announce || action.type == ActionType::show) {
      r = apply_declaration(seat, action);
    } else {
      r = apply_extra_play(seat, action);
    }
  } else {
    if (action.type == ActionType::play) return Refusal::wrong_phase;
    r = apply_bid(seat, action);
  }
  if (r == Refusal::none) record_.actions.push_back({seat, action});
  return r;
}

void GameBase::tally_cards(HandResult& r, const PointTable& points) const {
  for (int t = 0; t < 2; ++t) {
    TeamTally& tt = r.teams[static_cast<std::size_t>(t)];
    tt.card_points = points.sum(play_.trump, play_.won[static_cast<std::size_t>(t)]);
    tt.tricks = play_.tricks_won[static_cast<std::size_t>(t)];
    tt.last_trick = (play_.last_winner % 2 == t) ? points.last_trick : 0;
  }
  for (int t = 0; t < 2; ++t)
    if (r.teams[static_cast<std::size_t>(1 - t)].tricks == 0) {
      r.capot = true;
      r.capot_team = t;
    }
}

void GameBase::tally_declarations(HandResult& r) const {
  if (decl_team_) {
    const bool manual = manual_declarations();
    int sum = 0;
    for (int s = 0; s < players_; ++s)
      if (team_of(static_cast<Seat>(s)) == *decl_team_)
        for (const Declared& d : declared_[static_cast<std::size_t>(s)])
          if (!manual || d.shown) sum += d.combo.points;
    r.teams[static_cast<std::size_t>(*decl_team_)].declarations = sum;
  }
  if (belote_seat_)
    r.teams[static_cast<std::size_t>(team_of(*belote_seat_))].belote = declaration_rules().belote_points;
}

void GameBase::complete_gathered() {
  // Cards not gathered otherwise (never dealt) go to the
  // bottom in index order, so the next cut always works on the whole deck.
  CardSet seen;
  for (Card c : gathered_) seen.insert(c);
  for (Card c : deck_mask_ - seen) gathered_.push_back(c);
}

void GameBase::concede_rest(Seat seat) {
  const auto other = static_cast<std::size_t>(1 - team_of(seat));
  CardSet rest = play_.trick.set;
  for (int s = 0; s < players_; ++s) rest |= play_.hands[static_cast<std::size_t>(s)];
  play_.won[other] |= rest;
  play_.tricks_won[other] += play_.tricks_total - play_.tricks_done;
  play_.tricks_done = play_.tricks_total;
  play_.last_winner = next(seat);  // the next seat is always an opponent
  play_.hands = {};
  play_.trick = Trick{};
  hands_ = play_.hands;
  finish_hand();
}

std::optional<int> target_winner(const std::array<int, 2>& score, int target) {
  if (score[0] < target && score[1] < target) return std::nullopt;
  if (score[0] == score[1]) return std::nullopt;
  return score[0] > score[1] ? 0 : 1;
}

bool GameBase::match_finished() {
  winner_ = target_winner(match_score_, match_target_);
  return winner_.has_value();
}

void GameBase::finish_hand() {
  settle_declarations();
  HandResult r;
  r.hand = hand_index_;
  r.dealer = dealer_;
  r.contract = contract_;
  r.held_before = held_;
  r.seed = deal_seed_;
  score_hand(r);
  for (std::size_t t = 0; t < 2; ++t) match_score_[t] += r.teams[t].score;
  r.held_after = held_;
  r.match_score = match_score_;
  results_.push_back(r);

  gathered_.clear();
  for (const Trick& t : tricks_)
    for (int i = 0; i < t.count; ++i) gathered_.push_back(t.cards[i]);
  complete_gathered();

  ++hand_index_;
  if (match_finished() || (record_.hand_limit && hand_index_ >= *record_.hand_limit)) {
    phase_ = Phase::match_over;
    current_ = kNoSeat;
    return;
  }
  dealer_ = next(dealer_);
  start_deal();
}

Observation GameBase::observation(Seat seat) const {
  Observation o;
  o.variant = record_.variant;
  o.seat = seat;
  o.players = players_;
  o.phase = phase_;
  // Once the match is over, the view still shows the last deal played (its bids, contract and
  // turned-up card), so it names that deal.
  o.hand = phase_ == Phase::match_over && hand_index_ > 0 ? hand_index_ - 1 : hand_index_;
  o.dealer = dealer_;
  o.current = current_player();
  const bool seated = seat >= 0 && seat < players_;
  if (seated) o.own = hands_[static_cast<std::size_t>(seat)];
  for (int s = 0; s < players_; ++s)
    o.hand_sizes[static_cast<std::size_t>(s)] = hands_[static_cast<std::size_t>(s)].size();
  if (turn_up_ && turn_up_public_) o.turn_up = turn_up_;
  o.bids = bids_;
  o.contract = contract_;
  if (phase_ == Phase::playing) {
    o.trick = play_.trick;
    o.tricks = tricks_;
    o.tricks_won = play_.tricks_won;
    const bool manual = manual_declarations();
    for (int s = 0; s < players_; ++s) {
      for (const Declared& dc : declared_[static_cast<std::size_t>(s)]) {
        // Automatic: everyone hears an announcement once its owner has played to the first trick,
        // and only the counting side's combinations are shown, after the first trick.
        // Manual: announcements and showings are the seats' own actions.
        const bool announced =
            manual || !tricks_.empty() || play_.trick.count > (s - play_.trick.leader + players_) % players_;
        if (!announced) continue;
        DeclarationView d;
        d.seat = static_cast<Seat>(s);
        d.kind = dc.combo.kind;
        d.top = dc.combo.top;
        d.points = dc.combo.points;
        d.shown = manual ? dc.shown : decl_shown_ && decl_team_ && team_of(static_cast<Seat>(s)) == *decl_team_;
        if (d.shown) d.cards = dc.combo.cards;
        o.declarations.push_back(d);
      }
    }
    o.belote = belote_calls_;
  }
  o.match_score = match_score_;
  o.held_points = held_;
  if (seated && o.current == seat) legal_actions(o.legal);

  CardSet visible = o.own;
  if (o.turn_up) visible.insert(*o.turn_up);
  visible |= o.trick.as_set();
  for (const Trick& t : o.tricks) visible |= t.as_set();
  for (const DeclarationView& d : o.declarations) visible |= d.cards;
  add_variant_view(seat, o);
  o.visible = visible | o.visible;
  return o;
}

}  // namespace atout
