// A fake journal that records what a table reports to it, for the in-process table tests.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "atout/server/journal.hpp"

namespace atout::server::testing {

struct RecordingJournal : Journal {
  struct Hand {
    int number = 0;
    std::uint64_t first_seq = 0;
    std::optional<std::uint64_t> last_seq;
  };
  void match_started(const MatchOpened&) override { ++matches; }
  void hand_started(const std::string&, int h, Seat, const Seed&, const std::string&,
                    std::uint64_t first_seq) override {
    hands.push_back({h, first_seq, std::nullopt});
  }
  void action(const std::string&, std::uint64_t seq, Seat, const Action&, bool,
              std::optional<protocol::BotLevel> bot) override {
    seqs.push_back(seq);
    bots.push_back(bot);
  }
  void hand_ended(const std::string&, const HandResult& r, std::uint64_t last_seq) override {
    ASSERT_FALSE(hands.empty());
    EXPECT_EQ(hands.back().number, r.hand);
    hands.back().last_seq = last_seq;
  }
  void seat_changed(const std::string&, Seat, const std::string&) override {}
  void match_ended(const std::string&, std::optional<int> w, std::array<int, 2>, MatchEnd why) override {
    winner = w;
    end = why;
    ++ends;
  }

  int matches = 0;
  std::vector<std::optional<protocol::BotLevel>> bots;  // per action: the bot that chose it
  std::vector<Hand> hands;
  std::vector<std::uint64_t> seqs;
  std::optional<int> winner;
  std::optional<MatchEnd> end;
  int ends = 0;  // match_ended calls: a match ends once
};

}  // namespace atout::server::testing
