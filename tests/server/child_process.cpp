// fork/exec with a pipe for the child's output, and SIGKILL for crash tests.
#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

#include "log_capture.hpp"

namespace atout::server::testing {

ChildProcess::ChildProcess(const std::vector<std::string>& argv, bool as_nobody, const std::string& input) {
  int out[2], in[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  // Everything the child needs is prepared before fork: only async-signal-safe calls after it.
  program_ = argv.empty() ? std::string() : argv.front();
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    if (as_nobody && ::geteuid() == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(126);
    }
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(in[0]);
  out_fd_ = out[0];
  if (!input.empty()) {
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = ::write(in[1], input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
  }
  ::close(in[1]);
  reader_ = std::thread([this] { read_loop(); });
}

ChildProcess::~ChildProcess() {
  if (!reaped_) kill9();
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) ::close(out_fd_);
  keep_child_log(program_, output_);
}

void ChildProcess::read_loop() {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) {
      eof_ = true;
      grew_.notify_all();
      return;
    }
    output_.append(buf, static_cast<std::size_t>(n));
    grew_.notify_all();
  }
}

namespace {
// The port in "listening on 127.0.0.1:<port> ", or 0 while the line is not complete.
unsigned short listening_port(const std::string& out) {
  static const std::string kListening = "listening on 127.0.0.1:";
  const auto at = out.find(kListening);
  if (at == std::string::npos) return 0;
  const auto digits = at + kListening.size();
  const auto end = out.find_first_not_of("0123456789", digits);
  if (end == std::string::npos || end == digits) return 0;
  return static_cast<unsigned short>(std::stoi(out.substr(digits, end - digits)));
}
}  // namespace

unsigned short ChildProcess::wait_for_port(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  grew_.wait_for(lock, timeout, [&] { return eof_ || listening_port(output_) != 0; });
  return listening_port(output_);
}

bool ChildProcess::wait_for_output(const std::string& text, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return grew_.wait_for(lock, timeout, [&] { return output_.find(text) != std::string::npos; });
}

void ChildProcess::kill9() {
  if (reaped_) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status_, 0);
  reaped_ = true;
}

int ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (reaped_) return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      // Everything it wrote is read before the caller looks at the output.
      std::unique_lock lock(mutex_);
      grew_.wait_for(lock, std::chrono::seconds(10), [&] { return eof_; });
      return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill9();
  return -1;
}

std::string ChildProcess::output() const {
  std::lock_guard lock(mutex_);
  return output_;
}

}  // namespace atout::server::testing
