// The example session in docs/protocol.md ("A whole session") is written by this test from a real
// session with an in-process server: every message it shows was sent or received here, and every
// message of the session is checked against protocol/schema. Tokens, ids and deals come from a
// seeded generator (DeterministicRandom), so the session is the same on every run; only
// `turn_ms_left`, which depends on how fast the machine is, is shown as the full turn time.
// The test fails when the doc's block differs from the session; ATOUT_UPDATE_DOCS=1 rewrites it.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "atout/rng.hpp"
#include "atout/server/random.hpp"
#include "test_client.hpp"

namespace atout::server::testing {
namespace {

constexpr std::string_view kBegin = "<!-- session: begin; written by tests/server/doc_session_test.cpp -->\n";
constexpr std::string_view kEnd = "<!-- session: end -->\n";
constexpr int kTurnMs = 30'000;

// JSON as the doc shows it: keys in order, ", " between items and ": " after keys.
void put(std::string& out, const json& j) {
  if (j.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      if (!first) out += ", ";
      first = false;
      out += json(k).dump();
      out += ": ";
      put(out, v);
    }
    out += '}';
  } else if (j.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i > 0) out += ", ";
      put(out, j[i]);
    }
    out += ']';
  } else {
    out += j.dump();
  }
}

struct Line {
  bool sent;  // by the client; otherwise received by it
  json message;
};

std::vector<Line> lines_of(const MessageLog& log) {
  std::vector<Line> out;
  for (const std::string& l : log.lines()) out.push_back({l.front() == 'C', json::parse(l.substr(2))});
  return out;
}

// The session as both clients saw it, and the doc text made from it.
class Session {
 public:
  Session(std::string ann, std::vector<Line> ann_lines, std::string bob, std::vector<Line> bob_lines)
      : names_{std::move(ann), std::move(bob)}, lines_{std::move(ann_lines), std::move(bob_lines)} {}

  void say(const std::string& prose) {
    if (!out_.empty() && !out_.ends_with("\n\n")) out_ += '\n';
    out_ += prose + "\n\n";
  }

  void show(int who, const Line& l) {
    json m = l.message;
    if (m.contains("turn_ms_left")) m["turn_ms_left"] = kTurnMs;
    std::string text;
    put(text, m);
    out_ += "```json\n// " + names_[static_cast<std::size_t>(who)] + (l.sent ? " →" : " ←") + "\n" + text + "\n```\n";
  }

  // The first line of `who` at or after `from` that satisfies `pred`, if any.
  template <typename Pred>
  std::optional<std::size_t> try_find(int who, std::size_t from, Pred pred) const {
    const auto& ls = lines_[static_cast<std::size_t>(who)];
    for (std::size_t i = from; i < ls.size(); ++i)
      if (pred(ls[i])) return i;
    return std::nullopt;
  }
  // The same, failing the test if there is none.
  template <typename Pred>
  std::size_t find(int who, std::size_t from, Pred pred) const {
    if (auto i = try_find(who, from, pred)) return *i;
    ADD_FAILURE() << "the session has no such message for " << names_[static_cast<std::size_t>(who)];
    return lines_[static_cast<std::size_t>(who)].size();
  }

  const Line& at(int who, std::size_t i) const {
    static const Line none{false, json::object()};
    const auto& ls = lines_[static_cast<std::size_t>(who)];
    return i < ls.size() ? ls[i] : none;
  }
  std::size_t size(int who) const { return lines_[static_cast<std::size_t>(who)].size(); }
  const std::string& name(int who) const { return names_[static_cast<std::size_t>(who)]; }
  // The name at the start of a sentence.
  std::string capitalised(int who) const {
    std::string n = name(who);
    if (!n.empty() && n[0] >= 'a' && n[0] <= 'z') n[0] = static_cast<char>(n[0] - 'a' + 'A');
    return n;
  }
  const std::string& text() const { return out_; }

 private:
  std::array<std::string, 2> names_;
  std::array<std::vector<Line>, 2> lines_;
  std::string out_;
};

bool is_event(const Line& l) { return !l.sent && l.message["type"] == "event"; }
bool is_request(const Line& l, std::string_view type) { return l.sent && l.message["type"] == type; }

