// Live play over real loopback sockets: turn timers and auto-play, away marks,
// reconnection (replayed events or a snapshot), replaced connections, reconnect windows, chat,
// fair-dealing commitments checked with `atout verify-deal`, and a graceful shutdown mid-match.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <set>
#include <thread>

#include "atout/fair_deal.hpp"
#include "atout/server/ws_session.hpp"
#include "persist_support.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// A table of `variant` with every seat taken (clients[seat]) and a spectator (the last client),
// each client's latest event kept, driven by random legal actions.
struct LiveTable {
  std::string id;
  std::vector<std::unique_ptr<TestClient>> clients;
  std::vector<std::string> tokens;
  std::vector<json> latest;  // per client: the last event it received
  std::uint64_t seq = 1;
  Rng rng{Seed{0x11fe, 5}};

  TestClient& watcher() { return *clients.back(); }
  const json& public_view() const { return latest.back(); }

  // Every connected client reads event `want` (skipping nothing: it must be the next event).
  void read_all(std::uint64_t want) {
    for (std::size_t c = 0; c < clients.size(); ++c) {
      if (!clients[c]) continue;
      const json e = clients[c]->wait_for("event");
      EXPECT_EQ(e["seq"], want) << "client " << c << ": " << e;
      latest[c] = e;
    }
  }
  // One action: the seat to act plays a random legal action, or, when its client is gone, the
  // server plays for it. Returns false once the match is over.
  bool step() {
    if (public_view().contains("match_result")) return false;
    const int actor = public_view()["observation"]["current"];
    if (auto& c = clients[static_cast<std::size_t>(actor)]) {
      const json& legal = latest[static_cast<std::size_t>(actor)]["observation"]["legal"];
      EXPECT_FALSE(legal.empty()) << latest[static_cast<std::size_t>(actor)];
      if (legal.empty()) return false;
      c->send({{"type", "action"},
               {"table_id", id},
               {"action", legal[rng.below(static_cast<std::uint32_t>(legal.size()))]}});
    }
    read_all(++seq);
    return true;
  }
};

LiveTable open_table(unsigned short port, MessageLog& log, const std::string& variant, json settings,
                     json options = json::object()) {
  LiveTable t;
  const int players = find_variant(variant)->players;
  for (int i = 0; i <= players; ++i) {
    t.clients.push_back(std::make_unique<TestClient>(port, &log));
    const json w = t.clients.back()->hello("p" + std::to_string(i));
    t.tokens.push_back(w["token"]);
  }
  t.latest.resize(t.clients.size());
  const json created = t.clients[0]->request({{"type", "create_table"},
                                              {"variant", variant},
                                              {"settings", std::move(settings)},
                                              {"options", std::move(options)}});
  EXPECT_EQ(created["type"], "table_created") << created;
  t.id = created["table"]["table_id"];
  EXPECT_EQ(t.watcher().request({{"type", "spectate"}, {"table_id", t.id}})["type"], "watching");
  for (int s = 0; s < players; ++s)
    EXPECT_EQ(
        t.clients[static_cast<std::size_t>(s)]->request({{"type", "sit"}, {"table_id", t.id}, {"seat", s}})["type"],
        "seated");
  t.read_all(1);
  EXPECT_EQ(t.public_view()["kind"], "start");
  return t;
}

bool offered(const json& e) { return !e["observation"]["legal"].empty(); }

json long_turns() { return {{"turn_ms", 600000}}; }

// ---- Turn timers -------------------------------------------------------------------------------

