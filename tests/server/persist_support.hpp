// Helpers for the persistence tests: tables played seat by seat through real connections, and
// looks into the database the way an operator would (read-only, beside a running server).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "atout/rng.hpp"
#include "test_client.hpp"

namespace atout::server::testing {

// A fresh directory under the system's temporary directory, removed afterwards.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct SeatPlayer {
  std::unique_ptr<TestClient> client;
  std::string player_id;
  std::string name;
  std::string token;
};

// One table played by one connection per seat.
struct TableRun {
  std::string variant;
  std::string table_id;
  std::string match_id;
  std::optional<std::string> invite;
  std::vector<SeatPlayer> seats;
  std::uint64_t seq = 0;         // the last event every seat has seen
  std::vector<json> last;        // each seat's last event
  std::vector<json> sent;        // the acknowledged actions, in order, each with its "seat"
  std::optional<json> result;    // the match_result, once over
  std::string first_commitment;  // of hand 0, as the start event showed it
};

// Creates a table of `variant` (with `options`), seats one new guest per seat and waits for the
// start event. Fails the test (and returns a run with no table id) on any deviation.
TableRun open_table(unsigned short port, const std::string& variant, const json& options, bool is_private,
                    const std::string& name_prefix, MessageLog* log);
// Waits until every seat has seen event `seq`.
bool sync(TableRun& t, std::uint64_t seq);
// The seat to act takes one of its legal actions (chosen by `rng`); true when it was accepted
// and every seat saw its event.
bool step(TableRun& t, Rng& rng);
// Reconnects every seat with its token and sits again in the seat held for it (through the
// invite for a private table); the seats' snapshots set `seq` and `last`.
bool resume(TableRun& t, unsigned short port, MessageLog* log);

// Read-only looks into the database file.
std::int64_t stored_action_count(const std::string& db, const std::string& match_id);
std::string db_text(const std::string& db, const std::string& sql);
// The match's end_reason, or "" while it runs.
std::string end_reason(const std::string& db, const std::string& match_id);
// Polls `pred` every 5 ms until it holds or `limit` passes (writes reach the store on the
// writer's thread, shortly after they are queued); its last answer.
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = std::chrono::seconds(10));

// Runs `atout replay -` on `record`; the parsed result, or {"error": output} when it failed.
json run_atout_replay(const json& record);

}  // namespace atout::server::testing