// Plays a whole duel between ann (seat 0) and bob (seat 1), each picking among its legal actions
// with a seeded generator, and returns both logs.
std::pair<std::vector<Line>, std::vector<Line>> play_session() {
  LiveServer server;
  const DeterministicRandom fixed(Seed{0xD0C5u, 1});
  MessageLog ann_log, bob_log;
  TestClient ann(server.port(), &ann_log);
  TestClient bob(server.port(), &bob_log);
  EXPECT_EQ(ann.hello("ann")["type"], "welcome");
  EXPECT_EQ(bob.hello("bob")["type"], "welcome");
  const json created = ann.request({{"type", "create_table"}, {"variant", "duel"}, {"options", {{"target", 1001}}}});
  EXPECT_EQ(created["type"], "table_created") << created;
  const std::string table_id = created["table"]["table_id"];
  EXPECT_EQ(ann.request({{"type", "sit"}, {"table_id", table_id}, {"seat", 0}})["type"], "seated");
  ann.wait_for("table_update");
  EXPECT_EQ(bob.request({{"type", "sit"}, {"table_id", table_id}})["seat"], 1);

  std::array<TestClient*, 2> seats{&ann, &bob};
  std::array<json, 2> latest;
  for (std::size_t s = 0; s < 2; ++s) latest[s] = seats[s]->wait_for("event");
  Rng pick(Seed{0xD0C5u, 2});
  int takes = 0;
  for (int n = 0; n < 2000 && latest[0]["observation"]["phase"] != "match_over"; ++n) {
    const int current = latest[0]["observation"]["current"];
    if (current < 0 || current > 1) break;
    const auto actor = static_cast<std::size_t>(current);
    const json& legal = latest[actor]["observation"]["legal"];
    if (legal.empty()) {
      ADD_FAILURE() << "the seat to act has no legal action: " << latest[actor];
      break;
    }
    const json action = legal[static_cast<std::size_t>(pick.below(static_cast<std::uint32_t>(legal.size())))];
    const json reply = seats[actor]->request({{"type", "action"}, {"table_id", table_id}, {"action", action}});
    if (reply["type"] != "accepted") {
      ADD_FAILURE() << reply;
      break;
    }
    const std::uint64_t seq = reply["seq"];
    for (std::size_t s = 0; s < 2; ++s)
      latest[s] = seats[s]->wait_for("event", [&](const json& e) { return e["seq"] == seq; });
    // Each seat's last_action is the action as applied: a take names the trump it took, as the
    // bids (which record the taker's seat too) do.
    if (action["type"] == "take") {
      ++takes;
      for (const json& e : latest) {
        json bid = e["observation"]["bids"].back();
        bid.erase("seat");
        EXPECT_EQ(e["last_action"]["action"], bid) << e;
        EXPECT_TRUE(e["last_action"]["action"].contains("trump")) << e;
      }
    }
  }
  EXPECT_GT(takes, 0);
  EXPECT_EQ(latest[0]["observation"]["phase"], "match_over");
  // The end of the match shows the last deal played, under its own number.
  EXPECT_EQ(latest[0]["observation"]["deal_number"], latest[0]["match_result"]["hands"].back()["deal_number"]);
  EXPECT_EQ(latest[0]["observation"]["dealer"], latest[0]["match_result"]["hands"].back()["dealer"]);
  ann.wait_for("table_update", [](const json& u) { return u["table"]["status"] == "finished"; });
  // Every message of the session fits the schemas, not only those the doc shows.
  EXPECT_TRUE(ann_log.validate_now());
  EXPECT_TRUE(bob_log.validate_now());
  return {lines_of(ann_log), lines_of(bob_log)};
}

