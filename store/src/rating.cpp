// Weng-Lin Plackett-Luce (Weng & Lin 2011, algorithm 4), checked against openskill.js's test values.
#include "atout/store/rating.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace atout::store {

std::vector<std::vector<Rating>> rate(const std::vector<std::vector<Rating>>& teams_in, const std::vector<int>& ranks,
                                      const RatingModel& model) {
  const std::size_t n = teams_in.size();
  std::vector<std::vector<Rating>> teams = teams_in;
  for (auto& team : teams)
    for (Rating& r : team) r.sigma = std::sqrt(r.sigma * r.sigma + model.tau * model.tau);

  std::vector<double> mu(n), sigma_sq(n);
  double c_sq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (const Rating& r : teams[i]) {
      mu[i] += r.mu;
      sigma_sq[i] += r.sigma * r.sigma;
    }
    c_sq += sigma_sq[i] + model.beta * model.beta;
  }
  const double c = std::sqrt(c_sq);
  std::vector<double> exp_mu(n), sum_q(n), a(n);
  for (std::size_t i = 0; i < n; ++i) exp_mu[i] = std::exp(mu[i] / c);
  for (std::size_t q = 0; q < n; ++q)
    for (std::size_t i = 0; i < n; ++i) {
      if (ranks[i] >= ranks[q]) sum_q[q] += exp_mu[i];
      if (ranks[i] == ranks[q]) a[q] += 1;
    }

  std::vector<std::vector<Rating>> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    double omega = 0, delta = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (ranks[q] > ranks[i]) continue;
      const double quotient = exp_mu[i] / sum_q[q];
      omega += ((i == q ? 1.0 : 0.0) - quotient) / a[q];
      delta += quotient * (1 - quotient) / a[q];
    }
    const double gamma = std::sqrt(sigma_sq[i]) / c;
    const double team_omega = omega * sigma_sq[i] / c;
    const double team_delta = gamma * delta * sigma_sq[i] / c_sq;
    for (const Rating& r : teams[i]) {
      const double share = r.sigma * r.sigma / sigma_sq[i];
      Rating nr;
      nr.mu = r.mu + share * team_omega;
      nr.sigma = r.sigma * std::sqrt(std::max(1 - share * team_delta, model.epsilon));
      out[i].push_back(nr);
    }
  }
  return out;
}

std::optional<std::string> rate_match(const std::vector<SeatRating>& seats, std::optional<int> winner,
                                      std::vector<Rating>& after, const RatingModel& model) {
  after.clear();
  std::vector<std::vector<Rating>> teams(2);
  for (const SeatRating& s : seats) {
    if (s.team < 0 || s.team > 1) return "has a seat in team " + std::to_string(s.team);
    teams[static_cast<std::size_t>(s.team)].push_back(s.rating);
  }
  if (teams[0].empty() || teams[1].empty()) return "lacks a team";
  std::vector<int> ranks = {1, 1};  // no winner: a draw
  if (winner) ranks = {*winner == 0 ? 1 : 2, *winner == 1 ? 1 : 2};
  const auto updated = rate(teams, ranks, model);
  std::array<std::size_t, 2> next{};
  for (const SeatRating& s : seats) {
    const auto t = static_cast<std::size_t>(s.team);
    after.push_back(updated[t][next[t]++]);
  }
  return std::nullopt;
}

std::vector<bool> seats_to_write(const std::vector<SeatRating>& seats) {
  std::vector<bool> out(seats.size(), false);
  for (std::size_t i = 0; i < seats.size(); ++i) {
    std::array<int, 2> held{};
    std::optional<std::size_t> first_of_team[2];
    for (std::size_t j = 0; j < seats.size(); ++j) {
      if (seats[j].player != seats[i].player || seats[j].team < 0 || seats[j].team > 1) continue;
      const auto t = static_cast<std::size_t>(seats[j].team);
      ++held[t];
      if (!first_of_team[t]) first_of_team[t] = j;
    }
    if (held[0] == held[1]) continue;  // as many seats on each side (never 0 and 0: seat i is one)
    const std::size_t side = held[0] > held[1] ? 0 : 1;
    out[i] = first_of_team[side] == i;
  }
  return out;
}

}  // namespace atout::store
