// What a table reports to the persistence layer. Calls come on the table's strand, in the order
// things happened; an implementation must not block (it queues work for the store's writer).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/state.hpp"

namespace atout::server {

// A match as it starts: everything needed to rebuild it by replaying its actions.
struct MatchOpened {
  std::string match_id;  // unique across restarts (random), unlike the table id
  std::string table_id;
  bool is_private = false;
  std::optional<std::string> invite;
  protocol::TableSettings settings;
  Record header;                          // variant, complete options, the secret match seed and the first dealer
  std::vector<std::string> seat_players;  // player id per seat
};

enum class MatchEnd { finished, abandoned, aborted };
std::string to_string(MatchEnd e);

// An abandoned match is lost by the side that did not come back: the other team wins, whatever
// the score says.
inline int abandon_winner(Seat abandoned_by) { return 1 - abandoned_by % 2; }

class Journal {
 public:
  virtual ~Journal() = default;
  virtual void match_started(const MatchOpened& m) = 0;
  // A hand was dealt from `seed`; `commitment` is what the table published for it. Its first
  // action will be event `first_seq`.
  virtual void hand_started(const std::string& match_id, int hand, Seat dealer, const Seed& seed,
                            const std::string& commitment, std::uint64_t first_seq) = 0;
  // An accepted action; `seq` is the table event it produced. `by_server`: played for the seat on
  // a timeout or while its player was away or disconnected. `by_bot`: the bot that chose it.
  virtual void action(const std::string& match_id, std::uint64_t seq, Seat seat, const Action& action, bool by_server,
                      std::optional<protocol::BotLevel> by_bot) = 0;
  // The hand ended with the action of event `last_seq`.
  virtual void hand_ended(const std::string& match_id, const HandResult& result, std::uint64_t last_seq) = 0;
  // Another player took over `seat` in a running match.
  virtual void seat_changed(const std::string& match_id, Seat seat, const std::string& player_id) = 0;
  // `winner` is a team (seat % 2), as the table decided it (see abandon_winner).
  virtual void match_ended(const std::string& match_id, std::optional<int> winner, std::array<int, 2> score,
                           MatchEnd why) = 0;
};

}  // namespace atout::server
