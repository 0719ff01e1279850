// The request router in-process, with recording connections and a fake clock: each handler's reply
// and its errors, without a socket.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "atout/server/request_router.hpp"
#include "atout/sha256.hpp"
#include "atout/store/store.hpp"
#include "fake_clock.hpp"
#include "persist_support.hpp"
#include "recording_connection.hpp"

namespace atout::server::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() {
    ctx_->lobby = std::make_shared<server::Lobby>(ioc_.get_executor());
    ctx_->players = std::make_shared<server::Players>();
  }

  std::shared_ptr<RecordingConnection> connect() {
    auto c = std::make_shared<RecordingConnection>(ctx_, ioc_, next_conn_++, now_);
    conns_.push_back(c);
    return c;
  }
  // Runs everything posted until nothing is left.
  void run() {
    while (ioc_.poll() > 0) {
    }
  }
  // Sends `request` (given an id) and returns what came back once everything has run.
  std::vector<json> ask(RecordingConnection& c, json request) {
    request["id"] = next_id_++;
    c.router().handle(request.dump(), now_);
    run();
    return c.take();
  }
  // The one reply to `request`, or a `none` message when there were none or several.
  json one(RecordingConnection& c, json request) {
    const auto replies = ask(c, std::move(request));
    if (replies.size() != 1) return json{{"type", "none"}, {"count", replies.size()}, {"got", replies}};
    return replies.front();
  }
  // The type of the first reply that is not an update of the table or lobby.
  std::string first(RecordingConnection& c, json request) {
    for (const json& m : ask(c, std::move(request)))
      if (m["type"] != "table_update" && m["type"] != "lobby_update") return m["type"];
    return "none";
  }
  json hello(RecordingConnection& c, const std::string& name) {
    return one(c, {{"type", "hello"}, {"protocol", 1}, {"name", name}});
  }
  std::shared_ptr<RecordingConnection> player(const std::string& name) {
    auto c = connect();
    const json w = hello(*c, name);
    EXPECT_EQ(w["type"], "welcome") << w;
    return c;
  }
  std::string create(RecordingConnection& c, json extra = json::object()) {
    json request = {{"type", "create_table"}, {"variant", "duel"}};
    request.update(extra);
    const json created = one(c, request);
    EXPECT_EQ(created["type"], "table_created") << created;
    return created["table"].value("table_id", "");
  }
  static const json* find_type(const std::vector<json>& messages, const std::string& type) {
    for (const json& m : messages)
      if (m["type"] == type) return &m;
    return nullptr;
  }
  // Spectators of the one public table, as listed.
  int spectators(RecordingConnection& c) {
    const auto replies = ask(c, {{"type", "list_tables"}});
    const json* t = find_type(replies, "tables");
    if (!t || (*t)["tables"].size() != 1) return -1;
    return (*t)["tables"][0].value("spectators", -1);
  }
  static std::string error_code(const json& m) { return m["type"] == "error" ? m["code"].get<std::string>() : ""; }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_ = net::make_work_guard(ioc_);
  std::shared_ptr<Context> ctx_ = std::make_shared<Context>();
  RequestRouter::Clock::time_point now_ = RequestRouter::Clock::time_point{} + 1h;
  std::uint64_t next_conn_ = 1;
  int next_id_ = 1;
  std::vector<std::shared_ptr<RecordingConnection>> conns_;
};

TEST_F(RouterTest, UnparsableRequestsGetTheirParseErrors) {
  auto c = connect();
  c->router().handle("{not json", now_);
  auto replies = c->take();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(error_code(replies[0]), "bad_json");
  EXPECT_EQ(error_code(one(*c, {{"type", "no_such_request"}})), "unknown_type");
  EXPECT_EQ(error_code(one(*c, {{"type", "hello"}})), "missing_field");
}

TEST_F(RouterTest, EverythingButHelloAndPingNeedsAHelloFirst) {
  auto c = connect();
  EXPECT_EQ(error_code(one(*c, {{"type", "list_tables"}})), "hello_required");
  EXPECT_EQ(error_code(one(*c, {{"type", "chat"}, {"text", "hi"}})), "hello_required");
  EXPECT_EQ(one(*c, {{"type", "ping"}})["type"], "pong");
}

