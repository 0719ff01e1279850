// Per-seat deltas over real loopback sockets: a connection that asked for deltas rebuilds, from
// its first whole event and each delta since, exactly the events a full-view connection gets, and
// it still does after it drops and resumes.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "atout/protocol/view_delta.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

// One connection's events at one table, each rebuilt whole: a whole event becomes the new base,
// a delta is applied to the last one.
class Rebuilder {
 public:
  // The next event or delta `c` receives (other messages are dropped), as the whole event.
  json next(TestClient& c) {
    for (;;) {
      auto m = c.next();
      if (!m) {
        ADD_FAILURE() << "no event came";
        return json{{"type", "none"}};
      }
      const std::string type = (*m)["type"];
      if (type == "event") {
        ++wholes_;
        held_ = *m;
        return *m;
      }
      if (type != "delta") continue;
      ++deltas_;
      auto rebuilt = protocol::rebuild_event(held_, *m);
      EXPECT_TRUE(rebuilt.has_value()) << "held " << held_ << ", got " << *m;
      held_ = rebuilt.value_or(json::object());
      return held_;
    }
  }
  int wholes() const { return wholes_; }
  int deltas() const { return deltas_; }

 private:
  json held_;  // the last event, whole or rebuilt
  int wholes_ = 0;
  int deltas_ = 0;
};

// What every seat sees alike: the event without the seat's own cards and actions.
json public_part(json e) {
  json& o = e["observation"];
  for (const char* k : {"seat", "hand", "legal", "declarations"}) o.erase(k);
  e.erase("last_action");
  e.erase("id");
  return e;
}

constexpr std::size_t kSeats = 4;

// A French table: seat 0 and the second spectator ask for deltas, the rest for full views.
struct DeltaTable {
  std::string id;
  std::vector<std::unique_ptr<TestClient>> clients;  // seats 0..3, full spectator, delta spectator
  std::vector<std::string> tokens;
  std::vector<json> latest;
  std::vector<Rebuilder> views;
  std::uint64_t seq = 1;
  Rng rng{Seed{0xde17a, 1}};

  static bool wants_deltas(std::size_t c) { return c == 0 || c == kSeats + 1; }
  const json& full_spectator() const { return latest[kSeats]; }

