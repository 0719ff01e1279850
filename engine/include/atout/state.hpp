// The one state API shared by every variant: a whole match, hand after hand, driven by actions.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "atout/action.hpp"
#include "atout/card.hpp"
#include "atout/contract.hpp"
#include "atout/declarations.hpp"
#include "atout/rng.hpp"
#include "atout/trick.hpp"

namespace atout {

// Declarations are made during the first trick (announced with a card, or shown), so there is no
// separate declaring phase.
enum class Phase : std::uint8_t { bidding, playing, match_over };
std::string to_string(Phase p);

// ---- Options -------------------------------------------------------------------------------

using OptionValue = std::variant<bool, int, std::string>;
using Options = std::map<std::string, OptionValue>;

enum class OptionType : std::uint8_t { boolean, integer, choice };

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::boolean;
  OptionValue default_value;
  std::vector<int> allowed_integers;  // integer: the allowed values (empty: a range)
  int min = 0, max = 0;               // integer range when allowed_integers is empty
  std::vector<std::string> choices;   // choice: the allowed strings
  std::string description;
  std::string source;  // where the rule comes from, in words (published rules, or a house choice)
};

// ---- Records -------------------------------------------------------------------------------

// Where each deal's cards come from: one match seed (deal i uses derive_deal_seed(seed, i)), one
// seed per deal, or explicit deck orders per deal. Explicit decks win over seeds for their deals.
struct DealSource {
  std::optional<Seed> seed;
  std::vector<Seed> seeds;
  std::vector<std::vector<Card>> decks;
};

struct RecordedAction {
  Seat seat = kNoSeat;
  Action action;
};

struct Record {
  std::string variant;
  Options options;  // as given, after defaults were filled in
  DealSource deal;
  Seat first_dealer = 0;
  // A hand record stops after this many deals; a match record leaves it empty.
  std::optional<int> hand_limit;
  std::vector<RecordedAction> actions;
};

// ---- Public views ---------------------------------------------------------------------------

struct Contract {
  Seat taker = kNoSeat;
  Trump trump{};
  int value = 0;       // the bid (coinche points, bazar tens); 0 where the variant has none
  bool capot = false;  // a capot bid
  int multiplier = 1;  // 1, 2 (doubled) or 4 (redoubled)
  Seat doubled_by = kNoSeat;
  Seat redoubled_by = kNoSeat;
};

struct DeclarationView {
  Seat seat = kNoSeat;
  ComboKind kind = ComboKind::tierce;
  Rank top = Rank::seven;
  int points = 0;
  bool shown = false;  // when shown, `cards` holds the combination's cards; else it is empty
  CardSet cards;
};

struct TeamTally {
  int card_points = 0;   // points of the cards in the tricks won, before rounding
  int last_trick = 0;    // dix de der
  int declarations = 0;  // counted declarations
  int belote = 0;
  int capot_bonus = 0;  // what capot/kaput adds on top of (or instead of) the card points
  int tricks = 0;
  int raw = 0;    // card_points + last_trick + capot_bonus + declarations + belote
  int score = 0;  // what the team adds to its match score for this hand
};

// A conceded hand is scored as played out (the rest of the cards to the other side), so it is
// reported as made or failed like any other.
enum class Outcome : std::uint8_t { made, failed, tie_held, all_passed };
std::string to_string(Outcome o);

struct HandResult {
  int hand = 0;  // deal number, from 0
  Seat dealer = kNoSeat;
  std::optional<Contract> contract;
  Outcome outcome = Outcome::all_passed;
  bool capot = false;
  int capot_team = -1;
  std::array<TeamTally, 2> teams{};
  int held_before = 0;   // points held back from earlier ties that this hand could collect
  int held_after = 0;    // points held back after this hand (carried to the next)
  int held_to = -1;      // the team that collected held points this hand, or -1
  std::string rounding;  // how raw points became match points, where the variant rounds
  std::array<int, 2> match_score{};
  std::optional<Seed> seed;  // the deal seed, where the deal came from a seed
};

struct Observation {
  std::string variant;
  Seat seat = kNoSeat;  // kNoSeat: a spectator's public view
  int players = 4;
  Phase phase = Phase::bidding;
  int hand = 0;
  Seat dealer = kNoSeat;
  Seat current = kNoSeat;
  CardSet own;  // the seat's own cards (empty for spectators)
  std::array<int, 4> hand_sizes{};
  std::optional<Card> turn_up;       // the turned-up or offered card, while public
  std::vector<RecordedAction> bids;  // this hand's bidding, in order
  std::optional<Contract> contract;
  Trick trick;                // the trick in progress
  std::vector<Trick> tricks;  // completed tricks of this hand, in order
  std::array<int, 2> tricks_won{};
  std::vector<DeclarationView> declarations;
  std::vector<Seat> belote;  // seats that announced belote / rebelote this hand
  std::array<int, 2> match_score{};
  int held_points = 0;
  std::vector<Action> legal;  // the seat's legal actions when it is to act
  // Every card this seat may know of: own cards, played cards, the public turn-up, shown
  // combinations. Tests check that nothing else appears anywhere in the observation.
  CardSet visible;
};

