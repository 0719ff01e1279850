// Bots at tables over real loopback sockets: a match against three server bots started with one
// request and played to its end by one client, bots seated and refused over the wire, and the
// bots' actions attributed in events, the replay and the leaderboard.
#include <gtest/gtest.h>

#include <chrono>

#include "persist_support.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

TEST(LiveBots, AMatchAgainstThreeBotsIsOneRequestAndPlaysToTheEnd) {
  LiveServer server;
  MessageLog log;
  TestClient c(server.port(), &log);
  const json me = c.hello("solo");
  const auto before_match =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  const json created = c.request(
      {{"type", "create_table"}, {"variant", "bazar"}, {"options", {{"target", 51}}}, {"bots", {{"level", "rules"}}}});
  ASSERT_EQ(created["type"], "table_created") << created;
  const std::string table_id = created["table"]["table_id"];
  const json& seats = created["table"]["seats"];
  EXPECT_TRUE(seats[0]["player_id"].is_null());
  for (int s = 1; s < 4; ++s) {
    EXPECT_EQ(seats[s]["bot"], "rules") << seats[s];
    EXPECT_EQ(seats[s]["player_id"], "bot:rules") << seats[s];
  }
  const json seated = c.wait_for("seated");
  EXPECT_EQ(seated["seat"], 0);
  EXPECT_EQ(seated["table_id"], table_id);

  std::uint64_t seq = 0;
  int bot_actions = 0;
  int own_actions = 0;
  std::string match_id;
  json last;
  for (int i = 0; i < 20000; ++i) {
    last = c.wait_for("event");
    ASSERT_EQ(last["type"], "event");
    ASSERT_EQ(last["seq"].get<std::uint64_t>(), seq + 1) << "an event was lost or repeated";
    seq = last["seq"];
    if (last.contains("commitment")) match_id = last["commitment"]["match_id"];
    if (last["last_action"].is_object()) {
      const json& a = last["last_action"];
      if (a["seat"] == 0) {
        EXPECT_FALSE(a.contains("by_bot")) << a;
        ++own_actions;
      } else {
        EXPECT_EQ(a["by_bot"], "rules") << a;
        EXPECT_FALSE(a.contains("by_server")) << a;
        ++bot_actions;
      }
    }
    if (last.contains("match_result")) break;
    if (last["observation"]["current"] == 0) {
      const json& legal = last["observation"]["legal"];
      ASSERT_FALSE(legal.empty()) << last;
      c.send({{"type", "action"}, {"table_id", table_id}, {"action", legal[0]}});
      const json ack = c.wait_for("accepted");
      EXPECT_EQ(ack["seq"].get<std::uint64_t>(), seq + 1);
    }
  }
  ASSERT_TRUE(last.contains("match_result")) << "the match did not end";
  EXPECT_GT(bot_actions, 3 * own_actions / 2) << "three bots play three times as often as one player";
  EXPECT_GT(own_actions, 5);

  // The replay names the bots' seats and every action a bot chose.
  ASSERT_FALSE(match_id.empty());
  // The match's end reaches the store a commit after the last event (docs/operations.md, the
  // durability promise): until then the replay is refused as match_not_finished.
  json replay;
  eventually([&] {
    replay = c.request({{"type", "get_replay"}, {"match_id", match_id}});
    return replay["type"] != "error" || replay["code"] != "match_not_finished";
  });
  ASSERT_EQ(replay["type"], "replay") << replay;
  EXPECT_EQ(replay["seats"][0]["player_id"], me["player_id"]);
  EXPECT_EQ(replay["seats"][2]["player_id"], "bot:rules");
  ASSERT_EQ(replay["bot_actions"].size(), static_cast<std::size_t>(bot_actions));
  for (const json& b : replay["bot_actions"]) {
    EXPECT_EQ(b["by_bot"], "rules");
    EXPECT_NE(replay["actions"][b["action"].get<std::size_t>()]["seat"], 0) << b;
  }
  // The bot is a rated player on the variant's ladder.
  const json board = c.request({{"type", "get_leaderboard"}, {"ladder", "bazar"}});
  ASSERT_EQ(board["type"], "leaderboard") << board;
  bool listed = false;
  for (const json& e : board["entries"]) listed = listed || e["player_id"] == "bot:rules";
  EXPECT_TRUE(listed) << board;
  const json profile = c.request({{"type", "get_profile"}, {"player_id", "bot:rules"}});
  EXPECT_EQ(profile["type"], "profile") << profile;
  // Made when the database was: not at the Unix epoch.
  EXPECT_GT(profile.value("created_at", std::int64_t{0}), std::int64_t{1'600'000'000'000}) << profile;
  // Seen last when it sat down to this match: a bot says no hello to be seen by.
  EXPECT_GE(profile.value("last_seen", std::int64_t{0}), before_match) << profile;
  // Over HTTP as a browser asks for it (encodeURIComponent writes the colon as %3A), and as written.
  for (const std::string path : {"/api/players/bot%3Arules", "/api/players/bot%3arules", "/api/players/bot:rules"}) {
    const HttpReply http_profile = http_get(server.port(), path);
    EXPECT_EQ(http_profile.status, 200u) << path << ": " << http_profile.body;
    EXPECT_EQ(json::parse(http_profile.body).value("player_id", ""), "bot:rules") << path;
  }
  const HttpReply history = http_get(server.port(), "/api/players/bot%3Arules/matches");
  EXPECT_EQ(history.status, 200u) << history.body;
  EXPECT_EQ(json::parse(history.body).value("player_id", ""), "bot:rules") << history.body;
  // A % that does not start an escape is refused as a bad path, never looked up.
  for (const std::string path : {"/api/players/bot%3", "/api/players/bot%zzrules", "/api/players/%/matches"}) {
    const HttpReply bad = http_get(server.port(), path);
    EXPECT_EQ(bad.status, 400u) << path;
    EXPECT_EQ(json::parse(bad.body).value("error", ""), "bad_path") << path << ": " << bad.body;
  }
  // Every bot decision was counted and timed, and none is waiting.
  const HttpReply metrics = http_get(server.port(), "/metrics");
  auto value = [&](const std::string& key) {
    const std::size_t at = metrics.body.find("\n" + key + " ");
    return at == std::string::npos ? -1.0 : std::stod(metrics.body.substr(at + key.size() + 2));
  };
  EXPECT_GE(value(R"(atout_bot_decisions_total{level="rules"})"), bot_actions);
  EXPECT_EQ(value(R"(atout_bot_decisions_total{level="sampling"})"), 0);
  EXPECT_GE(value("atout_bot_decision_seconds_count"), bot_actions);
  EXPECT_EQ(value("atout_bot_queue_depth"), 0);
  EXPECT_TRUE(log.validate());
}

