// A double-dummy solver for the play phase: every hand known, the exact value of every legal card.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "atout/card.hpp"
#include "atout/contract.hpp"
#include "atout/state.hpp"
#include "atout/trick.hpp"

namespace atout::bots {

// How a capot (kaput: one side takes every trick) changes that side's card points.
enum class CapotRule : std::uint8_t {
  replace,  // the side's cards and last trick are worth `capot` in all (french, duel, coinche, bazar, simple)
  add,      // `capot` is added to them (belot's kaput bonus)
};

// What the cards of one hand are worth, as the variant's scoring counts them.
struct HandValue {
  std::array<int, kCards> points{};  // by engine card index (Card::index())
  int last_trick = 10;               // dix de der
  CapotRule capot_rule = CapotRule::replace;
  int capot = 250;
};

// The variant's card values under `trump`; `options` must be complete (normalise_options).
// Returns nullopt for an unknown variant.
std::optional<HandValue> hand_value(std::string_view variant, const Options& options, Trump trump);

// A play-phase position with every hand known.
struct Position {
  Trump trump{};
  PlayRules rules{};
  HandValue value{};
  std::array<CardSet, 4> hands{};  // seats 0..rules.players-1
  Trick trick{};                   // the trick in progress (its leader set, even when empty)
  Seat current = kNoSeat;
  int declarer_team = 0;            // seat % 2 of the side whose points are maximised
  std::array<int, 2> points{};      // card points and last trick already won, by team
  std::array<int, 2> tricks_won{};  // tricks already won, by team
  int tricks_left() const;          // tricks still to complete, the one in progress included
};

// The position of a match in its play phase (nullopt in any other phase). The declarer is the
// contract's taker.
std::optional<Position> position_from(const State& state);

// The solver's own legal cards in `p` (for tests against the engine).
CardSet solver_legal(const Position& p);

// The final points of the declaring side: card points and last trick, with a capot counted as the
// variant counts it (a capot by the declarer is worth `capot` in all, or adds it).
struct CardValue {
  Card card;
  int value = 0;
};

struct Solution {
  std::vector<CardValue> cards;  // every legal card of the seat to play, in card index order
  int value = 0;                 // the value of the position (best card for the side to play)
  Card best;                     // a card of that value (the first in `cards`)
  std::uint64_t nodes = 0;       // search nodes visited
};

struct SolverOptions {
  int table_bits = 17;  // transposition table of 2^table_bits entries (8 bytes each)
  // The boundaries of the last three tricks in a table of their own, of 2^near_table_bits entries
  // (0: in the main table with the others).
  int near_table_bits = 14;
  bool use_table = true;
  bool merge_equivalent = true;
  bool bounds = true;         // cut with the remaining-points and quick-trick bounds
  bool last_two = true;       // the last two tricks by a search of their own (off: the general search)
  bool pvs = true;            // principal-variation search (off: zero-window searches halving the range)
  bool length_tricks = true;  // quick tricks count a suit's low cards once the others are out of it
  // The table keys positions that differ only in which cards of a run of equal points are left
  // (three or more cards adjacent in strength: as many left, the same hands holding them in the
  // same order) as one position.
  bool run_keys = true;
};

class Solver {
 public:
  explicit Solver(SolverOptions options = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // The value of `p` with best play by both sides. `p` must have a card left to play.
  int value(const Position& p);
  // The value of every legal card of the seat to play.
  Solution solve(const Position& p);
  // The same, given up (nullopt) once `deadline` has passed: values found by then are not exact.
  std::optional<Solution> solve(const Position& p, std::chrono::steady_clock::time_point deadline);
  // Nodes visited by the latest call.
  std::uint64_t nodes() const;

 private:
  friend CardSet solver_legal(const Position& p);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace atout::bots