// The turn timer: on timeout the server plays a legal action for the seat, says so, and marks the
// seat away after settings.away_after timeouts in a row; the seat's own action clears the mark.
TEST(LiveLoopback, ATimeoutLeadsToAutoPlayAndRepeatedTimeoutsMarkTheSeatAway) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "duel", {{"turn_ms", 300}, {"away_after", 2}});
  TestClient& watcher = *t.clients.back();
  const int first = t.public_view()["observation"]["current"];
  // Nobody plays: the server plays for the seat to act, and says it did.
  const json auto_played = watcher.wait_for("event", [](const json& e) { return e["seq"] == 2; });
  ASSERT_TRUE(auto_played.contains("last_action")) << auto_played;
  EXPECT_EQ(auto_played["last_action"]["seat"], first);
  EXPECT_EQ(auto_played["last_action"]["by_server"], true);
  EXPECT_TRUE(auto_played["turn_ms_left"].is_number_integer()) << auto_played;
  // The second timeout of one seat marks it away, and every member is told.
  const json update = watcher.wait_for("table_update", [](const json& u) {
    for (const json& s : u["table"]["seats"])
      if (s["away"] == true) return true;
    return false;
  });
  int away_seat = -1;
  for (const json& s : update["table"]["seats"])
    if (s["away"] == true) away_seat = s["seat"];
  ASSERT_GE(away_seat, 0);
  // The away seat plays for itself again: the mark goes.
  TestClient& back = *t.clients[static_cast<std::size_t>(away_seat)];
  bool played = false;
  for (int tries = 0; tries < 200 && !played; ++tries) {
    const json e = back.wait_for("event");
    // Only the newest event is worth answering; the server may still play first, then try again.
    if (!offered(e) || !back.no_events()) continue;
    const json r = back.request({{"type", "action"}, {"table_id", t.id}, {"action", e["observation"]["legal"][0]}});
    played = r["type"] == "accepted";
  }
  ASSERT_TRUE(played);
  watcher.wait_for("table_update", [&](const json& u) { return u["table"]["seats"][away_seat]["away"] == false; });
  EXPECT_TRUE(log.validate());
}

// The turn timer: the time is per action. The turn timer's wait outlives the actions that move the
// deadline later (server/src/table.cpp, schedule_turn), so this checks that a turn played within
// its time is never taken over, though the match has run for several turn times by then.
TEST(LiveLoopback, EachActionGivesTheNextSeatItsWholeTurn) {
  using namespace std::chrono_literals;
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "duel", {{"turn_ms", 2000}});
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(1200ms);  // over half a turn: a deadline left from the last turn would pass
    ASSERT_TRUE(t.step());
    ASSERT_TRUE(t.public_view().contains("last_action")) << t.public_view();
    EXPECT_FALSE(t.public_view()["last_action"].value("by_server", false)) << "action " << i;
  }
  // A turn left alone is still played by the server once its time is up.
  const json e = t.watcher().wait_for("event");
  EXPECT_EQ(e["seq"], t.seq + 1);
  EXPECT_EQ(e["last_action"]["by_server"], true) << e;
  EXPECT_TRUE(log.validate());
}

// ---- Resume --------------------------------------------------------------------------------------

