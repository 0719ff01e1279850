// Wiring: one io_context run by --threads threads; strands give each connection, table and the
// lobby their own serial order.
#include "atout/server/server.hpp"

#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <functional>

#include "atout/server/cluster/cluster_bus.hpp"
#include "atout/server/cluster/cluster_node.hpp"
#include "atout/server/cluster/lobby_rows.hpp"
#include "atout/server/recovery.hpp"
#include "atout/server/store_journal.hpp"
#include "atout/server/ws_session.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

Server::Server(Config cfg) : cfg_(std::move(cfg)), ioc_(cfg_.threads), ctx_(std::make_shared<Context>()) {
  ctx_->limits = SessionLimits{cfg_.msg_burst,       cfg_.msg_rate,    cfg_.idle_timeout, cfg_.max_queue_messages,
                               cfg_.max_queue_bytes, cfg_.close_grace, cfg_.http_burst,   cfg_.http_rate};
  ctx_->conns = std::make_shared<ConnLimiter>(cfg_.max_conns_per_ip, ctx_->metrics);
  ctx_->http_reads = std::make_shared<HttpReadLimiter>(cfg_.http_burst, cfg_.http_rate);
  listener_ = std::make_shared<Listener>(ioc_, ctx_);
}

Server::~Server() { stop(); }

std::optional<std::string> Server::open() {
  // The store refuses a file it cannot trust before writing a byte of it; its reason is shown as is.
  std::string error;
  if (!cfg_.tls_cert.empty() || !cfg_.tls_key.empty()) {
    auto tls = TlsContext::load(cfg_.tls_cert, cfg_.tls_key, error);
    if (!tls) return "cannot serve TLS: " + error;
    tls_ = std::move(*tls);
    listener_->use_tls(tls_);
    spdlog::info("TLS with {} (https:// and wss:// only)", cfg_.tls_cert);
  }
  ctx_->origins = std::make_shared<const OriginPolicy>(OriginPolicy::parse_list(cfg_.allowed_origins, error));
  if (!error.empty()) return "--allowed-origins: " + error;
  if (!cfg_.web_root.empty()) {
    std::optional<StaticFiles> web = StaticFiles::load(cfg_.web_root, error);
    if (!web) {
      // A flag's value that cannot be used: the usage error's code, as for any bad flag value.
      open_failure_code_ = 2;
      return error;  // it names the flag
    }
    ctx_->web = std::make_shared<const StaticFiles>(std::move(*web));
    spdlog::info("web client from {}", cfg_.web_root);
  }
  store::OpenOptions open_options;
  open_options.commit_window = cfg_.commit_window;
  std::unique_ptr<store::Store> opened = store::Store::open(cfg_.db, open_options, error);
  if (!opened) {
    open_failure_code_ = 2;
    return "cannot use the database " + store::redact_url(cfg_.db) + ": " + error;
  }
  store_ = std::move(opened);
  store_->on_write_error([](const std::string& e) { spdlog::error("store: {}", e); });
  spdlog::info("database {} at schema version {}", store::redact_url(cfg_.db), store_->schema_version());
  auto journal = std::make_shared<StoreJournal>(store_);
  ctx_->lobby = std::make_shared<Lobby>(ioc_.get_executor(), journal);
  ctx_->lobby->use_metrics(ctx_->metrics);
  const int bot_threads = cfg_.bot_threads > 0 ? cfg_.bot_threads : auto_bot_threads(cfg_.threads);
  spdlog::info("{} bot thread(s)", bot_threads);
  bots_ = std::make_shared<BotPool>(static_cast<std::size_t>(bot_threads), BotPool::kDefaultQueue, ctx_->metrics);
  ctx_->lobby->use_bots(bots_);
  // Table ids are never given twice: numbers come from blocks reserved in the store first.
  const std::optional<std::uint64_t> first = store_->reserve_ids("table", TableNumbers::kBlock);
  if (!first) return "cannot reserve table ids in the database " + store::redact_url(cfg_.db);
  ctx_->lobby->use_table_numbers(
      *first, [store = store_, pool = &store_tasks_](std::uint64_t count,
                                                     std::function<void(std::optional<std::uint64_t>)> done) {
        net::post(*pool, [store, count, done = std::move(done)] { done(store->reserve_ids("table", count)); });
      });
  ctx_->lobby->use_limits(LobbyLimits{cfg_.max_open_tables, cfg_.empty_table_ttl});
  ctx_->players = std::make_shared<Players>(store_);
  ctx_->archive = std::make_shared<Archive>(store_);

  RecoveryClaims claims;
  if (!cfg_.redis.empty()) {
    if (auto e = join_cluster()) return e;
    // In a cluster, a node rebuilds only the matches whose table it can lease: those of a live
    // node stay there.
    claims.claim = [c = ctx_->cluster](const std::string& t) { return c->claim(t); };
    claims.release = [c = ctx_->cluster](const std::string& t) { c->release(t, false); };
  }

  // Every unfinished match is back at its table before the first connection is accepted.
  const auto started = std::chrono::steady_clock::now();
  const RecoveryReport r = recover(*store_, *ctx_->lobby, claims);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  spdlog::info("recovery: {} table(s) restored, {} match(es) found finished, {} aborted, in {} ms", r.restored,
               r.finished, r.aborted, ms);

  beast::error_code ec;
  const auto address = net::ip::make_address(cfg_.bind, ec);
  if (ec) return "bad address " + cfg_.bind + ": " + ec.message();
  ec = listener_->open(tcp::endpoint(address, cfg_.port));
  if (ec) return "cannot listen on " + cfg_.bind + ":" + std::to_string(cfg_.port) + ": " + ec.message();
  listener_->run();
  if (ctx_->cluster) {
    ctx_->cluster->start(cluster::ClusterNode::Hooks{[this](const std::vector<std::string>& ids) { adopt(ids); },
                                                     [this] { reload_lobby(); }, [this] { ctx_->lobby->relay_all(); },
                                                     [this](const std::vector<std::string>& ids) { let_go(ids); }});
  }
  return std::nullopt;
}

