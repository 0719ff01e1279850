// The journal that makes tables durable: every report of a table becomes a queued write to the
// store's batching writer, so no table strand ever waits on the disk. It keeps no state of its
// own: each report carries the facts its rows need.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "atout/server/journal.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

// Milliseconds since the Unix epoch, the store's unit of time.
std::int64_t unix_ms();

class StoreJournal : public Journal {
 public:
  explicit StoreJournal(std::shared_ptr<store::Store> store);

  void match_started(const MatchOpened& m) override;
  void hand_started(const std::string& match_id, int hand, Seat dealer, const Seed& seed, const std::string& commitment,
                    std::uint64_t first_seq) override;
  void action(const std::string& match_id, std::uint64_t seq, Seat seat, const Action& action, bool by_server,
              std::optional<protocol::BotLevel> by_bot) override;
  void hand_ended(const std::string& match_id, const HandResult& result, std::uint64_t last_seq) override;
  void seat_changed(const std::string& match_id, Seat seat, const std::string& player_id) override;
  void match_ended(const std::string& match_id, std::optional<int> winner, std::array<int, 2> score,
                   MatchEnd why) override;

 private:
  // Moves a bot player's last-seen time to `now` (unix ms); anyone else is left alone.
  void touch_bot(const std::string& player_id, std::int64_t now);

  std::shared_ptr<store::Store> store_;
};

}  // namespace atout::server
