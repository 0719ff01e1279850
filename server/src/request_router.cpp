// The request router: one handler per request type, each answering through its connection or
// handing the request to the lobby, a table or the archive.
#include "atout/server/request_router.hpp"

#include "atout/server/cluster/cluster_node.hpp"
#include "atout/server/error_wire.hpp"
#include "atout/server/table.hpp"
#include "atout/server/ws_session.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::RequestId;

namespace {

// A table this node does not have: in a cluster, another node may own it; the client is then sent
// there with `redirect`, else it gets `error`, marked `moving` when a take-over is under way (the
// client then tries again shortly instead of giving the table up). An invite code this node does
// not know may be another node's: it is looked up too. Another node's private table named by its id
// alone is shown only to the players it seats (`asker`: a request to join or watch by id shows it
// to nobody), and to anyone else is as unknown as it is on its own node. An invite that cannot be
// looked up (Redis is away) may still be good: its `bad_invite` is marked `moving` too, so that the
// client tries again. The look-up waits on Redis, so it runs on the cluster's own thread.
using Asker = cluster::ClusterNode::Asker;
void answer_missing(const std::shared_ptr<Context>& ctx, const std::weak_ptr<Peer>& link, protocol::Error error,
                    const RequestId& id, Asker asker, std::optional<std::string> invite = std::nullopt) {
  const bool by_id = error.code == ErrorCode::unknown_table && error.table_id;
  const bool by_invite = error.code == ErrorCode::bad_invite && !error.table_id && invite;
  if (!ctx->cluster || (!by_id && !by_invite)) return deliver(link, error_wire(error, id, ctx->metrics.get()));
  auto node = ctx->cluster;
  node->post([node, link, error = std::move(error), id, invite = std::move(invite), asker = std::move(asker),
              counts = ctx->metrics]() mutable {
    std::optional<std::string> table_id = error.table_id;
    if (!table_id) {
      auto invited = node->invited_table(*invite);
      if (invited.unreachable) {
        error.message = "this invite cannot be looked up on the other servers this moment; try again shortly";
        error.moving = true;
        error.takeover_ms = node->lease()->takeover().count();
      }
      table_id = std::move(invited.table_id);
    }
    if (!table_id) return deliver(link, error_wire(error, id, counts.get()));
    if (invite) asker = Asker{};
    const auto where = node->whereabouts(*table_id, asker);
    if (where.url) return deliver(link, wire(protocol::Redirect{*table_id, *where.url}, id));
    if (where.moving)
      error = protocol::make_moving_error(
          "table " + *table_id + " is being taken over by another server; resume in a moment", *table_id,
          node->lease()->takeover().count());
    deliver(link, error_wire(error, id, counts.get()));
  });
}

}  // namespace

RequestRouter::RequestRouter(std::shared_ptr<Context> ctx, Connection& conn, Clock::time_point now)
    : ctx_(std::move(ctx)), conn_(conn), chat_credits_(kChatBurst, kChatRate, now), now_(now) {}

void RequestRouter::reply_error(ErrorCode code, std::string message, const RequestId& id) {
  conn_.reply(error_wire(protocol::make_error(code, std::move(message)), id, ctx_->metrics.get()));
}

Member RequestRouter::me() {
  Member m;
  m.conn = conn_.id();
  if (player_) {
    m.player_id = player_->id;
    m.name = player_->name;
  }
  m.link = conn_.weak();
  m.ack = ack_;
  m.views = views_;
  return m;
}

// ---- Membership ----------------------------------------------------------------------------------

void RequestRouter::joined(const std::string& table_id, std::weak_ptr<Table> t) {
  // A table that seats us after we closed must still learn that we are gone.
  if (!conn_.open()) {
    if (auto live = t.lock()) live->detach(conn_.id());
    return;
  }
  tables_[table_id] = std::move(t);
}

void RequestRouter::departed(const std::string& table_id) { tables_.erase(table_id); }

