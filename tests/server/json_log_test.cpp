// --log-format json: every record one JSON object a line, the message escaped whatever it holds.
#include "atout/server/json_log.hpp"

#include <gtest/gtest.h>
#include <spdlog/details/log_msg.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "child_process.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::string format_record(spdlog::level::level_enum level, std::string_view message) {
  const auto formatter = make_json_log_formatter();
  const spdlog::details::log_msg msg(spdlog::source_loc{}, "atout", level, message);
  spdlog::memory_buf_t out;
  formatter->format(msg, out);
  return fmt::to_string(out);
}

TEST(JsonLog, ARecordIsOneObjectOnOneLine) {
  const std::string line = format_record(spdlog::level::warn, "database at schema version 3");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  const json j = json::parse(line);
  EXPECT_EQ(j.at("level"), "warning");
  EXPECT_EQ(j.at("message"), "database at schema version 3");
  EXPECT_TRUE(j.at("thread").is_number_unsigned()) << line;
  // UTC, to the microsecond: 2026-11-26T06:00:00.123456Z
  const std::string time = j.at("time");
  ASSERT_EQ(time.size(), 27u) << time;
  EXPECT_EQ(time[10], 'T');
  EXPECT_EQ(time[19], '.');
  EXPECT_EQ(time.back(), 'Z');
}

TEST(JsonLog, QuotesBackslashesAndControlCharactersAreEscaped) {
  const std::string nasty = std::string("a \"quoted\" C:\\path\nsecond\tline\r\x01\x1f\x7f end") + '\0' + "after nul";
  const std::string line = format_record(spdlog::level::info, nasty);
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  EXPECT_EQ(line.find('\t'), std::string::npos) << line;
  EXPECT_EQ(line.find('\x01'), std::string::npos) << line;
  const json j = json::parse(line);
  EXPECT_EQ(j.at("message").get<std::string>(), nasty);
}

TEST(JsonLog, BytesThatAreNotUtf8StillMakeValidJson) {
  // A peer's text can reach a log line (an error's message); a stray byte must not break the line.
  const std::string bad = std::string("name \xff\xfe and \xc3") + "(";
  const std::string line = format_record(spdlog::level::info, bad);
  const json j = json::parse(line);
  EXPECT_EQ(j.at("message").get<std::string>(), "name \xef\xbf\xbd\xef\xbf\xbd and \xef\xbf\xbd(");
}

TEST(JsonLog, EveryLevelHasItsName) {
  for (const auto& [level, name] :
       std::vector<std::pair<spdlog::level::level_enum, std::string>>{{spdlog::level::trace, "trace"},
                                                                      {spdlog::level::debug, "debug"},
                                                                      {spdlog::level::info, "info"},
                                                                      {spdlog::level::err, "error"},
                                                                      {spdlog::level::critical, "critical"}}) {
    EXPECT_EQ(json::parse(format_record(level, "x")).at("level"), name);
  }
}

TEST(JsonLog, TheServerLogsJsonLinesWhenAsked) {
  TempDir dir;
  ChildProcess server(
      {ATOUT_SERVER_BIN, "--port", "0", "--bind", "127.0.0.1", "--log-format", "json", "--db", dir.file("a.db")});
  ASSERT_NE(server.wait_for_port(60s), 0) << server.output();
  server.kill9();
  server.wait_exit(60s);
  std::istringstream lines(server.output());
  std::string line;
  int records = 0;
  bool listening = false;
  while (std::getline(lines, line)) {
    json j;
    ASSERT_NO_THROW(j = json::parse(line)) << line;
    EXPECT_TRUE(j.contains("time") && j.contains("level") && j.contains("message")) << line;
    listening = listening || j.at("message").get<std::string>().starts_with("atout-server listening on 127.0.0.1:");
    ++records;
  }
  EXPECT_GE(records, 2) << server.output();
  EXPECT_TRUE(listening) << server.output();
}

TEST(JsonLog, AnUnknownFormatIsRefused) {
  TempDir dir;
  ChildProcess server({ATOUT_SERVER_BIN, "--log-format", "xml", "--db", dir.file("a.db")});
  EXPECT_EQ(server.wait_exit(60s), 2) << server.output();
  EXPECT_NE(server.output().find("--log-format"), std::string::npos) << server.output();
}

}  // namespace
}  // namespace atout::server::testing
