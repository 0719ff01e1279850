// Profiles, leaderboards, histories and replays over WebSocket and HTTP: happy paths, every
// error, and nothing private in any reply.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "atout/fair_deal.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// The per-address limit on /api/ reads is tested on its own (lobby_bounds_test); this test makes
// more reads at once than its default burst allows.
Config roomy_reads() {
  Config c;
  c.http_burst = 200;
  return c;
}

struct AccessFixture {
  LiveServer server{roomy_reads()};
  MessageLog log;
  Rng rng{Seed{0xACCu, 7}};
  TableRun finished;  // a rated `simple` match played to its end
  TableRun running;   // a private `french` match part way, its hand in progress
  std::unique_ptr<TestClient> asker;
  std::unique_ptr<TestClient> bad_asker;  // deliberately bad requests, kept out of the schema log
  std::vector<std::string> bodies;        // every reply, to look for secrets

  AccessFixture() {
    finished = open_table(server.port(), "simple", json::object(), false, "fin", &log);
    while (!finished.result && !::testing::Test::HasFatalFailure() && !finished.table_id.empty())
      if (!step(finished, rng)) break;
    running = open_table(server.port(), "french", json::object(), true, "run", &log);
    for (int i = 0; i < 45 && !running.table_id.empty(); ++i)
      if (!step(running, rng)) break;
    asker = std::make_unique<TestClient>(server.port(), &log);
    asker->hello("asker");
    bad_asker = std::make_unique<TestClient>(server.port(), nullptr);
    bad_asker->hello("bad-asker");
    // The end of the finished match and the running match's actions are committed.
    eventually([&] {
      return db_text(server.db(), "SELECT COALESCE(end_reason, '') FROM matches WHERE uid = '" + finished.match_id +
                                      "'") == "finished" &&
             stored_action_count(server.db(), running.match_id) == static_cast<std::int64_t>(running.sent.size());
    });
  }

  json ask(json request) {
    json r = asker->request(std::move(request));
    bodies.push_back(r.dump());
    return r;
  }
  json ask_bad(json request) {
    json r = bad_asker->request(std::move(request));
    bodies.push_back(r.dump());
    return r;
  }
  HttpReply get(const std::string& target) {
    HttpReply r = http_get(server.port(), target);
    bodies.push_back(r.body);
    if (r.status == 200) log.add('S', r.body);
    return r;
  }
};

void expect_error(const json& reply, const std::string& code, const std::string& field = {}) {
  EXPECT_EQ(reply["type"], "error") << reply;
  EXPECT_EQ(reply["code"], code) << reply;
  if (!field.empty()) {
    EXPECT_EQ(reply["field"], field) << reply;
  }
  EXPECT_FALSE(reply.value("message", "").empty()) << reply;
}

void expect_http_error(const HttpReply& r, unsigned status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  const json j = json::parse(r.body, nullptr, false);
  EXPECT_EQ(j["error"], code) << r.body;
  EXPECT_FALSE(j.value("message", "").empty()) << r.body;
}

// One answer for one state: a match is known from the moment its id is. Asked for at once, over
// either transport, its replay is "not finished yet", never "no such match".
TEST(PersistAccessLoopback, AReplayAskedRightAfterTheStartIsNotFinishedNeverUnknown) {
  LiveServer server;
  MessageLog log;
  for (int i = 0; i < 5; ++i) {
    TableRun t = open_table(server.port(), "duel", json::object(), false, "early" + std::to_string(i), &log);
    ASSERT_FALSE(t.match_id.empty());
    expect_error(t.seats[0].client->request({{"type", "get_replay"}, {"match_id", t.match_id}}), "match_not_finished");
    expect_http_error(http_get(server.port(), "/api/matches/" + t.match_id + "/replay"), 409, "match_not_finished");
  }
  EXPECT_TRUE(log.validate());
}