TEST_F(RouterTest, HelloIssuesAnIdentityOnce) {
  auto c = connect();
  const json w = hello(*c, "ann");
  ASSERT_EQ(w["type"], "welcome") << w;
  EXPECT_EQ(w["name"], "ann");
  EXPECT_EQ(w["token"].get<std::string>().size(), 64u);
  EXPECT_FALSE(w.value("resumed", false));
  EXPECT_EQ(error_code(hello(*c, "ann")), "already_identified");
}

TEST_F(RouterTest, HelloWithATokenResumesThePlayer) {
  auto first = connect();
  const json w = hello(*first, "ann");
  auto second = connect();
  const json again = one(*second, {{"type", "hello"}, {"protocol", 1}, {"token", w["token"]}});
  ASSERT_EQ(again["type"], "welcome") << again;
  EXPECT_EQ(again["player_id"], w["player_id"]);
  EXPECT_EQ(again["resumed"], true);
  EXPECT_TRUE(again["seats"].empty());
  const std::string unknown(64, 'a');
  EXPECT_EQ(error_code(one(*connect(), {{"type", "hello"}, {"protocol", 1}, {"token", unknown}})), "unknown_token");
}

TEST_F(RouterTest, HelloResumeTakesBackAHeldSeat) {
  auto ann = connect();
  const json w = hello(*ann, "ann");
  const std::string id = create(*ann);
  ASSERT_EQ(first(*ann, {{"type", "sit"}, {"table_id", id}, {"seat", 0}}), "seated");
  auto bob = player("bob");
  ask(*bob, {{"type", "sit"}, {"table_id", id}, {"seat", 1}});
  ann->end();
  run();
  auto back = connect();
  const auto replies = ask(*back, {{"type", "hello"},
                                   {"protocol", 1},
                                   {"token", w["token"]},
                                   {"resume", json::array({{{"table_id", id}, {"last_seq", 0}}})}});
  ASSERT_GE(replies.size(), 2u);
  EXPECT_EQ(replies[0]["type"], "welcome");
  ASSERT_EQ(replies[0]["seats"].size(), 1u);
  EXPECT_EQ(replies[0]["seats"][0]["table_id"], id);
  EXPECT_NE(find_type(replies, "seated"), nullptr);
}

TEST_F(RouterTest, ListVariantsNamesEveryVariant) {
  auto c = player("ann");
  const json v = one(*c, {{"type", "list_variants"}});
  ASSERT_EQ(v["type"], "variants");
  EXPECT_EQ(v["variants"].size(), variants().size());
}

TEST_F(RouterTest, ListTablesShowsPublicTablesOnly) {
  auto c = player("ann");
  EXPECT_TRUE(one(*c, {{"type", "list_tables"}})["tables"].empty());
  const std::string id = create(*c);
  create(*c, {{"private", true}});
  const json t = one(*c, {{"type", "list_tables"}});
  ASSERT_EQ(t["type"], "tables");
  ASSERT_EQ(t["tables"].size(), 1u);
  EXPECT_EQ(t["tables"][0]["table_id"], id);
}

TEST_F(RouterTest, SubscribeAndUnsubscribeTheLobby) {
  auto c = player("ann");
  EXPECT_EQ(one(*c, {{"type", "subscribe_lobby"}})["type"], "tables");
  auto bob = player("bob");
  create(*bob);
  const auto heard = c->take();
  EXPECT_NE(find_type(heard, "lobby_update"), nullptr);
  EXPECT_EQ(one(*c, {{"type", "unsubscribe_lobby"}})["type"], "ok");
  create(*bob);
  const auto unheard = c->take();
  EXPECT_EQ(find_type(unheard, "lobby_update"), nullptr);
}

TEST_F(RouterTest, CreateTableAndItsErrors) {
  auto c = player("ann");
  create(*c);
  EXPECT_EQ(error_code(one(*c, {{"type", "create_table"}, {"variant", "whist"}})), "unknown_variant");
  EXPECT_EQ(error_code(one(*c, {{"type", "create_table"}, {"variant", "duel"}, {"options", {{"target", -5}}}})),
            "bad_option");
}

