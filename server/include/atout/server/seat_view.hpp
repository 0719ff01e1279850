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
  // Event seqs: the start event is 1 and each accepted action's event the next. A table rebuilt
  // after a restart goes on from the next multiple of this, so a seq names one event forever:
  // events sent before a crash whose actions the store had not kept are never named again.
  static constexpr std::uint64_t kSeqsPerRun = std::uint64_t{1} << 32;
  // The seq a table rebuilt from a log whose last event was `last` starts at (its snapshot's).
  static std::uint64_t restart_seq(std::uint64_t last) { return (last / kSeqsPerRun + 1) * kSeqsPerRun; }

  // What the match record does not say of each accepted action: its event's seq, and whether the
  // server played it for the seat. One entry per recorded action, seqs increasing.
  struct ActionLog {
    std::vector<std::uint64_t> seqs;
    std::vector<bool> by_server;
    std::vector<std::optional<protocol::BotLevel>> by_bot{};  // the bot that chose it
    void add(std::uint64_t seq, bool server, std::optional<protocol::BotLevel> bot = std::nullopt) {
      seqs.push_back(seq);
      by_server.push_back(server);
      by_bot.push_back(bot);
    }
  };

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

  // The events after `last_seq`, up to the table's current `seq`, as `viewer` saw them, rebuilt
  // from `live`'s record and `log`, each marked `replayed`. Only an event that is still the
  // current one keeps its legal actions. None when a snapshot serves better: too many, or
  // `last_seq` is not a seq this table issued (say, an event a crash lost).
  std::optional<std::vector<protocol::Event>> since(const State& live, std::uint64_t seq, Seat viewer,
                                                    std::uint64_t last_seq, const Facts& f, const ActionLog& log) const;

 private:
  std::string table_id_;
  std::string match_id_;
};

}  // namespace atout::server