void RequestRouter::leave_all() {
  ctx_->sessions->remove(conn_.id(), player_ ? player_->id : std::string());
  ctx_->lobby->drop(conn_.id());
  for (auto& [id, t] : tables_)
    if (auto live = t.lock()) live->detach(conn_.id());
  tables_.clear();
}

// ---- Requests ------------------------------------------------------------------------------------

void RequestRouter::handle(std::string_view text, Clock::time_point now) {
  if (awaiting_token_) {
    // A client that pipelines a little behind its hello is served in order; one that floods is not.
    if (held_.size() >= kMaxHeldRequests)
      return reply_error(ErrorCode::too_fast, "wait for the welcome before sending more",
                         protocol::parse_request(text).id);
    held_.emplace_back(std::string(text), now);
    return;
  }
  now_ = now;
  protocol::ParsedRequest parsed = protocol::parse_request(text);
  if (auto* e = std::get_if<protocol::Error>(&parsed.body))
    return conn_.reply(error_wire(*e, parsed.id, ctx_->metrics.get()));
  // Shutting down: nothing new is accepted, so what is saved is what was acknowledged.
  if (ctx_->shutting_down) return;
  const auto& r = std::get<protocol::Request>(parsed.body);
  const bool anonymous_ok = std::holds_alternative<protocol::Hello>(r) || std::holds_alternative<protocol::Ping>(r);
  if (!player_ && !anonymous_ok) return reply_error(ErrorCode::hello_required, "say hello first", parsed.id);
  std::visit([&](const auto& x) { handle(x, parsed.id); }, r);
}

void RequestRouter::handle(const protocol::Hello& r, const RequestId& id) {
  if (player_) return reply_error(ErrorCode::already_identified, "this connection is already " + player_->id, id);
  if (r.token) return resume_token(r, id, 0);
  auto issued = ctx_->players->create_guest(r.name);
  greet(std::move(issued.who), std::move(issued.token), false, r, id);
}

void RequestRouter::resume_token(protocol::Hello r, RequestId id, int tries) {
  awaiting_token_ = false;
  if (!conn_.open()) return;
  auto who = ctx_->players->resume(*r.token);
  if (!who && ctx_->retry_unknown_tokens && tries < kUnknownTokenRetries) {
    // Wait on a timer rather than on this I/O thread, which serves other connections too; what
    // this connection sends meanwhile is held and handled after the hello, as it was sent.
    awaiting_token_ = true;
    if (!token_timer_) token_timer_ = ctx_->clock->make_timer(net::make_strand(conn_.executor()));
    token_timer_->wait_until(ctx_->clock->now() + kUnknownTokenWait,
                             [this, link = conn_.weak(), r = std::move(r), id = std::move(id), tries]() mutable {
                               auto self = link.lock();
                               if (!self) return;
                               self->post([this, self, r = std::move(r), id = std::move(id), tries]() mutable {
                                 resume_token(std::move(r), std::move(id), tries + 1);
                               });
                             });
    return;
  }
  if (!who) {
    reply_error(ErrorCode::unknown_token, "no player has that token", id);
  } else {
    std::string token = *r.token;
    greet(std::move(*who), std::move(token), true, r, id);
  }
  release_held();
}

void RequestRouter::release_held() {
  while (!awaiting_token_ && !held_.empty()) {
    auto [text, at] = std::move(held_.front());
    held_.pop_front();
    handle(text, at);
  }
}

void RequestRouter::greet(Player who, std::string token, bool resumed, const protocol::Hello& r, const RequestId& id) {
  protocol::Welcome w;
  player_ = std::move(who);
  w.token = std::move(token);
  w.resumed = resumed;
  w.player_id = player_->id;
  w.name = player_->name;
  ack_ = r.ack;
  views_ = r.views;
  // One connection per identity: a newer one takes over, and the older is told why it closes.
  if (auto previous = ctx_->sessions->bind(player_->id, conn_.id()))
    previous->kick(protocol::Goodbye{protocol::Goodbye::Reason::replaced, "a newer connection resumed " + player_->id},
                   kCloseReplaced);
  // And on the other nodes of a cluster.
  if (auto node = ctx_->cluster) node->post([node, player = player_->id] { node->announce_hello(player); });
  if (!w.resumed) return conn_.reply(wire(w, id));
  ctx_->lobby->held_seats(player_->id, [link = conn_.weak(), w = std::move(w), resume = r.resume,
                                        id](std::vector<protocol::HeldSeat> seats) mutable {
    auto self = link.lock();
    if (!self) return;
    w.seats = std::move(seats);
    self->post([self, w = std::move(w), resume = std::move(resume), id]() mutable {
      self->router().welcome(std::move(w), std::move(resume), id);
    });
  });
}

