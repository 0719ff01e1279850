// Protocol v1 replies read from the store: profiles, leaderboards, match histories and replays.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atout/protocol/basics.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/requests.hpp"
#include "atout/state.hpp"

namespace atout::protocol {

struct RatingInfo {
  std::string ladder;
  double mu = 0, sigma = 0, ordinal = 0;  // ordinal = mu - 3 sigma, what is displayed and ranked
  int matches = 0;
};
struct Profile {
  std::string player_id;
  std::string name;
  std::int64_t created_at = 0;  // Unix time, milliseconds
  std::int64_t last_seen = 0;
  std::vector<RatingInfo> ratings;
};
struct LeaderboardEntry {
  int rank = 0;  // 1 is first
  std::string player_id;
  std::string name;
  RatingInfo rating;
};
struct Leaderboard {
  std::string ladder;
  Page page;
  int total = 0;  // rated players on the ladder
  std::vector<LeaderboardEntry> entries;
};
struct HistoryEntry {
  std::string match_id;
  std::string variant;
  int seat = 0;
  int team = 0;
  std::int64_t started_at = 0;
  std::optional<std::int64_t> ended_at;   // empty while the match goes on
  std::optional<std::string> end_reason;  // finished, abandoned, aborted
  std::optional<std::array<int, 2>> match_score;
  std::optional<int> winner;
};
struct History {
  std::string player_id;
  Page page;
  std::vector<HistoryEntry> matches;  // newest first
};
struct ReplaySeat {
  int seat = 0;
  int team = 0;
  std::string player_id;
  std::string name;
};
// A hand's deal, now that the match is over: the commitment published before it and its seed.
struct ReplayDeal {
  int hand = 0;
  Seat dealer = 0;
  std::string commitment;
  std::string seed;
  // How the hand ended, in the form of an event's `hand_result`; null for a hand cut short by the
  // match's end (an abandon or an abort).
  json result = nullptr;
};
// An ended match's full public record: `record` in the atout-record/1 format (with the match
// seed), so the message itself is a record that `atout replay` reads.
struct Replay {
  std::string match_id;
  std::string table_id;
  Record record;
  std::vector<ReplaySeat> seats;
  std::vector<ReplayDeal> deals;
  bool rated = false;
  std::int64_t started_at = 0;
  std::int64_t ended_at = 0;
  std::string end_reason;
  std::optional<std::array<int, 2>> match_score;
  std::optional<int> winner;
  // Per action of `record`: the bot that chose it, if one did (sent as `bot_actions`).
  std::vector<std::optional<BotLevel>> by_bot{};
};

// One card of a deal, valued with every hand known: the declaring side's final points with best
// play after it (`value`) and after the best card its seat held (`best`); `cost` is what the card
// gave away, in points of its own side.
struct PlayAnalysis {
  std::size_t action = 0;  // index of the play in the replay's actions
  Seat seat = 0;
  Card card;
  int value = 0;
  int best = 0;
  int cost = 0;
  CardSet best_cards;
};
struct Analysis {
  std::string match_id;
  int deal_number = 0;
  Seat declarer = kNoSeat;          // kNoSeat when the deal had no play
  std::vector<PlayAnalysis> plays;  // in the order played
};

json to_json(const Profile& m, const RequestId& id = {});
json to_json(const Leaderboard& m, const RequestId& id = {});
json to_json(const History& m, const RequestId& id = {});
json to_json(const Replay& m, const RequestId& id = {});
json to_json(const Analysis& m, const RequestId& id = {});

}  // namespace atout::protocol
