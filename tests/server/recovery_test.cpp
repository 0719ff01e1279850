// Recovery in process: a stored match (rows built by hand) rebuilt into a table that keeps every
// table setting and, once restored in the lobby, counts its actions like any other table.
#include "atout/server/recovery.hpp"

#include <gtest/gtest.h>

#include "atout/protocol/engine_json.hpp"
#include "atout/server/stored_match.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

// A duel match as the store keeps it, started with `settings` and played for `actions` steps of
// each seat's first legal action.
store::MatchRow stored_duel(const protocol::TableSettings& settings, int actions) {
  store::MatchRow m;
  m.start.uid = "m-restored";
  m.start.table_id = "t4";
  m.start.variant = "duel";
  m.start.options_json = "{}";
  m.start.match_seed = Seed{0x1234u, 0x5678u}.hex();
  m.start.first_dealer = 1;
  m.start.rated = settings.rated;
  m.start.seats = {{0, 0, "pa", "Ann"}, {1, 1, "pb", "Bob"}};
  m.start.table_json = table_json(false, std::nullopt, settings);
  Record header;
  header.variant = "duel";
  header.deal.seed = Seed{0x1234u, 0x5678u};
  header.first_dealer = 1;
  CreateResult created = create_state(header);
  EXPECT_TRUE(created.state);
  for (int i = 0; i < actions; ++i) {
    const Seat seat = created.state->current_player();
    const Action a = created.state->legal_actions().front();
    EXPECT_EQ(created.state->apply(seat, a), Refusal::none);
    m.actions.push_back({i + 2, seat, protocol::action_text(a, false)});
  }
  return m;
}

