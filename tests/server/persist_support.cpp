// Seat-by-seat table play over real connections, and read-only database looks, for the
// persistence tests.
#include "persist_support.hpp"

#include <unistd.h>

#include <atomic>
#include <thread>

#include "atout/store/sqlite.hpp"
#include "child_process.hpp"

namespace atout::server::testing {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("atout-persist-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
  std::filesystem::remove_all(path_, ec);
}

TableRun open_table(unsigned short port, const std::string& variant, const json& options, bool is_private,
                    const std::string& name_prefix, MessageLog* log) {
  TableRun t;
  t.variant = variant;
  const VariantInfo* info = find_variant(variant);
  EXPECT_NE(info, nullptr) << variant;
  if (!info) return t;
  for (int s = 0; s < info->players; ++s) {
    SeatPlayer p;
    p.client = std::make_unique<TestClient>(port, log);
    p.name = name_prefix + "-" + std::to_string(s);
    const json w = p.client->hello(p.name);
    EXPECT_EQ(w["type"], "welcome") << w;
    p.player_id = w.value("player_id", "");
    p.token = w.value("token", "");
    t.seats.push_back(std::move(p));
  }
  json create = {{"type", "create_table"}, {"variant", variant}, {"options", options}};
  if (is_private) create["private"] = true;
  const json created = t.seats[0].client->request(create);
  EXPECT_EQ(created["type"], "table_created") << created;
  if (created["type"] != "table_created") return t;
  const std::string id = created["table"]["table_id"];
  if (created.contains("invite")) t.invite = created["invite"].get<std::string>();
  for (std::size_t s = 0; s < t.seats.size(); ++s) {
    json sit = {{"type", "sit"}, {"seat", s}};
    if (t.invite) {
      sit["invite"] = *t.invite;
    } else {
      sit["table_id"] = id;
    }
    const json seated = t.seats[s].client->request(sit);
    EXPECT_EQ(seated["type"], "seated") << seated;
  }
  t.last.resize(t.seats.size());
  if (!sync(t, 1)) return t;
  t.table_id = id;
  t.match_id = t.last[0]["commitment"]["match_id"];
  t.first_commitment = t.last[0]["commitment"]["hash"];
  return t;
}

bool sync(TableRun& t, std::uint64_t seq) {
  for (std::size_t s = 0; s < t.seats.size(); ++s) {
    for (;;) {
      auto m = t.seats[s].client->next_of("event");
      if (!m) {
        ADD_FAILURE() << "seat " << s << " at " << t.table_id << " got no event " << seq;
        return false;
      }
      if ((*m)["seq"].get<std::uint64_t>() < seq) continue;
      if ((*m)["seq"].get<std::uint64_t>() != seq) {
        ADD_FAILURE() << "seat " << s << " expected event " << seq << ", got " << *m;
        return false;
      }
      t.last[s] = std::move(*m);
      break;
    }
  }
  t.seq = seq;
  if (t.last[0].contains("match_result")) t.result = t.last[0]["match_result"];
  return true;
}

bool step(TableRun& t, Rng& rng) {
  int actor = -1;
  for (std::size_t s = 0; s < t.seats.size(); ++s)
    if (!t.last[s]["observation"]["legal"].empty()) actor = static_cast<int>(s);
  if (actor < 0) {
    ADD_FAILURE() << "nobody may act at " << t.table_id << " after event " << t.seq;
    return false;
  }
  const auto a = static_cast<std::size_t>(actor);
  const json& legal = t.last[a]["observation"]["legal"];
  json action = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
  const json reply = t.seats[a].client->request({{"type", "action"}, {"table_id", t.table_id}, {"action", action}});
  if (reply["type"] != "accepted" || reply["seq"] != t.seq + 1) {
    ADD_FAILURE() << "action at " << t.table_id << " not accepted as event " << t.seq + 1 << ": " << reply;
    return false;
  }
  action["seat"] = actor;
  t.sent.push_back(action);
  return sync(t, t.seq + 1);
}

bool resume(TableRun& t, unsigned short port, MessageLog* log) {
  for (std::size_t s = 0; s < t.seats.size(); ++s) {
    SeatPlayer& p = t.seats[s];
    p.client = std::make_unique<TestClient>(port, log);
    const json w = p.client->request({{"type", "hello"}, {"protocol", 1}, {"token", p.token}});
    EXPECT_EQ(w["type"], "welcome") << w;
    EXPECT_EQ(w.value("player_id", ""), p.player_id) << w;
    EXPECT_EQ(w.value("resumed", false), true) << w;
    json sit = {{"type", "sit"}, {"seat", s}};
    if (t.invite) {
      sit["invite"] = *t.invite;
    } else {
      sit["table_id"] = t.table_id;
    }
    const json seated = p.client->request(sit);
    if (seated["type"] != "seated" || seated["resumed"] != true) {
      ADD_FAILURE() << "seat " << s << " of " << t.table_id << " could not resume: " << seated;
      return false;
    }
    auto snap = p.client->next_of("event");
    if (!snap || (*snap)["kind"] != "snapshot") {
      ADD_FAILURE() << "no snapshot for seat " << s << " of " << t.table_id;
      return false;
    }
    t.last[s] = std::move(*snap);
  }
  t.seq = t.last[0]["seq"];
  for (const json& e : t.last) EXPECT_EQ(e["seq"], t.seq);
  return true;
}

namespace {
store::Db open_read_only(const std::string& db) {
  store::Db d;
  if (auto e = store::Db::open(db, false, true, d)) ADD_FAILURE() << "cannot read " << db << ": " << *e;
  return d;
}
}  // namespace

std::int64_t stored_action_count(const std::string& db, const std::string& match_id) {
  store::Db d = open_read_only(db);
  store::Statement st;
  // A match's actions are in match_actions and, from its log_from on, in the append-ordered log.
  if (d.prepare("SELECT (SELECT COUNT(*) FROM match_actions a JOIN matches m ON m.id = a.match_id WHERE m.uid = ?1) + "
                "(SELECT COUNT(*) FROM action_log a JOIN matches m ON m.id = a.match_id WHERE m.uid = ?1 "
                "AND a.id >= m.log_from)",
                st))
    return -1;
  st.bind(1, match_id);
  return st.step() ? st.int64(0) : -1;
}

std::string db_text(const std::string& db, const std::string& sql) {
  store::Db d = open_read_only(db);
  store::Statement st;
  if (auto e = d.prepare(sql, st)) return "error: " + *e;
  return st.step() ? st.text(0) : "";
}

std::string end_reason(const std::string& db, const std::string& match_id) {
  return db_text(db, "SELECT COALESCE(end_reason, '') FROM matches WHERE uid = '" + match_id + "'");
}

bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return pred();
}

json run_atout_replay(const json& record) {
  ChildProcess cli({ATOUT_CLI, "replay", "-"}, false, record.dump());
  const int code = cli.wait_exit(std::chrono::seconds(60));
  const std::string out = cli.output();
  if (code != 0) return json{{"error", out}};
  const auto brace = out.find('{');
  if (brace == std::string::npos) return json{{"error", out}};
  return json::parse(out.substr(brace), nullptr, false);
}

}  // namespace atout::server::testing
