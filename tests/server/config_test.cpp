// atout-server's flags from the command line, the environment and a config file: the same value
// by each route, the documented precedence, and bad values refused with exit code 2 by each route.
#include "atout/server/config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "child_process.hpp"
#include "persist_support.hpp"

namespace atout::server::testing {
namespace {

using namespace std::chrono_literals;

// Sets an environment variable for one scope, then removes it (tests run one at a time in a
// process, and a child process started meanwhile inherits it).
class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(name_.c_str()); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
};

std::string write_config(const TempDir& dir, const std::string& text) {
  const std::string path = dir.file("atout.toml");
  std::ofstream(path) << text;
  return path;
}

// Three flags, each with a value unlike its default, in the three forms.
struct Sample {
  std::string flag;  // without the dashes: also the config key
  std::string value;
  std::string config_value;  // as written in the config file
  std::string bad;
};
const Sample kSamples[] = {
    {"port", "9001", "9001", "70000"},
    {"log-level", "debug", "\"debug\"", "loud"},
    {"log-format", "json", "\"json\"", "xml"},
    {"max-conns-per-ip", "7", "7", "-1"},
};

void expect_sample(const Config& c, const Sample& s) {
  if (s.flag == "port") {
    EXPECT_EQ(c.port, 9001);
  } else if (s.flag == "log-level") {
    EXPECT_EQ(c.log_level, "debug");
  } else if (s.flag == "log-format") {
    EXPECT_EQ(c.log_format, "json");
  } else {
    EXPECT_EQ(c.max_conns_per_ip, 7);
  }
}

TEST(ConfigSources, EnvironmentNamesFollowTheFlags) {
  EXPECT_EQ(env_name("port"), "ATOUT_PORT");
  EXPECT_EQ(env_name("max-conns-per-ip"), "ATOUT_MAX_CONNS_PER_IP");
  const std::string help = usage();
  for (const char* flag : {"port", "bind", "threads", "bot-threads", "db", "log-level", "log-format", "config",
                           "max-conns-per-ip", "msg-burst", "msg-rate", "idle-timeout", "close-grace",
                           "max-queue-messages", "max-queue-bytes", "commit-window-ms"}) {
    EXPECT_NE(help.find("--" + std::string(flag)), std::string::npos) << flag;
    EXPECT_NE(help.find(env_name(flag)), std::string::npos) << flag;
  }
  EXPECT_NE(help.find("default 8080"), std::string::npos) << help;
  EXPECT_NE(help.find("default 4194304"), std::string::npos) << help;
}

TEST(ConfigSources, FlagVariableAndKeySetTheSameValue) {
  TempDir dir;
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.flag);
    const ParseResult by_flag = parse_args({"--" + s.flag, s.value});
    ASSERT_TRUE(by_flag.cfg) << by_flag.message;
    expect_sample(*by_flag.cfg, s);
    {
      ScopedEnv env(env_name(s.flag), s.value);
      const ParseResult by_env = parse_args({});
      ASSERT_TRUE(by_env.cfg) << by_env.message;
      expect_sample(*by_env.cfg, s);
    }
    const std::string file = write_config(dir, "# a comment\n" + s.flag + " = " + s.config_value + "\n");
    const ParseResult by_key = parse_args({"--config", file});
    ASSERT_TRUE(by_key.cfg) << by_key.message;
    expect_sample(*by_key.cfg, s);
    ScopedEnv config_env("ATOUT_CONFIG", file);
    const ParseResult by_config_env = parse_args({});
    ASSERT_TRUE(by_config_env.cfg) << by_config_env.message;
    expect_sample(*by_config_env.cfg, s);
  }
}

TEST(ConfigSources, TheCommitWindowIsTakenInMillisecondsWithinItsBounds) {
  EXPECT_EQ(parse_args({}).cfg->commit_window, std::chrono::milliseconds(2));
  const ParseResult r = parse_args({"--commit-window-ms", "250"});
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->commit_window, std::chrono::milliseconds(250));
  for (const char* bad : {"-1", "10001", "1.5", "soon"}) {
    const ParseResult b = parse_args({"--commit-window-ms", bad});
    EXPECT_FALSE(b.cfg) << bad;
    EXPECT_EQ(b.exit_code, 2) << bad;
    EXPECT_NE(b.message.find("commit-window-ms"), std::string::npos) << b.message;
  }
}

TEST(ConfigSources, CommandLineBeatsEnvironmentBeatsFileBeatsDefault) {
  TempDir dir;
  const std::string file = write_config(dir, "port = 1001\nthreads = 3\nmsg-rate = 30\n");
  ScopedEnv port("ATOUT_PORT", "2002");
  ScopedEnv threads("ATOUT_THREADS", "4");
  const ParseResult r = parse_args({"--config", file, "--port", "3003"});
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->port, 3003);      // command line over environment and file
  EXPECT_EQ(r.cfg->threads, 4);      // environment over file
  EXPECT_EQ(r.cfg->msg_rate, 30);    // file over default
  EXPECT_EQ(r.cfg->msg_burst, 200);  // default
}