TEST(Recovery, ARestoredTableKeepsItsAbandonSetting) {
  protocol::TableSettings settings;
  settings.turn_ms = 4'000;
  settings.reconnect_ms = 9'000;
  settings.away_after = 3;
  settings.rated = false;
  settings.abandon = protocol::TableSettings::Abandon::free_seat;
  Rebuilt b = rebuild(stored_duel(settings, 3));
  ASSERT_TRUE(b.error.empty()) << b.error;
  ASSERT_TRUE(b.init);
  EXPECT_EQ(b.init->settings.abandon, protocol::TableSettings::Abandon::free_seat);
  EXPECT_EQ(b.init->settings.turn_ms, 4'000);
  EXPECT_EQ(b.init->settings.reconnect_ms, 9'000);
  EXPECT_EQ(b.init->settings.away_after, 3);
  EXPECT_FALSE(b.init->settings.rated);
  // Three actions were kept (events 2 to 4); the rebuilt table goes on from the next run's seqs,
  // so no event a client may have seen after event 4 is ever numbered again.
  EXPECT_EQ(b.init->seq, SeatView::kSeqsPerRun);
  EXPECT_EQ(b.init->log.seqs, (std::vector<std::uint64_t>{2, 3, 4}));
  EXPECT_EQ(b.init->log.by_server, (std::vector<bool>{false, false, false}));
}

// A table taken over in a cluster starts where the take-over says (past the runs of the nodes
// that took it before), not merely after its log's last run.
TEST(Recovery, ATakenOverTableStartsAtTheTakeOversRun) {
  const std::uint64_t run = SeatView::kSeqsPerRun;
  Rebuilt b = rebuild(stored_duel({}, 3), 4 * run);
  ASSERT_TRUE(b.init) << b.error;
  EXPECT_EQ(b.init->seq, 4 * run);
  // A start before the log's next run is never used: a seq would name two events.
  Rebuilt c = rebuild(stored_duel({}, 3), 0);
  ASSERT_TRUE(c.init) << c.error;
  EXPECT_EQ(c.init->seq, run);
}

// A log from several runs (restarts) is whole as long as each run goes on one by one from its
// start; a gap inside a run is a lost write, and the match is not rebuilt.
TEST(Recovery, ALogFromSeveralRunsIsWholeAndAGapInsideARunIsRefused) {
  const std::uint64_t run = SeatView::kSeqsPerRun;
  store::MatchRow m = stored_duel({}, 5);
  // Actions 0 and 1 in the first run, 2 and 3 after a first restart, 4 after a second one.
  const std::int64_t seqs[] = {2, 3, static_cast<std::int64_t>(run + 1), static_cast<std::int64_t>(run + 2),
                               static_cast<std::int64_t>(3 * run + 1)};
  for (std::size_t i = 0; i < 5; ++i) m.actions[i].seq = seqs[i];
  nlohmann::json played_for = nlohmann::json::parse(m.actions[3].action_json);
  played_for["by_server"] = true;  // as the log keeps an action the server played for the seat
  m.actions[3].action_json = played_for.dump();
  Rebuilt b = rebuild(m);
  ASSERT_TRUE(b.error.empty()) << b.error;
  EXPECT_EQ(b.init->seq, 4 * run);
  EXPECT_EQ(b.init->log.seqs.back(), 3 * run + 1);
  EXPECT_EQ(b.init->log.by_server, (std::vector<bool>{false, false, false, true, false}));

  for (const std::int64_t bad : {std::int64_t{4}, static_cast<std::int64_t>(run + 3), static_cast<std::int64_t>(run)}) {
    store::MatchRow gap = stored_duel({}, 3);
    gap.actions[2].seq = bad;              // after 2 and 3: neither 4 nor the first of a later run
    if (bad == 4) gap.actions[1].seq = 2;  // a repeated seq
    Rebuilt r = rebuild(gap);
    EXPECT_FALSE(r.error.empty()) << bad;
    EXPECT_FALSE(r.init) << bad;
    EXPECT_EQ(r.fault, StoredMatchFault::seq_out_of_order) << bad;
  }
}

// Each kind of damage a stored match can have is named by its own fault, with a message, and
// nothing is rebuilt.
TEST(Recovery, EachDamagedRowGivesItsFault) {
  struct Damage {
    StoredMatchFault fault;
    void (*damage)(store::MatchRow&);
  };
  const Damage cases[] = {
      {StoredMatchFault::bad_options, [](store::MatchRow& m) { m.start.options_json = "{\"x\""; }},
      {StoredMatchFault::bad_options, [](store::MatchRow& m) { m.start.options_json = "[1]"; }},
      {StoredMatchFault::bad_seed, [](store::MatchRow& m) { m.start.match_seed = "12z4"; }},
      {StoredMatchFault::bad_action, [](store::MatchRow& m) { m.actions[1].action_json = "{\"type\":"; }},
      {StoredMatchFault::bad_action, [](store::MatchRow& m) { m.actions[1].action_json = R"({"type":"fly"})"; }},
      {StoredMatchFault::bad_header, [](store::MatchRow& m) { m.start.variant = "poker"; }},
      {StoredMatchFault::bad_header, [](store::MatchRow& m) { m.start.match_seed.reset(); }},
      {StoredMatchFault::refused_action, [](store::MatchRow& m) { m.actions[2].seat = 1 - m.actions[2].seat; }},
      {StoredMatchFault::refused_action, [](store::MatchRow& m) { m.actions[2].seat = 9; }},
      {StoredMatchFault::seat_count, [](store::MatchRow& m) { m.start.seats.pop_back(); }},
      {StoredMatchFault::bad_seat, [](store::MatchRow& m) { m.start.seats[1].seat = 0; }},
      {StoredMatchFault::bad_seat, [](store::MatchRow& m) { m.start.seats[1].seat = 7; }},
  };
  for (const Damage& c : cases) {
    store::MatchRow m = stored_duel({}, 4);
    ASSERT_TRUE(rebuild(m).init);
    c.damage(m);
    Rebuilt r = rebuild(m);
    EXPECT_EQ(r.fault, c.fault) << to_string(c.fault) << ": " << r.error;
    EXPECT_FALSE(r.error.empty()) << to_string(c.fault);
    EXPECT_FALSE(r.init) << to_string(c.fault);
    EXPECT_FALSE(r.ended) << to_string(c.fault);
  }
}

TEST(Recovery, ARestoredTableCountsItsActionsInTheMetrics) {
  net::io_context ioc;
  auto m = std::make_shared<Metrics>();
  auto l = std::make_shared<Lobby>(ioc.get_executor());
  l->use_metrics(m);
  Rebuilt b = rebuild(stored_duel({}, 2));
  ASSERT_TRUE(b.init) << b.error;
  const Seat seat = b.init->state->current_player();
  const Action action = b.init->state->legal_actions().front();
  l->restore(std::move(*b.init));
  ioc.poll();

  std::shared_ptr<Table> t;
  protocol::TableRef ref;
  ref.table_id = "t4";
  l->find(ref, true, [&](std::shared_ptr<Table> found, std::optional<protocol::Error>) { t = std::move(found); });
  ioc.poll();
  ASSERT_TRUE(t);
  std::vector<std::shared_ptr<RecordingPeer>> peers;
  std::vector<Member> members;
  for (int s = 0; s < 2; ++s) {
    peers.push_back(std::make_shared<RecordingPeer>());
    members.push_back(member_for(peers.back(), static_cast<std::uint64_t>(s + 1), s == 0 ? "pa" : "pb"));
    t->sit(members.back(), s, {});
  }
  ioc.poll();
  t->act(members[static_cast<std::size_t>(seat)], action, {});
  ioc.poll();
  bool accepted = false;
  for (const auto& text : peers[static_cast<std::size_t>(seat)]->take())
    if (nlohmann::json::parse(*text)["type"] == "accepted") accepted = true;
  ASSERT_TRUE(accepted);
  EXPECT_EQ(m->actions_accepted.load(), 1u);
  EXPECT_EQ(m->action_latency.count(), 1u);
}

}  // namespace
}  // namespace atout::server::testing
