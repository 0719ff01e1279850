// atout-loadgen's command line: what to run against which server, and for how long.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace atout::loadgen {

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string spawn;       // an atout-server binary to start and stop
  int server_threads = 2;  // for --spawn
  std::vector<std::string> server_args;
  int server_pid = 0;
  int tables = 100;
  int bot_tables = 0;               // tables of one scripted player and server bots
  std::string bot_level = "rules";  // those bots' level
  std::string variant = "french";
  int idle = 0;
  double duration = 10;
  std::uint64_t actions = 0;  // 0: no bound but the duration
  int threads = 1;
  int sources = 0;  // connect from 127.0.0.2 .. 127.0.0.(1 + sources); 0: the kernel's choice
  std::uint64_t seed = 1;
  int think_ms = 0;
  bool ack_event = false;  // hello's ack: "event"
  bool deltas = false;     // hello's views: "delta"
  std::string tls_ca;      // set: wss://, trusting this certificate authority (PEM)
  // --abuse: the window is played in slices of abuse_slice_ms, every other one with an abuser (see
  // abuse_ws and abuse_http); the tables' p99 over the slices without and with it is reported, and
  // compared when abuse_check > 0. Alternating slices compare like with like: the hands of a
  // match do not all cost the same, and a noisy machine changes from second to second.
  bool abuse = false;
  int abuse_slice_ms = 1000;
  int abuse_tables = 1000;  // tables the abuser creates at most (the server may refuse sooner)
  double abuse_check = 0;   // fail when max(p99 abused, floor) / max(p99 quiet, floor) exceeds it
  double abuse_floor_ms = 5;
};

// The options from the command line; a bad flag prints why and exits with status 2.
Options parse(int argc, char** argv);

}  // namespace atout::loadgen
