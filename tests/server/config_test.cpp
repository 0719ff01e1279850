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
class scoped_env {
 public:
  scoped_env(std::string name, const std::string& value) : name_(std::move(name)) {
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ~scoped_env() { ::unsetenv(name_.c_str()); }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  std::string name_;
};

std::string write_config(const temp_dir& dir, const std::string& text) {
  const std::string path = dir.file("atout.toml");
  std::ofstream(path) << text;
  return path;
}

// Three flags, each with a value unlike its default, in the three forms.
struct sample {
  std::string flag;  // without the dashes: also the config key
  std::string value;
  std::string config_value;  // as written in the config file
  std::string bad;
};
const sample kSamples[] = {
    {"port", "9001", "9001", "70000"},
    {"log-level", "debug", "\"debug\"", "loud"},
    {"max-conns-per-ip", "7", "7", "-1"},
};

void expect_sample(const config& c, const sample& s) {
  if (s.flag == "port") {
    EXPECT_EQ(c.port, 9001);
  } else if (s.flag == "log-level") {
    EXPECT_EQ(c.log_level, "debug");
  } else {
    EXPECT_EQ(c.max_conns_per_ip, 7);
  }
}

TEST(ConfigSources, EnvironmentNamesFollowTheFlags) {
  EXPECT_EQ(env_name("port"), "ATOUT_PORT");
  EXPECT_EQ(env_name("max-conns-per-ip"), "ATOUT_MAX_CONNS_PER_IP");
  const std::string help = usage();
  for (const char* flag : {"port", "bind", "threads", "db", "log-level", "config", "max-conns-per-ip", "msg-burst",
                           "msg-rate", "idle-timeout", "close-grace", "max-queue-messages", "max-queue-bytes"}) {
    EXPECT_NE(help.find("--" + std::string(flag)), std::string::npos) << flag;
    EXPECT_NE(help.find(env_name(flag)), std::string::npos) << flag;
  }
  EXPECT_NE(help.find("default 8080"), std::string::npos) << help;
  EXPECT_NE(help.find("default 4194304"), std::string::npos) << help;
}

TEST(ConfigSources, FlagVariableAndKeySetTheSameValue) {
  temp_dir dir;
  for (const sample& s : kSamples) {
    SCOPED_TRACE(s.flag);
    const parse_result by_flag = parse_args({"--" + s.flag, s.value});
    ASSERT_TRUE(by_flag.cfg) << by_flag.message;
    expect_sample(*by_flag.cfg, s);
    {
      scoped_env env(env_name(s.flag), s.value);
      const parse_result by_env = parse_args({});
      ASSERT_TRUE(by_env.cfg) << by_env.message;
      expect_sample(*by_env.cfg, s);
    }
    const std::string file = write_config(dir, "# a comment\n" + s.flag + " = " + s.config_value + "\n");
    const parse_result by_key = parse_args({"--config", file});
    ASSERT_TRUE(by_key.cfg) << by_key.message;
    expect_sample(*by_key.cfg, s);
    scoped_env config_env("ATOUT_CONFIG", file);
    const parse_result by_config_env = parse_args({});
    ASSERT_TRUE(by_config_env.cfg) << by_config_env.message;
    expect_sample(*by_config_env.cfg, s);
  }
}

TEST(ConfigSources, CommandLineBeatsEnvironmentBeatsFileBeatsDefault) {
  temp_dir dir;
  const std::string file = write_config(dir, "port = 1001\nthreads = 3\nmsg-rate = 30\n");
  scoped_env port("ATOUT_PORT", "2002");
  scoped_env threads("ATOUT_THREADS", "4");
  const parse_result r = parse_args({"--config", file, "--port", "3003"});
  ASSERT_TRUE(r.cfg) << r.message;
  EXPECT_EQ(r.cfg->port, 3003);      // command line over environment and file
  EXPECT_EQ(r.cfg->threads, 4);      // environment over file
  EXPECT_EQ(r.cfg->msg_rate, 30);    // file over default
  EXPECT_EQ(r.cfg->msg_burst, 200);  // default
}

TEST(ConfigSources, BadValuesAreRefusedByEveryRoute) {
  temp_dir dir;
  for (const sample& s : kSamples) {
    SCOPED_TRACE(s.flag);
    const parse_result by_flag = parse_args({"--" + s.flag + "=" + s.bad});
    EXPECT_FALSE(by_flag.cfg);
    EXPECT_EQ(by_flag.exit_code, 2);
    EXPECT_NE(by_flag.message.find("--" + s.flag), std::string::npos) << by_flag.message;
    {
      scoped_env env(env_name(s.flag), s.bad);
      const parse_result by_env = parse_args({});
      EXPECT_FALSE(by_env.cfg);
      EXPECT_EQ(by_env.exit_code, 2);
      EXPECT_NE(by_env.message.find(env_name(s.flag)), std::string::npos) << by_env.message;
      EXPECT_NE(by_env.message.find("--" + s.flag), std::string::npos) << by_env.message;
    }
    const std::string file = write_config(dir, s.flag + " = \"" + s.bad + "\"\n");
    const parse_result by_key = parse_args({"--config", file});
    EXPECT_FALSE(by_key.cfg);
    EXPECT_EQ(by_key.exit_code, 2);
    EXPECT_NE(by_key.message.find(file), std::string::npos) << by_key.message;
    EXPECT_NE(by_key.message.find("--" + s.flag), std::string::npos) << by_key.message;
  }
}

TEST(ConfigSources, UnknownKeysAndMissingFilesAreRefused) {
  temp_dir dir;
  const std::string file = write_config(dir, "prot = 8081\n");
  const parse_result unknown = parse_args({"--config", file});
  EXPECT_FALSE(unknown.cfg);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.message.find("prot"), std::string::npos) << unknown.message;
  const parse_result missing = parse_args({"--config", dir.file("absent.toml")});
  EXPECT_FALSE(missing.cfg);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.message.find("--config"), std::string::npos) << missing.message;
}

// The real binary: the exit code and the message a shell or an orchestrator sees.
void expect_binary_refuses(const std::vector<std::string>& args, const std::string& named) {
  std::vector<std::string> argv = {ATOUT_SERVER_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  child_process server(argv);
  EXPECT_EQ(server.wait_exit(60s), 2) << server.output();
  EXPECT_NE(server.output().find(named), std::string::npos) << server.output();
  EXPECT_EQ(server.output().find("listening on"), std::string::npos) << server.output();
}

TEST(ConfigSources, TheBinaryExitsWithTwoForABadValueInEachForm) {
  temp_dir dir;
  expect_binary_refuses({"--threads", "0"}, "--threads");
  {
    scoped_env env("ATOUT_THREADS", "0");
    expect_binary_refuses({}, "ATOUT_THREADS");
  }
  const std::string file = write_config(dir, "threads = 0\n");
  expect_binary_refuses({"--config", file}, "--threads");
}

}  // namespace
}  // namespace atout::server::testing
