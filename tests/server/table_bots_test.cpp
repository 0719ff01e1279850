// Bots at a table, in process on a fake clock with a bot runner the test drives: seating and
// removing bots and every refusal, a bot's turn answered off the table's strand, an absent
// player's seat played by the table's bot and given back, stale answers dropped, and the
// quick bot that chooses on the strand when the bot workers are full.
#include <gtest/gtest.h>

#include "atout/server/table.hpp"
#include "fake_clock.hpp"
#include "recording_journal.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;
using protocol::BotLevel;
using namespace std::chrono_literals;

// Keeps the jobs it is given until the test runs them, or refuses them all when `full`.
class ManualRunner : public BotRunner {
 public:
  bool submit(Job job) override {
    if (full) return false;
    jobs.push_back(std::move(job));
    return true;
  }
  // Runs every queued job (each posts its answer to its table's strand); returns how many.
  std::size_t run_all() {
    std::vector<Job> now = std::exchange(jobs, {});
    for (Job& j : now) j();
    return now.size();
  }
  std::vector<Job> jobs;
  bool full = false;
};

class TableBotsTest : public ::testing::Test {
 protected:
  void TearDown() override {
    runner_->jobs.clear();
    clock_->drop_pending();
  }
  static Record header() {
    Record h;
    h.variant = "duel";
    h.deal.seed = Seed{0xb075u, 3};
    h.first_dealer = 0;
    return h;
  }
  // A duel table owned by player p0, with `bots` seated as it is made.
  std::shared_ptr<Table> make(protocol::TableSettings settings = {}, std::vector<std::pair<Seat, BotLevel>> bots = {}) {
    TableInit init;
    init.id = "t5";
    init.match_id = "m5";
    init.settings = settings;
    init.state = create_state(header()).state;
    init.clock = clock_;
    init.journal = journal_;
    init.bots = runner_;
    init.owner = member(0);
    init.seat_bots = std::move(bots);
    return std::make_shared<Table>(ioc_.get_executor(), std::move(init));
  }
  // Connection `i` (player "p<i>", conn i + 1), made on first use.
  Member& member(std::size_t i) {
    while (members_.size() <= i) {
      peers_.push_back(std::make_shared<RecordingPeer>());
      members_.push_back(member_for(peers_.back(), members_.size() + 1, "p" + std::to_string(members_.size())));
    }
    return members_[i];
  }
  std::vector<json> take(std::size_t i) {
    member(i);
    std::vector<json> out;
    for (const auto& text : peers_[i]->take()) out.push_back(json::parse(*text));
    return out;
  }
  static std::vector<json> of_type(const std::vector<json>& all, const std::string& type) {
    std::vector<json> out;
    for (const json& m : all)
      if (m["type"] == type) out.push_back(m);
    return out;
  }
  void run() { ioc_.poll(); }
  void advance(std::chrono::milliseconds d) {
    clock_->advance(d);
    ioc_.poll();
  }
  // Seat 0's latest event, kept up to date by read().
  void read(std::vector<json> all) {
    for (json& e : of_type(all, "event")) latest_ = std::move(e);
  }
  int current() const { return latest_["observation"]["current"].get<int>(); }
  bool over() const { return latest_.contains("match_result"); }
  // The first legal action of seat 0's latest event, for its player to send.
  Action first_legal() const {
    const auto p = protocol::parse_action(latest_["observation"]["legal"].at(0));
    EXPECT_TRUE(p.value.has_value());
    return *p.value;
  }
  // Plays seat 0 (member 0) with its first legal action until seat 1 has taken at least `count`
  // actions or the match is over; `actions` gets each of seat 1's `last_action`s, in order.
  void play_seat0_until_seat1_acted(Table& t, std::size_t count, std::vector<json>& actions) {
    for (int i = 0; i < 200 && actions.size() < count; ++i) {
      const std::vector<json> events = of_type(take(0), "event");
      ASSERT_FALSE(events.empty());
      for (const json& e : events)
        if (e.contains("last_action") && e["last_action"].is_object() && e["last_action"].value("seat", -1) == 1)
          actions.push_back(e["last_action"]);
      read(events);
      if (over()) return;
      ASSERT_EQ(current(), 0) << "the bot's turn was left unplayed";
      t.act(member(0), first_legal(), {});
      run();
    }
  }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_ = net::make_work_guard(ioc_);
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  std::shared_ptr<RecordingJournal> journal_ = std::make_shared<RecordingJournal>();
  std::shared_ptr<ManualRunner> runner_ = std::make_shared<ManualRunner>();
  std::vector<std::shared_ptr<RecordingPeer>> peers_;
  std::vector<Member> members_;
  json latest_;
};