TEST_F(RouterTest, SitAndItsErrors) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  EXPECT_EQ(first(*ann, {{"type", "sit"}, {"table_id", id}, {"seat", 0}}), "seated");
  EXPECT_EQ(error_code(one(*ann, {{"type", "sit"}, {"table_id", id}})), "already_seated");
  auto bob = player("bob");
  EXPECT_EQ(error_code(one(*bob, {{"type", "sit"}, {"table_id", id}, {"seat", 0}})), "seat_taken");
  EXPECT_EQ(error_code(one(*bob, {{"type", "sit"}, {"table_id", id}, {"seat", 7}})), "bad_seat");
  EXPECT_EQ(error_code(one(*bob, {{"type", "sit"}, {"table_id", "t404"}})), "unknown_table");
  EXPECT_EQ(error_code(one(*bob, {{"type", "sit"}, {"invite", "nope"}})), "bad_invite");
  EXPECT_EQ(error_code(one(*bob, {{"type", "sit"}, {"table_id", id}, {"last_seq", 0}})), "not_seated");
}

TEST_F(RouterTest, SpectateAndItsErrors) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  auto wes = player("wes");
  EXPECT_EQ(first(*wes, {{"type", "spectate"}, {"table_id", id}}), "watching");
  EXPECT_EQ(error_code(one(*wes, {{"type", "spectate"}, {"table_id", "t404"}})), "unknown_table");
  ask(*ann, {{"type", "sit"}, {"table_id", id}});
  EXPECT_EQ(error_code(one(*ann, {{"type", "spectate"}, {"table_id", id}})), "already_seated");
}

TEST_F(RouterTest, StandAndItsErrors) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  EXPECT_EQ(error_code(one(*ann, {{"type", "stand"}, {"table_id", id}})), "not_seated");
  ask(*ann, {{"type", "sit"}, {"table_id", id}});
  const auto replies = ask(*ann, {{"type", "stand"}, {"table_id", id}});
  ASSERT_FALSE(replies.empty());
  EXPECT_EQ(replies[0]["type"], "ok");
  EXPECT_EQ(error_code(one(*ann, {{"type", "stand"}, {"table_id", "t404"}})), "unknown_table");
}

TEST_F(RouterTest, LeaveAndItsErrors) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  auto bob = player("bob");
  EXPECT_EQ(error_code(one(*bob, {{"type", "leave"}, {"table_id", id}})), "not_at_table");
  ask(*bob, {{"type", "spectate"}, {"table_id", id}});
  EXPECT_EQ(first(*bob, {{"type", "leave"}, {"table_id", id}}), "ok");
  EXPECT_EQ(error_code(one(*bob, {{"type", "leave"}, {"table_id", "t404"}})), "unknown_table");
}

TEST_F(RouterTest, ActAndItsErrors) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  const json pass = {{"type", "pass"}};
  EXPECT_EQ(error_code(one(*ann, {{"type", "action"}, {"table_id", id}, {"action", pass}})), "not_seated");
  ask(*ann, {{"type", "sit"}, {"table_id", id}, {"seat", 0}});
  EXPECT_EQ(error_code(one(*ann, {{"type", "action"}, {"table_id", id}, {"action", pass}})), "match_not_running");
  auto bob = player("bob");
  ann->take();
  // The last sit starts the match: each seat gets its start event, with actions for the one to play.
  std::vector<std::vector<json>> got(2);
  got[1] = ask(*bob, {{"type", "sit"}, {"table_id", id}, {"seat", 1}});
  got[0] = ann->take();
  const std::vector<std::shared_ptr<RecordingConnection>> seats = {ann, bob};
  int actor = -1;
  json legal;
  for (int s = 0; s < 2; ++s)
    for (const json& m : got[static_cast<std::size_t>(s)])
      if (m["type"] == "event" && !m["observation"]["legal"].empty()) {
        actor = s;
        legal = m["observation"]["legal"];
      }
  ASSERT_GE(actor, 0);
  auto& c = *seats[static_cast<std::size_t>(actor)];
  auto& other = *seats[static_cast<std::size_t>(1 - actor)];
  const json not_yours = one(other, {{"type", "action"}, {"table_id", id}, {"action", legal[0]}});
  EXPECT_EQ(error_code(not_yours), "illegal_action") << not_yours;
  const auto replies = ask(c, {{"type", "action"}, {"table_id", id}, {"action", legal[0]}});
  ASSERT_NE(find_type(replies, "accepted"), nullptr);
  EXPECT_GE(actor, 0);
  ann->take();
  bob->take();
  EXPECT_EQ(error_code(one(*ann, {{"type", "action"}, {"table_id", "t404"}, {"action", pass}})), "unknown_table");
}