// Reconnection: a player who drops and comes back with hello{token, resume: [{table_id, last_seq}]}
// gets exactly the events it missed, in order: with those it saw before, every seq once. Its
// replayed views match what the spectator saw live, and its own hand is back.
TEST(LiveLoopback, ResumeWithTheLastSeqLosesNoEventAndDuplicatesNone) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "french", long_turns());
  constexpr std::size_t kDropper = 1;
  for (int i = 0; i < 6 && t.step(); ++i) {
  }
  const std::uint64_t last_seen = t.latest[kDropper]["seq"];
  std::map<std::uint64_t, json> spectator_saw;
  t.clients[kDropper].reset();  // the socket closes without a goodbye
  // The others play on; seat 1's turns are played by the server after a short delay.
  for (int i = 0; i < 12 && t.step(); ++i) spectator_saw[t.seq] = t.latest.back();

  auto back = std::make_unique<TestClient>(server.port(), &log);
  const json w = back->request({{"type", "hello"},
                                {"protocol", 1},
                                {"token", t.tokens[kDropper]},
                                {"resume", json::array({{{"table_id", t.id}, {"last_seq", last_seen}}})}});
  ASSERT_EQ(w["type"], "welcome") << w;
  EXPECT_EQ(w["resumed"], true);
  ASSERT_EQ(w["seats"].size(), 1u) << w;
  EXPECT_EQ(w["seats"][0]["table_id"], t.id);
  EXPECT_EQ(w["seats"][0]["seat"], static_cast<int>(kDropper));
  const json seated = back->wait_for("seated");
  EXPECT_EQ(seated["resumed"], true);
  EXPECT_EQ(seated["seat"], static_cast<int>(kDropper));
  int server_played = 0;
  for (std::uint64_t seq = last_seen + 1; seq <= t.seq; ++seq) {
    const json e = back->wait_for("event");
    ASSERT_EQ(e["seq"], seq) << e;
    EXPECT_NE(e["kind"], "snapshot");
    // Marked as sent again; a turn that is over offers nothing to act on, and only the current
    // event says how long the turn has left.
    EXPECT_EQ(e.value("replayed", false), true) << e;
    if (seq != t.seq) {
      EXPECT_TRUE(e["observation"]["legal"].empty()) << e;
      EXPECT_FALSE(e.contains("turn_ms_left")) << e;
    }
    // Who played each of the dropped seat's turns is kept: the server did.
    if (e.contains("last_action") && e["last_action"]["seat"] == static_cast<int>(kDropper)) {
      EXPECT_EQ(e["last_action"].value("by_server", false), true) << e;
      ++server_played;
    }
    const json& live = spectator_saw.count(seq) ? spectator_saw[seq] : json();
    if (!live.is_null()) {
      EXPECT_EQ(e["last_action"]["seat"], live["last_action"]["seat"]);
      EXPECT_EQ(e["observation"]["trick"], live["observation"]["trick"]) << seq;
      EXPECT_EQ(e.contains("hand_result"), live.contains("hand_result"));
    }
    t.latest[kDropper] = e;
  }
  EXPECT_GT(server_played, 0) << "the server never played for the dropped seat";
  EXPECT_TRUE(back->no_events()) << "an event came twice or from nowhere";
  // Seat 1 is back in play: the match goes on with it answering its own turns.
  t.clients[kDropper] = std::move(back);
  for (int i = 0; i < 8 && t.step(); ++i) {
  }
  EXPECT_TRUE(log.validate());
}

// A bot that resumes acts only on its current turn: replayed events whose turn is over carry no
// legal action, and the resume ends on the current view with the current legal list, so acting
// on the first event that offers anything is always accepted.
TEST(LiveLoopback, AResumedBotActsOnlyOnItsCurrentTurn) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "duel", {{"turn_ms", 600000}, {"reconnect_ms", 60000}});
  // Seat 0 leaves; the server plays its turns (after its short delay) while seat 1 plays on.
  t.clients[0].reset();
  for (int i = 0; i < 10 && t.step(); ++i) {
  }
  ASSERT_FALSE(t.public_view().contains("match_result"));
  const std::uint64_t seen = 1;  // it saw only the start
  auto back = std::make_unique<TestClient>(server.port(), &log);
  back->request({{"type", "hello"},
                 {"protocol", 1},
                 {"token", t.tokens[0]},
                 {"resume", json::array({{{"table_id", t.id}, {"last_seq", seen}}})}});
  ASSERT_EQ(back->wait_for("seated")["resumed"], true);
  // Read as a bot does: the first event with a legal list is the one to act on.
  json last;
  std::optional<json> acted_on;
  for (;;) {
    const json e = back->wait_for("event");
    last = e;
    if (!acted_on && !e["observation"]["legal"].empty()) acted_on = e;
    if (e["seq"] == t.seq) break;
  }
  EXPECT_TRUE(back->no_events());
  // Only the current event offers anything, and only when it is seat 0's turn.
  const bool my_turn = t.public_view()["observation"]["current"] == 0;
  ASSERT_EQ(acted_on.has_value(), my_turn) << last;
  if (my_turn) {
    EXPECT_EQ((*acted_on)["seq"], t.seq);
    const json reply =
        back->request({{"type", "action"}, {"table_id", t.id}, {"action", (*acted_on)["observation"]["legal"][0]}});
    EXPECT_EQ(reply["type"], "accepted") << reply;
  }
  EXPECT_TRUE(log.validate());
}