TEST_F(TableBotsTest, TheOwnerSeatsABotAndRemovesIt) {
  auto t = make();
  t->add_bot(member(0), 1, BotLevel::sampling, std::int64_t{1});
  run();
  std::vector<json> got = take(0);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["type"], "ok");
  EXPECT_EQ(got[0]["request"], "add_bot");
  EXPECT_EQ(got[0]["id"], 1);
  ASSERT_EQ(got[1]["type"], "table_update");
  const json seat = got[1]["table"]["seats"][1];
  EXPECT_EQ(seat["bot"], "sampling");
  EXPECT_EQ(seat["player_id"], "bot:sampling");
  EXPECT_EQ(seat["name"], "bot:sampling");
  EXPECT_EQ(seat["connected"], true);
  EXPECT_FALSE(got[1]["table"]["seats"][0].contains("bot"));
  EXPECT_EQ(got[1]["table"]["status"], "waiting");

  t->remove_bot(member(0), 1, std::int64_t{2});
  run();
  got = take(0);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["request"], "remove_bot");
  EXPECT_TRUE(got[1]["table"]["seats"][1]["player_id"].is_null());
  EXPECT_FALSE(got[1]["table"]["seats"][1].contains("bot"));
  // Without a seat, a bot takes the lowest free one.
  t->add_bot(member(0), std::nullopt, BotLevel::random, {});
  run();
  got = take(0);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1]["table"]["seats"][0]["bot"], "random");
}

TEST_F(TableBotsTest, BotRequestsAreRefusedWithStableCodes) {
  auto t = make();
  auto error_of = [&](std::size_t who) {
    run();
    const std::vector<json> errors = of_type(take(who), "error");
    return errors.size() == 1 ? errors[0]["code"].get<std::string>() : std::string("(no single error)");
  };
  // Someone who is not the owner, even sitting at the table.
  t->sit(member(1), 1, {});
  run();
  take(0);
  take(1);
  t->add_bot(member(1), 0, BotLevel::rules, {});
  EXPECT_EQ(error_of(1), "not_owner");
  t->remove_bot(member(1), 1, {});
  EXPECT_EQ(error_of(1), "not_owner");
  // The owner, with seats that do not exist or are taken, or no bot to remove.
  t->add_bot(member(0), 2, BotLevel::rules, {});
  EXPECT_EQ(error_of(0), "bad_seat");
  t->add_bot(member(0), -1, BotLevel::rules, {});
  EXPECT_EQ(error_of(0), "bad_seat");
  t->add_bot(member(0), 1, BotLevel::rules, {});
  EXPECT_EQ(error_of(0), "seat_taken");
  t->remove_bot(member(0), 1, {});
  EXPECT_EQ(error_of(0), "bad_seat") << "seat 1 holds a player, not a bot";
  t->remove_bot(member(0), 0, {});
  EXPECT_EQ(error_of(0), "bad_seat") << "seat 0 is empty";
  t->remove_bot(member(0), 7, {});
  EXPECT_EQ(error_of(0), "bad_seat");
  // The last seat to a bot: the match starts, and then nothing more can change.
  t->add_bot(member(0), std::nullopt, BotLevel::rules, {});
  run();
  EXPECT_EQ(of_type(take(1), "event").size(), 1u) << "the start event";
  take(0);
  t->add_bot(member(0), std::nullopt, BotLevel::rules, {});
  EXPECT_EQ(error_of(0), "match_started");
  t->remove_bot(member(0), 0, {});
  EXPECT_EQ(error_of(0), "match_started");
}

