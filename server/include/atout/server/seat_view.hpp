// What each member is sent of a match: its own view of each event (cards another seat named are
// withheld), the commitment to the deal in progress, and the events a resuming member missed,
// rebuilt from the match record.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/state.hpp"

namespace atout::server {

class SeatView {
 public:
  // A client that missed more events than this gets a snapshot instead of the events.
  static constexpr std::uint64_t kMaxReplayEvents = 1024;

  // What an event carries beside the state it shows.
  struct Facts {
    std::optional<protocol::DealCommitment> deal;        // of the live hand
    std::optional<Seat> abandoned_by;                    // set once the match was abandoned
    std::optional<std::chrono::milliseconds> turn_left;  // of the live turn, when it is timed
  };

  SeatView(std::string table_id, std::string match_id);

  // The commitment to deal `d` of this match: none for a hand dealt from an explicit deck, which
  // has no seed to bind.
  std::optional<protocol::DealCommitment> commitment(const DealInfo& d) const;

  // `viewer`'s view of an event of `st`: the live state (`live`: the deal and turn of `f` apply),
  // or a replay of its record.
  protocol::Event event(const State& st, std::uint64_t seq, protocol::EventKind kind, Seat viewer,
                        const std::optional<protocol::LastAction>& last, const std::optional<HandResult>& hand_result,
                        const Facts& f, bool live) const;

  // The events after `last_seq`, up to the live event `seq`, as `viewer` saw them, rebuilt from
  // `live`'s record. None when a snapshot serves better: too many, or `last_seq` is not a seq of
  // this table's.
  std::optional<std::vector<protocol::Event>> since(const State& live, std::uint64_t seq, Seat viewer,
                                                    std::uint64_t last_seq, const Facts& f) const;

 private:
  std::string table_id_;
  std::string match_id_;
};

}  // namespace atout::server
