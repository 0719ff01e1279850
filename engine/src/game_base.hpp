// What every variant's state shares: the match loop, dealing, trick play, automatic declarations,
// belote, observations. A variant supplies its dealing packets, bidding and scoring.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "atout/declarations.hpp"
#include "atout/play.hpp"
#include "atout/state.hpp"

namespace atout {

// Option lookups on options that normalise_options has completed.
bool option_bool(const Options& o, const std::string& name);
int option_int(const Options& o, const std::string& name);
const std::string& option_str(const Options& o, const std::string& name);

// First to reach or pass the target wins; both at once: the higher; equal: nobody yet.
std::optional<int> target_winner(const std::array<int, 2>& score, int target);

class GameBase : public State {
 public:
  GameBase(Record header, int players, CardSet deck);

  const Record& record() const override { return record_; }
  int players() const override { return players_; }
  Phase phase() const override { return phase_; }
  Seat current_player() const override { return phase_ == Phase::match_over ? kNoSeat : current_; }
  void legal_actions(std::vector<Action>& out) const override;
  Refusal apply(Seat seat, const Action& action) override;
  bool is_terminal() const override { return phase_ == Phase::match_over; }
  Observation observation(Seat seat) const override;
  std::array<int, 2> match_score() const override { return match_score_; }
  std::optional<int> winner() const override { return winner_; }
  const std::vector<HandResult>& hand_results() const override { return results_; }
  DealInfo deal() const override;
  std::vector<CardSet> hands() const override;

  // Starts the first deal. Called once by the factory after construction.
  void begin() { start_deal(); }

 protected:
  // ---- variant hooks ----
  // Deals the first packets from deck_ and sets up bidding (phase_, current_).
  virtual void deal_first(const std::vector<Card>& deck) = 0;
  virtual void bidding_legal(std::vector<Action>& out) const = 0;
  virtual Refusal apply_bid(Seat seat, const Action& action) = 0;
  // Scores the finished hand into `r` (teams, outcome, held points); finish_hand then adds each
  // side's score to the match.
  virtual void score_hand(HandResult& r) = 0;
  // True when the match is over after the latest hand; sets winner_. Default: target_winner over
  // match_target_.
  virtual bool match_finished();
  // Actions beside plays during the play phase (announce, show, concede). Default: none.
  virtual void extra_play_legal(Seat, std::vector<Action>&) const {}
  virtual Refusal apply_extra_play(Seat, const Action&) { return Refusal::wrong_phase; }
  // Whether playing `c` calls belote or rebelote for `seat`. Default: the holder of the trump king
  // and queen in a suit contract, as each is played.
  virtual bool belote_call(Seat seat, Card c) const;
  // Hook called after each completed trick (for variants that reveal or score something then).
  virtual void on_trick_done(const Trick&) {}
  // Publicly visible cards beside own/played/turn-up/shown (variant-specific).
  virtual void add_variant_view(Seat, Observation&) const {}

  // ---- helpers for variants ----
  Seat next(Seat s) const { return static_cast<Seat>((s + 1) % players_); }
  // Deals `n` cards from the stock to `seat`.
  void give(Seat seat, int n);
  // Deals each packet in turn to every seat, from the dealer's successor round to the dealer.
  void deal_packets(std::span<const int> packets);
  // Completes the deal once the turned-up card is taken: it goes to `taker` with 2 more cards,
  // every other seat gets 3, from the dealer's successor. With `taker` kNoSeat every seat gets 3.
  void deal_after_take(Seat taker);
  // Ends bidding with no contract: scores nothing, records the deal, moves the deal on.
  void all_passed();
  // Enters the play phase with `contract` (hands must be complete). The lead goes to `leader`.
  void start_play(const Contract& contract, Seat leader);
  // Per-team totals of cards, last trick, capot flag, tricks, from the finished play.
  void tally_cards(HandResult& r, const PointTable& points) const;
  // The declared combinations that count, and belote; fills declarations/belote in `r`.
  void tally_declarations(HandResult& r) const;
  // Ends the hand at once: `seat`'s side gives every card still in play, and every remaining
  // trick, to the other side. Scored by the variant as usual.
  void concede_rest(Seat seat);
  // Scores the hand and deals the next one, or ends the match.
  void finish_hand();
  int team_of(Seat s) const { return s % 2; }
  const Options& options() const { return record_.options; }
  const DeclarationRules& declaration_rules() const { return declaration_rules_; }
  const PlayRules& play_rules() const { return play_rules_; }
  // Manual declarations: announce before your first card, show before your second.
  bool manual_declarations() const { return manual_declarations_; }

  // ---- the rules, read from the options once, when the state is created ----
  // The variant's constructor fills the first two (and sets manual_declarations_ where its rules
  // always make the seats announce). Play and bidding read these fields, never the options map.
  PlayRules play_rules_;
  DeclarationRules declaration_rules_;  // auto-declared at the start of play, or announced
  bool manual_declarations_ = false;    // the `declare: manual` option, where the variant has it
  bool cut_deal_ = false;               // `deal: cut`: the next deal cuts the gathered cards
  int match_target_ = 0;                // the `target` option, where the variant has one

  Record record_;
  int players_;
  CardSet deck_mask_;
  Phase phase_ = Phase::bidding;
  int hand_index_ = 0;
  Seat dealer_ = 0;
  Seat current_ = 0;
  std::array<CardSet, 4> hands_{};
  std::vector<Card> stock_;
  std::size_t stock_pos_ = 0;
  std::optional<Card> turn_up_;
  bool turn_up_public_ = false;
  std::vector<RecordedAction> bids_;
  std::optional<Contract> contract_;
  std::optional<Seed> deal_seed_;

  PlayPhase play_;
  std::vector<Trick> tricks_;
  std::array<CardSet, 4> play_hands_{};  // each hand as it was when play began
  struct Declared {
    Combo combo;
    bool shown = false;
  };
  std::vector<std::vector<Declared>> declared_;  // each seat's announced (or auto-declared) combinations
  std::optional<int> decl_team_;                 // whose combinations count
  bool decl_settled_ = false;                    // decl_team_ is final for this hand
  std::vector<Seat> show_order_;                 // the first trick's order of play
  bool decl_shown_ = false;
  std::optional<Seat> belote_seat_;
  std::vector<Seat> belote_calls_;

  std::array<int, 2> match_score_{};
  int held_ = 0;
  std::optional<int> winner_;
  std::vector<HandResult> results_;
  std::vector<Card> gathered_;  // the last deal's cards in gathering order (deal: cut)

 private:
  void start_deal();
  void declarations_legal(Seat seat, std::vector<Action>& out) const;
  Refusal apply_declaration(Seat seat, const Action& a);
  void settle_declarations();
  void complete_gathered();
  Refusal apply_play(Seat seat, Card c);
  Refusal play_refusal(Seat seat, Card c) const;
  std::vector<Card> next_deck();
};

}  // namespace atout
