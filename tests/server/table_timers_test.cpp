// The table's turn timer and reconnect windows, in process on a fake clock: the test moves time
// by hand, so nothing sleeps and every deadline is checked to the millisecond.
#include <gtest/gtest.h>

#include "atout/server/table.hpp"
#include "fake_clock.hpp"
#include "recording_journal.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class TableTimersTest : public ::testing::Test {
 protected:
  // Tables whose turn is still timed would otherwise outlive the test (see drop_pending).
  void TearDown() override { clock_->drop_pending(); }
  static Record header() {
    Record h;
    h.variant = "duel";
    h.deal.seed = Seed{0x7133u, 2};
    h.first_dealer = 0;
    return h;
  }
  // A duel table with both seats taken, its match started; `lease`: a cluster node's.
  std::shared_ptr<Table> open(protocol::TableSettings settings, std::shared_ptr<const TableLease> lease = nullptr) {
    TableInit init;
    init.lease = std::move(lease);
    init.id = "t7";
    init.match_id = "m7";
    init.settings = settings;
    init.state = create_state(header()).state;
    init.clock = clock_;
    init.journal = journal_;
    auto t = std::make_shared<Table>(ioc_.get_executor(), std::move(init));
    for (int s = 0; s < 2; ++s) {
      peers_.push_back(std::make_shared<RecordingPeer>());
      members_.push_back(member_for(peers_.back(), static_cast<std::uint64_t>(s + 1), "p" + std::to_string(s)));
      t->sit(members_.back(), s, {});
    }
    ioc_.poll();
    for (const json& m : take(0))
      if (m["type"] == "event") current_ = m["observation"]["current"];
    take(1);
    return t;
  }
  std::vector<json> take(int seat) { return take(*peers_[static_cast<std::size_t>(seat)]); }
  static std::vector<json> take(RecordingPeer& peer) {
    std::vector<json> out;
    for (const auto& text : peer.take()) out.push_back(json::parse(*text));
    return out;
  }
  // What a resume answered: its `seated` reply and the last event, when there were any.
  struct Resumed {
    std::optional<json> seated, last;
  };
  static Resumed resumed(std::vector<json> messages) {
    Resumed r;
    for (json& m : messages) {
      if (m["type"] == "seated") r.seated = m;
      if (m["type"] == "event") r.last = std::move(m);
    }
    return r;
  }
  // The events seat 0 received since the last look.
  std::vector<json> events() {
    std::vector<json> out;
    for (json& m : take(0))
      if (m["type"] == "event") out.push_back(std::move(m));
    take(1);
    return out;
  }
  void advance(std::chrono::milliseconds d) {
    clock_->advance(d);
    ioc_.poll();
  }
  // The seat's player loses its connection.
  void drop(Table& t, std::size_t seat) {
    t.detach(members_[seat].conn);
    ioc_.poll();
  }
  // The seat's player comes back on connection `conn` and resumes from the start event.
  void come_back(Table& t, std::size_t seat, std::uint64_t conn) {
    auto back = std::make_shared<RecordingPeer>();
    members_[seat] = member_for(back, conn, "p" + std::to_string(seat));
    peers_[seat] = back;
    t.sit(members_[seat], static_cast<int>(seat), {}, std::uint64_t{1});
    ioc_.poll();
  }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_ = net::make_work_guard(ioc_);
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  std::shared_ptr<RecordingJournal> journal_ = std::make_shared<RecordingJournal>();
  std::vector<std::shared_ptr<RecordingPeer>> peers_;
  std::vector<Member> members_;
  int current_ = -1;  // the seat to act after the start
};

