// serialize(Event) and action_text(Action) write straight to text (protocol/src/event_text.cpp).
// They must give the very bytes the nlohmann form gives: for every observation any seat or
// spectator can receive, and every action taken, in seeded random matches of every variant under
// every choice option, checked at every step.
#include <gtest/gtest.h>

#include <iostream>

#include "atout/protocol/messages.hpp"
#include "atout/rng.hpp"

namespace atout::protocol {
namespace {

std::string tree_text(const Event& e) { return to_json(e).dump(-1, ' ', false, json::error_handler_t::replace); }

// Each variant with its default options, then with each value of each choice option.
std::vector<std::pair<std::string, Options>> configurations() {
  std::vector<std::pair<std::string, Options>> out;
  for (const VariantInfo& v : variants()) {
    out.emplace_back(v.id, Options{});
    for (const OptionSpec& o : v.options)
      if (o.type == OptionType::choice)
        for (const std::string& c : o.choices) out.emplace_back(v.id, Options{{o.name, c}});
  }
  return out;
}

struct Counts {
  std::size_t actions = 0, events = 0, with_id = 0, with_hand_result = 0, with_match_result = 0, redacted = 0, bids = 0,
              shown = 0;
};

void play_and_compare(const std::string& variant, const Options& options, std::uint64_t game, Counts& n) {
  Record header;
  header.variant = variant;
  header.options = options;
  header.deal.seed = Seed{0xE7E47u, game};
  header.first_dealer = static_cast<Seat>(game % 2);
  CreateResult created = create_state(header);
  ASSERT_TRUE(created.state) << created.error->message;
  State& s = *created.state;
  Rng rng(Seed{0xE7E47u + 1, game});
  std::vector<Action> legal;
  std::optional<LastAction> last;
  std::optional<HandResult> ended;
  for (std::uint64_t seq = 1;; ++seq) {
    const bool over = s.is_terminal();
    for (int viewer = -1; viewer < s.players(); ++viewer) {
      Event e;
      e.table_id = "t" + std::to_string(game);
      e.seq = seq;
      e.kind = seq == 1 ? EventKind::start : static_cast<EventKind>(rng.below(4));
      e.last = last;
      if (e.last && rng.below(3) == 0) e.last->redacted = true;
      e.observation = s.observation(static_cast<Seat>(viewer));
      if (!over && rng.below(2) == 0)
        e.deal = DealCommitment{"m" + std::to_string(game), e.observation.hand, std::string(64, 'a')};
      if (!over && rng.below(2) == 0) e.turn_ms_left = static_cast<int>(rng.below(600001));
      if (rng.below(3) == 0) e.replayed = true;
      e.hand_result = ended;
      // The actor's own event under `ack: "event"` carries its request id, a number or a string.
      switch (rng.below(4)) {
        case 0:
          e.id = static_cast<std::int64_t>(rng.below(1'000'000)) - 500'000;
          break;
        case 1:
          e.id = "req-" + std::to_string(seq);
          break;
        default:
          break;
      }
      if (over) {
        MatchResult m;
        m.winner = s.winner().value_or(-1);
        m.match_score = s.match_score();
        m.hands = s.hand_results();
        m.abandoned = game % 3 == 0;
        m.abandoned_by = m.abandoned ? Seat{1} : kNoSeat;
        e.match_result = m;
      }
      ASSERT_EQ(serialize(e), tree_text(e)) << variant << " game " << game << " seq " << seq << " viewer " << viewer;
      ++n.events;
      n.with_id += e.id.index() != 0;
      n.with_hand_result += e.hand_result.has_value();
      n.with_match_result += e.match_result.has_value();
      n.redacted += e.last && e.last->redacted;
      n.bids += !e.observation.bids.empty();
      for (const DeclarationView& d : e.observation.declarations) n.shown += d.shown;
    }
    if (over) break;
    s.legal_actions(legal);
    ASSERT_FALSE(legal.empty());
    const Seat actor = s.current_player();
    const Action a = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    // The match log's form of the action, as played by its seat and by the server.
    for (const bool by_server : {false, true}) {
      json tree = to_json(a);
      if (by_server) tree["by_server"] = true;
      ASSERT_EQ(action_text(a, by_server), tree.dump()) << variant << " game " << game << " seq " << seq;
      tree["by_bot"] = "sampling";
      ASSERT_EQ(action_text(a, by_server, BotLevel::sampling), tree.dump()) << variant << " game " << game;
    }
    ++n.actions;
    const std::size_t before = s.hand_results().size();
    ASSERT_EQ(s.apply(actor, a), Refusal::none);
    LastAction next;
    next.seat = actor;
    next.action = a;
    next.by_server = rng.below(4) == 0;
    next.by_bot = rng.below(3) == 0 ? std::optional<BotLevel>(rng.below(2) == 0 ? BotLevel::rules : BotLevel::random)
                                    : std::nullopt;
    last = next;
    ended.reset();
    if (s.hand_results().size() > before) ended = s.hand_results().back();
  }
}

// One shard per seeded game of every configuration. Like the engine's *Sim suites, shard 0 runs
// under the sanitizers and the others in the optimised build (scripts/test.sh), where they take a
// tenth of the time. Each shard checks its own coverage floors, about an eighth of what one reaches
// (a shard of every variant and option: 5,855 to 6,891 actions, 24,155 to 28,175 events).
class EventTextSim : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(EventTextSim, SameBytesAsTheTreeForEveryVariantAndOption) {
  const std::uint64_t game = GetParam();
  Counts n;
  for (const auto& [variant, options] : configurations()) {
    play_and_compare(variant, options, game, n);
    if (HasFatalFailure()) return;
  }
  std::cout << "[ events ] game " << game << ": actions " << n.actions << ", events " << n.events << ", with id "
            << n.with_id << ", hand results " << n.with_hand_result << ", match results " << n.with_match_result
            << ", redacted " << n.redacted << ", bids " << n.bids << ", shown " << n.shown << "\n";
  // The comparison covered the rare parts too, not only mid-hand events.
  EXPECT_GT(n.actions, 750u);
  EXPECT_GT(n.events, 2'500u);
  EXPECT_GT(n.with_id, 250u);
  EXPECT_GT(n.with_hand_result, 25u);
  EXPECT_GT(n.with_match_result, 10u);
  EXPECT_GT(n.redacted, 250u);
  EXPECT_GT(n.bids, 250u);
  EXPECT_GT(n.shown, 0u);
}

INSTANTIATE_TEST_SUITE_P(Games, EventTextSim, ::testing::Values(0u, 1u, 2u, 3u),
                         [](const auto& p) { return "game_" + std::to_string(p.param); });

}  // namespace
}  // namespace atout::protocol