std::string write_doc(Session& s) {
  constexpr int ann = 0, bob = 1;
  s.say("Connect to `ws://HOST:8080/ws` and say hello (bob does the same on his own connection):");
  std::size_t i = s.find(ann, 0, [](const Line& l) { return is_request(l, "hello"); });
  s.show(ann, s.at(ann, i));
  s.show(ann, s.at(ann, s.find(ann, i, [](const Line& l) { return l.message["type"] == "welcome"; })));

  s.say("Ann creates a two-player table with one option set; every other option takes its default:");
  i = s.find(ann, i, [](const Line& l) { return is_request(l, "create_table"); });
  s.show(ann, s.at(ann, i));
  s.show(ann, s.at(ann, s.find(ann, i, [](const Line& l) { return l.message["type"] == "table_created"; })));

  s.say("Ann sits in seat 0. The reply comes first, then a `table_update` to everyone at the table:");
  i = s.find(ann, i, [](const Line& l) { return is_request(l, "sit"); });
  s.show(ann, s.at(ann, i));
  i = s.find(ann, i, [](const Line& l) { return l.message["type"] == "seated"; });
  s.show(ann, s.at(ann, i));
  s.show(ann, s.at(ann, s.find(ann, i, [](const Line& l) { return l.message["type"] == "table_update"; })));

  const std::size_t ann_start = s.find(ann, i, is_event);
  const std::size_t bob_start = s.find(bob, 0, is_event);
  const int first = s.at(ann, ann_start).message["observation"]["current"];
  const int other = 1 - first;
  s.say(
      "Bob sits in any free seat. The table is full, so the match starts: each seat gets a `start` event "
      "with its own view (seq 1), and the `commitment` to the first deal. Only the seat to act, here " +
      s.name(first) + ", has legal actions:");
  s.show(bob, s.at(bob, s.find(bob, 0, [](const Line& l) { return is_request(l, "sit"); })));
  s.show(ann, s.at(ann, ann_start));
  s.show(bob, s.at(bob, bob_start));

  const std::array<std::size_t, 2> start_of{ann_start, bob_start};
  std::size_t a =
      s.find(first, start_of[static_cast<std::size_t>(first)], [](const Line& l) { return is_request(l, "action"); });
  const std::string said = s.at(first, a).message["action"]["type"];
  s.say(s.capitalised(first) + " acts (`" + said + "`). " + (first == ann ? "She" : "He") +
        " gets `accepted` with the event's sequence number, and both seats get event 2; " + s.name(other) + "'s copy:");
  s.show(first, s.at(first, a));
  s.show(first, s.at(first, s.find(first, a, [](const Line& l) { return l.message["type"] == "accepted"; })));
  s.show(other, s.at(other, s.find(other, start_of[static_cast<std::size_t>(other)],
                                   [](const Line& l) { return is_event(l) && l.message["seq"] == 2; })));

  // The first take of the match that named no trump (a first-round take), or else the first take:
  // its event shows the trump taken in `last_action`, as `bids` does.
  int taker = -1;
  std::size_t take_at = 0;
  std::uint64_t take_seq = 0;
  const auto is_take = [](const Line& l) { return is_request(l, "action") && l.message["action"]["type"] == "take"; };
  const auto is_plain_take = [&](const Line& l) { return is_take(l) && !l.message["action"].contains("trump"); };
  const bool any_plain = s.try_find(ann, 0, is_plain_take) || s.try_find(bob, 0, is_plain_take);
  for (int who : {ann, bob}) {
    const auto k = s.try_find(who, start_of[static_cast<std::size_t>(who)],
                              [&](const Line& l) { return any_plain ? is_plain_take(l) : is_take(l); });
    if (!k) continue;
    const std::size_t accepted = s.find(who, *k, [](const Line& l) { return l.message["type"] == "accepted"; });
    const std::uint64_t seq = s.at(who, accepted).message["seq"];
    if (taker < 0 || seq < take_seq) {
      taker = who;
      take_at = *k;
      take_seq = seq;
    }
  }
  if (taker < 0) {
    ADD_FAILURE() << "nobody took in the whole match";
    return s.text();
  }
  const json take = s.at(taker, take_at).message["action"];
  const int watcher = 1 - taker;
  s.say("Later " + s.name(taker) + " takes" +
        (take.contains("trump") ? std::string(", naming ") + take["trump"].get<std::string>()
                                : std::string(" the turned-up card's suit without naming it")) +
        ". The event's `last_action` names the trump taken, as `bids` does, and the play begins:");
  s.show(taker, s.at(taker, take_at));
  s.show(watcher, s.at(watcher, s.find(watcher, start_of[static_cast<std::size_t>(watcher)],
                                       [&](const Line& l) { return is_event(l) && l.message["seq"] == take_seq; })));

  s.say(
      "When the last card of a deal is played, the event carries the `hand_result` with the full "
      "scoring breakdown and the deal's `seed`, and the observation is already the next deal (with "
      "the `commitment` to it):");
  const std::size_t ended =
      s.find(ann, ann_start, [](const Line& l) { return is_event(l) && l.message.contains("hand_result"); });
  s.show(ann, s.at(ann, ended));

  s.say(
      "The last action of the match: its event has the `match_result` (winner team, final score, every "
      "deal's result with its seed; all but the first are left out here), the observation shows the "
      "last deal played with the phase `match_over`, and a `table_update` with status `finished` follows:");
  const std::size_t last =
      s.find(ann, ann_start, [](const Line& l) { return is_event(l) && l.message.contains("match_result"); });
  Line shown = s.at(ann, last);
  json& hands = shown.message["match_result"]["hands"];
  if (hands.size() > 1) {
    const json kept = hands[0];
    const std::size_t left_out = hands.size() - 1;
    hands = json::array({kept, "… " + std::to_string(left_out) + " more deal results …"});
  }
  s.show(ann, shown);
  s.show(ann, s.at(ann, s.find(ann, last, [](const Line& l) {
    return l.message["type"] == "table_update" && l.message["table"]["status"] == "finished";
  })));
  return s.text();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DocSession, TheProtocolDocsExampleIsARealSession) {
  auto [ann, bob] = play_session();
  ASSERT_FALSE(::testing::Test::HasFailure());
  Session session("ann", std::move(ann), "bob", std::move(bob));
  const std::string generated = write_doc(session);
  ASSERT_FALSE(::testing::Test::HasFailure());

  const std::string path = std::string(ATOUT_SOURCE_DIR) + "/docs/protocol.md";
  const std::string doc = read_file(path);
  const std::size_t begin = doc.find(kBegin);
  const std::size_t end = doc.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/protocol.md has no line " << kBegin;
  ASSERT_NE(end, std::string::npos) << "docs/protocol.md has no line " << kEnd;
  ASSERT_LT(begin, end);
  const std::size_t from = begin + kBegin.size();
  const std::string stored = doc.substr(from, end - from);
  const std::string wanted = "\n" + generated;
  if (const char* update = std::getenv("ATOUT_UPDATE_DOCS"); update && std::string(update) == "1") {
    std::ofstream(path, std::ios::trunc) << doc.substr(0, from) << wanted << doc.substr(end);
    std::cout << "[ docs ] rewrote the example session in " << path << "\n";
    return;
  }
  EXPECT_EQ(stored, wanted) << "the example session in docs/protocol.md is not the session this test "
                               "recorded; if the change is intended, run this test with ATOUT_UPDATE_DOCS=1";
}

}  // namespace
}  // namespace atout::server::testing
