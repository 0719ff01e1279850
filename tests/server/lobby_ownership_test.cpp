// What the lobby tells a cluster node about its tables (Lobby::Ownership): each table opened and
// closed, each private table's invite code, and the players a private table seats, bots aside,
// each time they change. The node keeps the last in Redis so that other nodes send those players,
// and nobody else, to a private table named by its id; so a list that is late, wrong or that names
// a bot lets a stranger in or keeps a player out.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atout/server/bot_pool.hpp"
#include "lobby_harness.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;

// Bots that never think: the tests here only seat them.
class IdleBots : public BotRunner {
 public:
  bool submit(Job) override { return false; }
};

class LobbyOwnershipTest : public LobbyHarness {
 protected:
  LobbyOwnershipTest() {
    ctx_->lobby->use_limits(LobbyLimits{4, std::chrono::minutes(10)});
    ctx_->lobby->use_bots(std::make_shared<IdleBots>());
    ctx_->lobby->use_ownership(
        server::Lobby::Ownership{[this](const std::string& id) { told_.push_back("opened " + id); },
                                 [this](const std::string& id) { told_.push_back("closed " + id); },
                                 [this](const std::string& id, const std::string& invite, bool restored) {
                                   told_.push_back("private " + id + (restored ? " restored" : " new"));
                                   invites_[id] = invite;
                                 },
                                 [this](const std::string& id, std::vector<std::string> players) {
                                   std::string line = "seated " + id + ":";
                                   for (const std::string& p : players)
                                     line += " " + (names_.contains(p) ? names_[p] : "unnamed " + p);
                                   told_.push_back(line);
                                 }});
  }

  // A player, its connection and its id (named in the seated lists by `name`).
  std::shared_ptr<RecordingConnection> named(const std::string& name) {
    auto c = std::make_shared<RecordingConnection>(ctx_, ioc_, next_conn_++, now_);
    conns_.push_back(c);
    const json w = reply(*c, {{"type", "hello"}, {"protocol", 1}, {"name", name}});
    EXPECT_EQ(w["type"], "welcome") << w;
    names_[w["player_id"].get<std::string>()] = name;
    return c;
  }
  std::string create_private(RecordingConnection& owner, const std::string& variant) {
    const json r = reply(owner, {{"type", "create_table"}, {"variant", variant}, {"private", true}});
    EXPECT_EQ(r["type"], "table_created") << r;
    return r["table"]["table_id"].get<std::string>();
  }
  // What the lobby told since the last call.
  std::vector<std::string> told() { return std::exchange(told_, {}); }

  std::vector<std::string> told_;
  std::map<std::string, std::string> invites_;
  std::map<std::string, std::string> names_;  // player id -> name
};

using Lines = std::vector<std::string>;

TEST_F(LobbyOwnershipTest, APrivateTablesSeatedPlayersAreToldAsTheyChangeBotsAside) {
  auto ann = named("ann");
  auto bob = named("bob");
  const std::string t = create_private(*ann, "french");
  // The invite is handed on before the table opens, so that it works on every node at once.
  EXPECT_EQ(told(), (Lines{"private " + t + " new", "opened " + t}));
  const std::string invite = invites_.at(t);

  ASSERT_EQ(reply(*ann, {{"type", "sit"}, {"invite", invite}, {"seat", 0}})["type"], "seated");
  EXPECT_EQ(told(), (Lines{"seated " + t + ": ann"}));
  ASSERT_EQ(reply(*bob, {{"type", "sit"}, {"invite", invite}, {"seat", 2}})["type"], "seated");
  EXPECT_EQ(told(), (Lines{"seated " + t + ": ann bob"}));

  // A bot is no player to send anywhere: its seat changes nothing that is told.
  ASSERT_EQ(reply(*ann, {{"type", "add_bot"}, {"table_id", t}, {"seat", 1}, {"level", "random"}})["type"], "ok");
  EXPECT_EQ(told(), Lines{});
  ASSERT_EQ(reply(*ann, {{"type", "remove_bot"}, {"table_id", t}, {"seat", 1}})["type"], "ok");
  EXPECT_EQ(told(), Lines{});

  // A player who stands is no longer seated there.
  ASSERT_EQ(reply(*bob, {{"type", "stand"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), (Lines{"seated " + t + ": ann"}));

  // A spectator is not seated either.
  auto cat = named("cat");
  ASSERT_EQ(reply(*cat, {{"type", "spectate"}, {"invite", invite}, {"table_id", t}})["type"], "watching");
  EXPECT_EQ(told(), Lines{});
  ASSERT_EQ(reply(*cat, {{"type", "leave"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), Lines{});

  // The last seated player to leave empties the list; the table closes when bob, who stood but
  // stayed to watch, leaves too.
  ASSERT_EQ(reply(*ann, {{"type", "leave"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), (Lines{"seated " + t + ":"}));
  ASSERT_EQ(reply(*bob, {{"type", "leave"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), (Lines{"closed " + t}));
}

TEST_F(LobbyOwnershipTest, APublicTableOpensAndClosesButNamesNoInviteAndNoPlayers) {
  auto ann = named("ann");
  auto bob = named("bob");
  const std::string t = create(*ann, "french");
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(told(), (Lines{"opened " + t}));
  ASSERT_EQ(reply(*ann, {{"type", "sit"}, {"table_id", t}, {"seat", 0}})["type"], "seated");
  ASSERT_EQ(reply(*bob, {{"type", "sit"}, {"table_id", t}, {"seat", 1}})["type"], "seated");
  ASSERT_EQ(reply(*bob, {{"type", "leave"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), Lines{});
  ASSERT_EQ(reply(*ann, {{"type", "leave"}, {"table_id", t}})["type"], "ok");
  EXPECT_EQ(told(), (Lines{"closed " + t}));
  EXPECT_TRUE(invites_.empty());
}

}  // namespace
}  // namespace atout::server::testing