TEST_F(RouterTest, PingAnswersPong) {
  auto c = player("ann");
  EXPECT_EQ(one(*c, {{"type", "ping"}})["type"], "pong");
}

TEST_F(RouterTest, LobbyChatGoesToSubscribersOnly) {
  auto ann = player("ann");
  EXPECT_EQ(error_code(one(*ann, {{"type", "chat"}, {"text", "hi"}})), "not_at_table");
  ask(*ann, {{"type", "subscribe_lobby"}});
  const auto replies = ask(*ann, {{"type", "chat"}, {"text", "hi"}});
  ASSERT_NE(find_type(replies, "ok"), nullptr);
  const json* line = find_type(replies, "chat_message");
  ASSERT_NE(line, nullptr);
  EXPECT_EQ((*line)["text"], "hi");
  EXPECT_FALSE(line->contains("table_id"));
}

TEST_F(RouterTest, TableChatGoesToItsMembers) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  auto bob = player("bob");
  EXPECT_EQ(error_code(one(*bob, {{"type", "chat"}, {"table_id", id}, {"text", "hi"}})), "not_at_table");
  EXPECT_EQ(error_code(one(*bob, {{"type", "chat"}, {"table_id", "t404"}, {"text", "hi"}})), "unknown_table");
  ask(*bob, {{"type", "spectate"}, {"table_id", id}});
  ann->take();
  const auto replies = ask(*bob, {{"type", "chat"}, {"table_id", id}, {"text", "hello"}});
  ASSERT_NE(find_type(replies, "ok"), nullptr);
  const auto to_ann = ann->take();
  const json* heard = find_type(to_ann, "chat_message");
  ASSERT_NE(heard, nullptr);
  EXPECT_EQ((*heard)["table_id"], id);
}

TEST_F(RouterTest, ChatHasItsOwnBudgetOnTheInjectedClock) {
  auto ann = player("ann");
  ask(*ann, {{"type", "subscribe_lobby"}});
  for (int i = 0; i < static_cast<int>(RequestRouter::kChatBurst); ++i)
    ASSERT_NE(find_type(ask(*ann, {{"type", "chat"}, {"text", "hi"}}), "ok"), nullptr) << i;
  const json refused = one(*ann, {{"type", "chat"}, {"text", "hi"}});
  EXPECT_EQ(error_code(refused), "chat_too_fast");
  EXPECT_NE(refused["message"].get<std::string>().find("wait 1000 ms"), std::string::npos) << refused;
  // Other requests are not held to the chat budget.
  EXPECT_EQ(one(*ann, {{"type", "ping"}})["type"], "pong");
  now_ += 400ms;
  EXPECT_NE(one(*ann, {{"type", "chat"}, {"text", "hi"}})["message"].get<std::string>().find("wait 600 ms"),
            std::string::npos);
  now_ += 600ms;
  EXPECT_NE(find_type(ask(*ann, {{"type", "chat"}, {"text", "hi"}}), "ok"), nullptr);
  EXPECT_EQ(error_code(one(*ann, {{"type", "chat"}, {"text", "hi"}})), "chat_too_fast");
}

TEST_F(RouterTest, ArchiveRequestsWithoutAStoreAreRefused) {
  auto ann = player("ann");
  for (const char* type : {"get_profile", "get_history"})
    EXPECT_EQ(error_code(one(*ann, {{"type", type}, {"player_id", "p1"}})), "internal_error") << type;
  EXPECT_EQ(error_code(one(*ann, {{"type", "get_leaderboard"}, {"ladder", "duel"}})), "internal_error");
  EXPECT_EQ(error_code(one(*ann, {{"type", "get_replay"}, {"match_id", "m1"}})), "internal_error");
}