void RequestRouter::welcome(protocol::Welcome w, std::vector<protocol::ResumeAt> resume, const RequestId& id) {
  if (!conn_.open()) return;
  conn_.reply(wire(w, id));
  // Each resumed table answers with `seated` (or an error) and the events missed since last_seq.
  for (const protocol::ResumeAt& at : resume)
    handle(protocol::Sit{{at.table_id, std::nullopt}, std::nullopt, at.last_seq}, {});
}

void RequestRouter::handle(const protocol::ListVariants&, const RequestId& id) {
  protocol::VariantList list;
  for (const VariantInfo& v : variants()) list.variants.push_back(&v);
  conn_.reply(wire(list, id));
}

bool RequestRouter::charge_listing(int limit, const RequestId& id) {
  const int cost = (limit + LobbyLimits::kTablesPerCredit - 1) / LobbyLimits::kTablesPerCredit;
  const auto wait = conn_.spend(cost, now_);
  if (!wait) return true;
  // Long enough for the retry's own message credit too (and rounded up), so that a client that
  // waits as told is served, rather than refused again for the credit its retry took.
  const auto retry = *wait + std::chrono::milliseconds(1 + static_cast<long>(1000.0 / ctx_->limits.msg_rate));
  reply_error(ErrorCode::too_fast,
              "a page of up to " + std::to_string(limit) + " tables costs " + std::to_string(cost) +
                  " message credits and this connection has fewer left; wait " + std::to_string(retry.count()) +
                  " ms, or ask for a smaller page",
              id);
  return false;
}

void RequestRouter::handle(const protocol::ListTables& r, const RequestId& id) {
  if (!charge_listing(r.page.limit, id)) return;
  // Read from the lobby's shared snapshot here, on this connection's executor.
  conn_.reply(std::make_shared<const std::string>(ctx_->lobby->snapshot()->page(r, id)));
}

void RequestRouter::handle(const protocol::SubscribeLobby&, const RequestId& id) {
  if (!charge_listing(protocol::Page::kMaxLimit, id)) return;
  ctx_->lobby->subscribe(me(), id);
}

void RequestRouter::handle(const protocol::UnsubscribeLobby&, const RequestId& id) {
  ctx_->lobby->unsubscribe(me(), id);
}

void RequestRouter::handle(const protocol::CreateTable& r, const RequestId& id) { ctx_->lobby->create(r, me(), id); }

void RequestRouter::handle(const protocol::Sit& r, const RequestId& id) {
  // Taking back a held seat finds a private table by id too: the table itself then refuses anyone
  // it holds no seat for, as if it did not exist.
  const bool resuming = r.last_seq.has_value();
  ctx_->lobby->find(r.where, !resuming,
                    [m = me(), seat = r.seat, id, last_seq = r.last_seq, invite = r.where.invite, ctx = ctx_](
                        std::shared_ptr<Table> t, auto error) {
                      if (error) {
                        const Asker asker{last_seq ? Asker::Way::member : Asker::Way::join, m.player_id};
                        return answer_missing(ctx, m.link, *error, id, asker, invite);
                      }
                      t->sit(m, seat, id, last_seq);
                    });
}

void RequestRouter::handle(const protocol::Spectate& r, const RequestId& id) {
  ctx_->lobby->find(
      r.where, true,
      [m = me(), id, last_seq = r.last_seq, invite = r.where.invite, ctx = ctx_](std::shared_ptr<Table> t, auto error) {
        if (error) return answer_missing(ctx, m.link, *error, id, Asker{Asker::Way::join, {}}, invite);
        t->spectate(m, id, last_seq);
      });
}

