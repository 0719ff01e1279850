// The whole server: the store, I/O threads, the listener, the lobby and the player registry.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "atout/server/bot_pool.hpp"
#include "atout/server/config.hpp"
#include "atout/server/context.hpp"
#include "atout/server/listener.hpp"
#include "atout/server/net.hpp"
#include "atout/server/tls_context.hpp"

namespace atout::store {
class Store;
}

namespace atout::server {

namespace cluster {
class ClusterBus;
}

class Server {
 public:
  explicit Server(Config cfg);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Opens the database (refusing a corrupt, newer or unwritable one), rebuilds the matches it
  // holds unfinished, then binds and listens; says why when it cannot.
  std::optional<std::string> open();
  // The exit code for open()'s refusal: 2 when the configuration was refused (the database
  // unreachable, a wrong password, a newer schema, a bad file; in a cluster, Redis unreachable or
  // the node id taken: the operator must change something), else 1.
  int open_failure_code() const { return open_failure_code_; }
  unsigned short port() const;
  // Reads the TLS certificate and key again (what SIGHUP does): new connections use them, open
  // ones keep theirs. On failure (or without TLS) the certificate in use stays; says why.
  std::optional<std::string> reload_tls();
  // Runs the I/O threads in the background.
  void start();
  // Runs the I/O threads until SIGINT or SIGTERM, then shuts down gracefully. With TLS, SIGHUP
  // reloads the certificate and key.
  void run_until_signal();
  // Graceful shutdown: stops accepting, says goodbye to every connection and closes it with 1012
  // once everything is saved, then stops the I/O threads; returns within about `grace`. Returns
  // how many connections were still open when the grace ran out.
  std::size_t shutdown(std::chrono::milliseconds grace = kShutdownGrace);
  // Stops at once: no goodbye, no close handshake (tests, and after a failed shutdown).
  void stop();

  static constexpr std::chrono::milliseconds kShutdownGrace{5000};

 private:
  // Waits until every action accepted so far is durably stored.
  void flush_persistence();
  // Joins the cluster named by --redis: registers, and wires the lobby's tables to leases.
  std::optional<std::string> join_cluster();
  // Lists the other nodes' public tables as stored in Redis (heartbeat thread).
  void reload_lobby();
  // A message another node published on the bus (its thread).
  void on_bus(const std::string& kind, const std::string& body);
  // Rebuilds the matches of tables whose owner stopped renewing their leases (heartbeat thread).
  void adopt(const std::vector<std::string>& table_ids);
  // Lets go of tables that other nodes took over while this node's leases had lapsed: each stops
  // here and sends its players to its new owner (heartbeat thread).
  void let_go(const std::vector<std::string>& table_ids);

  Config cfg_;
  int open_failure_code_ = 1;
  std::shared_ptr<store::Store> store_;
  net::io_context ioc_;
  std::shared_ptr<Context> ctx_;
  std::shared_ptr<BotPool> bots_;  // where the tables' bots think
  std::shared_ptr<Listener> listener_;
  std::shared_ptr<TlsContext> tls_;  // null: plain HTTP
  std::vector<std::thread> threads_;
  // Store work that must wait for the disk, kept off the I/O threads (reserving table numbers).
  net::thread_pool store_tasks_{1};
  std::unique_ptr<cluster::ClusterBus> bus_;  // with --redis: messages from the other nodes
};

}  // namespace atout::server