// ---- Steps ----------------------------------------------------------------------------------

// A deal: its number (from 0), its dealer, and the seed its cards came from (none when the record
// gave the deck order itself).
struct DealInfo {
  int hand = 0;
  Seat dealer = kNoSeat;
  std::optional<Seed> seed;
};

// What one applied action did beside itself, so a caller need not compare states before and after.
// A refused action did nothing: only `refusal` is set.
struct Step {
  Refusal refusal = Refusal::none;
  // The action as the engine applied it: the one given, except that a `take` that named no trump
  // names the trump it took (as this deal's `bids` show it).
  Action action;
  std::optional<HandResult> hand_ended;  // the hand this action finished (equal to hand_results().back())
  std::optional<DealInfo> deal_started;  // the deal that began because a hand ended and the match goes on
  bool match_ended = false;              // true on the one step that ended the match
  bool applied() const { return refusal == Refusal::none; }
};

// ---- The state ------------------------------------------------------------------------------

class State {
 public:
  virtual ~State() = default;

  virtual const Record& record() const = 0;
  virtual int players() const = 0;
  virtual Phase phase() const = 0;
  // The seat to act, or kNoSeat when the match is over.
  virtual Seat current_player() const = 0;
  virtual void legal_actions(std::vector<Action>& out) const = 0;
  std::vector<Action> legal_actions() const {
    std::vector<Action> out;
    legal_actions(out);
    return out;
  }
  // Applies `action` for `seat`. An illegal action changes nothing and returns its reason.
  virtual Refusal apply(Seat seat, const Action& action) = 0;
  Refusal apply(const Action& action) { return apply(current_player(), action); }
  // As apply, and reports what the action did: the hand it ended, the deal it started, whether it
  // ended the match.
  Step step(Seat seat, const Action& action);
  Step step(const Action& action) { return step(current_player(), action); }
  virtual bool is_terminal() const = 0;
  virtual Observation observation(Seat seat) const = 0;
  virtual std::unique_ptr<State> clone() const = 0;

  virtual std::array<int, 2> match_score() const = 0;
  // The winning team (seat % 2) once the match is over.
  virtual std::optional<int> winner() const = 0;
  virtual const std::vector<HandResult>& hand_results() const = 0;
  // The deal in progress (the last one dealt once the match is over). The default reads the public
  // view and the record; variants know it directly.
  virtual DealInfo deal() const;
  // The seed of the deal in progress, when its cards came from a seed.
  std::optional<Seed> deal_seed() const { return deal().seed; }
  // The actual cards of each seat right now (for tests and for the server's own bookkeeping;
  // never send this to a client).
  virtual std::vector<CardSet> hands() const = 0;
};

// ---- Variants -------------------------------------------------------------------------------

struct CreateError {
  std::string code;  // "unknown_variant", "bad_option", "bad_deal"
  std::string message;
  std::string option;  // with bad_option: the option at fault
};

struct VariantInfo {
  std::string id;
  std::string title;
  int players = 4;
  int deck_size = 32;
  std::vector<OptionSpec> options;
  // The trick-play knobs under completed options (for positions given outside a match).
  PlayRules (*play_rules)(const Options&) = nullptr;
  // Builds the match and deals the first hand. The record's options are complete and checked.
  std::unique_ptr<State> (*create)(const Record&) = nullptr;
};

const std::vector<VariantInfo>& variants();
const VariantInfo* find_variant(std::string_view id);

// Checks and completes `options` against the variant's specs.
std::optional<CreateError> normalise_options(const VariantInfo& info, Options& options);

struct CreateResult {
  std::unique_ptr<State> state;
  std::optional<CreateError> error;
};

// A new match from a record's header (its actions are not applied).
CreateResult create_state(const Record& header);

// A new match and every action of `record` applied in order. On the first refusal, stops and
// reports the index of that action.
struct ReplayResult {
  std::unique_ptr<State> state;
  std::optional<CreateError> error;
  std::size_t failed_index = 0;
  Refusal refusal = Refusal::none;
};
ReplayResult replay(const Record& record);

}  // namespace atout
