// A child process for tests that need the real binaries (atout-server, atout): its standard output
// and error are collected by a reader thread; it can be killed with SIGKILL like a crash.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace atout::server::testing {

class ChildProcess {
 public:
  // Starts argv[0] with `argv`. `as_nobody`: when running as root, drops to uid/gid 65534 first
  // (root may write any file, so read-only paths need an ordinary user). `input` is written to
  // its standard input, which is then closed.
  explicit ChildProcess(const std::vector<std::string>& argv, bool as_nobody = false, const std::string& input = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // The port from the server's "listening on 127.0.0.1:<port>" line; 0 if it exited or did not
  // say so within `timeout`.
  unsigned short wait_for_port(std::chrono::milliseconds timeout);
  // True once `text` has appeared in the output (false on timeout).
  bool wait_for_output(const std::string& text, std::chrono::milliseconds timeout);
  // SIGKILL, as a crash: no handler runs, nothing is flushed.
  void kill9();
  // The exit status once it exits (-1 if it did not within `timeout`, and it is then killed).
  int wait_exit(std::chrono::milliseconds timeout);
  std::string output() const;

 private:
  void read_loop();

  std::string program_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  bool reaped_ = false;
  int status_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable grew_;
  std::string output_;
  bool eof_ = false;
  std::thread reader_;
};

}  // namespace atout::server::testing
