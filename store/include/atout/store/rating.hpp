// OpenSkill ratings: the Weng-Lin Bayesian model with Plackett-Luce ranking, as openskill.js has it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace atout::store {

struct RatingModel {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;
  double tau = 25.0 / 300.0;  // added to sigma before each update, so ratings never freeze
  double epsilon = 0.0001;    // floor of the sigma shrink factor
};

struct Rating {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  // What is displayed and ranked: a conservative estimate, mu - 3 sigma.
  double ordinal() const { return mu - 3.0 * sigma; }
};

// New ratings after one match. `teams[i]` are the players of team i; `ranks[i]` its place (1 is
// first; equal ranks are a draw). Teams of two keep individual ratings: each player moves by its
// share of the team's variance.
std::vector<std::vector<Rating>> rate(const std::vector<std::vector<Rating>>& teams, const std::vector<int>& ranks,
                                      const RatingModel& model = {});

// One seat of a rated match as the store reads it: its team, its player, and the player's rating
// and match count on the match's ladder before the match.
struct SeatRating {
  int team = 0;
  std::int64_t player = 0;
  Rating rating;
  int matches = 0;
};

// The seats' ratings after a two-team match, in the order of `seats`. `winner` is the winning
// team, or none for a draw. Fails with a reason (and leaves `after` empty) when a seat's team is
// not 0 or 1, or a team has no seat: such a match is not rated.
std::optional<std::string> rate_match(const std::vector<SeatRating>& seats, std::optional<int> winner,
                                      std::vector<Rating>& after, const RatingModel& model = {});

// Which seats' new ratings a rated match writes, in the order of `seats`: each player's once. A
// server bot may hold several seats: on one side, its first seat there is written; on both sides
// (a person's partner and both opponents), it is rated with the side where it holds more seats,
// whose result is the person's against it, and not at all when it holds as many on each side.
// Every seat still counts in its side's strength when the others are rated.
std::vector<bool> seats_to_write(const std::vector<SeatRating>& seats);

}  // namespace atout::store