template <typename Fn>
void RequestRouter::with_member_table(const std::string& table_id, const RequestId& id, Fn fn) {
  if (const auto it = tables_.find(table_id); it != tables_.end()) {
    if (auto t = it->second.lock()) return fn(t);
  }
  ctx_->lobby->find(protocol::TableRef{table_id, std::nullopt}, false,
                    [link = conn_.weak(), id, fn, ctx = ctx_, player = player_ ? player_->id : std::string()](
                        std::shared_ptr<Table> t, auto error) {
                      if (error) return answer_missing(ctx, link, *error, id, Asker{Asker::Way::member, player});
                      fn(t);
                    });
}

void RequestRouter::handle(const protocol::Stand& r, const RequestId& id) {
  with_member_table(r.table_id, id, [m = me(), id](const std::shared_ptr<Table>& t) { t->stand(m, id); });
}

void RequestRouter::handle(const protocol::Leave& r, const RequestId& id) {
  with_member_table(r.table_id, id, [m = me(), id](const std::shared_ptr<Table>& t) { t->leave(m, id); });
}

void RequestRouter::handle(const protocol::Act& r, const RequestId& id) {
  with_member_table(r.table_id, id,
                    [m = me(), action = r.action, id](const std::shared_ptr<Table>& t) { t->act(m, action, id); });
}

void RequestRouter::handle(const protocol::AddBot& r, const RequestId& id) {
  with_member_table(r.table_id, id, [m = me(), seat = r.seat, level = r.level, id](const std::shared_ptr<Table>& t) {
    t->add_bot(m, seat, level, id);
  });
}

void RequestRouter::handle(const protocol::RemoveBot& r, const RequestId& id) {
  with_member_table(r.table_id, id,
                    [m = me(), seat = r.seat, id](const std::shared_ptr<Table>& t) { t->remove_bot(m, seat, id); });
}

void RequestRouter::handle(const protocol::Ping&, const RequestId& id) { conn_.reply(wire(protocol::Pong{}, id)); }

void RequestRouter::handle(const protocol::Chat& r, const RequestId& id) {
  // Chat has a budget of its own, on top of the connection's: it can never crowd out play,
  // whatever a client sends.
  if (!chat_credits_.take(now_)) {
    return reply_error(ErrorCode::chat_too_fast,
                       "chat is limited to " + std::to_string(static_cast<int>(kChatBurst)) +
                           " lines at once and one a second; wait " + std::to_string(chat_credits_.wait().count()) +
                           " ms",
                       id);
  }
  if (!r.table_id) return ctx_->lobby->chat(me(), r.text, id);
  with_member_table(*r.table_id, id,
                    [m = me(), text = r.text, id](const std::shared_ptr<Table>& t) { t->chat(m, text, id); });
}

template <typename Request>
void RequestRouter::ask_archive(const Request& r, const RequestId& id) {
  if (!ctx_->archive) return reply_error(ErrorCode::internal_error, "this server keeps no records", id);
  ctx_->archive->ask(r, player_->id, [link = conn_.weak(), id, counts = ctx_->metrics](Archive::Reply reply) {
    auto self = link.lock();
    if (!self) return;
    if (const auto* e = std::get_if<protocol::Error>(&reply)) return self->send(error_wire(*e, id, counts.get()));
    self->send(std::make_shared<const std::string>(Archive::message(reply, id)));
  });
}

void RequestRouter::handle(const protocol::GetProfile& r, const RequestId& id) { ask_archive(r, id); }
void RequestRouter::handle(const protocol::GetLeaderboard& r, const RequestId& id) { ask_archive(r, id); }
void RequestRouter::handle(const protocol::GetHistory& r, const RequestId& id) { ask_archive(r, id); }
void RequestRouter::handle(const protocol::GetReplay& r, const RequestId& id) { ask_archive(r, id); }
void RequestRouter::handle(const protocol::GetAnalysis& r, const RequestId& id) { ask_archive(r, id); }

}  // namespace atout::server
