// Test support for the `atout` CLI: runs the binary as a child process and builds records by driving the engine.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "atout/protocol/engine_json.hpp"
#include "atout/rng.hpp"
#include "atout/state.hpp"

extern char** environ;

namespace atout::cli_test {

using protocol::json;

inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;
inline constexpr int kExitBadInput = 2;

// What one run of the CLI did. `exited` is false when a signal ended it or it ran past its time limit, so a
// crash or a hang never passes for an exit code.
struct CliRun {
  bool exited = false;
  int code = -1;
  int signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;
  std::string command;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream buf;
  buf << f.rdbuf();
  return buf.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

// One scratch directory per test process, removed at exit.
class ScratchDir {
 public:
  static ScratchDir& get() {
    static ScratchDir dir;
    return dir;
  }
  std::filesystem::path file(const std::string& stem) { return path_ / (stem + "-" + std::to_string(++counter_)); }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

 private:
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "atout-cli-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  std::filesystem::path path_;
  int counter_ = 0;
};

// Writes `text` to a fresh scratch file and returns its path.
inline std::string scratch_file(const std::string& text, const std::string& stem = "input") {
  const auto path = ScratchDir::get().file(stem);
  write_text(path, text);
  return path.string();
}

// Runs `atout args...` with `input` on its standard input (for the "-" argument). Standard output and
// standard error go to separate files, so neither can fill a pipe and block the child.
inline CliRun run_cli(const std::vector<std::string>& args, const std::string& input = {},
                      std::chrono::seconds limit = std::chrono::seconds(60)) {
  CliRun run;
  run.command = "atout";
  for (const auto& a : args) run.command += " '" + a + "'";
  ScratchDir& dir = ScratchDir::get();
  const std::string in_path = dir.file("stdin").string();
  const std::string out_path = dir.file("stdout").string();
  const std::string err_path = dir.file("stderr").string();
  write_text(in_path, input);

  std::vector<std::string> argv_text = {ATOUT_CLI};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, ATOUT_CLI, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    run.err = std::string("posix_spawn failed: ") + std::strerror(rc);
    return run;
  }

  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      run.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  run.out = read_text(out_path);
  run.err = read_text(err_path);
  if (!run.timed_out && WIFEXITED(status)) {
    run.exited = true;
    run.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
  }
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return run;
}

inline std::string describe(const CliRun& r) {
  std::ostringstream s;
  s << "\n  command: " << r.command << "\n  ";
  if (r.timed_out) {
    s << "TIMED OUT (killed)";
  } else if (r.exited) {
    s << "exit code " << r.code;
  } else {
    s << "KILLED BY SIGNAL " << r.signal << " (" << strsignal(r.signal) << ")";
  }
  auto clip = [](const std::string& t) { return t.size() > 2000 ? t.substr(0, 2000) + "\n[...]" : t; };
  s << "\n  stdout: <<<" << clip(r.out) << ">>>\n  stderr: <<<" << clip(r.err) << ">>>";
  return s.str();
}

// A normal exit with exactly `code`.
inline testing::AssertionResult exited_with(const CliRun& r, int code) {
  if (r.exited && r.code == code) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "expected a normal exit with code " << code << describe(r);
}

// Standard error mentions every one of `parts`.
inline testing::AssertionResult err_mentions(const CliRun& r, const std::vector<std::string>& parts) {
  for (const auto& p : parts)
    if (r.err.find(p) == std::string::npos)
      return testing::AssertionFailure() << "stderr does not mention \"" << p << "\"" << describe(r);
  return testing::AssertionSuccess();
}

// The run failed the way a user should see it fail: exit `code`, a message naming the problem on standard
// error, nothing on standard output.
inline testing::AssertionResult fails_with(const CliRun& r, int code, const std::vector<std::string>& parts) {
  if (auto a = exited_with(r, code); !a) return a;
  if (auto a = err_mentions(r, parts); !a) return a;
  if (!r.out.empty()) return testing::AssertionFailure() << "a failing run printed to stdout" << describe(r);
  return testing::AssertionSuccess();
}

// Parses the CLI's standard output as JSON, failing the test if it is not JSON.
inline json output_json(const CliRun& r) {
  json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON" << describe(r);
  return j;
}

// ---- records built by driving the engine --------------------------------------------------------------

inline Options options_from(const json& j) {
  auto o = protocol::parse_options(j);
  if (!o) throw std::runtime_error("test options: " + o.error);
  return *o.value;
}

inline std::unique_ptr<State> new_match(const std::string& variant, const json& options, Seed deal_seed,
                                        Seat dealer = 0) {
  Record header;
  header.variant = variant;
  header.options = options_from(options);
  header.deal.seed = deal_seed;
  header.first_dealer = dealer;
  CreateResult c = create_state(header);
  if (c.error) throw std::runtime_error("test match: " + c.error->code + ": " + c.error->message);
  return std::move(c.state);
}

// The uniform random policy of the golden transcripts and of `atout simulate`: legal[rng.below(n)].
// Stops before the action at which `stop` first holds, or at the end of the match. Returns false if the engine
// ever offered no legal action in a live state (an engine bug; the caller's test fails).
inline bool play_random(State& s, Rng& rng, const std::function<bool(const State&)>& stop = {}) {
  std::vector<Action> legal;
  while (!s.is_terminal()) {
    if (stop && stop(s)) return true;
    s.legal_actions(legal);
    if (legal.empty()) {
      ADD_FAILURE() << "the engine offers no legal action in a live state, after " << s.record().actions.size()
                    << " actions";
      return false;
    }
    const Refusal r = s.apply(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    if (r != Refusal::none) {
      ADD_FAILURE() << "the engine refused its own legal action: " << to_string(r);
      return false;
    }
  }
  return true;
}

inline json record_json(const State& s) { return protocol::to_json(s.record()); }

// The record's text as the CLI reads it.
inline std::string record_text(const json& record) { return record.dump(2) + "\n"; }

inline json play_json(Card c, Seat seat) {
  json a = protocol::to_json(Action::play(c));
  a["seat"] = seat;
  return a;
}

}  // namespace atout::cli_test