// Every player drops near the end; the server plays the match out, and the table waits for them:
// each comes back within the reconnect window and gets the final events and the result.
TEST(LiveLoopback, AMatchThatEndsWhileEveryoneIsAwayStillReachesThem) {
  LiveServer server;
  MessageLog log;
  // Short turns: the server plays for the absent seats after 100 ms each.
  LiveTable t =
      open_table(server.port(), log, "simple", {{"turn_ms", 100}, {"reconnect_ms", 600000}}, {{"match", "games_1"}});
  std::vector<std::uint64_t> seen;
  for (std::size_t c = 0; c < t.clients.size(); ++c) seen.push_back(t.latest[c]["seq"]);
  for (auto& c : t.clients) c.reset();  // both players and the spectator
  // Wait for the match to end, as the store records it.
  const std::string match_id = t.latest[0]["commitment"]["match_id"];
  ASSERT_TRUE(eventually(
      [&] {
        return db_text(server.db(), "SELECT COALESCE(end_reason, '') FROM matches WHERE uid = '" + match_id + "'") ==
               "finished";
      },
      120s))
      << "the server did not play the match out";
  for (int seat = 0; seat < 2; ++seat) {
    auto back = std::make_unique<TestClient>(server.port(), &log);
    const json w = back->request({{"type", "hello"},
                                  {"protocol", 1},
                                  {"token", t.tokens[static_cast<std::size_t>(seat)]},
                                  {"resume", json::array({{{"table_id", t.id}, {"last_seq", seen[0]}}})}});
    ASSERT_EQ(w["seats"].size(), 1u) << "seat " << seat << " is not held for its player: " << w;
    EXPECT_EQ(w["seats"][0]["table_id"], t.id);
    const json seated = back->wait_for("seated");
    ASSERT_EQ(seated["type"], "seated") << seated;
    EXPECT_EQ(seated["resumed"], true);
    const json last = back->wait_for("event", [](const json& e) { return e.contains("match_result"); });
    EXPECT_EQ(last["observation"]["phase"], "match_over") << last;
    EXPECT_TRUE(last["observation"]["legal"].empty());
    EXPECT_TRUE(back->no_events()) << "nothing may follow the end";
  }
  EXPECT_TRUE(log.validate());
}