TEST(PersistAccessLoopback, ProfilesLeaderboardsHistoriesAndReplaysOverBothTransportsAndNoSecretLeaks) {
  AccessFixture f;
  ASSERT_TRUE(f.finished.result.has_value());
  ASSERT_FALSE(f.running.result.has_value());
  const std::string winner_id = f.finished.seats[(*f.finished.result)["winner"].get<std::size_t>()].player_id;
  const std::string p0 = f.finished.seats[0].player_id;

  // ---- profile
  const json profile = f.ask({{"type", "get_profile"}, {"player_id", p0}});
  EXPECT_EQ(profile["type"], "profile") << profile;
  EXPECT_EQ(profile["player_id"], p0);
  EXPECT_EQ(profile["name"], "fin-0");
  ASSERT_EQ(profile["ratings"].size(), 1u);
  EXPECT_EQ(profile["ratings"][0]["ladder"], "simple");
  EXPECT_EQ(profile["ratings"][0]["matches"], 1);
  const HttpReply profile_http = f.get("/api/players/" + p0);
  EXPECT_EQ(profile_http.status, 200u);
  json profile_without_id = profile;
  profile_without_id.erase("id");
  EXPECT_EQ(json::parse(profile_http.body), profile_without_id) << profile_http.body;
  // A player who never played a rated match has a profile and no ratings.
  const json asker_profile = f.ask({{"type", "get_profile"}, {"player_id", f.running.seats[0].player_id}});
  EXPECT_EQ(asker_profile["ratings"], json::array());
  expect_error(f.ask({{"type", "get_profile"}, {"player_id", "p-nobody"}}), "unknown_player");
  expect_error(f.ask_bad({{"type", "get_profile"}}), "missing_field", "player_id");
  expect_http_error(f.get("/api/players/p-nobody"), 404, "unknown_player");
  expect_http_error(f.get("/api/players/"), 400, "invalid_field");

  // ---- leaderboard
  const json board = f.ask({{"type", "get_leaderboard"}, {"ladder", "simple"}});
  EXPECT_EQ(board["type"], "leaderboard") << board;
  EXPECT_EQ(board["total"], 2);
  EXPECT_EQ(board["offset"], 0);
  EXPECT_EQ(board["limit"], protocol::Page::kDefaultLimit);
  ASSERT_EQ(board["entries"].size(), 2u);
  EXPECT_EQ(board["entries"][0]["rank"], 1);
  EXPECT_EQ(board["entries"][0]["player_id"], winner_id);
  EXPECT_GT(board["entries"][0]["ordinal"].get<double>(), board["entries"][1]["ordinal"].get<double>());
  const json page2 = f.ask({{"type", "get_leaderboard"}, {"ladder", "simple"}, {"offset", 1}, {"limit", 1}});
  ASSERT_EQ(page2["entries"].size(), 1u);
  EXPECT_EQ(page2["entries"][0]["rank"], 2);
  EXPECT_EQ(page2["entries"][0], board["entries"][1]);
  const json past_end = f.ask({{"type", "get_leaderboard"}, {"ladder", "simple"}, {"offset", 5}});
  EXPECT_EQ(past_end["entries"], json::array());
  EXPECT_EQ(past_end["total"], 2);
  const json empty_ladder = f.ask({{"type", "get_leaderboard"}, {"ladder", "coinche"}});
  EXPECT_EQ(empty_ladder["entries"], json::array());
  expect_error(f.ask({{"type", "get_leaderboard"}, {"ladder", "poker"}}), "unknown_ladder");
  expect_error(f.ask_bad({{"type", "get_leaderboard"}, {"ladder", "simple"}, {"limit", 0}}), "invalid_field", "limit");
  expect_error(f.ask_bad({{"type", "get_leaderboard"}, {"ladder", "simple"}, {"limit", 101}}), "invalid_field",
               "limit");
  expect_error(f.ask_bad({{"type", "get_leaderboard"}, {"ladder", "simple"}, {"offset", -1}}), "invalid_field",
               "offset");
  const HttpReply board_http = f.get("/api/leaderboard/simple?offset=1&limit=1");
  EXPECT_EQ(board_http.status, 200u);
  EXPECT_EQ(json::parse(board_http.body)["entries"], page2["entries"]);
  expect_http_error(f.get("/api/leaderboard/poker"), 404, "unknown_ladder");
  expect_http_error(f.get("/api/leaderboard/simple?limit=1000"), 400, "invalid_field");
  expect_http_error(f.get("/api/leaderboard/simple?limit=ten"), 400, "invalid_field");
  expect_http_error(f.get("/api/leaderboard/simple?offset=-3"), 400, "invalid_field");

  // ---- history
  const json history = f.ask({{"type", "get_history"}, {"player_id", p0}});
  EXPECT_EQ(history["type"], "history") << history;
  ASSERT_EQ(history["matches"].size(), 1u);
  const json& m = history["matches"][0];
  EXPECT_EQ(m["match_id"], f.finished.match_id);
  EXPECT_EQ(m["variant"], "simple");
  EXPECT_EQ(m["seat"], 0);
  EXPECT_EQ(m["end_reason"], "finished");
  EXPECT_EQ(m["match_score"], (*f.finished.result)["match_score"]);
  EXPECT_EQ(m["winner"], (*f.finished.result)["winner"]);
  // The running match is private: until it ends, only its own players see it in a history.
  const std::string p2 = f.running.seats[2].player_id;
  EXPECT_EQ(f.ask({{"type", "get_history"}, {"player_id", p2}})["matches"], json::array());
  const HttpReply private_http = f.get("/api/players/" + p2 + "/matches");
  EXPECT_EQ(private_http.status, 200u);
  EXPECT_EQ(json::parse(private_http.body)["matches"], json::array()) << private_http.body;
  const json running = f.running.seats[0].client->request({{"type", "get_history"}, {"player_id", p2}});
  f.bodies.push_back(running.dump());
  ASSERT_EQ(running["matches"].size(), 1u) << running;
  EXPECT_EQ(running["matches"][0]["match_id"], f.running.match_id);
  EXPECT_EQ(running["matches"][0]["seat"], 2);
  EXPECT_TRUE(running["matches"][0]["ended_at"].is_null());
  EXPECT_TRUE(running["matches"][0]["end_reason"].is_null());
  EXPECT_TRUE(running["matches"][0]["winner"].is_null());
  EXPECT_EQ(f.ask({{"type", "get_history"}, {"player_id", p0}, {"offset", 1}})["matches"], json::array());
  expect_error(f.ask({{"type", "get_history"}, {"player_id", "p-nobody"}}), "unknown_player");
  expect_error(f.ask_bad({{"type", "get_history"}, {"player_id", p0}, {"limit", "5"}}), "invalid_field", "limit");
  const HttpReply history_http = f.get("/api/players/" + p0 + "/matches?limit=5");
  EXPECT_EQ(history_http.status, 200u);
  EXPECT_EQ(json::parse(history_http.body)["matches"], history["matches"]);
  expect_http_error(f.get("/api/players/p-nobody/matches"), 404, "unknown_player");
  expect_http_error(f.get("/api/players/" + p0 + "/matches?offset=2000000"), 400, "invalid_field");

  // ---- replay
  const json replay = f.ask({{"type", "get_replay"}, {"match_id", f.finished.match_id}});
  EXPECT_EQ(replay["type"], "replay") << replay;
  EXPECT_EQ(replay["format"], "atout-record/1");
  EXPECT_EQ(replay["actions"].size(), f.finished.sent.size());
  EXPECT_EQ(replay["seats"].size(), 2u);
  EXPECT_TRUE(replay["deal"].contains("seed"));
  ASSERT_FALSE(replay["deals"].empty());
  // The first deal's commitment is the one the players were shown, and the revealed seed opens it.
  EXPECT_EQ(replay["deals"][0]["commitment"], f.finished.first_commitment);
  const auto first_seed = Seed::parse(replay["deals"][0]["seed"].get<std::string>());
  ASSERT_TRUE(first_seed.has_value());
  EXPECT_EQ(atout::deal_commitment(*first_seed, f.finished.match_id, 0), f.finished.first_commitment);
  // Each deal carries its hand's result, the very one the players were sent when it ended.
  const json& hands = (*f.finished.result)["hands"];
  ASSERT_EQ(replay["deals"].size(), hands.size()) << replay["deals"];
  for (std::size_t i = 0; i < hands.size(); ++i) EXPECT_EQ(replay["deals"][i]["result"], hands[i]) << i;
  const HttpReply replay_http = f.get("/api/matches/" + f.finished.match_id + "/replay");
  EXPECT_EQ(replay_http.status, 200u);
  // Exported over HTTP, the replay passes `atout replay` and gives the stored score.
  const json checked = run_atout_replay(json::parse(replay_http.body));
  ASSERT_FALSE(checked.contains("error")) << checked;
  EXPECT_EQ(checked["complete"], true);
  EXPECT_EQ(checked["match_score"], replay["match_score"]);
  EXPECT_EQ(checked["winner"], replay["winner"]);
  expect_error(f.ask({{"type", "get_replay"}, {"match_id", f.running.match_id}}), "match_not_finished");
  expect_error(f.ask({{"type", "get_replay"}, {"match_id", "no-such-match"}}), "unknown_match");
  expect_error(f.ask_bad({{"type", "get_replay"}}), "missing_field", "match_id");
  expect_http_error(f.get("/api/matches/" + f.running.match_id + "/replay"), 409, "match_not_finished");
  expect_http_error(f.get("/api/matches/no-such-match/replay"), 404, "unknown_match");
  expect_http_error(f.get("/api/matches//replay"), 400, "invalid_field");
  expect_http_error(f.get("/api/matches/" + std::string(65, 'a') + "/replay"), 400, "invalid_field");
  EXPECT_EQ(f.get("/api/nothing").status, 404u);

  // ---- analysis: every card of a played deal, valued with every hand known
  // Each deal names its taker (null when all passed); the first deal with cards played is checked
  // card by card.
  int deal = -1;
  json analysis;
  for (std::size_t i = 0; i < hands.size(); ++i) {
    const json a = f.ask({{"type", "get_analysis"}, {"match_id", f.finished.match_id}, {"deal_number", i}});
    EXPECT_EQ(a["type"], "analysis") << a;
    EXPECT_EQ(a["deal_number"], i);
    const json& contract = hands[i]["contract"];
    EXPECT_EQ(a["declarer"], contract.is_null() ? json(nullptr) : contract["taker"]) << i;
    if (deal < 0 && !a["plays"].empty()) {
      deal = static_cast<int>(i);
      analysis = a;
    }
  }
  ASSERT_GE(deal, 0) << "no deal of the finished match had a card played";
  const json& plays = analysis["plays"];
  ASSERT_FALSE(plays.empty());
  const json& actions = replay["actions"];
  std::size_t k = 0;
  for (std::size_t i = plays.front()["action"]; i <= plays.back()["action"]; ++i) {
    // Every card of the deal is there, in order, as the replay has it.
    if (actions[i]["type"] != "play") continue;
    ASSERT_LT(k, plays.size());
    const json& p = plays[k];
    EXPECT_EQ(p["action"], i);
    EXPECT_EQ(p["seat"], actions[i]["seat"]);
    EXPECT_EQ(p["card"], actions[i]["card"]);
    EXPECT_EQ(p["cost"], std::abs(p["best"].get<int>() - p["value"].get<int>()));
    const bool best = std::find(p["best_cards"].begin(), p["best_cards"].end(), p["card"]) != p["best_cards"].end();
    EXPECT_EQ(best, p["cost"] == 0) << p;
    // With best play after each card, the next seat's best is what this card left.
    if (k + 1 < plays.size()) {
      EXPECT_EQ(plays[k + 1]["best"], p["value"]) << k;
    }
    ++k;
  }
  EXPECT_EQ(k, plays.size());
  const HttpReply analysis_http =
      f.get("/api/matches/" + f.finished.match_id + "/analysis?deal=" + std::to_string(deal));
  EXPECT_EQ(analysis_http.status, 200u);
  EXPECT_EQ(json::parse(analysis_http.body)["plays"], plays);
  const int past = static_cast<int>(replay["deals"].size());
  expect_error(f.ask({{"type", "get_analysis"}, {"match_id", f.finished.match_id}, {"deal_number", past}}),
               "invalid_field", "deal_number");
  expect_error(f.ask({{"type", "get_analysis"}, {"match_id", f.running.match_id}, {"deal_number", 0}}),
               "match_not_finished");
  expect_error(f.ask({{"type", "get_analysis"}, {"match_id", "no-such-match"}, {"deal_number", 0}}), "unknown_match");
  expect_error(f.ask_bad({{"type", "get_analysis"}, {"match_id", f.finished.match_id}}), "missing_field",
               "deal_number");
  expect_error(f.ask_bad({{"type", "get_analysis"}, {"match_id", f.finished.match_id}, {"deal_number", -1}}),
               "invalid_field", "deal_number");
  expect_error(f.ask_bad({{"type", "get_analysis"}, {"deal_number", 0}}), "missing_field", "match_id");
  const std::string base = "/api/matches/" + f.finished.match_id + "/analysis";
  // Over HTTP the deal is the query's `deal`, and the errors name it so.
  for (const std::string& query :
       std::vector<std::string>{"", "?deal=one", "?deal=10000", "?deal=-1", "?deal=" + std::to_string(past)}) {
    const HttpReply r = f.get(base + query);
    expect_http_error(r, 400, query.empty() ? "missing_field" : "invalid_field");
    const json j = json::parse(r.body, nullptr, false);
    EXPECT_EQ(j.value("field", ""), "deal") << query << ": " << r.body;
    EXPECT_EQ(j.value("message", "").find("deal_number"), std::string::npos) << r.body;
  }
  expect_http_error(f.get("/api/matches/" + f.running.match_id + "/analysis?deal=0"), 409, "match_not_finished");
  expect_http_error(f.get("/api/matches/no-such-match/analysis?deal=0"), 404, "unknown_match");

  // ---- nothing private in any reply: no token, no seed or invite of the running match
  std::vector<std::string> secrets;
  for (const TableRun* t : {&f.finished, &f.running})
    for (const SeatPlayer& p : t->seats) secrets.push_back(p.token);
  const std::string seed =
      db_text(f.server.db(), "SELECT match_seed FROM matches WHERE uid = '" + f.running.match_id + "'");
  ASSERT_EQ(seed.size(), 32u);
  secrets.push_back(seed);
  const std::string hand_seed =
      db_text(f.server.db(), "SELECT h.seed FROM hands h JOIN matches m ON m.id = h.match_id WHERE m.uid = '" +
                                 f.running.match_id + "' AND h.revealed = 0");
  ASSERT_EQ(hand_seed.size(), 32u) << "the running match should have a hand in progress";
  secrets.push_back(hand_seed);
  ASSERT_TRUE(f.running.invite.has_value());
  secrets.push_back(*f.running.invite);
  for (const std::string& body : f.bodies) {
    EXPECT_EQ(body.find("\"token\""), std::string::npos) << body;
    for (const std::string& s : secrets) EXPECT_EQ(body.find(s), std::string::npos) << s << " leaked in " << body;
  }
  EXPECT_TRUE(f.log.validate());
}

TEST(PersistAccessLoopback, RequestsNeedAHello) {
  LiveServer server;
  TestClient c(server.port(), nullptr);
  const json r = c.request({{"type", "get_profile"}, {"player_id", "p1"}});
  expect_error(r, "hello_required");
}

}  // namespace
}  // namespace atout::server::testing
