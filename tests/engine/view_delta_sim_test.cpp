// Seeded random matches of every variant, seen through per-seat deltas: at every step, for every
// seat and for a spectator, the previous view with the delta applied is exactly the full view,
// a delta shows no card that the full view does not, and the delta the server works out on the
// events' text is the same patch as the one worked out on trees.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "atout/fair_deal.hpp"
#include "atout/protocol/view_delta.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"
#include "invariants.hpp"

namespace atout {
namespace {

using protocol::json;

struct DeltaCase {
  std::string variant;
  int shard = 0;
  int games = 0;
};

void PrintTo(const DeltaCase& c, std::ostream* os) { *os << c.variant << "/" << c.shard; }

const std::string kMatchId = "m-delta-sim";

// The event a table sends `viewer` after `step` (seat_view.cpp's rules: a card played is public,
// another seat's named cards are withheld unless the viewer's observation shows them).
protocol::Event event_for(const State& s, Seat viewer, std::uint64_t seq, const std::optional<RecordedAction>& last,
                          const std::optional<HandResult>& hand_result, int turn_ms_left) {
  protocol::Event e;
  e.table_id = "t-1";
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

CardSet cards_in(const json& j) {
  CardSet out;
  sim::collect_cards(j, out);
  return out;
}

class ViewDeltaSim : public ::testing::TestWithParam<DeltaCase> {};

TEST_P(ViewDeltaSim, DeltasRebuildEveryViewAndShowNothingMore) {
  const DeltaCase& c = GetParam();
  const VariantInfo* info = nullptr;
  for (const VariantInfo& v : variants())
    if (v.id == c.variant) info = &v;
  ASSERT_NE(info, nullptr);
  // Every seat, then a spectator (kNoSeat).
  std::vector<Seat> viewers;
  for (int p = 0; p < info->players; ++p) viewers.push_back(static_cast<Seat>(p));
  viewers.push_back(kNoSeat);

  Rng policy(Seed{0xDE17Au, static_cast<std::uint64_t>(c.shard)});
  std::vector<Action> legal;
  std::size_t full_bytes = 0, delta_bytes = 0, deltas = 0, patched_keys = 0;
  // JSON Patch (RFC 6902) of the same views, for comparison, over shard 0's first games.
  std::size_t json_patch_bytes = 0, merge_patch_bytes = 0;
  for (int g = 0; g < c.games; ++g) {
    Record header;
    header.variant = c.variant;
    header.deal.seed = Seed{0xDE17Au + static_cast<std::uint64_t>(c.shard), static_cast<std::uint64_t>(g)};
    header.first_dealer = static_cast<Seat>(g % 2);
    CreateResult created = create_state(header);
    ASSERT_TRUE(created.state) << created.error->message;
    State& s = *created.state;
    // What each viewer holds: its view rebuilt from the start event and every delta since.
    std::vector<json> rebuilt;
    std::vector<protocol::ViewText> last_text;
    for (Seat v : viewers) {
      const protocol::Event start = event_for(s, v, 1, std::nullopt, std::nullopt, 30000);
      rebuilt.push_back(protocol::event_view(start));
      last_text.emplace_back(std::make_shared<const std::string>(protocol::serialize(start)));
    }
    for (std::uint64_t seq = 2; !s.is_terminal(); ++seq) {
      s.legal_actions(legal);
      ASSERT_FALSE(legal.empty());
      const Seat actor = s.current_player();
      const Step step = s.step(actor, legal[policy.below(static_cast<std::uint32_t>(legal.size()))]);
      ASSERT_TRUE(step.applied());
      const int turn_left = 30000 - static_cast<int>(policy.below(5000));
      for (std::size_t i = 0; i < viewers.size(); ++i) {
        const protocol::Event e =
            event_for(s, viewers[i], seq, RecordedAction{actor, step.action}, step.hand_ended, turn_left);
        const json full = protocol::event_view(e);
        const json patch = protocol::view_delta(rebuilt[i], full);
        protocol::ViewText text(std::make_shared<const std::string>(protocol::serialize(e)));
        ASSERT_EQ(protocol::view_delta(last_text[i], text), patch)
            << c.variant << " game " << g << " seq " << seq << " viewer " << int{viewers[i]};
        // The message the server sends, written on text: the tree's, byte for byte.
        ASSERT_EQ(protocol::serialize_delta(last_text[i], text, e.table_id, e.seq, e.seq - 1, e.id),
                  protocol::serialize(protocol::Delta{e.table_id, e.seq, e.seq - 1, patch, e.id}))
            << c.variant << " game " << g << " seq " << seq << " viewer " << int{viewers[i]};
        last_text[i] = std::move(text);
        const auto next = protocol::apply_view_delta(rebuilt[i], patch);
        ASSERT_TRUE(next.has_value());
        ASSERT_EQ(*next, full) << c.variant << " game " << g << " seq " << seq << " viewer " << int{viewers[i]}
                               << "\npatch " << patch.dump();
        const CardSet leaked = cards_in(patch) - cards_in(full);
        ASSERT_TRUE(leaked.empty()) << "the delta shows " << to_string(leaked) << " that the full view does not";
        full_bytes += protocol::serialize(e).size();
        delta_bytes += protocol::serialize(protocol::Delta{e.table_id, e.seq, e.seq - 1, patch, {}}).size();
        patched_keys += patch.size();
        if (c.shard == 0 && g < 5) {
          json_patch_bytes += json::diff(rebuilt[i], full).dump().size();
          merge_patch_bytes += patch.dump().size();
        }
        rebuilt[i] = std::move(*next);
        ++deltas;
      }
    }
  }
  ASSERT_GT(deltas, 0u);
  // Nothing to send would mean nothing was compared.
  EXPECT_GT(patched_keys, deltas);
  std::cout << c.variant << ": " << deltas << " events, full " << full_bytes / deltas << " B, delta "
            << delta_bytes / deltas << " B each; over shard 0's first games, merge patches " << merge_patch_bytes
            << " B, JSON Patch " << json_patch_bytes << " B\n";
}

std::vector<DeltaCase> delta_cases() {
  std::vector<DeltaCase> v;
  // 1,000 matches per variant: a small shard 0 of 3 (it also runs under the sanitizers, where a
  // match takes seconds), then eight of 110 and one of 117.
  for (const VariantInfo& info : variants())
    for (int shard = 0; shard < 10; ++shard) v.push_back({info.id, shard, shard == 0 ? 3 : shard == 9 ? 117 : 110});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shards, ViewDeltaSim, ::testing::ValuesIn(delta_cases()),
                         [](const auto& p) { return p.param.variant + "_" + std::to_string(p.param.shard); });

}  // namespace
}  // namespace atout