// docs/protocol.md, `action`: with hello's ack "event" there is no `accepted` reply; the event the
// action produced carries the request id in the actor's copy only. A connection without it still
// gets `accepted` first, and refusals are errors with the id either way.
TEST(LiveLoopback, AckByEventDropsTheAcceptedReplyAndTheActorsEventCarriesTheId) {
  LiveServer server;
  MessageLog log;
  TestClient quiet(server.port(), &log), chatty(server.port(), &log), watcher(server.port(), &log);
  // A bad value is refused, and the connection may then say hello properly.
  const json bad = quiet.request_unlogged({{"type", "hello"}, {"protocol", 1}, {"ack", "sometimes"}});
  EXPECT_EQ(bad["type"], "error") << bad;
  EXPECT_EQ(bad["code"], "invalid_field") << bad;
  EXPECT_EQ(bad["field"], "ack") << bad;
  EXPECT_EQ(quiet.request({{"type", "hello"}, {"protocol", 1}, {"name", "quiet"}, {"ack", "event"}})["type"],
            "welcome");
  EXPECT_EQ(chatty.request({{"type", "hello"}, {"protocol", 1}, {"name", "chatty"}, {"ack", "reply"}})["type"],
            "welcome");
  watcher.hello("watcher");
  const json created = quiet.request({{"type", "create_table"}, {"variant", "duel"}, {"settings", long_turns()}});
  ASSERT_EQ(created["type"], "table_created") << created;
  const std::string id = created["table"]["table_id"];
  ASSERT_EQ(watcher.request({{"type", "spectate"}, {"table_id", id}})["type"], "watching");
  ASSERT_EQ(quiet.request({{"type", "sit"}, {"table_id", id}, {"seat", 0}})["type"], "seated");
  ASSERT_EQ(chatty.request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["type"], "seated");
  std::vector<TestClient*> seats = {&quiet, &chatty};
  std::vector<json> latest = {quiet.wait_for("event"), chatty.wait_for("event")};
  json view = watcher.wait_for("event");
  ASSERT_EQ(view["kind"], "start");

  // The next message that is not a table summary (those come whenever seats change).
  auto next = [](TestClient* c) {
    for (;;) {
      auto m = c->next();
      if (!m) return json{{"type", "none"}};
      if ((*m)["type"] != "table_update") return *m;
    }
  };
  Rng rng{Seed{0xAC, 1}};
  std::int64_t next_id = 1000;
  int by_event = 0, by_reply = 0;
  for (std::uint64_t seq = 2; seq < 60 && !view.contains("match_result"); ++seq) {
    const int actor = view["observation"]["current"];
    const int other = 1 - actor;
    const json& legal = latest[static_cast<std::size_t>(actor)]["observation"]["legal"];
    ASSERT_FALSE(legal.empty()) << latest[static_cast<std::size_t>(actor)];
    // The seat not to act is refused, with its id, whichever ack it asked for, and nothing follows.
    const std::int64_t refused_id = next_id++;
    seats[static_cast<std::size_t>(other)]->send(
        {{"type", "action"}, {"table_id", id}, {"action", legal[0]}, {"id", refused_id}});
    const json refusal = next(seats[static_cast<std::size_t>(other)]);
    EXPECT_EQ(refusal["type"], "error") << refusal;
    EXPECT_EQ(refusal["id"], refused_id) << refusal;
    EXPECT_TRUE(seats[static_cast<std::size_t>(other)]->no_events());

    const std::int64_t rid = next_id++;
    seats[static_cast<std::size_t>(actor)]->send(
        {{"type", "action"},
         {"table_id", id},
         {"action", legal[rng.below(static_cast<std::uint32_t>(legal.size()))]},
         {"id", rid}});
    // The actor's very next message: the event itself (ack "event") or `accepted` then the event.
    json first = next(seats[static_cast<std::size_t>(actor)]);
    if (actor == 0) {
      ++by_event;
      EXPECT_EQ(first["type"], "event") << first;
      EXPECT_EQ(first["id"], rid) << first;
    } else {
      ++by_reply;
      EXPECT_EQ(first["type"], "accepted") << first;
      EXPECT_EQ(first["id"], rid) << first;
      EXPECT_EQ(first["seq"], seq) << first;
      first = next(seats[static_cast<std::size_t>(actor)]);
      EXPECT_EQ(first["type"], "event") << first;
      EXPECT_FALSE(first.contains("id")) << "only ack \"event\" puts the id in the event: " << first;
    }
    EXPECT_EQ(first["seq"], seq) << first;
    latest[static_cast<std::size_t>(actor)] = first;
    // The other seat's copy and the spectator's never carry the id.
    latest[static_cast<std::size_t>(other)] = seats[static_cast<std::size_t>(other)]->wait_for("event");
    view = watcher.wait_for("event");
    for (const json* e : {&latest[static_cast<std::size_t>(other)], &view}) {
      EXPECT_EQ((*e)["seq"], seq) << *e;
      EXPECT_FALSE(e->contains("id")) << *e;
      EXPECT_EQ((*e)["last_action"]["seat"], actor) << *e;
    }
  }
  EXPECT_GT(by_event, 5);
  EXPECT_GT(by_reply, 5);
  EXPECT_TRUE(log.validate());
}