TEST_F(TableTimersTest, ATimeoutPlaysForTheSeatAndRepeatedTimeoutsMarkItAway) {
  protocol::TableSettings settings;
  settings.turn_ms = 300;
  settings.away_after = 2;
  auto t = open(settings);
  advance(299ms);
  EXPECT_TRUE(events().empty()) << "played before the turn was up";
  std::array<int, 2> timeouts{};
  bool away_seen = false;
  for (int i = 0; i < 40 && !away_seen; ++i) {
    advance(300ms);
    std::vector<json> all = take(0);
    take(1);
    for (const json& m : all) {
      if (m["type"] == "event") {
        ASSERT_EQ(m["last_action"]["by_server"], true) << m;
        EXPECT_TRUE(m["turn_ms_left"].is_number_integer()) << m;
        ++timeouts[m["last_action"]["seat"].get<std::size_t>()];
      }
      if (m["type"] == "table_update")
        for (const json& seat : m["table"]["seats"])
          if (seat["away"] == true) {
            EXPECT_EQ(timeouts[seat["seat"].get<std::size_t>()], 2) << "away after the wrong number of timeouts";
            away_seen = true;
          }
    }
  }
  EXPECT_TRUE(away_seen);
}

TEST_F(TableTimersTest, EachActionGivesTheNextSeatItsWholeTurn) {
  protocol::TableSettings settings;
  settings.turn_ms = 2000;
  auto t = open(settings);
  ASSERT_GE(current_, 0);
  std::unique_ptr<State> shadow = create_state(header()).state;  // the table's match, step by step
  for (int i = 0; i < 4; ++i) {
    // Over half a turn: a deadline left from the last turn would pass during the next one.
    advance(1200ms);
    EXPECT_TRUE(events().empty());
    const Seat seat = shadow->current_player();
    const Action action = shadow->legal_actions().front();
    ASSERT_EQ(shadow->apply(seat, action), Refusal::none);
    t->act(members_[static_cast<std::size_t>(seat)], action, {});
    ioc_.poll();
    ASSERT_EQ(events().size(), 1u);
  }
  current_ = shadow->current_player();
  advance(1999ms);
  EXPECT_TRUE(events().empty()) << "the turn was cut short";
  advance(1ms);
  const auto played = events();
  ASSERT_EQ(played.size(), 1u);
  EXPECT_EQ(played[0]["last_action"]["seat"], current_);
  EXPECT_EQ(played[0]["last_action"]["by_server"], true);
}

TEST_F(TableTimersTest, AfterTheReconnectWindowTheAbsentSideForfeits) {
  protocol::TableSettings settings;
  settings.turn_ms = 600'000;
  settings.reconnect_ms = 300;
  auto t = open(settings);
  t->detach(2);  // seat 1's connection
  ioc_.poll();
  // Seat 1 is played for meanwhile when it is to act; only the window's end matters here.
  advance(299ms);
  for (const json& e : events()) EXPECT_NE(e["kind"], "abandoned");
  advance(1ms);
  const auto ended = events();
  ASSERT_FALSE(ended.empty());
  EXPECT_EQ(ended.back()["kind"], "abandoned");
  EXPECT_EQ(ended.back()["match_result"]["abandoned"], true);
  EXPECT_EQ(ended.back()["match_result"]["abandoned_by"], 1);
  EXPECT_EQ(ended.back()["match_result"]["winner"], 0);
  // The journal hears the same winner: the side that stayed.
  EXPECT_EQ(journal_->end, MatchEnd::abandoned);
  EXPECT_EQ(journal_->winner, 0);
}

// Both players drop; the server plays the match out. Each seat stays held for a fresh reconnect
// window from the end, so a player coming back then gets the final events; after the window the
// seat is released and the table, with nobody left, closes.
TEST_F(TableTimersTest, AMatchThatEndsWhileItsPlayersAreAwayWaitsAReconnectWindowForThem) {
  protocol::TableSettings settings;
  settings.turn_ms = 100;
  settings.reconnect_ms = protocol::TableSettings::kMaxReconnectMs;
  auto t = open(settings);
  t->detach(1);
  t->detach(2);
  ioc_.poll();
  for (int i = 0; i < 100'000 && !journal_->end; ++i) advance(100ms);
  ASSERT_EQ(journal_->end, MatchEnd::finished) << "the server did not play the match out";
  // Just before the fresh window closes, seat 0's player resumes from the start event.
  advance(std::chrono::milliseconds(settings.reconnect_ms - 1));
  auto back = std::make_shared<RecordingPeer>();
  t->sit(member_for(back, 11, "p0"), 0, {}, std::uint64_t{1});
  ioc_.poll();
  auto [seated, last] = resumed(take(*back));
  ASSERT_TRUE(seated) << "the finished table did not keep the seat";
  EXPECT_EQ((*seated)["resumed"], true);
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->contains("match_result")) << *last;
  EXPECT_EQ((*last)["replayed"], true);
  // Seat 1's player does not come back: when its window closes the seat is released, and once
  // seat 0's player leaves, nobody is left and the table closes.
  advance(1ms);
  t->leave(member_for(back, 11, "p0"), {});
  ioc_.poll();
  back->take();
  auto late = std::make_shared<RecordingPeer>();
  t->sit(member_for(late, 12, "p1"), 1, {}, std::uint64_t{1});
  ioc_.poll();
  const auto reply = late->take();
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(json::parse(*reply[0])["code"], "unknown_table") << *reply[0];
}