std::optional<std::string> Server::join_cluster() {
  std::string error;
  std::shared_ptr<cluster::ClusterNode> node =
      cluster::ClusterNode::join({cfg_.redis, cfg_.node_id, cfg_.public_url, cfg_.lease}, error);
  if (!node) {
    open_failure_code_ = 2;
    return error;
  }
  spdlog::info("cluster: node {} registered at {} as {} (leases of {} ms)", cfg_.node_id, cfg_.redis, cfg_.public_url,
               cfg_.lease.count());
  ctx_->cluster = node;
  ctx_->retry_unknown_tokens = true;
  // A table changes nothing while this node's lease on it may have lapsed (table_lease.hpp).
  ctx_->lobby->use_lease(node->lease());
  // Leases are taken and given up on the node's thread: the lobby strand never waits on Redis.
  ctx_->lobby->use_ownership(
      Lobby::Ownership{[node](const std::string& t) { node->post([node, t] { node->own(t); }); },
                       // A closed table's lease goes only once the store has committed what the
                       // table wrote (its match's end): until then another node starting up
                       // would find the match unfinished in the store, and with no lease held it
                       // would rebuild and replay it. The flush waits off the node's own thread.
                       [node, store = store_, pool = &store_tasks_](const std::string& t) {
                         net::post(*pool, [node, store, t] {
                           store->flush();
                           node->post([node, t] { node->release(t, true); });
                         });
                       },
                       [node](const std::string& t, const std::string& invite, bool restored) {
                         node->post([node, t, invite, restored] { node->put_invite(t, invite, restored); });
                       },
                       [node](const std::string& t, std::vector<std::string> players) {
                         node->post([node, t, players = std::move(players)] { node->put_seated(t, players); });
                       }});
  // Lobby chat reaches every node's subscribers; a player's newer connection on another node
  // replaces the one here.
  ctx_->lobby->use_chat_relay(
      [node](std::shared_ptr<const std::string> text) { node->post([node, text] { node->publish("chat", *text); }); });
  // The lobby lists the public tables of every node.
  ctx_->lobby->use_row_relay([node](const std::string& t, std::shared_ptr<const LobbySnapshot::Row> row) {
    node->post([node, t, row] {
      if (row)
        node->put_row(t, row->text);
      else
        node->drop_row(t);
    });
  });
  auto address = cluster::RedisClient::parse_url(cfg_.redis, error);
  bus_ = std::make_unique<cluster::ClusterBus>(
      *address, cfg_.node_id, [this](const std::string& kind, const std::string& body) { on_bus(kind, body); });
  bus_->start();
  return std::nullopt;
}

void Server::on_bus(const std::string& kind, const std::string& body) {
  if (kind == "chat") return ctx_->lobby->remote_chat(std::make_shared<const std::string>(body));
  if (kind == "unrow") return ctx_->lobby->remote_row(body, nullptr);
  if (kind == "row") {
    const auto newline = body.find('\n');
    if (newline == std::string::npos) return;
    auto remote = cluster::decode_row(body.substr(newline + 1));
    if (remote && remote->node_id != ctx_->cluster->node_id())
      ctx_->lobby->remote_row(body.substr(0, newline), std::move(remote->row));
    return;
  }
  if (kind != "hello") return;
  const auto space = body.find(' ');
  if (space == std::string::npos) return;
  long long number = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + space, number);
  if (ec != std::errc() || end != body.data() + space) return;
  const std::string player_id = body.substr(space + 1);
  if (!ctx_->cluster->superseded(player_id, number)) return;
  if (auto s = ctx_->sessions->bound(player_id))
    s->kick(protocol::Goodbye{protocol::Goodbye::Reason::replaced,
                              "a newer connection resumed " + player_id + " on another node"},
            WsSession::kCloseReplaced);
}