  json read(std::size_t c) { return wants_deltas(c) ? views[c].next(*clients[c]) : clients[c]->wait_for("event"); }
  // Every connected client reads event `want`; the two spectators' events are the same, and seat 0
  // sees what the full spectator sees, its own cards and actions apart.
  void read_all(std::uint64_t want) {
    for (std::size_t c = 0; c < clients.size(); ++c) {
      if (!clients[c]) continue;
      latest[c] = read(c);
      EXPECT_EQ(latest[c]["seq"], want) << "client " << c << ": " << latest[c];
      if (c < kSeats) {
        EXPECT_EQ(latest[c]["observation"]["seat"], c) << "client " << c << ": " << latest[c];
      }
    }
    EXPECT_EQ(latest[kSeats + 1], latest[kSeats]) << "seq " << want;
    if (clients[0]) check_seat_zero(latest[0]);
  }
  void check_seat_zero(const json& e) {
    EXPECT_EQ(public_part(e), public_part(full_spectator())) << "seq " << e["seq"];
    const json& o = e["observation"];
    EXPECT_EQ(o["seat"], 0);
    EXPECT_EQ(o["hand"].size(), o["hand_sizes"][0]);
    EXPECT_EQ(!o["legal"].empty(), o["current"] == 0 && !e.contains("match_result")) << e;
  }
  bool step() {
    if (full_spectator().contains("match_result")) return false;
    const int actor = full_spectator()["observation"]["current"];
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

json hello_message(const std::string& name, bool deltas) {
  json h = {{"type", "hello"}, {"protocol", 1}, {"name", name}};
  if (deltas) h["views"] = "delta";
  return h;
}

DeltaTable open_table(unsigned short port, MessageLog& log) {
  DeltaTable t;
  for (std::size_t c = 0; c < kSeats + 2; ++c) {
    t.clients.push_back(std::make_unique<TestClient>(port, &log));
    const json w = t.clients.back()->request(hello_message("p" + std::to_string(c), DeltaTable::wants_deltas(c)));
    EXPECT_EQ(w["type"], "welcome") << w;
    t.tokens.push_back(w["token"]);
  }
  t.latest.resize(t.clients.size());
  t.views.resize(t.clients.size());
  const json created =
      t.clients[0]->request({{"type", "create_table"}, {"variant", "french"}, {"settings", {{"turn_ms", 600000}}}});
  EXPECT_EQ(created["type"], "table_created") << created;
  t.id = created["table"]["table_id"];
  for (std::size_t c = kSeats; c < kSeats + 2; ++c)
    EXPECT_EQ(t.clients[c]->request({{"type", "spectate"}, {"table_id", t.id}})["type"], "watching");
  for (std::size_t s = 0; s < kSeats; ++s) {
    const json r = t.clients[s]->request({{"type", "sit"}, {"table_id", t.id}, {"seat", s}});
    EXPECT_EQ(r["type"], "seated") << r;
    EXPECT_EQ(r["seat"], s) << r;
  }
  t.read_all(1);
  return t;
}

TEST(DeltaLoopback, ADeltaClientRebuildsTheFullViewsOfItsSeatAndAsASpectator) {
  LiveServer server;
  MessageLog log;
  DeltaTable t = open_table(server.port(), log);
  while (t.step()) {
  }
  EXPECT_TRUE(t.full_spectator().contains("match_result"));
  // One whole event each (the start), then only deltas.
  for (std::size_t c : {std::size_t{0}, kSeats + 1}) {
    EXPECT_EQ(t.views[c].wholes(), 1) << c;
    EXPECT_EQ(static_cast<std::uint64_t>(t.views[c].deltas()), t.seq - 1) << c;
  }
  EXPECT_TRUE(log.validate());
}

TEST(DeltaLoopback, AfterAResumeTheDeltasStartFromAWholeEvent) {
  LiveServer server;
  MessageLog log;
  DeltaTable t = open_table(server.port(), log);
  for (int i = 0; i < 6 && t.step(); ++i) {
  }
  const std::uint64_t last_seen = t.latest[0]["seq"];
  std::map<std::uint64_t, json> spectator_saw;
  t.clients[0].reset();  // the socket closes; the server plays seat 0 meanwhile
  for (int i = 0; i < 10 && t.step(); ++i) spectator_saw[t.seq] = t.full_spectator();
  // Come back while another seat is to act: on seat 0's turn, the server's play for the absent seat
  // (after a second) could cross the resume, and the test could not tell which came first.
  while (t.full_spectator()["observation"]["current"] == 0 && t.step()) spectator_saw[t.seq] = t.full_spectator();

  auto back = std::make_unique<TestClient>(server.port(), &log);
  json hello = hello_message("p0", true);
  hello["token"] = t.tokens[0];
  hello["resume"] = json::array({{{"table_id", t.id}, {"last_seq", last_seen}}});
  const json w = back->request(hello);
  ASSERT_EQ(w["type"], "welcome") << w;
  EXPECT_EQ(back->wait_for("seated")["resumed"], true);
  Rebuilder resumed;
  for (std::uint64_t seq = last_seen + 1; seq <= t.seq; ++seq) {
    const json e = resumed.next(*back);
    ASSERT_EQ(e["seq"], seq) << e;
    EXPECT_EQ(e.value("replayed", false), true) << e;
    // The replayed events as the spectator saw them live, but for the turn's timer and legal list.
    json live = public_part(spectator_saw.at(seq));
    json got = public_part(e);
    for (json* x : {&live, &got}) {
      x->erase("replayed");
      x->erase("turn_ms_left");
    }
    EXPECT_EQ(got, live) << seq;
    EXPECT_EQ(e["observation"]["seat"], 0);
    t.latest[0] = e;  // seat 0's view to act on once it is back
  }
  // The first replayed event is whole: the new connection has no base.
  EXPECT_EQ(resumed.wholes(), 1);
  EXPECT_EQ(static_cast<std::uint64_t>(resumed.deltas()), t.seq - last_seen - 1);
  // Back in play on deltas from there on.
  t.clients[0] = std::move(back);
  t.views[0] = resumed;
  for (int i = 0; i < 12 && t.step(); ++i) {
  }
  EXPECT_EQ(t.views[0].wholes(), 1);
  EXPECT_TRUE(log.validate());
}

TEST(DeltaLoopback, ASpectatorThatAsksAgainGetsAWholeSnapshotAndDeltasFromIt) {
  LiveServer server;
  MessageLog log;
  DeltaTable t = open_table(server.port(), log);
  for (int i = 0; i < 7 && t.step(); ++i) {
  }
  const std::size_t watcher = kSeats + 1;
  EXPECT_EQ(t.clients[watcher]->request({{"type", "spectate"}, {"table_id", t.id}})["type"], "watching");
  const json snapshot = t.views[watcher].next(*t.clients[watcher]);
  EXPECT_EQ(snapshot["kind"], "snapshot") << snapshot;
  EXPECT_EQ(snapshot["seq"], t.seq);
  EXPECT_EQ(snapshot["observation"], t.full_spectator()["observation"]);
  EXPECT_EQ(t.views[watcher].wholes(), 2);
  // The next deltas apply to the snapshot, and still rebuild the full spectator's events.
  while (t.step()) {
  }
  EXPECT_TRUE(t.full_spectator().contains("match_result"));
  EXPECT_EQ(t.views[watcher].wholes(), 2);
  // Every event once (the first whole, the rest deltas), and the snapshot besides.
  EXPECT_EQ(static_cast<std::uint64_t>(t.views[watcher].deltas()), t.seq - 1);
  EXPECT_TRUE(log.validate());
}

TEST(DeltaLoopback, AResumeFromASeqTheTableNeverHadGetsAWholeSnapshot) {
  LiveServer server;
  MessageLog log;
  DeltaTable t = open_table(server.port(), log);
  for (int i = 0; i < 5 && t.step(); ++i) {
  }
  t.clients[0].reset();
  for (int i = 0; i < 3 && t.step(); ++i) {
  }
  // As above: come back while another seat is to act.
  while (t.full_spectator()["observation"]["current"] == 0 && t.step()) {
  }
  auto back = std::make_unique<TestClient>(server.port(), &log);
  json hello = hello_message("p0", true);
  hello["token"] = t.tokens[0];
  hello["resume"] = json::array({{{"table_id", t.id}, {"last_seq", std::uint64_t{1} << 40}}});
  ASSERT_EQ(back->request(hello)["type"], "welcome");
  EXPECT_EQ(back->wait_for("seated")["resumed"], true);
  Rebuilder resumed;
  const json first = resumed.next(*back);
  EXPECT_EQ(first["kind"], "snapshot") << first;
  EXPECT_EQ(first["seq"], t.seq);
  EXPECT_EQ(resumed.wholes(), 1);
  t.latest[0] = first;
  t.clients[0] = std::move(back);
  t.views[0] = resumed;
  while (t.step()) {
  }
  EXPECT_TRUE(t.full_spectator().contains("match_result"));
  EXPECT_EQ(t.views[0].wholes(), 1);
  EXPECT_GT(t.views[0].deltas(), 0);
  EXPECT_TRUE(log.validate());
}

TEST(DeltaLoopback, AViewsValueOtherThanFullOrDeltaIsRefused) {
  LiveServer server;
  MessageLog log;
  for (const json& bad : {json("patches"), json("DELTA"), json(""), json(1), json(true), json::array({"delta"})}) {
    TestClient c(server.port(), &log);
    const json r = c.request_unlogged({{"type", "hello"}, {"protocol", 1}, {"views", bad}});
    EXPECT_EQ(r["type"], "error") << bad << ": " << r;
    EXPECT_EQ(r["code"], "invalid_field") << bad;
    EXPECT_EQ(r["field"], "views") << bad;
  }
  // Both accepted values are, and "full" is the default.
  for (const char* good : {"full", "delta"}) {
    TestClient c(server.port(), &log);
    EXPECT_EQ(c.request({{"type", "hello"}, {"protocol", 1}, {"views", good}})["type"], "welcome") << good;
  }
}

}  // namespace
}  // namespace atout::server::testing
