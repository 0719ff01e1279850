// Bad input: one test per error code, each checking the reply and that the same connection (and
// everyone else) carries on as before.
#include <gtest/gtest.h>

#include "atout/protocol/messages.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

class BadInput : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(log_.validate()); }

  std::unique_ptr<TestClient> client(const std::string& name = "") {
    auto c = std::make_unique<TestClient>(server_.port(), &log_);
    if (!name.empty()) {
      const json w = c->hello(name);
      EXPECT_EQ(w["type"], "welcome") << w;
    }
    return c;
  }

  // The connection still answers requests, and nothing unasked-for is waiting on it.
  static void still_works(TestClient& c) {
    ASSERT_TRUE(c.open());
    const json pong = c.request({{"type", "ping"}});
    EXPECT_EQ(pong["type"], "pong") << pong;
    const json tables = c.request({{"type", "list_tables"}});
    EXPECT_TRUE(tables["type"] == "tables" || tables["type"] == "error") << tables;
    EXPECT_TRUE(c.open());
  }

  // Reads the next message: an error with `code` (and the id, when one was sent).
  static json expect_error(TestClient& c, const std::string& code) {
    auto m = c.next();
    EXPECT_TRUE(m.has_value()) << "no reply; expected " << code;
    if (!m) return json{};
    EXPECT_EQ((*m)["type"], "error") << *m;
    EXPECT_EQ((*m)["code"], code) << *m;
    EXPECT_TRUE((*m)["message"].is_string() && !(*m)["message"].get<std::string>().empty()) << *m;
    return *m;
  }

  // A table of `variant` whose seats `sitters` take, in order from seat 0.
  std::string table_with(TestClient& owner, const std::string& variant, std::vector<TestClient*> sitters) {
    const json created = owner.request({{"type", "create_table"}, {"variant", variant}});
    EXPECT_EQ(created["type"], "table_created") << created;
    const std::string id = created["table"]["table_id"];
    for (std::size_t s = 0; s < sitters.size(); ++s) {
      const json seated = sitters[s]->request({{"type", "sit"}, {"table_id", id}, {"seat", static_cast<int>(s)}});
      EXPECT_EQ(seated["type"], "seated") << seated;
    }
    return id;
  }

  LiveServer server_;
  MessageLog log_;
};

TEST_F(BadInput, BadJson) {
  auto c = client();
  c->send_raw("{\"type\": \"ping\", ");
  expect_error(*c, "bad_json");
  // Binary frames are not read as requests.
  c->send_raw(R"({"type":"ping"})", true);
  expect_error(*c, "bad_json");
  still_works(*c);
}

TEST_F(BadInput, BadMessage) {
  auto c = client();
  for (const char* text : {"[1, 2]", "42", "\"hello\"", "null"}) {
    c->send_raw(text);
    expect_error(*c, "bad_message");
  }
  still_works(*c);
}

TEST_F(BadInput, MissingField) {
  auto c = client();
  c->send_raw(R"({"id": 7})");
  EXPECT_EQ(expect_error(*c, "missing_field")["field"], "type");
  c->send_raw(R"({"type": "hello", "id": "h"})");
  const json e = expect_error(*c, "missing_field");
  EXPECT_EQ(e["field"], "protocol");
  EXPECT_EQ(e["id"], "h");
  c->hello("ann");
  c->send_raw(R"({"type": "action", "table_id": "t1", "id": 3})");
  EXPECT_EQ(expect_error(*c, "missing_field")["field"], "action");
  c->send_raw(R"({"type": "sit", "id": 4})");
  EXPECT_EQ(expect_error(*c, "missing_field")["field"], "table_id");
  c->send_raw(R"({"type": "create_table"})");
  EXPECT_EQ(expect_error(*c, "missing_field")["field"], "variant");
  still_works(*c);
}

