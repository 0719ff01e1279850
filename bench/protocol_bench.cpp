// The wire's hot path: one event per recipient of every accepted action. Compares writing an
// event straight to text (serialize(Event)) with building its nlohmann tree and dumping it, on
// the events of random French matches (every seat, every step), and times the engine's
// observation that each event starts from.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "atout/protocol/messages.hpp"
#include "atout/rng.hpp"

namespace {
using namespace atout;

struct Sample {
  std::vector<protocol::Event> events;
  std::vector<std::unique_ptr<State>> states;  // a state per event, with the event's seat
  std::vector<Seat> seats;
};

const Sample& sample() {
  static const Sample s = [] {
    Sample out;
    Rng policy(Seed{5, 6});
    std::vector<Action> legal;
    for (std::uint64_t m = 0; out.events.size() < 4096; ++m) {
      Record header;
      header.variant = "french";
      header.deal.seed = Seed{7, m};
      auto state = create_state(header).state;
      for (int step = 0; step < 120 && !state->is_terminal(); ++step) {
        for (Seat seat = 0; seat < 4; ++seat) {
          protocol::Event e;
          e.table_id = "t0123456789abcdef";
          e.seq = static_cast<std::uint64_t>(step + 1);
          e.observation = state->observation(seat);
          e.deal =
              protocol::DealCommitment{"0123456789abcdef0123456789abcdef", e.observation.hand, std::string(64, 'c')};
          e.turn_ms_left = 30000;
          out.events.push_back(std::move(e));
          out.states.push_back(state->clone());
          out.seats.push_back(seat);
        }
        state->legal_actions(legal);
        const Seat actor = state->current_player();
        const Action a = legal[policy.below(static_cast<std::uint32_t>(legal.size()))];
        state->apply(a);
        for (std::size_t i = out.events.size() - 4; i < out.events.size(); ++i)
          out.events[i].last = protocol::LastAction{actor, a, false, false};
      }
    }
    return out;
  }();
  return s;
}

template <typename Write>
void run(benchmark::State& state, Write write) {
  const auto& events = sample().events;
  std::size_t k = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    const std::string text = write(events[k++ % events.size()]);
    bytes += static_cast<std::int64_t>(text.size());
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
}

void BM_EventTree(benchmark::State& state) {
  run(state, [](const protocol::Event& e) {
    return protocol::to_json(e).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  });
}
BENCHMARK(BM_EventTree);

void BM_EventText(benchmark::State& state) {
  run(state, [](const protocol::Event& e) { return protocol::serialize(e); });
}
BENCHMARK(BM_EventText);

void BM_Observation(benchmark::State& state) {
  const Sample& s = sample();
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t i = k++ % s.states.size();
    const Observation o = s.states[i]->observation(s.seats[i]);
    benchmark::DoNotOptimize(o.legal.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Observation);

}  // namespace

BENCHMARK_MAIN();