TEST_F(TableBotsTest, AFullTableRefusesABotWithoutASeat) {
  auto t = make();
  t->sit(member(1), 0, {});
  t->sit(member(2), 1, {});
  run();
  take(0);
  t->add_bot(member(0), std::nullopt, BotLevel::rules, {});
  run();
  const std::vector<json> errors = of_type(take(0), "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]["code"], "match_started") << "a full table has started";
}

TEST_F(TableBotsTest, OneSeatCannotBeGivenTwice) {
  auto t = make();
  // Two requests for seat 1, queued before either is handled: the first wins.
  t->add_bot(member(0), 1, BotLevel::rules, std::int64_t{1});
  t->add_bot(member(0), 1, BotLevel::random, std::int64_t{2});
  // A bot and a player racing for the last seat, the bot first: the last free seat is kept for a
  // person, so the player gets it.
  t->add_bot(member(0), 0, BotLevel::rules, std::int64_t{3});
  t->sit(member(1), 0, std::int64_t{4});
  run();
  const std::vector<json> owner = take(0);
  const std::vector<json> oks = of_type(owner, "ok");
  const std::vector<json> errors = of_type(owner, "error");
  ASSERT_EQ(oks.size(), 1u);
  EXPECT_EQ(oks[0]["id"], 1);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0]["id"], 2);
  EXPECT_EQ(errors[0]["code"], "seat_taken");
  EXPECT_EQ(errors[1]["id"], 3);
  EXPECT_EQ(errors[1]["code"], "bad_seat");
  const std::vector<json> player = take(1);
  EXPECT_EQ(of_type(player, "error").size(), 0u);
  ASSERT_EQ(of_type(player, "seated").size(), 1u);
  EXPECT_EQ(of_type(player, "seated")[0]["seat"], 0);
}

TEST_F(TableBotsTest, ABotPlaysItsSeatOffTheStrandToTheEndOfTheMatch) {
  auto t = make({}, {{1, BotLevel::rules}});
  t->sit(member(0), 0, {});
  run();
  read(take(0));
  ASSERT_FALSE(latest_.is_null());
  int bot_actions = 0;
  int own_actions = 0;
  for (int i = 0; i < 20000 && !over(); ++i) {
    if (current() == 0) {
      EXPECT_TRUE(runner_->jobs.empty()) << "a bot was asked on the player's turn";
      t->act(member(0), first_legal(), {});
      run();
      ++own_actions;
    } else {
      ASSERT_EQ(current(), 1);
      ASSERT_EQ(runner_->jobs.size(), 1u) << "the bot's turn asks the bot once";
      // Until its answer is run, the table has played nothing: it never waits on a bot.
      run();
      const std::vector<json> before = of_type(take(0), "event");
      ASSERT_TRUE(before.empty()) << before.front();
      EXPECT_FALSE(latest_.contains("turn_ms_left")) << "a bot's turn is not timed";
      ASSERT_EQ(runner_->run_all(), 1u);
      run();
      ++bot_actions;
    }
    const std::vector<json> all = take(0);
    const std::vector<json> events = of_type(all, "event");
    ASSERT_EQ(events.size(), 1u) << "one event per action";
    const json& last = events[0]["last_action"];
    if (last["seat"] == 1) {
      EXPECT_EQ(last["by_bot"], "rules") << last;
      EXPECT_FALSE(last.contains("by_server")) << last;
    } else {
      EXPECT_FALSE(last.contains("by_bot")) << last;
    }
    read(all);
  }
  ASSERT_TRUE(over()) << "the match did not end";
  EXPECT_GT(bot_actions, 20);
  EXPECT_GT(own_actions, 20);
  // The journal was told which actions the bot chose.
  ASSERT_EQ(journal_->bots.size(), static_cast<std::size_t>(bot_actions + own_actions));
  EXPECT_EQ(std::count(journal_->bots.begin(), journal_->bots.end(), std::optional<BotLevel>(BotLevel::rules)),
            bot_actions);
  EXPECT_EQ(journal_->end, MatchEnd::finished);
}

// A player who leaves a match against a bot leaves nobody at the table: it closes, and the match
// ends as abandoned by the empty seat's side (a forfeit), once, instead of staying "in play" in
// the store for ever. A bot's answer that comes after the close plays nothing.
TEST_F(TableBotsTest, AMatchLeftToABotEndsAbandonedWhenItsTableCloses) {
  auto t = make({}, {{1, BotLevel::rules}});
  t->sit(member(0), 0, {});
  run();
  read(take(0));
  // Play until it is the bot's turn, its answer not yet run.
  for (int i = 0; i < 200 && current() == 0 && !over(); ++i) {
    t->act(member(0), first_legal(), {});
    run();
    read(take(0));
  }
  ASSERT_FALSE(over());
  ASSERT_EQ(runner_->jobs.size(), 1u);
  const std::size_t actions = journal_->seqs.size();
  // Standing up leaves the player watching: the table stays open and the match waits.
  t->stand(member(0), {});
  run();
  EXPECT_EQ(journal_->ends, 0);
  take(0);
  t->leave(member(0), {});
  run();
  ASSERT_EQ(journal_->ends, 1);
  EXPECT_EQ(journal_->end, MatchEnd::abandoned);
  EXPECT_EQ(journal_->winner, std::optional<int>(1)) << "seat 0 left: team 1 wins";
  ASSERT_EQ(runner_->run_all(), 1u);
  run();
  EXPECT_EQ(journal_->seqs.size(), actions) << "an answer after the close is not played";
  EXPECT_EQ(journal_->ends, 1);
}