TEST_F(RouterTest, ArchiveRequestsAreAnsweredFromTheStore) {
  // Named by process and count: ctest runs tests in parallel processes, where `this` can repeat.
  const TempDir dir;
  std::string error;
  std::shared_ptr<store::Store> db = store::Store::open(dir.file("atout.db"), {}, error);
  ASSERT_TRUE(db) << error;
  ctx_->archive = std::make_shared<Archive>(db);
  auto ann = player("ann");
  // The archive answers from its own thread.
  auto answer = [&](json request) {
    request["id"] = next_id_++;
    ann->router().handle(request.dump(), now_);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    for (;;) {
      run();
      auto replies = ann->take();
      if (!replies.empty() || std::chrono::steady_clock::now() > deadline)
        return replies.empty() ? json{{"type", "none"}} : replies.front();
      std::this_thread::yield();
    }
  };
  EXPECT_EQ(answer({{"type", "get_leaderboard"}, {"ladder", "duel"}})["type"], "leaderboard");
  EXPECT_EQ(error_code(answer({{"type", "get_leaderboard"}, {"ladder", "whist"}})), "unknown_ladder");
  EXPECT_EQ(error_code(answer({{"type", "get_profile"}, {"player_id", "p404"}})), "unknown_player");
  EXPECT_EQ(error_code(answer({{"type", "get_history"}, {"player_id", "p404"}})), "unknown_player");
  EXPECT_EQ(error_code(answer({{"type", "get_replay"}, {"match_id", "m404"}})), "unknown_match");
  EXPECT_EQ(error_code(answer({{"type", "get_analysis"}, {"match_id", "m404"}, {"deal_number", 0}})), "unknown_match");
  // Analyses past the bound are refused at once, before any read.
  ctx_->archive = std::make_shared<Archive>(db, 0);
  EXPECT_EQ(error_code(answer({{"type", "get_analysis"}, {"match_id", "m404"}, {"deal_number", 0}})), "too_fast");
  EXPECT_EQ(Archive::http_response(protocol::make_error(protocol::ErrorCode::too_fast, "busy")).first,
            http::status::too_many_requests);
  ctx_->archive.reset();
  db.reset();
}

TEST_F(RouterTest, EndingLeavesEveryTableAndATableJoinedLaterLetsGo) {
  auto ann = player("ann");
  const std::string id = create(*ann);
  auto wes = player("wes");
  ask(*wes, {{"type", "spectate"}, {"table_id", id}});
  ASSERT_EQ(spectators(*ann), 1);
  wes->end();
  run();
  EXPECT_EQ(spectators(*ann), 0);
  // Joined after it ended (a sit in flight): the table is told to let it go at once.
  auto late = player("late");
  late->end();
  late->router().handle(R"({"type":"spectate","table_id":")" + id + "\"}", now_);
  run();
  EXPECT_EQ(spectators(*ann), 0);
}

// In a cluster a token issued on another node a moment ago may not be committed yet: the hello
// waits for it on a timer, a few times, without blocking the I/O thread.
class UnknownTokenTest : public RouterTest {
 protected:
  UnknownTokenTest() {
    std::string error;
    db_ = store::Store::open(dir_.file("atout.db"), {}, error);
    EXPECT_TRUE(db_) << error;
    ctx_->players = std::make_shared<server::Players>(db_);
    ctx_->retry_unknown_tokens = true;
    ctx_->clock = clock_;
  }
  ~UnknownTokenTest() override {
    clock_->drop_pending();
    ctx_->players.reset();
    db_.reset();
  }
  // Another node commits a guest with `token`.
  void commit_elsewhere(const std::string& token) {
    db_->add_player("pelsewhere", "ann", to_hex(sha256(token)), 0);
    db_->flush();
  }
  // Sends `request` with an id and returns the id, without waiting for anything.
  int send(RecordingConnection& c, json request) {
    request["id"] = next_id_;
    c.router().handle(request.dump(), now_);
    return next_id_++;
  }
  void wait_once() {
    clock_->advance(RequestRouter::kUnknownTokenWait);
    run();
  }
  json hello_with(const std::string& token) { return {{"type", "hello"}, {"protocol", 1}, {"token", token}}; }

  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  TempDir dir_;  // named by process and count: ctest runs tests in parallel processes
  std::shared_ptr<store::Store> db_;
  const std::string token_ = std::string(64, 'b');
};