// Reconnection: without a usable last_seq the seat gets one snapshot of its own view at the current
// seq; a plain `sit` on the held seat does the same.
TEST(LiveLoopback, ResumeBySnapshot) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "belot", long_turns());
  for (int i = 0; i < 3 && t.step(); ++i) {
  }
  t.clients[2].reset();
  for (int i = 0; i < 3 && t.step(); ++i) {
  }
  for (const json& resume : {json{{"last_seq", 999999}}, json::object()}) {
    auto back = std::make_unique<TestClient>(server.port(), &log);
    ASSERT_EQ(back->request({{"type", "hello"}, {"protocol", 1}, {"token", t.tokens[2]}})["type"], "welcome");
    json sit = {{"type", "sit"}, {"table_id", t.id}};
    sit.update(resume);
    const json seated = back->request(sit);
    ASSERT_EQ(seated["type"], "seated") << seated;
    EXPECT_EQ(seated["resumed"], true);
    const json snap = back->wait_for("event");
    EXPECT_EQ(snap["kind"], "snapshot");
    EXPECT_EQ(snap["seq"], t.seq);
    EXPECT_EQ(snap["observation"]["seat"], 2);
    EXPECT_EQ(snap["observation"]["hand"].size(), t.latest[0]["observation"]["hand_sizes"][2].get<std::size_t>());
    EXPECT_TRUE(back->no_events());
    back.reset();  // drop again; the second round resumes with a plain sit
  }
  EXPECT_TRUE(log.validate());
}

// Reconnection: a second connection with the same token replaces the first, which is told why and
// closed with 4001; the seat follows the new connection.
TEST(LiveLoopback, AReconnectReplacesTheOldConnection) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "duel", long_turns());
  auto newer = std::make_unique<TestClient>(server.port(), &log);
  const json w = newer->request({{"type", "hello"},
                                 {"protocol", 1},
                                 {"token", t.tokens[0]},
                                 {"resume", json::array({{{"table_id", t.id}, {"last_seq", t.seq}}})}});
  ASSERT_EQ(w["type"], "welcome");
  const json bye = t.clients[0]->wait_for("goodbye");
  EXPECT_EQ(bye["reason"], "replaced");
  while (t.clients[0]->next(5s)) {
  }
  EXPECT_EQ(t.clients[0]->close_code(), WsSession::kCloseReplaced);
  EXPECT_EQ(newer->wait_for("seated")["seat"], 0);
  // Nothing was missed, so nothing is replayed; the resume still ends on the current view.
  const json now = newer->wait_for("event");
  EXPECT_EQ(now["kind"], "snapshot") << now;
  EXPECT_EQ(now["seq"], t.seq);
  EXPECT_EQ(now["observation"]["legal"], t.latest[0]["observation"]["legal"]);
  EXPECT_TRUE(newer->no_events());
  t.latest[0] = now;
  t.clients[0] = std::move(newer);
  for (int i = 0; i < 4 && t.step(); ++i) {
  }
  EXPECT_TRUE(log.validate());
}

// The reconnect window: once it is over, `forfeit` ends the match, lost by the absent side...
TEST(LiveLoopback, AfterTheReconnectWindowTheAbsentSideForfeits) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "french", {{"turn_ms", 600000}, {"reconnect_ms", 300}});
  t.clients[3].reset();
  const json ended = t.watcher().wait_for("event", [](const json& e) { return e["kind"] == "abandoned"; });
  ASSERT_TRUE(ended.contains("match_result")) << ended;
  EXPECT_EQ(ended["match_result"]["abandoned"], true);
  EXPECT_EQ(ended["match_result"]["abandoned_by"], 3);
  EXPECT_EQ(ended["match_result"]["winner"], 0);
  EXPECT_FALSE(ended.contains("commitment"));
  const json refused = t.clients[0]->request({{"type", "action"}, {"table_id", t.id}, {"action", {{"type", "pass"}}}});
  EXPECT_EQ(refused["code"], "match_not_running") << refused;
  EXPECT_TRUE(log.validate());
}