// Both players leave a match, one after the other: with empty seats on both sides nobody is to
// blame, and the match ends abandoned with no winner.
TEST_F(TableBotsTest, AMatchLeftByBothSidesEndsWithNoWinner) {
  auto t = make();
  t->sit(member(0), 0, {});
  t->sit(member(1), 1, {});
  run();
  EXPECT_EQ(journal_->matches, 1) << "the match started";
  t->leave(member(1), {});
  run();
  EXPECT_EQ(journal_->ends, 0) << "seat 0's player is still there";
  t->leave(member(0), {});
  run();
  ASSERT_EQ(journal_->ends, 1);
  EXPECT_EQ(journal_->end, MatchEnd::abandoned);
  EXPECT_EQ(journal_->winner, std::nullopt);
}

// The owner may seat bots in every seat but one: the last is left for a person, who then starts
// the match by sitting. A table of bots alone would play, be stored and rated with nobody in it.
TEST_F(TableBotsTest, TheLastFreeSeatIsLeftForAPerson) {
  auto t = make();
  t->add_bot(member(0), 0, BotLevel::random, {});
  run();
  take(0);
  t->add_bot(member(0), 1, BotLevel::random, {});
  run();
  const std::vector<json> errors = of_type(take(0), "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]["code"], "bad_seat") << errors[0];
  t->add_bot(member(0), std::nullopt, BotLevel::random, {});
  run();
  EXPECT_EQ(of_type(take(0), "error").size(), 1u) << "without a seat named, the same refusal";
  EXPECT_EQ(journal_->matches, 0) << "no match of bots alone";
  t->sit(member(0), 1, {});
  run();
  EXPECT_EQ(journal_->matches, 1) << "the person's sitting starts the match";
}

TEST_F(TableBotsTest, AnAbsentPlayersSeatIsPlayedByTheTablesBotAndGivenBack) {
  protocol::TableSettings settings;
  settings.bot_level = BotLevel::random;
  auto t = make(settings);
  t->sit(member(1), 0, {});
  t->sit(member(2), 1, {});
  run();
  take(0);
  take(2);
  for (json& e : of_type(take(1), "event")) latest_ = std::move(e);
  // Seat 1's connection drops; seat 0 keeps playing.
  t->detach(member(2).conn);
  run();
  take(1);
  auto read1 = [&] {
    const std::vector<json> events = of_type(take(1), "event");
    for (const json& e : events) latest_ = e;
    return events;
  };
  auto act0 = [&] {
    const auto p = protocol::parse_action(latest_["observation"]["legal"].at(0));
    ASSERT_TRUE(p.value.has_value());
    t->act(member(1), *p.value, {});
    run();
    ASSERT_EQ(read1().size(), 1u);
  };
  int played_for = 0;
  for (int i = 0; i < 200 && played_for < 3 && !over(); ++i) {
    if (current() == 0) {
      act0();
      continue;
    }
    EXPECT_TRUE(runner_->jobs.empty()) << "asked before the absent delay";
    advance(Table::kAbsentDelay);
    ASSERT_EQ(runner_->run_all(), 1u);
    run();
    const std::vector<json> events = read1();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0]["last_action"]["seat"], 1);
    EXPECT_EQ(events[0]["last_action"]["by_server"], true);
    EXPECT_EQ(events[0]["last_action"]["by_bot"], "random");
    ++played_for;
  }
  ASSERT_EQ(played_for, 3);
  while (current() != 1 && !over()) act0();
  ASSERT_FALSE(over());

  // The bot is asked; before its answer comes, the player is back and acts: the answer is stale.
  advance(Table::kAbsentDelay);
  ASSERT_EQ(runner_->jobs.size(), 1u);
  Member back = member(2);
  back.conn = 99;
  t->sit(back, std::nullopt, {}, latest_["seq"].get<std::uint64_t>());
  run();
  std::vector<json> mine;
  for (const auto& text : peers_[2]->take()) mine.push_back(json::parse(*text));
  ASSERT_FALSE(of_type(mine, "seated").empty());
  EXPECT_EQ(of_type(mine, "seated")[0]["resumed"], true);
  const json now = of_type(mine, "event").back();
  const auto p = protocol::parse_action(now["observation"]["legal"].at(0));
  ASSERT_TRUE(p.value.has_value());
  t->act(back, *p.value, {});
  run();
  const std::uint64_t seq_after_own = latest_["seq"].get<std::uint64_t>() + 1;
  std::vector<json> events = read1();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["seq"], seq_after_own);
  EXPECT_FALSE(events[0]["last_action"].contains("by_bot"));
  EXPECT_FALSE(events[0]["last_action"].contains("by_server"));
  runner_->run_all();
  run();
  EXPECT_TRUE(read1().empty()) << "a stale bot answer was applied";
  // The player is back: its next turn is timed again and no bot is asked.
  while (current() != 1 && !over()) act0();
  if (!over()) {
    run();
    EXPECT_TRUE(runner_->jobs.empty());
    EXPECT_TRUE(latest_.contains("turn_ms_left"));
  }
}