TEST(LiveBots, BotsAreSeatedOnlyByTheOwnerBeforeTheMatchAndOnlyInAFreeSeat) {
  LiveServer server;
  MessageLog log;
  TestClient owner(server.port(), &log);
  TestClient other(server.port(), &log);
  owner.hello("owner");
  other.hello("other");
  const json created = owner.request({{"type", "create_table"}, {"variant", "duel"}});
  ASSERT_EQ(created["type"], "table_created");
  const std::string id = created["table"]["table_id"];
  auto code = [](const json& reply) { return reply["type"] == "error" ? reply["code"] : reply["type"]; };

  EXPECT_EQ(code(other.request({{"type", "add_bot"}, {"table_id", id}, {"seat", 1}})), "not_owner");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", "t999999"}, {"seat", 1}})), "unknown_table");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", id}, {"seat", 2}})), "bad_seat");
  EXPECT_EQ(code(owner.request_unlogged({{"type", "add_bot"}, {"table_id", id}, {"level", "grandmaster"}})),
            "unknown_bot_level");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", id}, {"seat", 1}, {"level", "random"}})), "ok");
  EXPECT_EQ(code(other.request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})), "seat_taken");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", id}, {"seat", 1}})), "seat_taken");
  EXPECT_EQ(code(owner.request({{"type", "remove_bot"}, {"table_id", id}, {"seat", 0}})), "bad_seat");
  EXPECT_EQ(code(owner.request({{"type", "remove_bot"}, {"table_id", id}, {"seat", 1}})), "ok");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", id}, {"seat", 1}})), "ok");
  // The owner's own sit fills the table: the match starts, and bots stay as they are.
  EXPECT_EQ(code(owner.request({{"type", "sit"}, {"table_id", id}, {"seat", 0}})), "seated");
  owner.wait_for("event");
  EXPECT_EQ(code(owner.request({{"type", "remove_bot"}, {"table_id", id}, {"seat", 1}})), "match_started");
  EXPECT_EQ(code(owner.request({{"type", "add_bot"}, {"table_id", id}})), "match_started");
  EXPECT_TRUE(log.validate());
}

TEST(LiveBots, CreateTableRefusesBadBotSeats) {
  LiveServer server;
  MessageLog log;
  TestClient c(server.port(), &log);
  c.hello("maker");
  auto code = [&](json bots) {
    const json r = c.request_unlogged({{"type", "create_table"}, {"variant", "duel"}, {"bots", std::move(bots)}});
    return r["type"] == "error" ? r["code"].get<std::string>() : r["type"].get<std::string>();
  };
  EXPECT_EQ(code({{"seats", {0, 1}}}), "bad_seat") << "no seat left for the creator";
  EXPECT_EQ(code({{"seats", json::array({2})}}), "bad_seat") << "duel has seats 0 and 1";
  EXPECT_EQ(code({{"level", "oracle"}}), "unknown_bot_level");
  EXPECT_EQ(code({{"seats", {1, 1}}}), "invalid_field");
  // Seat 0 to a bot: the creator takes seat 1, which starts the match.
  EXPECT_EQ(code({{"seats", json::array({0})}}), "table_created");
  const json seated = c.wait_for("seated");
  EXPECT_EQ(seated["seat"], 1);
  EXPECT_EQ(c.wait_for("event")["kind"], "start");
  EXPECT_TRUE(log.validate());
}

}  // namespace
}  // namespace atout::server::testing