TEST(ConfigSources, BadValuesAreRefusedByEveryRoute) {
  TempDir dir;
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.flag);
    const ParseResult by_flag = parse_args({"--" + s.flag + "=" + s.bad});
    EXPECT_FALSE(by_flag.cfg);
    EXPECT_EQ(by_flag.exit_code, 2);
    EXPECT_NE(by_flag.message.find("--" + s.flag), std::string::npos) << by_flag.message;
    {
      ScopedEnv env(env_name(s.flag), s.bad);
      const ParseResult by_env = parse_args({});
      EXPECT_FALSE(by_env.cfg);
      EXPECT_EQ(by_env.exit_code, 2);
      EXPECT_NE(by_env.message.find(env_name(s.flag)), std::string::npos) << by_env.message;
      EXPECT_NE(by_env.message.find("--" + s.flag), std::string::npos) << by_env.message;
    }
    const std::string file = write_config(dir, s.flag + " = \"" + s.bad + "\"\n");
    const ParseResult by_key = parse_args({"--config", file});
    EXPECT_FALSE(by_key.cfg);
    EXPECT_EQ(by_key.exit_code, 2);
    EXPECT_NE(by_key.message.find(file), std::string::npos) << by_key.message;
    EXPECT_NE(by_key.message.find("--" + s.flag), std::string::npos) << by_key.message;
  }
}

TEST(ConfigSources, UnknownKeysAndMissingFilesAreRefused) {
  TempDir dir;
  const std::string file = write_config(dir, "prot = 8081\n");
  const ParseResult unknown = parse_args({"--config", file});
  EXPECT_FALSE(unknown.cfg);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.message.find("prot"), std::string::npos) << unknown.message;
  const ParseResult missing = parse_args({"--config", dir.file("absent.toml")});
  EXPECT_FALSE(missing.cfg);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.message.find("--config"), std::string::npos) << missing.message;
}

TEST(ConfigSources, LobbyAndHttpLimitsHaveDefaultsAndEveryRoute) {
  const ParseResult defaults = parse_args({});
  ASSERT_TRUE(defaults.cfg);
  EXPECT_EQ(defaults.cfg->max_open_tables, 4);
  EXPECT_EQ(defaults.cfg->empty_table_ttl, 600s);
  EXPECT_EQ(defaults.cfg->http_burst, 20);
  EXPECT_EQ(defaults.cfg->http_rate, 5);

  const ParseResult line =
      parse_args({"--max-open-tables", "0", "--empty-table-ttl", "30", "--http-burst", "9", "--http-rate", "2"});
  ASSERT_TRUE(line.cfg) << line.message;
  EXPECT_EQ(line.cfg->max_open_tables, 0);
  EXPECT_EQ(line.cfg->empty_table_ttl, 30s);
  EXPECT_EQ(line.cfg->http_burst, 9);
  EXPECT_EQ(line.cfg->http_rate, 2);
  {
    ScopedEnv env("ATOUT_MAX_OPEN_TABLES", "7");
    const ParseResult r = parse_args({});
    ASSERT_TRUE(r.cfg) << r.message;
    EXPECT_EQ(r.cfg->max_open_tables, 7);
  }
  TempDir dir;
  const ParseResult file = parse_args({"--config", write_config(dir, "empty-table-ttl = 45\nhttp-rate = 3\n")});
  ASSERT_TRUE(file.cfg) << file.message;
  EXPECT_EQ(file.cfg->empty_table_ttl, 45s);
  EXPECT_EQ(file.cfg->http_rate, 3);

  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--max-open-tables", "-1"}, {"--empty-table-ttl", "0"}, {"--http-burst", "0"}, {"--http-rate", "1.5"}}) {
    const ParseResult r = parse_args(args);
    EXPECT_FALSE(r.cfg) << args[0];
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.message.find(args[0]), std::string::npos) << r.message;
  }
}

TEST(ConfigSources, BotThreadsHaveADefaultEveryRouteAndBounds) {
  const ParseResult defaults = parse_args({});
  ASSERT_TRUE(defaults.cfg);
  EXPECT_EQ(defaults.cfg->bot_threads, 0);  // auto
  EXPECT_EQ(auto_bot_threads(2, 2), 1);
  EXPECT_EQ(auto_bot_threads(2, 8), 6);
  EXPECT_EQ(auto_bot_threads(4, 2), 1);
  EXPECT_EQ(auto_bot_threads(2, 0), 1);  // cores unknown
  const ParseResult line = parse_args({"--bot-threads", "1"});
  ASSERT_TRUE(line.cfg) << line.message;
  EXPECT_EQ(line.cfg->bot_threads, 1);
  {
    ScopedEnv env("ATOUT_BOT_THREADS", "5");
    const ParseResult r = parse_args({});
    ASSERT_TRUE(r.cfg) << r.message;
    EXPECT_EQ(r.cfg->bot_threads, 5);
  }
  TempDir dir;
  const ParseResult file = parse_args({"--config", write_config(dir, "bot-threads = 64\n")});
  ASSERT_TRUE(file.cfg) << file.message;
  EXPECT_EQ(file.cfg->bot_threads, 64);
  for (const char* bad : {"65", "-1", "two", "1.5"}) {
    const ParseResult r = parse_args({"--bot-threads", bad});
    EXPECT_FALSE(r.cfg) << bad;
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.message.find("--bot-threads"), std::string::npos) << r.message;
  }
}

// The real binary: the exit code and the message a shell or an orchestrator sees.
void expect_binary_refuses(const std::vector<std::string>& args, const std::string& named) {
  std::vector<std::string> argv = {ATOUT_SERVER_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess server(argv);
  EXPECT_EQ(server.wait_exit(60s), 2) << server.output();
  EXPECT_NE(server.output().find(named), std::string::npos) << server.output();
  EXPECT_EQ(server.output().find("listening on"), std::string::npos) << server.output();
}

TEST(ConfigSources, TheBinaryExitsWithTwoForABadValueInEachForm) {
  TempDir dir;
  expect_binary_refuses({"--threads", "0"}, "--threads");
  {
    ScopedEnv env("ATOUT_THREADS", "0");
    expect_binary_refuses({}, "ATOUT_THREADS");
  }
  const std::string file = write_config(dir, "threads = 0\n");
  expect_binary_refuses({"--config", file}, "--threads");
}

}  // namespace
}  // namespace atout::server::testing
