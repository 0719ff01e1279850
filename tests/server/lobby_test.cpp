// Lobby and table life over WebSocket: listing, subscriptions, private tables, standing, leaving,
// watching, resuming with a token, and tables closing once everyone has gone.
#include <gtest/gtest.h>

#include "atout/state.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

class Lobby : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(log_.validate()); }

  std::unique_ptr<TestClient> client(const std::string& name) {
    auto c = std::make_unique<TestClient>(server_.port(), &log_);
    const json w = c->hello(name);
    EXPECT_EQ(w["type"], "welcome") << w;
    return c;
  }

  // Reads lobby messages until one is about `table_id` and satisfies `pred`.
  template <typename Pred>
  static json lobby_message(TestClient& c, const std::string& table_id, Pred pred) {
    for (;;) {
      auto m = c.next();
      if (!m) return json{{"type", "timeout"}};
      const std::string type = (*m)["type"];
      const std::string id = type == "lobby_remove"   ? (*m)["table_id"]
                             : type == "lobby_update" ? (*m)["table"]["table_id"]
                                                      : "";
      if (id == table_id && pred(*m)) return *m;
    }
  }

  LiveServer server_;
  MessageLog log_;
};

TEST_F(Lobby, VariantListComesFromTheRegistry) {
  auto c = client("ann");
  const json v = c->request({{"type", "list_variants"}});
  ASSERT_EQ(v["variants"].size(), variants().size());
  for (std::size_t i = 0; i < variants().size(); ++i) {
    EXPECT_EQ(v["variants"][i]["id"], variants()[i].id);
    EXPECT_EQ(v["variants"][i]["players"], variants()[i].players);
    EXPECT_EQ(v["variants"][i]["options"].size(), variants()[i].options.size());
  }
}

TEST_F(Lobby, SubscribersHearOfTablesAppearingChangingAndClosing) {
  auto watcher = client("wes");
  const json first = watcher->request({{"type", "subscribe_lobby"}});
  ASSERT_EQ(first["type"], "tables");
  EXPECT_TRUE(first["tables"].empty());

  auto ann = client("ann");
  const json created = ann->request({{"type", "create_table"}, {"variant", "french"}, {"options", {{"target", 701}}}});
  ASSERT_EQ(created["type"], "table_created");
  const std::string id = created["table"]["table_id"];
  EXPECT_FALSE(created.contains("invite"));
  EXPECT_EQ(created["table"]["options"]["target"], 701);
  EXPECT_EQ(created["table"]["free_seats"], 4);

  json m = lobby_message(*watcher, id, [](const json&) { return true; });
  EXPECT_EQ(m["type"], "lobby_update") << m;
  EXPECT_EQ(m["table"]["status"], "waiting");

  ASSERT_EQ(ann->request({{"type", "sit"}, {"table_id", id}, {"seat", 2}})["type"], "seated");
  m = lobby_message(*watcher, id, [](const json& x) { return x["table"]["free_seats"] == 3; });
  EXPECT_EQ(m["table"]["seats"][2]["name"], "ann");
  EXPECT_EQ(m["table"]["seats"][2]["connected"], true);

  // The listing agrees, over WebSocket and over HTTP.
  const json listed = ann->request({{"type", "list_tables"}});
  ASSERT_EQ(listed["tables"].size(), 1u);
  EXPECT_EQ(listed["tables"][0]["table_id"], id);
  const HttpReply api = http_get(server_.port(), "/api/tables");
  EXPECT_EQ(api.status, 200u);
  EXPECT_EQ(json::parse(api.body)["tables"][0]["free_seats"], 3);

  // Its only member leaves: the table closes and subscribers are told.
  EXPECT_EQ(ann->request({{"type", "leave"}, {"table_id", id}})["type"], "ok");
  m = lobby_message(*watcher, id, [](const json& x) { return x["type"] == "lobby_remove"; });
  EXPECT_EQ(m["type"], "lobby_remove");
  EXPECT_TRUE(ann->request({{"type", "list_tables"}})["tables"].empty());

  // After unsubscribing, nothing more arrives.
  EXPECT_EQ(watcher->request({{"type", "unsubscribe_lobby"}})["type"], "ok");
  ann->request({{"type", "create_table"}, {"variant", "duel"}});
  const json pong = watcher->request({{"type", "ping"}});
  EXPECT_EQ(pong["type"], "pong");
  EXPECT_FALSE(watcher->next(std::chrono::milliseconds(300)).has_value());
}

TEST_F(Lobby, PrivateTablesAreUnlistedAndJoinedByInvite) {
  auto ann = client("ann");
  auto bob = client("bob");
  auto wes = client("wes");
  ASSERT_EQ(wes->request({{"type", "subscribe_lobby"}})["type"], "tables");
  const json created = ann->request({{"type", "create_table"}, {"variant", "duel"}, {"private", true}});
  ASSERT_EQ(created["type"], "table_created");
  const std::string id = created["table"]["table_id"];
  const std::string invite = created["invite"];
  EXPECT_EQ(invite.size(), 32u);
  EXPECT_TRUE(created["table"]["private"]);
  EXPECT_TRUE(bob->request({{"type", "list_tables"}})["tables"].empty());
  EXPECT_EQ(bob->request({{"type", "sit"}, {"table_id", id}})["code"], "unknown_table");

  EXPECT_EQ(ann->request({{"type", "sit"}, {"invite", invite}})["type"], "seated");
  const json seated = bob->request({{"type", "sit"}, {"invite", invite}});
  EXPECT_EQ(seated["type"], "seated");
  EXPECT_EQ(seated["table_id"], id);
  EXPECT_EQ(wes->request({{"type", "spectate"}, {"invite", invite}, {"table_id", id}})["type"], "watching");
  EXPECT_EQ(bob->wait_for("event")["kind"], "start");
  // Subscribers never heard of it.
  const json pong = wes->request({{"type", "ping"}});
  EXPECT_EQ(pong["type"], "pong");
  for (auto m = wes->next(std::chrono::milliseconds(200)); m; m = wes->next(std::chrono::milliseconds(200)))
    EXPECT_NE((*m)["type"], "lobby_update") << *m;
}

