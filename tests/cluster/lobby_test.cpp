// The lobby of a cluster node, without Redis: rows of other nodes' tables decoded from what the
// cluster stores, listed after this node's own and told to subscribers; this node's own changes
// and lobby chat handed to the relays that carry them to the other nodes.
#include "atout/server/lobby.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "atout/protocol/server_messages.hpp"
#include "atout/server/cluster/cluster_bus.hpp"
#include "atout/server/cluster/lobby_rows.hpp"
#include "recording_peer.hpp"

namespace atout::server::testing {
namespace {

using json = nlohmann::json;

std::string summary_text(const std::string& table_id, const std::string& variant, protocol::TableStatus status,
                         int taken) {
  protocol::TableSummary t;
  t.table_id = table_id;
  t.variant = variant;
  t.status = status;
  const VariantInfo* v = find_variant(variant);
  for (int s = 0; s < (v ? v->players : 2); ++s) {
    protocol::SeatInfo seat;
    seat.seat = s;
    if (s < taken) {
      seat.player_id = "p" + std::to_string(s);
      seat.name = "n" + std::to_string(s);
    }
    t.seats.push_back(seat);
  }
  return protocol::summary_text(t);
}

std::shared_ptr<const LobbySnapshot::Row> row_of(const std::string& text) {
  auto r = cluster::decode_row(cluster::encode_row("b", text));
  EXPECT_TRUE(r);
  return r ? r->row : nullptr;
}

TEST(ClusterRows, ARowKeepsItsNodeTextAndFilters) {
  const std::string text = summary_text("t7", "belot", protocol::TableStatus::waiting, 1);
  const auto r = cluster::decode_row(cluster::encode_row("node-b", text));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->node_id, "node-b");
  EXPECT_EQ(r->row->text, text);
  EXPECT_EQ(r->row->variant, "belot");
  EXPECT_EQ(r->row->status, protocol::TableStatus::waiting);
  EXPECT_EQ(r->row->free_seats, 3);
  const auto playing =
      cluster::decode_row(cluster::encode_row("a", summary_text("t8", "duel", protocol::TableStatus::playing, 2)));
  ASSERT_TRUE(playing);
  EXPECT_EQ(playing->row->status, protocol::TableStatus::playing);
  EXPECT_EQ(playing->row->free_seats, 0);
}

TEST(ClusterRows, WhatIsNotARowIsRefused) {
  for (const std::string bad : {"", "no newline", "a\nnot json", "a\n[]", "a\n{\"variant\":\"duel\"}",
                                "a\n{\"variant\":\"duel\",\"status\":\"asleep\",\"seats\":[]}",
                                "a\n{\"variant\":1,\"status\":\"waiting\",\"seats\":[]}"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(cluster::decode_row(bad));
  }
}

TEST(ClusterRows, BusMessagesSplitIntoNodeKindAndBody) {
  std::string node, kind, body;
  ASSERT_TRUE(cluster::ClusterBus::decode(cluster::ClusterBus::encode("a", "row", "t1\nb\n{}"), node, kind, body));
  EXPECT_EQ(node, "a");
  EXPECT_EQ(kind, "row");
  EXPECT_EQ(body, "t1\nb\n{}");
  EXPECT_FALSE(cluster::ClusterBus::decode("a only", node, kind, body));
  EXPECT_FALSE(cluster::ClusterBus::decode("a\nkind without body", node, kind, body));
}

class ClusterLobby : public ::testing::Test {
 protected:
  ClusterLobby() {
    lobby_->use_row_relay([this](const std::string& id, std::shared_ptr<const LobbySnapshot::Row> row) {
      relayed_.emplace_back(id, row ? row->text : std::string());
    });
    lobby_->use_chat_relay([this](std::shared_ptr<const std::string> text) { chats_.push_back(*text); });
  }
  void run() {
    while (ioc_.poll() > 0) {
    }
    ioc_.restart();
  }
  Member member(const std::string& player) {
    Member m;
    m.conn = next_conn_++;
    m.player_id = player;
    m.name = player;
    m.link = peer_;
    return m;
  }
  std::vector<json> heard() {
    std::vector<json> out;
    for (const auto& m : peer_->take()) out.push_back(json::parse(*m));
    return out;
  }
  std::vector<std::string> listed() {
    std::vector<std::string> ids;
    for (const auto& row : lobby_->snapshot()->rows) ids.push_back(json::parse(row->text)["table_id"]);
    return ids;
  }

  net::io_context ioc_;
  std::shared_ptr<server::Lobby> lobby_ = std::make_shared<server::Lobby>(ioc_.get_executor());
  std::shared_ptr<RecordingPeer> peer_ = std::make_shared<RecordingPeer>();
  std::vector<std::pair<std::string, std::string>> relayed_;
  std::vector<std::string> chats_;
  std::uint64_t next_conn_ = 1;
};

TEST_F(ClusterLobby, OtherNodesTablesAreListedAfterOursAndToldToSubscribers) {
  lobby_->subscribe(member("wes"), protocol::RequestId{});
  run();
  heard();
  protocol::CreateTable create;
  create.variant = "duel";
  lobby_->create(create, member("ann"), protocol::RequestId{});
  run();
  ASSERT_EQ(relayed_.size(), 1u);  // our own table goes to the other nodes
  const std::string ours = relayed_[0].first;
  heard();

  const std::string remote = summary_text("t900", "belot", protocol::TableStatus::waiting, 1);
  lobby_->remote_row("t900", row_of(remote));
  run();
  EXPECT_EQ(listed(), (std::vector<std::string>{ours, "t900"}));
  auto messages = heard();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["type"], "lobby_update");
  EXPECT_EQ(messages[0]["table"]["table_id"], "t900");
  // The same row again tells nobody anything.
  lobby_->remote_row("t900", row_of(remote));
  run();
  EXPECT_TRUE(heard().empty());
  EXPECT_EQ(relayed_.size(), 1u);  // and a remote row is never relayed back

  // A whole reload: t900 is gone, t901 appeared.
  std::map<std::string, std::shared_ptr<const LobbySnapshot::Row>> rows;
  rows["t901"] = row_of(summary_text("t901", "duel", protocol::TableStatus::playing, 2));
  lobby_->remote_rows(rows);
  run();
  EXPECT_EQ(listed(), (std::vector<std::string>{ours, "t901"}));
  messages = heard();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0]["type"], "lobby_remove");
  EXPECT_EQ(messages[0]["table_id"], "t900");
  EXPECT_EQ(messages[1]["type"], "lobby_update");
  EXPECT_EQ(messages[1]["table"]["table_id"], "t901");

  // Filters apply to remote rows as to ours.
  protocol::ListTables playing;
  playing.status = protocol::TableStatus::playing;
  const json page = json::parse(lobby_->snapshot()->page(playing, protocol::RequestId{}));
  ASSERT_EQ(page["tables"].size(), 1u);
  EXPECT_EQ(page["tables"][0]["table_id"], "t901");

  lobby_->remote_row("t901", nullptr);
  run();
  EXPECT_EQ(listed(), (std::vector<std::string>{ours}));
}

TEST_F(ClusterLobby, LobbyChatGoesToTheRelayAndRemoteChatToSubscribers) {
  const Member wes = member("wes");
  lobby_->subscribe(wes, protocol::RequestId{});
  run();
  heard();
  lobby_->chat(wes, "hello all", protocol::RequestId{});
  run();
  ASSERT_EQ(chats_.size(), 1u);
  EXPECT_EQ(json::parse(chats_[0])["text"], "hello all");
  heard();
  lobby_->remote_chat(std::make_shared<const std::string>(
      protocol::serialize(protocol::ChatMessage{std::nullopt, "p9", "zoe", std::nullopt, "from b"})));
  run();
  const auto messages = heard();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["type"], "chat_message");
  EXPECT_EQ(messages[0]["text"], "from b");
  EXPECT_EQ(chats_.size(), 1u);  // a remote line is not sent back out
}

}  // namespace
}  // namespace atout::server::testing
