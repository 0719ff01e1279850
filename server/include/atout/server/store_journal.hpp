// The journal that makes tables durable: every report of a table becomes a queued write to the
// store's batching writer, so no table strand ever waits on the disk.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "atout/server/journal.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

// Milliseconds since the Unix epoch, the store's unit of time.
std::int64_t unix_ms();

class store_journal : public journal {
 public:
  explicit store_journal(std::shared_ptr<store::Store> store);

  // A match rebuilt at start-up continues from event `last_seq`; hands below `next_hand` are
  // already in the store.
  void resumed(const std::string& match_id, std::uint64_t last_seq, int next_hand);

  void match_started(const match_opened& m) override;
  void hand_started(const std::string& match_id, int hand, Seat dealer, const Seed& seed,
                    const std::string& commitment) override;
  void action(const std::string& match_id, std::uint64_t seq, Seat seat, const Action& action, bool by_server) override;
  void hand_ended(const std::string& match_id, const HandResult& result) override;
  void seat_changed(const std::string& match_id, Seat seat, const std::string& player_id) override;
  void match_ended(const std::string& match_id, std::optional<int> winner, std::array<int, 2> score, match_end why,
                   std::optional<Seat> abandoned_by) override;

 private:
  // What the store's rows need that the reports do not carry: where each hand's actions start.
  struct live {
    std::uint64_t last_seq = 1;  // the start event is seq 1
    int next_hand = 0;
  };

  std::shared_ptr<store::Store> store_;
  // Tables report from their own strands; this small map is all they share here.
  std::mutex mutex_;
  std::unordered_map<std::string, live> live_;
};

}  // namespace atout::server
