// Writes the seed corpora of the recovery and delta fuzz targets from seeded random matches of
// every variant: stored matches as the store keeps them (tests/fuzz/corpus/recovery/), and pairs of
// real per-seat views (tests/fuzz/corpus/delta/). Not part of the test suite; run by hand after a
// change to the formats:
//   cmake --build build/dev --target atout_fuzz_seeds && build/dev/tests/fuzz/atout_fuzz_seeds tests/fuzz/corpus
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atout/fair_deal.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/protocol/view_delta.hpp"
#include "atout/rng.hpp"
#include "atout/server/seat_view.hpp"
#include "atout/server/stored_match.hpp"
#include "atout/state.hpp"

namespace {

using namespace atout;
using protocol::json;
namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

std::string pad(int n) { return (n < 10 ? "0" : "") + std::to_string(n); }

struct Played {
  Record header;
  std::unique_ptr<State> state;
  std::vector<RecordedAction> actions;
};

// A match of `variant` played for at most `steps` random legal actions.
Played play(const std::string& variant, std::uint64_t game, int steps) {
  Played p;
  p.header.variant = variant;
  p.header.deal.seed = Seed{0xF022u, game};
  p.header.first_dealer = static_cast<Seat>(game % 2);
  CreateResult created = create_state(p.header);
  if (!created.state) throw std::runtime_error(created.error->message);
  p.state = std::move(created.state);
  Rng rng(Seed{0x5EEDu, game});
  for (int i = 0; i < steps && !p.state->is_terminal(); ++i) {
    const auto legal = p.state->legal_actions();
    const Seat seat = p.state->current_player();
    const Step step = p.state->step(seat, legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    p.actions.push_back({seat, step.action});
  }
  return p;
}

// A stored match in recovery_fuzz.cpp's input format. `restart_after`: the log's runs (seqs go on
// from the next run after that many actions).
std::string stored(const Played& p, bool is_private, std::optional<int> restart_after) {
  protocol::TableSettings settings;
  settings.turn_ms = 20'000;
  std::string out = p.header.variant + "\n" + protocol::to_json(p.state->record().options).dump() + "\n" +
                    p.header.deal.seed->hex() + "\n" + std::to_string(p.header.first_dealer) + "\n";
  for (int seat = 0; seat < p.state->players(); ++seat) out += (seat ? " " : "") + std::to_string(seat);
  out += "\n" +
         server::table_json(is_private, is_private ? std::optional<std::string>("K7PQ2M") : std::nullopt, settings) +
         "\n";
  std::uint64_t seq = 1;
  for (std::size_t i = 0; i < p.actions.size(); ++i) {
    seq = restart_after && static_cast<int>(i) == *restart_after ? server::SeatView::restart_seq(seq) + 1 : seq + 1;
    out += std::to_string(seq) + " " + std::to_string(p.actions[i].seat) + " " +
           protocol::action_text(p.actions[i].action, i % 7 == 3) + "\n";
  }
  return out;
}

// What `viewer` is sent after `last` (as a table sends it: another seat's named cards withheld).
json view(const State& s, Seat viewer, const std::optional<RecordedAction>& last,
          const std::optional<HandResult>& hand_result, int turn_ms_left) {
  protocol::Event e;
  e.table_id = "t1";
  e.kind = last ? protocol::EventKind::action : protocol::EventKind::start;
  e.observation = s.observation(viewer);
  if (!s.is_terminal()) {
    const DealInfo d = s.deal();
    if (d.seed) e.deal = protocol::DealCommitment{"m-seeds", d.hand, deal_commitment(*d.seed, "m-seeds", d.hand)};
    e.turn_ms_left = turn_ms_left;
  }
  if (last) {
    e.last = protocol::LastAction{last->seat, last->action, false, false, std::nullopt};
    if (last->seat != viewer && !(last->action.cards - e.observation.visible).empty()) {
      e.last->action.cards = CardSet{};
      e.last->redacted = true;
    }
  }
  e.hand_result = hand_result;
  if (s.is_terminal())
    e.match_result = protocol::MatchResult{s.winner().value_or(-1), s.match_score(), s.hand_results()};
  return protocol::event_view(e);
}

void recovery_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  int n = 0;
  std::uint64_t game = 1;
  for (const VariantInfo& v : variants()) {
    // A short log, a longer one from two runs (a restart), and a private table.
    write(dir / (pad(n++) + "-" + v.id + "-short.txt"), stored(play(v.id, game++, 6), false, std::nullopt));
    write(dir / (pad(n++) + "-" + v.id + "-restarted.txt"), stored(play(v.id, game++, 60), false, 25));
    write(dir / (pad(n++) + "-" + v.id + "-private.txt"), stored(play(v.id, game++, 20), true, std::nullopt));
  }
  // A log that reached the end of a match, and one that is only its header.
  for (std::uint64_t g = 100; g < 200; ++g) {
    Played p = play("duel", g, 100000);
    const std::string text = stored(p, false, std::nullopt);
    if (text.size() > 12000) continue;
    write(dir / (pad(n++) + "-duel-finished.txt"), text);
    break;
  }
  write(dir / (pad(n++) + "-french-header-only.txt"), stored(play("french", game++, 0), false, std::nullopt));
}

void delta_seeds(const fs::path& dir) {
  fs::create_directories(dir);
  int n = 0;
  std::uint64_t game = 50;
  for (const VariantInfo& v : variants()) {
    Played p = play(v.id, game++, 0);
    State& s = *p.state;
    Rng rng(Seed{0xD17Au, game});
    const Seat viewer = static_cast<Seat>(game % static_cast<std::uint64_t>(s.players()));
    json previous = view(s, viewer, std::nullopt, std::nullopt, 30'000);
    // Pairs at a few steps: the start, a bid, a card played, and a hand's end when one comes.
    int written = 0;
    for (int step = 0; written < 4 && step < 400 && !s.is_terminal(); ++step) {
      const auto legal = s.legal_actions();
      const Seat actor = s.current_player();
      const Step st = s.step(actor, legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
      const json next = view(s, viewer, RecordedAction{actor, st.action}, st.hand_ended, 29'000 - step);
      if (step == 0 || step == 5 || step == 40 || st.hand_ended) {
        const std::string base = pad(n++) + "-" + v.id + "-" + std::to_string(step);
        // The next view itself, and the delta that turns the previous view into it.
        write(dir / (base + "-views.json"), previous.dump() + "\n" + next.dump());
        write(dir / (base + "-delta.json"), previous.dump() + "\n" + protocol::view_delta(previous, next).dump());
        ++written;
      }
      previous = next;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: atout_fuzz_seeds <corpus directory>\n";
    return 2;
  }
  try {
    recovery_seeds(fs::path(argv[1]) / "recovery");
    delta_seeds(fs::path(argv[1]) / "delta");
  } catch (const std::exception& e) {
    std::cerr << "atout_fuzz_seeds: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