TEST_F(UnknownTokenTest, ATokenCommittedDuringTheWaitResumesAndTheRequestsBehindItAreServedAfterIt) {
  auto c = connect();
  const int hello_id = send(*c, hello_with(token_));
  const int list_id = send(*c, {{"type", "list_variants"}});
  run();
  // Nothing answered yet, and handle() returned: the wait is a timer's, not the thread's.
  EXPECT_TRUE(c->take().empty());
  wait_once();
  EXPECT_TRUE(c->take().empty());
  commit_elsewhere(token_);
  wait_once();
  const auto replies = c->take();
  ASSERT_EQ(replies.size(), 2u) << json(replies);
  // A resumed welcome waits for the lobby's list of held seats, so a reply to a later request may
  // overtake it (as without a wait); what matters is that the later request came after the hello.
  const json* welcome = find_type(replies, "welcome");
  ASSERT_TRUE(welcome) << json(replies);
  EXPECT_EQ((*welcome)["id"], hello_id);
  EXPECT_EQ((*welcome)["player_id"], "pelsewhere");
  EXPECT_EQ((*welcome)["resumed"], true);
  const json* variants = find_type(replies, "variants");
  ASSERT_TRUE(variants) << json(replies);
  EXPECT_EQ((*variants)["id"], list_id);
  EXPECT_EQ(one(*c, {{"type", "ping"}})["type"], "pong");
}

TEST_F(UnknownTokenTest, ATokenThatNeverAppearsIsRefusedAfterTheLastTryAndTheHeldRequestsAreAnswered) {
  auto c = connect();
  const int hello_id = send(*c, hello_with(token_));
  const int list_id = send(*c, {{"type", "list_tables"}});
  run();
  for (int i = 0; i < RequestRouter::kUnknownTokenRetries - 1; ++i) {
    wait_once();
    EXPECT_TRUE(c->take().empty()) << "answered after " << i + 1 << " waits";
  }
  wait_once();
  const auto replies = c->take();
  ASSERT_EQ(replies.size(), 2u) << json(replies);
  EXPECT_EQ(error_code(replies[0]), "unknown_token");
  EXPECT_EQ(replies[0]["id"], hello_id);
  // The request held behind the refused hello is handled as if it came after it.
  EXPECT_EQ(error_code(replies[1]), "hello_required");
  EXPECT_EQ(replies[1]["id"], list_id);
  // No timer is left pending, and a later hello is served at once.
  wait_once();
  EXPECT_TRUE(c->take().empty());
  EXPECT_EQ(hello(*c, "ann")["type"], "welcome");
}

TEST_F(UnknownTokenTest, OtherConnectionsAreServedWhileAHelloWaits) {
  auto waiting = connect();
  send(*waiting, hello_with(token_));
  auto other = player("bob");
  EXPECT_EQ(one(*other, {{"type", "ping"}})["type"], "pong");
  EXPECT_TRUE(waiting->take().empty());
}

TEST_F(UnknownTokenTest, AFloodBehindAWaitingHelloIsRefused) {
  auto c = connect();
  send(*c, hello_with(token_));
  for (std::size_t i = 0; i < RequestRouter::kMaxHeldRequests; ++i) send(*c, {{"type", "ping"}});
  const int over = send(*c, {{"type", "ping"}});
  run();
  const auto refused = c->take();
  ASSERT_EQ(refused.size(), 1u) << json(refused);
  EXPECT_EQ(error_code(refused[0]), "too_fast");
  EXPECT_EQ(refused[0]["id"], over);
  for (int i = 0; i < RequestRouter::kUnknownTokenRetries; ++i) wait_once();
  const auto replies = c->take();
  ASSERT_EQ(replies.size(), 1u + RequestRouter::kMaxHeldRequests) << json(replies);
  EXPECT_EQ(error_code(replies[0]), "unknown_token");
  for (std::size_t i = 1; i < replies.size(); ++i) EXPECT_EQ(replies[i]["type"], "pong");
}

TEST_F(UnknownTokenTest, AConnectionThatEndsWhileItsHelloWaitsIsLeftAlone) {
  auto c = connect();
  send(*c, hello_with(token_));
  send(*c, {{"type", "ping"}});
  run();
  c->end();
  commit_elsewhere(token_);
  for (int i = 0; i < RequestRouter::kUnknownTokenRetries; ++i) wait_once();
  EXPECT_TRUE(c->take().empty());
}

TEST_F(UnknownTokenTest, WithoutAClusterAnUnknownTokenIsRefusedAtOnce) {
  ctx_->retry_unknown_tokens = false;
  auto c = connect();
  EXPECT_EQ(error_code(one(*c, hello_with(token_))), "unknown_token");
}

}  // namespace
}  // namespace atout::server::testing