// ... and `free_seat` frees the seat and pauses the match until someone takes it.
TEST(LiveLoopback, AfterTheReconnectWindowAFreeSeatPausesTheMatch) {
  LiveServer server;
  MessageLog log;
  LiveTable t =
      open_table(server.port(), log, "duel", {{"turn_ms", 600000}, {"reconnect_ms", 300}, {"abandon", "free_seat"}});
  t.clients[1].reset();
  const json update = t.watcher().wait_for("table_update", [](const json& u) {
    return u["table"]["status"] == "paused" && u["table"]["seats"][1]["player_id"].is_null();
  });
  EXPECT_EQ(update["table"]["free_seats"], 1);
  TestClient stranger(server.port(), &log);
  stranger.hello("stranger");
  const json seated = stranger.request({{"type", "sit"}, {"table_id", t.id}});
  EXPECT_EQ(seated["seat"], 1);
  EXPECT_EQ(seated["resumed"], false);
  EXPECT_EQ(stranger.wait_for("event")["kind"], "snapshot");
  t.watcher().wait_for("table_update", [](const json& u) { return u["table"]["status"] == "playing"; });
  EXPECT_TRUE(log.validate());
}

// ---- Chat ----------------------------------------------------------------------------------------

// Chat: table chat reaches the table's members only, lobby chat the lobby's subscribers;
// bad lines are refused with their field, and a flood is cut off without touching the game.
TEST(LiveLoopback, ChatIsScopedCappedAndRateLimited) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "duel", long_turns());
  TestClient outsider(server.port(), &log);
  outsider.hello("outsider");
  EXPECT_EQ(outsider.request({{"type", "subscribe_lobby"}})["type"], "tables");

  EXPECT_EQ(t.clients[0]->request({{"type", "chat"}, {"table_id", t.id}, {"text", "bonne chance"}})["type"], "ok");
  for (std::size_t c : {std::size_t{1}, std::size_t{2}}) {
    const json line = t.clients[c]->wait_for("chat_message");
    EXPECT_EQ(line["text"], "bonne chance");
    EXPECT_EQ(line["table_id"], t.id);
    EXPECT_EQ(line["seat"], 0);
  }
  EXPECT_EQ(outsider.request({{"type", "chat"}, {"table_id", t.id}, {"text", "hi"}})["code"], "not_at_table");
  EXPECT_EQ(outsider.request({{"type", "chat"}, {"text", "hello lobby"}})["type"], "ok");
  EXPECT_EQ(outsider.wait_for("chat_message")["text"], "hello lobby");
  // Seat 1 never subscribed to the lobby, so lobby chat is refused and never reaches it.
  EXPECT_EQ(t.clients[1]->request({{"type", "chat"}, {"text", "x"}})["code"], "not_at_table");

  const json too_long =
      t.clients[1]->request_unlogged({{"type", "chat"}, {"table_id", t.id}, {"text", std::string(501, 'a')}});
  EXPECT_EQ(too_long["code"], "invalid_field");
  EXPECT_EQ(too_long["field"], "text") << too_long;
  const json control =
      t.clients[1]->request_unlogged({{"type", "chat"}, {"table_id", t.id}, {"text", std::string("a\x07") + "b"}});
  EXPECT_EQ(control["code"], "invalid_field");

  int refused = 0;
  for (int i = 0; i < 20; ++i)
    if (t.clients[1]->request({{"type", "chat"}, {"table_id", t.id}, {"text", "spam"}})["code"] == "chat_too_fast")
      ++refused;
  EXPECT_GE(refused, 10);
  // The flooder is still connected and the game goes on.
  for (int i = 0; i < 4 && t.step(); ++i) {
  }
  EXPECT_TRUE(log.validate());
}

// ---- Fair dealing ----------------------------------------------------------------------------------

CommandResult run(const std::string& command) { return run_command(command + " 2>/dev/null"); }

