// Bytes sent per action, full views against per-seat deltas (docs/protocol.md, Deltas), over
// seeded random matches: every action's event for each seat (and, apart, for a spectator), as
// the server writes it whole (serialize(Event)) and as a `delta` message from that recipient's
// previous event. Also the size of a JSON Patch (RFC 6902) of the same views, and the time to make
// a delta twice: worked out on trees (the first way, the baseline) and on the events' text (the
// server's way), which must give the same bytes. Prints one line per run and a JSON summary; with
// a fourth argument N, first the first N seat deltas of the first run, each after the full event
// it stands for. Each event carries the whole turn as `turn_ms_left`, as a live table's do; a
// fifth argument `random-turns` draws a time for each action instead.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "atout/fair_deal.hpp"
#include "atout/protocol/view_delta.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

namespace {

using namespace atout;
using protocol::json;

const std::string kMatchId = "0123456789abcdef0123456789abcdef";

// The event a table sends `viewer` (as server/src/seat_view.cpp makes it).
protocol::Event event_for(const State& s, Seat viewer, std::uint64_t seq, const std::optional<RecordedAction>& last,
                          const std::optional<HandResult>& hand_result, int turn_ms_left) {
  protocol::Event e;
  e.table_id = "t123";
  e.seq = seq;
  e.kind = last ? protocol::EventKind::action : protocol::EventKind::start;
  e.observation = s.observation(viewer);
  if (!s.is_terminal()) {
    const DealInfo d = s.deal();
    if (d.seed) e.deal = protocol::DealCommitment{kMatchId, d.hand, deal_commitment(*d.seed, kMatchId, d.hand)};
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
  return e;
}

struct Totals {
  std::uint64_t actions = 0;
  std::uint64_t seat_full = 0, seat_delta = 0, seat_json_patch = 0;  // the seats' events
  std::uint64_t watch_full = 0, watch_delta = 0;                     // one spectator's
  double delta_us = 0;       // making each delta on trees (view tree, diff, text)
  double text_delta_us = 0;  // the same delta on text, as the server makes it (event text, split, diff)
  std::uint64_t deltas = 0;
};

Totals run(const std::string& variant, int matches, std::uint64_t seed, int dump, bool random_turns) {
  Totals t;
  Rng policy(Seed{0xB17E5, seed});
  std::vector<Action> legal;
  for (int m = 0; m < matches; ++m) {
    Record header;
    header.variant = variant;
    header.deal.seed = Seed{seed, static_cast<std::uint64_t>(m)};
    auto created = create_state(header);
    if (!created.state) {
      std::fprintf(stderr, "delta_bench: %s\n", created.error->message.c_str());
      std::exit(2);
    }
    State& s = *created.state;
    std::vector<Seat> viewers;
    for (int v = 0; v < s.players(); ++v) viewers.push_back(static_cast<Seat>(v));
    viewers.push_back(kNoSeat);
    std::vector<json> last;
    std::vector<protocol::ViewText> last_text;
    for (Seat v : viewers) {
      const protocol::Event first = event_for(s, v, 1, std::nullopt, std::nullopt, 30000);
      last.push_back(protocol::event_view(first));
      last_text.emplace_back(std::make_shared<const std::string>(protocol::serialize(first)));
    }
    for (std::uint64_t seq = 2; !s.is_terminal(); ++seq) {
      s.legal_actions(legal);
      const Seat actor = s.current_player();
      const Step step = s.step(actor, legal[policy.below(static_cast<std::uint32_t>(legal.size()))]);
      // A live table starts the next turn before it sends an action's event, so the event carries
      // the whole turn (the time between is under a millisecond); with `random_turns`, a time
      // drawn anew for every action instead, as an event sent mid-turn would carry.
      const int turn_left = random_turns ? 30000 - static_cast<int>(policy.below(5000)) : 29999;
      ++t.actions;
      for (std::size_t i = 0; i < viewers.size(); ++i) {
        const protocol::Event e =
            event_for(s, viewers[i], seq, RecordedAction{actor, step.action}, step.hand_ended, turn_left);
        const std::size_t full = protocol::serialize(e).size();
        // On trees (the baseline): the view built as a tree, compared with the last one. On text, as
        // the server makes it: the event written, split, and compared with the last text. The two
        // take turns going first, so that neither always finds the other's work in the cache.
        json view, patch;
        std::string delta, text_delta;
        std::optional<protocol::ViewText> text;
        const auto on_trees = [&] {
          const auto start = std::chrono::steady_clock::now();
          view = protocol::event_view(e);
          delta =
              protocol::serialize(protocol::Delta{e.table_id, seq, seq - 1, protocol::view_delta(last[i], view), {}});
          t.delta_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        };
        const auto on_text = [&] {
          const auto start = std::chrono::steady_clock::now();
          text.emplace(std::make_shared<const std::string>(protocol::serialize(e)));
          text_delta = protocol::serialize_delta(last_text[i], *text, e.table_id, seq, seq - 1, {});
          t.text_delta_us +=
              std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        };
        if ((seq + i) % 2 == 0) {
          on_trees();
          on_text();
        } else {
          on_text();
          on_trees();
        }
        if (text_delta != delta) {
          std::fprintf(stderr, "delta_bench: the text delta differs from the tree's\n%s\n%s\n", delta.c_str(),
                       text_delta.c_str());
          std::exit(1);
        }
        last_text[i] = std::move(*text);
        patch = protocol::view_delta(last[i], view);  // again, untimed, for the sizes below
        const std::size_t patch_size = patch.dump().size();
        if (dump > 0 && viewers[i] != kNoSeat) {
          --dump;
          std::printf("full  %s\ndelta %s\n", protocol::serialize(e).c_str(), delta.c_str());
        }
        ++t.deltas;
        if (viewers[i] == kNoSeat) {
          t.watch_full += full;
          t.watch_delta += delta.size();
        } else {
          t.seat_full += full;
          t.seat_delta += delta.size();
          // The same message with a JSON Patch under a "patch" key in place of the merge patch's keys
          // (the patch's text without its braces).
          t.seat_json_patch +=
              delta.size() - (patch_size - 2) + std::strlen(R"(,"patch":)") + json::diff(last[i], view).dump().size();
        }
        last[i] = std::move(view);
      }
    }
  }
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "french";
  const int matches = argc > 2 ? std::atoi(argv[2]) : 200;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
  const int dump = argc > 4 ? std::atoi(argv[4]) : 0;
  const bool random_turns = argc > 5 && std::string(argv[5]) == "random-turns";
  if (matches <= 0 || runs <= 0) {
    std::fprintf(stderr,
                 "usage: atout_delta_bench [variant] [matches per run] [runs] [deltas to print] [random-turns]\n");
    return 2;
  }
  std::vector<double> full, delta, ratio, watch_ratio, us, text_us, json_patch;
  for (int r = 0; r < runs; ++r) {
    const Totals t = run(variant, matches, static_cast<std::uint64_t>(r + 1), r == 0 ? dump : 0, random_turns);
    const double a = static_cast<double>(t.actions);
    full.push_back(static_cast<double>(t.seat_full) / a);
    delta.push_back(static_cast<double>(t.seat_delta) / a);
    ratio.push_back(static_cast<double>(t.seat_delta) / static_cast<double>(t.seat_full));
    watch_ratio.push_back(static_cast<double>(t.watch_delta) / static_cast<double>(t.watch_full));
    us.push_back(t.delta_us / static_cast<double>(t.deltas));
    text_us.push_back(t.text_delta_us / static_cast<double>(t.deltas));
    json_patch.push_back(static_cast<double>(t.seat_json_patch) / a);
    std::printf(
        "run %d: %llu actions; per action to the seats: full %.0f B, deltas %.0f B (%.3f), JSON Patch %.0f B; "
        "spectator %.3f; %.1f us per delta on trees, %.1f us on text\n",
        r + 1, static_cast<unsigned long long>(t.actions), full.back(), delta.back(), ratio.back(), json_patch.back(),
        watch_ratio.back(), us.back(), text_us.back());
  }
  const json summary = {{"variant", variant},
                        {"matches_per_run", matches},
                        {"runs", runs},
                        {"full_bytes_per_action", median(full)},
                        {"delta_bytes_per_action", median(delta)},
                        {"ratio", median(ratio)},
                        {"spectator_ratio", median(watch_ratio)},
                        {"json_patch_bytes_per_action", median(json_patch)},
                        {"us_per_delta", median(us)},
                        {"us_per_text_delta", median(text_us)},
                        {"turn_ms_left", random_turns ? "random" : "whole turn"}};
  std::printf("%s\n", summary.dump().c_str());
  return 0;
}