// The end goes out to a connection that is already closing (its close frame is on the way), so
// it may never be read: a connection that drops within the end's delivery grace keeps its seat
// for the reconnect window, and its player can resume to see the end. One that drops later is
// taken to have seen it, and its seat is released at once.
TEST_F(TableTimersTest, AConnectionThatDropsAsTheMatchEndsKeepsItsSeatToSeeTheEnd) {
  protocol::TableSettings settings;
  settings.turn_ms = 100;
  settings.away_after = 1'000'000;  // both players stay present; the timeouts play the match out
  settings.reconnect_ms = 30'000;
  auto t = open(settings);
  for (int i = 0; i < 100'000 && !journal_->end; ++i) advance(100ms);
  ASSERT_EQ(journal_->end, MatchEnd::finished) << "the server did not play the match out";
  take(0);
  take(1);
  advance(Table::kEndDeliveryGrace - 1ms);
  drop(*t, 1);  // just within the grace: held
  advance(1ms);
  drop(*t, 0);  // at the grace: released
  // Seat 0 cannot take its seat back; seat 1 can, and gets the end.
  auto gone = std::make_shared<RecordingPeer>();
  t->sit(member_for(gone, 11, "p0"), 0, {}, std::uint64_t{1});
  ioc_.poll();
  for (const auto& text : gone->take()) EXPECT_NE(json::parse(*text)["type"], "seated") << *text;
  // Seat 1's window opened 1 ms before seat 0 dropped; it comes back 1 ms before the window closes.
  advance(std::chrono::milliseconds(settings.reconnect_ms - 2));
  come_back(*t, 1, 12);
  auto [seated, last] = resumed(take(1));
  ASSERT_TRUE(seated) << "the seat of a connection dropped as the match ended was not kept";
  EXPECT_EQ((*seated)["resumed"], true);
  ASSERT_TRUE(last);
  EXPECT_TRUE(last->contains("match_result")) << *last;
  // Once that player has seen the end and drops again, long after it, nothing holds the table.
  drop(*t, 1);
  auto late = std::make_shared<RecordingPeer>();
  t->sit(member_for(late, 13, "p1"), 1, {}, std::uint64_t{1});
  ioc_.poll();
  const auto reply = late->take();
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(json::parse(*reply[0])["code"], "unknown_table") << *reply[0];
}

TEST_F(TableTimersTest, AfterTheReconnectWindowAFreeSeatPausesTheMatch) {
  protocol::TableSettings settings;
  settings.turn_ms = 600'000;
  settings.reconnect_ms = 300;
  settings.abandon = protocol::TableSettings::Abandon::free_seat;
  auto t = open(settings);
  t->detach(2);
  ioc_.poll();
  take(0);
  advance(300ms);
  std::optional<json> update;
  for (json& m : take(0))
    if (m["type"] == "table_update") update = std::move(m);
  ASSERT_TRUE(update);
  EXPECT_EQ((*update)["table"]["status"], "paused");
  EXPECT_TRUE((*update)["table"]["seats"][1]["player_id"].is_null());
  // Paused: nothing is timed, however long it waits.
  advance(3'600'000ms);
  EXPECT_TRUE(events().empty());
  // Taken again by anyone, the match goes on.
  peers_.push_back(std::make_shared<RecordingPeer>());
  t->sit(member_for(peers_.back(), 9, "p9"), 1, {});
  ioc_.poll();
  std::optional<json> snapshot;
  for (const auto& text : peers_.back()->take())
    if (json m = json::parse(*text); m["type"] == "event") snapshot = std::move(m);
  ASSERT_TRUE(snapshot);
  EXPECT_EQ((*snapshot)["kind"], "snapshot");
}

// A stand cancels the turn's wait (the match pauses); a sit queued right behind it resumes the
// match before the cancelled wait's handler has run. The new turn must still be timed, and played
// by the server when its time is up.
TEST_F(TableTimersTest, AStandAndASitInOneBurstLeaveTheTurnTimed) {
  protocol::TableSettings settings;
  settings.turn_ms = 100;
  auto t = open(settings);
  const auto seat = static_cast<std::size_t>(current_);
  t->stand(members_[seat], {});
  t->sit(members_[seat], current_, {});
  ioc_.poll();  // the stand, the sit, then the cancelled wait's handler
  bool seated = false;
  for (const json& m : take(current_))
    if (m["type"] == "seated") seated = m["seat"] == current_;
  EXPECT_TRUE(seated);
  take(1 - current_);
  advance(99ms);
  for (const json& m : take(1 - current_)) EXPECT_NE(m["type"], "event") << "played before the turn was up";
  advance(1ms);
  std::optional<json> played;
  for (json& m : take(1 - current_))
    if (m["type"] == "event") played = std::move(m);
  ASSERT_TRUE(played) << "the turn was never played for seat " << current_;
  EXPECT_EQ((*played)["last_action"]["seat"], current_);
  EXPECT_EQ((*played)["last_action"]["by_server"], true);
}

// The seat to act has `turn_ms` from the start of its turn, whatever happens at the table
// meanwhile: a spectator who comes and goes, or the other player dropping and resuming, times the
// same turn again and must not give it a fresh deadline (it did: a stranger could stall a public
// table for ever by watching and leaving in a loop).
TEST_F(TableTimersTest, OthersComingAndGoingDoNotStretchTheTurn) {
  protocol::TableSettings settings;
  settings.turn_ms = 3000;
  auto t = open(settings);
  ASSERT_GE(current_, 0);
  const auto other = static_cast<std::size_t>(1 - current_);
  const std::size_t journaled = journal_->seqs.size();
  std::uint64_t conn = 20;
  for (int i = 0; i < 4; ++i) {
    advance(700ms);  // 700, 1400, 2100, 2800 ms into the turn
    auto watcher = std::make_shared<RecordingPeer>();
    const Member w = member_for(watcher, ++conn, "w" + std::to_string(i));
    t->spectate(w, {});
    ioc_.poll();
    t->leave(w, {});
    // The other seat's player drops and comes back on a new connection.
    drop(*t, other);
    come_back(*t, other, ++conn);
    events();  // the resumed seat's snapshot, when it is seat 0
    EXPECT_EQ(journal_->seqs.size(), journaled) << "played before the turn was up";
  }
  advance(199ms);  // 2,999 ms
  EXPECT_TRUE(events().empty()) << "played before the turn was up";
  EXPECT_EQ(journal_->seqs.size(), journaled);
  advance(1ms);
  const std::vector<json> played = events();
  ASSERT_EQ(played.size(), 1u) << "the turn was stretched past its 3 s";
  EXPECT_EQ(played[0]["last_action"]["seat"], current_);
  EXPECT_EQ(played[0]["last_action"]["by_server"], true);
}

// The seat to act that drops is played for after the absent delay (1 s), and one that resumes
// within it gets what is left of its turn, not a new one: dropping and resuming cannot buy time.
TEST_F(TableTimersTest, TheSeatToActResumingGetsWhatIsLeftOfItsTurn) {
  protocol::TableSettings settings;
  settings.turn_ms = 8000;
  auto t = open(settings);
  ASSERT_GE(current_, 0);
  const auto seat = static_cast<std::size_t>(current_);
  std::uint64_t conn = 30;
  for (int i = 0; i < 3; ++i) {
    advance(2000ms);  // 2, 4.5 and 7 s into the turn
    drop(*t, seat);
    advance(500ms);  // within the absent delay
    come_back(*t, seat, ++conn);
    std::optional<json> snapshot;
    for (json& m : take(current_))
      if (m["type"] == "event") snapshot = std::move(m);
    ASSERT_TRUE(snapshot) << "no view on resuming";
    EXPECT_EQ((*snapshot)["turn_ms_left"], 8000 - 2500 * (i + 1)) << *snapshot;
    take(1 - current_);
  }
  // 7.5 s into the turn.
  advance(499ms);
  EXPECT_TRUE(events().empty()) << "played before the turn was up";
  advance(1ms);
  const std::vector<json> played = events();
  ASSERT_EQ(played.size(), 1u) << "the turn was stretched past its 8 s";
  EXPECT_EQ(played[0]["last_action"]["seat"], current_);
  EXPECT_EQ(played[0]["last_action"]["by_server"], true);
}

// A pause (the seat to act stood up) stops the clock, and sitting again gives back only what was
// left of the turn: standing up and sitting down again in a loop cannot stall the match.
TEST_F(TableTimersTest, APauseKeepsWhatWasLeftOfTheTurn) {
  protocol::TableSettings settings;
  settings.turn_ms = 3000;
  auto t = open(settings);
  ASSERT_GE(current_, 0);
  const auto seat = static_cast<std::size_t>(current_);
  advance(1000ms);
  t->stand(members_[seat], {});
  ioc_.poll();
  advance(5000ms);  // paused: nothing is timed
  EXPECT_TRUE(journal_->seqs.empty()) << "played while the match was paused";
  t->sit(members_[seat], current_, {});
  ioc_.poll();
  // Stand and sit again, over and over, while the 2 s left run out.
  for (int i = 0; i < 3; ++i) {
    advance(600ms);
    t->stand(members_[seat], {});
    t->sit(members_[seat], current_, {});
    ioc_.poll();
  }
  advance(199ms);  // 1,999 ms of the 2 s left
  EXPECT_TRUE(journal_->seqs.empty()) << "played before the turn was up";
  advance(1ms);
  EXPECT_EQ(journal_->seqs.size(), 1u) << "the turn was stretched by the pauses";
}

// The lease lapses just as a turn's time is up: the table retries a second later. When someone
// comes back within that second, the turn is timed again, and its deadline must then run the
// turn's timeout, not the retry's (it ran the retry, whose re-timing of a turn already up did
// nothing: the turn was never timed again, and the match stalled).
TEST_F(TableTimersTest, ALeaseLapseAtATimeoutThenSomeoneComingBackLeavesTheTurnTimed) {
  protocol::TableSettings settings;
  settings.turn_ms = 3000;
  auto lease = std::make_shared<TableLease>();
  lease->renewed_until(TableLease::Clock::now() + 1h);
  auto t = open(settings, lease);
  ASSERT_GE(current_, 0);
  lease->renewed_until(TableLease::Clock::now() - 1ms);
  advance(3000ms);
  EXPECT_TRUE(journal_->seqs.empty()) << "played while the lease had lapsed";
  lease->renewed_until(TableLease::Clock::now() + 1h);
  advance(200ms);
  // Both players drop and resume on new connections, within the retry's second.
  std::uint64_t conn = 40;
  for (std::size_t s = 0; s < 2; ++s) {
    drop(*t, s);
    come_back(*t, s, ++conn);
  }
  for (int i = 0; i < 40 && journal_->seqs.empty(); ++i) advance(100ms);
  EXPECT_EQ(journal_->seqs.size(), 1u) << "the turn was never played for";
}

// After a restart every player of a restored table is disconnected at once. For one turn's time
// the seat to act keeps its whole turn rather than the absent delay of one second, so that the
// players' clients, which back off for a few seconds, can come back before anything is played
// for them; once that time has passed, absent seats are played for at the absent delay again.
TEST_F(TableTimersTest, ARestoredTableGivesItsDisconnectedPlayersATurnToComeBack) {
  protocol::TableSettings settings;
  settings.turn_ms = 5000;
  TableInit init;
  init.id = "t8";
  init.match_id = "m8";
  init.settings = settings;
  init.state = create_state(header()).state;
  init.clock = clock_;
  init.journal = journal_;
  for (int s = 0; s < 2; ++s) {
    Member held;
    held.player_id = "p" + std::to_string(s);
    held.name = "player p" + std::to_string(s);
    init.held.emplace_back(held);
  }
  init.seq = 1;  // the start event
  init.started = true;
  auto t = std::make_shared<Table>(ioc_.get_executor(), std::move(init));
  t->restored();
  ioc_.poll();
  advance(1001ms);
  EXPECT_TRUE(journal_->seqs.empty()) << "played for a seat at the absent delay right after the restart";
  advance(3998ms);  // 4,999 ms
  EXPECT_TRUE(journal_->seqs.empty());
  advance(1ms);
  ASSERT_EQ(journal_->seqs.size(), 1u) << "the first turn was never played";
  // The next turn comes after the excuse: its absent seat is played for a second later.
  advance(999ms);
  EXPECT_EQ(journal_->seqs.size(), 1u);
  advance(1ms);
  EXPECT_EQ(journal_->seqs.size(), 2u);
}

// In a cluster, once the node's lease on its tables may have lapsed, another node may rebuild the
// table from the shared log; this copy must then write nothing more, or the log would hold two
// histories. A player's action is refused as a stopped server's table would be (unknown_table:
// reconnect and resume), the server plays no move for a seat whose time is up, and play goes on
// once a renewal covers the table again.
TEST_F(TableTimersTest, WhileTheLeaseHasLapsedTheTableChangesNothingAndGoesOnWhenRenewed) {
  protocol::TableSettings settings;
  settings.turn_ms = 300;
  // A node whose take-overs take at most 23 s says so with each `moving` answer.
  auto lease = std::make_shared<TableLease>(23s);
  lease->renewed_until(TableLease::Clock::now() + 1h);
  auto t = open(settings, lease);
  ASSERT_GE(current_, 0);
  const std::size_t journaled = journal_->seqs.size();
  lease->renewed_until(TableLease::Clock::now() - 1ms);

  std::unique_ptr<State> shadow = create_state(header()).state;
  t->act(members_[static_cast<std::size_t>(current_)], shadow->legal_actions().front(), std::int64_t{5});
  ioc_.poll();
  std::optional<json> refusal;
  for (json& m : take(current_))
    if (m["type"] == "error") refusal = std::move(m);
  ASSERT_TRUE(refusal) << "the action was not refused";
  EXPECT_EQ((*refusal)["code"], "unknown_table");
  EXPECT_EQ((*refusal)["moving"], true) << "not told to come back" << *refusal;
  EXPECT_EQ((*refusal)["takeover_ms"], 23000) << "not told how long to keep trying" << *refusal;
  EXPECT_EQ((*refusal)["id"], 5);
  for (int i = 0; i < 10; ++i) advance(1000ms);
  EXPECT_TRUE(events().empty()) << "the table changed while its lease had lapsed";
  EXPECT_EQ(journal_->seqs.size(), journaled);

  lease->renewed_until(TableLease::Clock::now() + 1h);
  // The lapsed turn is tried again each second, and the seat to act then has its whole turn: the
  // server plays for it within 1.3 s.
  std::vector<json> played;
  for (int i = 0; i < 13 && played.empty(); ++i) {
    advance(100ms);
    played = events();
  }
  ASSERT_EQ(played.size(), 1u) << "play did not go on once the lease was renewed";
  EXPECT_EQ(played[0]["last_action"]["seat"], current_);
  EXPECT_EQ(played[0]["last_action"]["by_server"], true);
  EXPECT_EQ(journal_->seqs.size(), journaled + 1);
}

// Abandoning writes the match's end, so it too waits for the lease; the player may still return.
TEST_F(TableTimersTest, WhileTheLeaseHasLapsedNoMatchIsAbandoned) {
  protocol::TableSettings settings;
  settings.turn_ms = 600'000;
  settings.reconnect_ms = 300;
  auto lease = std::make_shared<TableLease>();
  lease->renewed_until(TableLease::Clock::now() + 1h);
  auto t = open(settings, lease);
  lease->renewed_until(TableLease::Clock::now() - 1ms);
  t->detach(2);  // seat 1's connection
  ioc_.poll();
  for (int i = 0; i < 5; ++i) advance(1000ms);
  for (const json& e : events()) EXPECT_NE(e["kind"], "abandoned");
  EXPECT_FALSE(journal_->end.has_value());
  lease->renewed_until(TableLease::Clock::now() + 1h);
  advance(1000ms);
  bool abandoned = false;
  for (const json& e : events()) abandoned = abandoned || e["kind"] == "abandoned";
  EXPECT_TRUE(abandoned);
  EXPECT_EQ(journal_->end, MatchEnd::abandoned);
}

// A new player in a running match is written to the log too: not while the lease has lapsed.
TEST_F(TableTimersTest, WhileTheLeaseHasLapsedNoNewPlayerTakesASeatInARunningMatch) {
  protocol::TableSettings settings;
  settings.turn_ms = 600'000;
  auto lease = std::make_shared<TableLease>();
  lease->renewed_until(TableLease::Clock::now() + 1h);
  auto t = open(settings, lease);
  t->stand(members_[1], {});
  ioc_.poll();
  take(0);
  take(1);
  auto peer = std::make_shared<RecordingPeer>();
  const Member newcomer = member_for(peer, 9, "p9");
  lease->renewed_until(TableLease::Clock::now() - 1ms);
  t->sit(newcomer, 1, std::int64_t{3});
  ioc_.poll();
  std::vector<std::shared_ptr<const std::string>> got = peer->take();
  ASSERT_EQ(got.size(), 1u);
  const json refused = json::parse(*got[0]);
  EXPECT_EQ(refused["code"], "unknown_table") << refused;
  EXPECT_EQ(refused["moving"], true) << refused;
  EXPECT_FALSE(refused.contains("takeover_ms")) << "a lease that names no take-over time said one" << refused;
  EXPECT_EQ(refused["id"], 3);
  lease->renewed_until(TableLease::Clock::now() + 1h);
  t->sit(newcomer, 1, std::int64_t{4});
  ioc_.poll();
  bool seated = false;
  for (const auto& text : peer->take()) {
    const json m = json::parse(*text);
    seated = seated || (m["type"] == "seated" && m["id"] == 4);
  }
  EXPECT_TRUE(seated);
}

// Another node took the table over: every member is sent there, and this copy accepts nothing more.
TEST_F(TableTimersTest, ATableTakenOverElsewhereSendsItsMembersThereAndAcceptsNothingMore) {
  protocol::TableSettings settings;
  settings.turn_ms = 300;
  auto t = open(settings);
  ASSERT_EQ(peers_[0]->tables().count("t7"), 1u);
  const std::size_t journaled = journal_->seqs.size();
  t->moved("ws://node-b.example:8080/ws");
  ioc_.poll();
  for (int seat = 0; seat < 2; ++seat) {
    const std::vector<json> got = take(seat);
    ASSERT_EQ(got.size(), 1u) << "seat " << seat;
    EXPECT_EQ(got[0], (json{{"type", "redirect"}, {"table_id", "t7"}, {"url", "ws://node-b.example:8080/ws"}}));
    EXPECT_TRUE(peers_[static_cast<std::size_t>(seat)]->tables().empty()) << "seat " << seat << " still at t7";
  }
  std::unique_ptr<State> shadow = create_state(header()).state;
  t->act(members_[static_cast<std::size_t>(current_)], shadow->legal_actions().front(), std::int64_t{9});
  ioc_.poll();
  const std::vector<json> answer = take(current_);
  ASSERT_EQ(answer.size(), 1u);
  EXPECT_EQ(answer[0]["code"], "unknown_table");
  for (int i = 0; i < 5; ++i) advance(1000ms);
  EXPECT_TRUE(events().empty());
  EXPECT_EQ(journal_->seqs.size(), journaled);
}

}  // namespace
}  // namespace atout::server::testing
