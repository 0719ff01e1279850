// The server under load as a process: started by atout-loadgen (--spawn), its memory read from
// /proc, stopped at the end.
#pragma once

#include <sys/types.h>

#include <filesystem>

#include "loadgen_client.hpp"
#include "loadgen_options.hpp"

namespace atout::loadgen {

// VmRSS of `pid` in KiB, or -1.
long rss_kib(int pid);
// A loopback port free at the moment of asking.
unsigned short free_port();
// True when a TCP connection to `e` opens.
bool reachable(const tcp::endpoint& e);

struct Spawned {
  pid_t pid = 0;
  std::filesystem::path db;
};
// Starts `o.spawn` on 127.0.0.1:`port` with a fresh database (unless a --server-arg names one).
Spawned spawn_server(const Options& o, unsigned short port);
// SIGTERM, then SIGKILL after 10 s; removes the fresh database.
void stop_server(Spawned& s);

}  // namespace atout::loadgen