// With the workers full, a sampling seat is played by the rules bot on the strand, and the event
// names the level that chose (the rules bot decides in microseconds; the sampling bot searches).
TEST_F(TableBotsTest, WithNoRoomForTheSamplingBotTheRulesBotChoosesOnTheStrand) {
  runner_->full = true;
  auto t = make({}, {{1, BotLevel::sampling}});
  t->sit(member(0), 0, {});
  run();
  std::vector<json> stood_in;
  play_seat0_until_seat1_acted(*t, 3, stood_in);
  for (const json& a : stood_in) {
    EXPECT_EQ(a.value("by_bot", ""), "rules") << a;
    EXPECT_FALSE(a.contains("by_server")) << a;
  }
  EXPECT_GE(stood_in.size(), 3u);
  EXPECT_TRUE(runner_->jobs.empty());
}

// A random seat stands for itself. The random bot draws a fresh seed for each stand-in, so how
// many actions it takes in a row (a bid, a trick it wins and leads again) differs from run to run.
TEST_F(TableBotsTest, WithNoRoomTheRandomBotStillChooses) {
  runner_->full = true;
  auto t = make({}, {{1, BotLevel::random}});
  t->sit(member(0), 0, {});
  run();
  std::vector<json> seen;
  play_seat0_until_seat1_acted(*t, 3, seen);
  for (const json& a : seen) EXPECT_EQ(a.value("by_bot", ""), "random") << a;
  EXPECT_GE(seen.size(), 3u);
  EXPECT_TRUE(runner_->jobs.empty());
}

// An absent player's seat is played by the table's bot (rules by default) on the strand, still
// marked as the server's.
TEST_F(TableBotsTest, WithNoRoomTheTablesBotPlaysForAnAbsentPlayer) {
  runner_->full = true;
  auto t = make();
  t->sit(member(1), 0, {});
  t->sit(member(2), 1, {});
  run();
  take(2);
  read(of_type(take(1), "event"));
  t->detach(member(2).conn);
  run();
  take(1);
  int played_for = 0;
  for (int i = 0; i < 200 && played_for < 3 && !over(); ++i) {
    if (current() == 0) {
      const auto p = protocol::parse_action(latest_["observation"]["legal"].at(0));
      ASSERT_TRUE(p.value.has_value());
      t->act(member(1), *p.value, {});
      run();
    } else {
      advance(Table::kAbsentDelay);
      const std::vector<json> events = of_type(take(1), "event");
      ASSERT_EQ(events.size(), 1u);
      EXPECT_EQ(events[0]["last_action"]["seat"], 1);
      EXPECT_EQ(events[0]["last_action"]["by_server"], true);
      EXPECT_EQ(events[0]["last_action"].value("by_bot", ""), "rules");
      ++played_for;
      read(events);
      continue;
    }
    read(of_type(take(1), "event"));
  }
  EXPECT_EQ(played_for, 3);
  EXPECT_TRUE(runner_->jobs.empty());
}

}  // namespace
}  // namespace atout::server::testing
