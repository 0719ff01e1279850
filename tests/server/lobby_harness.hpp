// A lobby driven in-process for tests: fake connections send requests through the router, the
// test's io_context runs what they post, and a fake clock stands in for time.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "atout/server/request_router.hpp"
#include "fake_clock.hpp"
#include "recording_connection.hpp"

namespace atout::server::testing {

class LobbyHarness : public ::testing::Test {
 protected:
  LobbyHarness() {
    ctx_->lobby = std::make_shared<server::Lobby>(ioc_.get_executor());
    ctx_->lobby->use_clock(clock_);
    ctx_->players = std::make_shared<server::Players>();
  }
  ~LobbyHarness() override {
    clock_->drop_pending();
    run();
  }

  void run() {
    while (ioc_.poll() > 0) {
    }
  }
  void advance(std::chrono::milliseconds d) {
    clock_->advance(d);
    run();
  }
  // The reply to `request`: the message that carries its id (events and updates do not). Other
  // messages stay in `heard_` for the test to look at.
  nlohmann::json reply(RecordingConnection& c, nlohmann::json request) {
    const int id = next_id_++;
    request["id"] = id;
    c.router().handle(request.dump(), now_);
    run();
    nlohmann::json out = {{"type", "none"}};
    for (nlohmann::json& m : c.take()) {
      if (m.contains("id") && m["id"] == id)
        out = std::move(m);
      else
        heard_[c.id()].push_back(std::move(m));
    }
    return out;
  }
  // Whether `c` was sent lobby_remove for `table_id` (among messages that answered nothing).
  bool heard_removed(RecordingConnection& c, const std::string& table_id) {
    for (nlohmann::json& m : c.take()) heard_[c.id()].push_back(std::move(m));
    for (const nlohmann::json& m : heard_[c.id()])
      if (m["type"] == "lobby_remove" && m["table_id"] == table_id) return true;
    return false;
  }
  std::shared_ptr<RecordingConnection> player(const std::string& name) {
    auto c = std::make_shared<RecordingConnection>(ctx_, ioc_, next_conn_++, now_);
    conns_.push_back(c);
    EXPECT_EQ(reply(*c, {{"type", "hello"}, {"protocol", 1}, {"name", name}})["type"], "welcome");
    return c;
  }
  // Creates a table of `variant`; its id, or "" when refused (`error` then holds the code).
  std::string create(RecordingConnection& c, const std::string& variant = "duel", std::string* error = nullptr) {
    const nlohmann::json r = reply(c, {{"type", "create_table"}, {"variant", variant}});
    if (r["type"] == "table_created") return r["table"]["table_id"].get<std::string>();
    if (error) *error = r.value("code", "");
    return "";
  }
  // The ids listed by `list` (a list_tables request without its type).
  std::vector<std::string> ids(const nlohmann::json& page) {
    std::vector<std::string> out;
    for (const nlohmann::json& t : page["tables"]) out.push_back(t["table_id"].get<std::string>());
    return out;
  }
  nlohmann::json list(RecordingConnection& c, nlohmann::json filters = nlohmann::json::object()) {
    filters["type"] = "list_tables";
    return reply(c, filters);
  }
  static std::string code(const nlohmann::json& m) { return m["type"] == "error" ? m["code"].get<std::string>() : ""; }
  static std::string field(const nlohmann::json& m) { return m.value("field", ""); }

  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_ = net::make_work_guard(ioc_);
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
  std::shared_ptr<Context> ctx_ = std::make_shared<Context>();
  RequestRouter::Clock::time_point now_ = RequestRouter::Clock::time_point{} + std::chrono::hours(1);
  std::uint64_t next_conn_ = 1;
  int next_id_ = 1;
  std::vector<std::shared_ptr<RecordingConnection>> conns_;
  std::map<std::uint64_t, std::vector<nlohmann::json>> heard_;
};

}  // namespace atout::server::testing