// Fair dealing: the commitment published with the first event of a hand matches the seed its result
// reveals, `atout verify-deal` accepts it and deals each seat the cards it was dealt, and rejects
// a tampered commitment.
TEST(LiveLoopback, VerifyDealAcceptsAnHonestDealAndRejectsATamperedOne) {
  LiveServer server;
  MessageLog log;
  LiveTable t = open_table(server.port(), log, "french", long_turns());
  const std::vector<json> starts = t.latest;
  const json first = starts[0];
  ASSERT_TRUE(first.contains("commitment")) << first;
  const std::string match = first["commitment"]["match_id"];
  const std::string commitment = first["commitment"]["hash"];
  EXPECT_EQ(first["commitment"]["deal_number"], 0);
  for (const json& e : t.latest) EXPECT_EQ(e["commitment"], first["commitment"]);
  while (!t.latest.back().contains("hand_result") && t.step()) {
  }
  const json& result = t.latest.back()["hand_result"];
  ASSERT_TRUE(result.contains("seed")) << result;
  const std::string seed = result["seed"];
  EXPECT_EQ(deal_commitment(*Seed::parse(seed), match, 0), commitment);

  const std::string base = std::string(ATOUT_CLI) + " verify-deal --seed " + seed + " --match " + match + " --hand 0";
  const CommandResult honest = run(base + " --commitment " + commitment + " --variant french --dealer " +
                                   std::to_string(first["observation"]["dealer"].get<int>()));
  ASSERT_EQ(honest.exit_code, 0) << honest.out;
  const json printed = json::parse(honest.out);
  for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(printed["first_cards"][s], starts[s]["observation"]["hand"]) << s;
  std::string tampered = commitment;
  tampered[10] = tampered[10] == '0' ? '1' : '0';
  EXPECT_EQ(run(base + " --commitment " + tampered).exit_code, 1);
  EXPECT_EQ(run(std::string(ATOUT_CLI) + " verify-deal --seed " + seed + " --match " + match +
                " --hand 1 --commitment " + commitment)
                .exit_code,
            1);
  EXPECT_TRUE(log.validate());
}

// ---- Shutdown ------------------------------------------------------------------------------------

// Shutdown: a graceful shutdown mid-match tells every client, closes each with 1012 and ends
// within its bound.
TEST(LiveLoopback, AGracefulShutdownMidMatchClosesEveryoneWith1012) {
  auto server = std::make_unique<LiveServer>();
  MessageLog log;
  LiveTable t = open_table(server->port(), log, "coinche", long_turns());
  for (int i = 0; i < 3 && t.step(); ++i) {
  }
  // Clients read on their own threads, as real ones would, so the closing handshakes complete.
  std::vector<json> goodbyes(t.clients.size());
  std::vector<int> codes(t.clients.size());
  std::vector<std::thread> readers;
  for (std::size_t c = 0; c < t.clients.size(); ++c)
    readers.emplace_back([&, c] {
      goodbyes[c] = t.clients[c]->wait_for("goodbye");
      while (t.clients[c]->next(5s)) {
      }
      codes[c] = t.clients[c]->close_code();
    });
  const auto started = std::chrono::steady_clock::now();
  const std::size_t left = server->get().shutdown(3000ms);
  const auto took = std::chrono::steady_clock::now() - started;
  for (auto& r : readers) r.join();
  EXPECT_EQ(left, 0u) << "connections still open when the grace ran out";
  EXPECT_LT(took, 3500ms);
  for (std::size_t c = 0; c < t.clients.size(); ++c) {
    EXPECT_EQ(goodbyes[c]["reason"], "shutdown") << c;
    EXPECT_EQ(codes[c], WsSession::kCloseShutdown) << c;
  }
  // The listener is closed: nobody new gets in.
  EXPECT_THROW(TestClient(server->port(), nullptr), std::exception);
  EXPECT_TRUE(log.validate());
}

}  // namespace
}  // namespace atout::server::testing