TEST_F(Lobby, StandingPausesTheMatchAndSittingAgainResumesIt) {
  auto ann = client("ann");
  auto bob = client("bob");
  const json created = ann->request({{"type", "create_table"}, {"variant", "duel"}});
  const std::string id = created["table"]["table_id"];
  ASSERT_EQ(ann->request({{"type", "sit"}, {"table_id", id}, {"seat", 0}})["type"], "seated");
  ASSERT_EQ(bob->request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["type"], "seated");
  const json start_a = ann->wait_for("event");
  const json start_b = bob->wait_for("event");
  EXPECT_EQ(start_b["kind"], "start");

  EXPECT_EQ(bob->request({{"type", "stand"}, {"table_id", id}})["type"], "ok");
  // Standing leaves bob watching: the public view, without his cards.
  const json view = bob->wait_for("event");
  EXPECT_EQ(view["kind"], "snapshot");
  EXPECT_FALSE(view["observation"].contains("hand"));
  const json paused = ann->wait_for("table_update", [](const json& m) { return m["table"]["status"] == "paused"; });
  EXPECT_TRUE(paused["table"]["seats"][1]["player_id"].is_null());
  EXPECT_EQ(paused["table"]["spectators"], 1);

  // Sitting again in the free seat gives that seat's view back, and the match runs again.
  const json again = bob->request({{"type", "sit"}, {"table_id", id}});
  EXPECT_EQ(again["seat"], 1);
  const json back = bob->wait_for("event");
  EXPECT_EQ(back["kind"], "snapshot");
  EXPECT_EQ(back["seq"], 1);
  EXPECT_EQ(back["observation"]["hand"], start_b["observation"]["hand"]);
  EXPECT_EQ(ann->wait_for("table_update", [](const json& m) { return m["table"]["status"] == "playing"; })["type"],
            "table_update");
  const bool ann_acts = start_b["observation"]["current"] == 0;
  const json& legal = (ann_acts ? start_a : start_b)["observation"]["legal"];
  ASSERT_FALSE(legal.empty());
  const json ok = (ann_acts ? *ann : *bob).request({{"type", "action"}, {"table_id", id}, {"action", legal[0]}});
  EXPECT_EQ(ok["type"], "accepted") << ok;
  EXPECT_EQ(ok["seq"], 2);
}

TEST_F(Lobby, ADisconnectedPlayerResumesWithTheTokenAndGetsTheSeatBack) {
  auto ann = client("ann");
  auto bob = std::make_unique<TestClient>(server_.port(), &log_);
  const json welcome = bob->hello("bob");
  const std::string token = welcome["token"];
  const json created = ann->request({{"type", "create_table"}, {"variant", "french"}});
  const std::string id = created["table"]["table_id"];
  std::vector<std::unique_ptr<TestClient>> others;
  ASSERT_EQ(bob->request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["type"], "seated");
  ASSERT_EQ(ann->request({{"type", "sit"}, {"table_id", id}, {"seat", 0}})["type"], "seated");
  for (int s = 2; s < 4; ++s) {
    others.push_back(client("p" + std::to_string(s)));
    ASSERT_EQ(others.back()->request({{"type", "sit"}, {"table_id", id}, {"seat", s}})["type"], "seated");
  }
  const json start = bob->wait_for("event");
  bob.reset();  // the connection drops mid-match

  // The seat is held: taken, but not connected.
  const json update =
      ann->wait_for("table_update", [](const json& m) { return m["table"]["seats"][1]["connected"] == false; });
  EXPECT_EQ(update["table"]["seats"][1]["name"], "bob");
  auto intruder = client("ivy");
  EXPECT_EQ(intruder->request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["code"], "seat_taken");

  auto again = std::make_unique<TestClient>(server_.port(), &log_);
  const json resumed = again->request({{"type", "hello"}, {"protocol", 1}, {"token", token}});
  EXPECT_EQ(resumed["type"], "welcome");
  EXPECT_EQ(resumed["resumed"], true);
  EXPECT_EQ(resumed["player_id"], welcome["player_id"]);
  const json seated = again->request({{"type", "sit"}, {"table_id", id}});
  EXPECT_EQ(seated["seat"], 1);
  EXPECT_EQ(seated["resumed"], true);
  const json snapshot = again->wait_for("event");
  EXPECT_EQ(snapshot["kind"], "snapshot");
  EXPECT_EQ(snapshot["seq"], start["seq"]);
  EXPECT_EQ(snapshot["observation"]["hand"], start["observation"]["hand"]);
}

TEST_F(Lobby, AnOwnerThatNeverSitsKeepsTheTableUntilItDisconnects) {
  auto wes = client("wes");
  ASSERT_EQ(wes->request({{"type", "subscribe_lobby"}})["type"], "tables");
  auto ann = client("ann");
  const json created = ann->request({{"type", "create_table"}, {"variant", "duel"}});
  const std::string id = created["table"]["table_id"];
  EXPECT_EQ(lobby_message(*wes, id, [](const json&) { return true; })["type"], "lobby_update");
  ann.reset();
  EXPECT_EQ(lobby_message(*wes, id, [](const json& m) { return m["type"] == "lobby_remove"; })["type"], "lobby_remove");
}

}  // namespace
}  // namespace atout::server::testing