TEST_F(BadInput, InvalidField) {
  auto c = client();
  c->send_raw(R"({"type": "hello", "protocol": "1"})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "protocol");
  c->send_raw(R"({"type": "ping", "id": {"nested": true}})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "id");
  c->send_raw(R"({"type": 5})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "type");
  c->send_raw(R"({"type": "hello", "protocol": 1, "name": "a\u0007b"})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "name");
  c->send_raw(R"({"type": "hello", "protocol": 1, "token": "not-a-token"})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "token");
  c->hello("ann");
  c->send_raw(R"({"type": "sit", "table_id": "t1", "seat": "north"})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "seat");
  c->send_raw(R"({"type": "sit", "table_id": 12})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "table_id");
  c->send_raw(R"({"type": "action", "table_id": "t1", "action": {"type": "play", "card": "ZZ"}})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "action.card");
  c->send_raw(R"({"type": "action", "table_id": "t1", "action": {"type": "juggle"}})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "action.type");
  c->send_raw(R"({"type": "action", "table_id": "t1", "action": {"type": "bid", "trump": "hearts", "value": 99999}})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "action.value");
  c->send_raw(R"({"type": "create_table", "variant": "french", "options": [1]})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "options");
  c->send_raw(R"({"type": "create_table", "variant": "french", "private": "yes"})");
  EXPECT_EQ(expect_error(*c, "invalid_field")["field"], "private");
  still_works(*c);
}

TEST_F(BadInput, UnknownType) {
  auto c = client();
  c->send_raw(R"({"type": "dance", "id": "d1"})");
  EXPECT_EQ(expect_error(*c, "unknown_type")["id"], "d1");
  still_works(*c);
}

TEST_F(BadInput, UnsupportedVersion) {
  auto c = client();
  c->send_raw(R"({"type": "hello", "protocol": 2, "name": "ann"})");
  expect_error(*c, "unsupported_version");
  // The connection can still say hello properly.
  EXPECT_EQ(c->hello("ann")["type"], "welcome");
  still_works(*c);
}

TEST_F(BadInput, HelloRequired) {
  auto c = client();
  for (const json& r : {json{{"type", "list_tables"}}, json{{"type", "create_table"}, {"variant", "french"}},
                        json{{"type", "sit"}, {"table_id", "t1"}}}) {
    const json e = c->request(r);
    EXPECT_EQ(e["code"], "hello_required") << e;
  }
  EXPECT_EQ(c->hello("ann")["type"], "welcome");
  still_works(*c);
}

TEST_F(BadInput, AlreadyIdentified) {
  auto c = client("ann");
  const json e = c->request({{"type", "hello"}, {"protocol", 1}, {"name", "bob"}});
  EXPECT_EQ(e["code"], "already_identified") << e;
  still_works(*c);
}

TEST_F(BadInput, UnknownToken) {
  auto c = client();
  const json e = c->request({{"type", "hello"}, {"protocol", 1}, {"token", std::string(64, 'a')}});
  EXPECT_EQ(e["code"], "unknown_token") << e;
  EXPECT_EQ(c->hello("ann")["type"], "welcome");
  still_works(*c);
}

TEST_F(BadInput, UnknownVariant) {
  auto c = client("ann");
  const json e = c->request({{"type", "create_table"}, {"variant", "poker"}});
  EXPECT_EQ(e["code"], "unknown_variant") << e;
  still_works(*c);
}

TEST_F(BadInput, BadOption) {
  auto c = client("ann");
  // Checked against each variant's own specs: an unknown name, a wrong type, a value not allowed.
  for (const VariantInfo& v : variants()) {
    const json unknown = c->request({{"type", "create_table"}, {"variant", v.id}, {"options", {{"no_such", true}}}});
    EXPECT_EQ(unknown["code"], "bad_option") << unknown;
    EXPECT_EQ(unknown.value("field", ""), "options.no_such") << unknown;
    for (const OptionSpec& o : v.options) {
      json wrong = o.type == OptionType::boolean ? json("yes") : o.type == OptionType::integer ? json(-99999) : json(7);
      const json e = c->request({{"type", "create_table"}, {"variant", v.id}, {"options", {{o.name, wrong}}}});
      EXPECT_EQ(e["code"], "bad_option") << v.id << " " << o.name << ": " << e;
      EXPECT_EQ(e.value("field", ""), "options." + o.name) << e;
    }
  }
  still_works(*c);
}

TEST_F(BadInput, UnknownTable) {
  auto c = client("ann");
  EXPECT_EQ(c->request({{"type", "sit"}, {"table_id", "t404"}})["code"], "unknown_table");
  EXPECT_EQ(c->request({{"type", "spectate"}, {"table_id", "t404"}})["code"], "unknown_table");
  EXPECT_EQ(c->request({{"type", "stand"}, {"table_id", "t404"}})["code"], "unknown_table");
  EXPECT_EQ(c->request({{"type", "leave"}, {"table_id", "t404"}})["code"], "unknown_table");
  const json e = c->request({{"type", "action"}, {"table_id", "t404"}, {"action", {{"type", "pass"}}}});
  EXPECT_EQ(e["code"], "unknown_table") << e;
  EXPECT_EQ(e["table_id"], "t404");
  // A private table is unknown to anyone without its invite.
  auto owner = client("olga");
  const json created = owner->request({{"type", "create_table"}, {"variant", "duel"}, {"private", true}});
  const std::string id = created["table"]["table_id"];
  EXPECT_EQ(c->request({{"type", "sit"}, {"table_id", id}})["code"], "unknown_table");
  EXPECT_EQ(c->request({{"type", "stand"}, {"table_id", id}})["code"], "unknown_table");
  still_works(*c);
  still_works(*owner);
}

TEST_F(BadInput, BadInvite) {
  auto c = client("ann");
  EXPECT_EQ(c->request({{"type", "sit"}, {"invite", "00000000000000000000000000000000"}})["code"], "bad_invite");
  auto owner = client("olga");
  const json a = owner->request({{"type", "create_table"}, {"variant", "duel"}, {"private", true}});
  const json b = owner->request({{"type", "create_table"}, {"variant", "duel"}, {"private", true}});
  // An invite names one table only.
  const json e = c->request({{"type", "sit"}, {"table_id", b["table"]["table_id"]}, {"invite", a["invite"]}});
  EXPECT_EQ(e["code"], "bad_invite") << e;
  still_works(*c);
}

TEST_F(BadInput, BadSeat) {
  auto c = client("ann");
  const std::string id = table_with(*c, "duel", {});
  for (int seat : {-1, 2, 9, 1000000}) {
    const json e = c->request({{"type", "sit"}, {"table_id", id}, {"seat", seat}});
    EXPECT_EQ(e["code"], "bad_seat") << e;
  }
  EXPECT_EQ(c->request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["type"], "seated");
  still_works(*c);
}

TEST_F(BadInput, SeatTaken) {
  auto a = client("ann");
  auto b = client("bob");
  const std::string id = table_with(*a, "french", {a.get()});
  const json e = b->request({{"type", "sit"}, {"table_id", id}, {"seat", 0}});
  EXPECT_EQ(e["code"], "seat_taken") << e;
  EXPECT_EQ(b->request({{"type", "sit"}, {"table_id", id}, {"seat", 2}})["type"], "seated");
  still_works(*b);
}

TEST_F(BadInput, TableFull) {
  auto a = client("ann");
  auto b = client("bob");
  auto c = client("cat");
  const std::string id = table_with(*a, "duel", {a.get(), b.get()});
  const json e = c->request({{"type", "sit"}, {"table_id", id}});
  EXPECT_EQ(e["code"], "table_full") << e;
  // Watching a full table is fine.
  EXPECT_EQ(c->request({{"type", "spectate"}, {"table_id", id}})["type"], "watching");
  still_works(*c);
}

TEST_F(BadInput, AlreadySeated) {
  auto a = client("ann");
  const std::string id = table_with(*a, "french", {a.get()});
  EXPECT_EQ(a->request({{"type", "sit"}, {"table_id", id}, {"seat", 1}})["code"], "already_seated");
  EXPECT_EQ(a->request({{"type", "sit"}, {"table_id", id}})["code"], "already_seated");
  EXPECT_EQ(a->request({{"type", "spectate"}, {"table_id", id}})["code"], "already_seated");
  still_works(*a);
}

TEST_F(BadInput, NotSeated) {
  auto a = client("ann");
  auto w = client("wes");
  const std::string id = table_with(*a, "duel", {});
  EXPECT_EQ(w->request({{"type", "spectate"}, {"table_id", id}})["type"], "watching");
  EXPECT_EQ(w->request({{"type", "stand"}, {"table_id", id}})["code"], "not_seated");
  const json e = w->request({{"type", "action"}, {"table_id", id}, {"action", {{"type", "pass"}}}});
  EXPECT_EQ(e["code"], "not_seated") << e;
  still_works(*w);
}

TEST_F(BadInput, NotAtTable) {
  auto a = client("ann");
  auto b = client("bob");
  const std::string id = table_with(*a, "duel", {});
  EXPECT_EQ(b->request({{"type", "leave"}, {"table_id", id}})["code"], "not_at_table");
  still_works(*b);
}

TEST_F(BadInput, MatchNotRunning) {
  auto a = client("ann");
  auto b = client("bob");
  const std::string id = table_with(*a, "duel", {a.get()});
  const json e = a->request({{"type", "action"}, {"table_id", id}, {"action", {{"type", "pass"}}}});
  EXPECT_EQ(e["code"], "match_not_running") << e;
  EXPECT_EQ(b->request({{"type", "sit"}, {"table_id", id}})["type"], "seated");
  // Paused: a seat emptied mid-match.
  EXPECT_EQ(b->request({{"type", "stand"}, {"table_id", id}})["type"], "ok");
  const json p = a->request({{"type", "action"}, {"table_id", id}, {"action", {{"type", "pass"}}}});
  EXPECT_EQ(p["code"], "match_not_running") << p;
  still_works(*a);
}

TEST_F(BadInput, IllegalActionLeavesTheMatchUntouched) {
  auto a = client("ann");
  auto b = client("bob");
  auto w = client("wes");
  const std::string id = table_with(*a, "duel", {a.get(), b.get()});
  EXPECT_EQ(w->request({{"type", "spectate"}, {"table_id", id}})["type"], "watching");
  EXPECT_EQ(w->wait_for("event")["kind"], "snapshot");
  const json start_a = a->wait_for("event");
  const json start_b = b->wait_for("event");
  ASSERT_EQ(start_a["seq"], 1);
  const bool a_acts = !start_a["observation"]["legal"].empty();
  TestClient& actor = a_acts ? *a : *b;
  TestClient& other = a_acts ? *b : *a;
  const json& legal = (a_acts ? start_a : start_b)["observation"]["legal"];
  ASSERT_FALSE(legal.empty());

  // Out of turn, with an action the seat to act may take.
  json e = other.request({{"type", "action"}, {"table_id", id}, {"action", legal[0]}});
  EXPECT_EQ(e["code"], "illegal_action") << e;
  EXPECT_EQ(e["reason"], "not_your_turn") << e;
  // In turn, but not an action of this phase: a card during the bidding.
  const std::string card = (a_acts ? start_a : start_b)["observation"]["hand"][0];
  e = actor.request({{"type", "action"}, {"table_id", id}, {"action", {{"type", "play"}, {"card", card}}}});
  EXPECT_EQ(e["code"], "illegal_action") << e;
  EXPECT_EQ(e["reason"], "wrong_phase") << e;
  // Nobody heard of the refused actions.
  EXPECT_TRUE(w->no_events());
  EXPECT_TRUE(other.no_events());
  // The legal action still goes through, as event 2 for everyone.
  const json ok = actor.request({{"type", "action"}, {"table_id", id}, {"action", legal[0]}});
  EXPECT_EQ(ok["type"], "accepted") << ok;
  EXPECT_EQ(ok["seq"], 2);
  for (TestClient* c : {a.get(), b.get(), w.get()}) {
    EXPECT_EQ(c->wait_for("event")["seq"], 2);
  }
  still_works(other);
}

TEST_F(BadInput, TooLargeAFrameClosesOnlyThatConnection) {
  auto a = client("ann");
  auto b = client("bob");
  a->send_raw(R"({"type":"hello","protocol":1,"name":")" + std::string(20000, 'x') + "\"}");
  EXPECT_FALSE(a->next().has_value());
  EXPECT_EQ(a->close_code(), 1009);  // message too big
  still_works(*b);
}

TEST_F(BadInput, TextThatIsNotUtf8ClosesOnlyThatConnection) {
  // WebSocket itself requires text frames to be UTF-8; the server closes with 1007 as RFC 6455
  // says, rather than guess at the bytes.
  auto a = client("ann");
  auto b = client("bob");
  a->send_raw("{\"type\": \"ping\", \"x\": \"\xff\xfe\"}");
  EXPECT_FALSE(a->next().has_value());
  EXPECT_EQ(a->close_code(), 1007);
  still_works(*b);
}

TEST(ErrorCodes, InternalErrorIsSerialisedLikeAnyOther) {
  // No input reaches internal_error by design (it stands in for a crash that must not happen), so
  // this checks only its wire form; the schema test covers every code in defs.json.
  protocol::Error e;
  e.code = protocol::ErrorCode::internal_error;
  e.message = "x";
  const json j = json::parse(protocol::serialize(e, protocol::RequestId{std::int64_t{9}}));
  EXPECT_EQ(j["code"], "internal_error");
  EXPECT_EQ(j["id"], 9);
}

}  // namespace
}  // namespace atout::server::testing