void Server::reload_lobby() {
  // The lobby heals from the stored rows: a change the bus missed (Redis was away) is made up for
  // within a heartbeat of its return.
  const auto stored = ctx_->cluster->rows();
  if (!stored) return;  // Redis is away: the lobby keeps what it had
  std::map<std::string, std::shared_ptr<const LobbySnapshot::Row>> rows;
  for (const auto& [table_id, value] : *stored) {
    auto remote = cluster::decode_row(value);
    if (remote && remote->node_id != ctx_->cluster->node_id()) rows.emplace(table_id, std::move(remote->row));
  }
  ctx_->lobby->remote_rows(std::move(rows));
}

void Server::adopt(const std::vector<std::string>& table_ids) {
  auto node = ctx_->cluster;
  RecoveryClaims claims;
  claims.claim = [node](const std::string& t) { return node->claim(t); };
  claims.release = [node](const std::string& t) { node->release(t, false); };
  claims.only = std::set<std::string>(table_ids.begin(), table_ids.end());
  const RecoveryReport r = recover(*store_, *ctx_->lobby, claims);
  // What no node could rebuild (a table that had not started, or one another node took) is
  // forgotten, unless it has an owner again.
  for (const std::string& t : table_ids) node->forget(t);
  spdlog::info("cluster: {} orphaned table(s): {} taken over, {} found finished, {} aborted", table_ids.size(),
               r.restored, r.finished, r.aborted);
}

void Server::let_go(const std::vector<std::string>& table_ids) {
  // On the heartbeat's thread, which may wait on Redis: where each table runs now.
  for (const std::string& t : table_ids) ctx_->lobby->table_moved(t, ctx_->cluster->owner_url(t).value_or(""));
  spdlog::warn(
      "cluster: {} table(s) taken over by other nodes while this node's leases had lapsed; their players "
      "are sent there",
      table_ids.size());
}

unsigned short Server::port() const { return listener_->local_endpoint().port(); }

std::optional<std::string> Server::reload_tls() {
  if (!tls_) return "TLS is not on (no --tls-cert)";
  std::string error;
  if (!tls_->reload(error)) {
    spdlog::error("TLS reload failed, the certificate in use stays: {}", error);
    return error;
  }
  spdlog::info("TLS certificate and key reloaded from {} and {}", cfg_.tls_cert, cfg_.tls_key);
  return std::nullopt;
}

void Server::start() {
  for (int i = 0; i < cfg_.threads; ++i) threads_.emplace_back([this] { ioc_.run(); });
}

void Server::run_until_signal() {
  // The signal is awaited on a context of its own, so that the shutdown below can wait for the
  // I/O threads without being one of them.
  net::io_context signal_ioc;
  net::signal_set signals(signal_ioc, SIGINT, SIGTERM);
  int received = 0;
  // With TLS, SIGHUP reloads the certificate and key (each time it comes) instead of ending the
  // process.
  std::optional<net::signal_set> hup;
  std::function<void()> await_hup = [&] {
    hup->async_wait([&](beast::error_code ec, int) {
      if (ec) return;
      reload_tls();
      await_hup();
    });
  };
  if (tls_) {
    hup.emplace(signal_ioc, SIGHUP);
    await_hup();
  }
  signals.async_wait([&](beast::error_code ec, int sig) {
    if (!ec) received = sig;
    if (hup) hup->cancel();
  });
  start();
  signal_ioc.run();
  spdlog::info("signal {}: shutting down (at most {} ms)", received, kShutdownGrace.count());
  const std::size_t left = shutdown(kShutdownGrace);
  if (left > 0) spdlog::warn("{} connection(s) did not close in time; dropped", left);
  spdlog::info("stopped");
}

std::size_t Server::shutdown(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  ctx_->shutting_down = true;
  listener_->stop();
  flush_persistence();
  for (const auto& s : ctx_->sessions->all())
    s->kick(protocol::Goodbye{protocol::Goodbye::Reason::shutdown, "the server is shutting down; reconnect later"},
            WsSession::kCloseShutdown);
  // A session object lives until its close handshake and its last handler are done.
  while (ctx_->live_sessions.load() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::size_t left = ctx_->live_sessions.load();
  stop();
  return left;
}

void Server::flush_persistence() {
  // Connections stopped taking requests when shutting_down was set; every action accepted before
  // is journaled, and this waits until the writer has committed it.
  if (store_) store_->flush();
}

void Server::stop() {
  listener_->stop();
  ioc_.stop();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
  // A bot still thinking posts its answer to a stopped context, which drops it.
  if (bots_) bots_->stop();
  store_tasks_.stop();
  store_tasks_.join();
  if (ctx_->archive) ctx_->archive->stop();
  // Everything the tables reported is committed before the process goes.
  if (store_) store_->flush();
  // Only then, with no table of this node running, do its leases go: other nodes take its
  // matches over from the store without waiting for the leases to expire.
  if (bus_) bus_->stop();
  if (ctx_->cluster) ctx_->cluster->leave();
}

}  // namespace atout::server
