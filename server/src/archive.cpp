// Profiles, leaderboards, histories and replays: store rows turned into protocol messages, with
// nothing private (no token, no invite code, no seed of a match still being played).
#include "atout/server/archive.hpp"

#include "atout/bots/analysis.hpp"
#include "atout/protocol/engine_json.hpp"
#include "atout/server/api_routes.hpp"
#include "atout/server/percent_decoding.hpp"
#include "atout/server/stored_match.hpp"
#include "atout/store/store.hpp"

namespace atout::server {

using protocol::ErrorCode;
using protocol::make_error;

namespace {

protocol::RatingInfo rating_info(const store::RatingRow& r) {
  return protocol::RatingInfo{r.ladder, r.mu, r.sigma, r.ordinal, r.matches};
}

}  // namespace

Archive::Archive(std::shared_ptr<store::Store> store, int max_analyses)
    : store_(std::move(store)), max_analyses_(max_analyses) {}

Archive::~Archive() { stop(); }

void Archive::settle() { store_->flush(); }

void Archive::stop() {
  pool_.stop();
  pool_.join();
  analysis_pool_.stop();
  analysis_pool_.join();
}

void Archive::ask(protocol::GetAnalysis request, std::string viewer, std::function<void(Reply)> then) {
  if (analyses_.fetch_add(1) >= max_analyses_) {
    analyses_.fetch_sub(1);
    return then(make_error(ErrorCode::too_fast,
                           "the server is analysing as many deals as it will at once; ask again "
                           "in a few seconds"));
  }
  net::post(analysis_pool_, [this, request = std::move(request), viewer = std::move(viewer), then = std::move(then)] {
    settle();
    Reply reply = read(request, viewer);
    analyses_.fetch_sub(1);
    then(std::move(reply));
  });
}

Archive::Reply Archive::read(const protocol::GetProfile& r, const std::string&) {
  const auto p = store_->player(r.player_id);
  if (!p) return make_error(ErrorCode::unknown_player, "there is no player " + r.player_id);
  protocol::Profile out;
  out.player_id = p->id;
  out.name = p->name;
  out.created_at = p->created_at;
  out.last_seen = p->last_seen;
  for (const store::RatingRow& row : store_->ratings_of(r.player_id)) out.ratings.push_back(rating_info(row));
  return out;
}

Archive::Reply Archive::read(const protocol::GetLeaderboard& r, const std::string&) {
  if (!find_variant(r.ladder)) {
    std::string known;
    for (const VariantInfo& v : variants()) known += (known.empty() ? "" : ", ") + v.id;
    return make_error(ErrorCode::unknown_ladder,
                      "there is no ladder '" + r.ladder + "'; ladders are variants: " + known);
  }
  protocol::Leaderboard out;
  out.ladder = r.ladder;
  out.page = r.page;
  const auto rows = store_->leaderboard(r.ladder, r.page.offset, r.page.limit, out.total);
  for (std::size_t i = 0; i < rows.size(); ++i)
    out.entries.push_back(
        {r.page.offset + static_cast<int>(i) + 1, rows[i].player, rows[i].name, rating_info(rows[i])});
  return out;
}

Archive::Reply Archive::read(const protocol::GetHistory& r, const std::string& viewer) {
  if (!store_->player(r.player_id)) return make_error(ErrorCode::unknown_player, "there is no player " + r.player_id);
  protocol::History out;
  out.player_id = r.player_id;
  out.page = r.page;
  for (const store::MatchSummary& m : store_->history(r.player_id, r.page.offset, r.page.limit, viewer)) {
    protocol::HistoryEntry e;
    e.match_id = m.uid;
    e.variant = m.variant;
    e.seat = m.seat;
    e.team = m.team;
    e.started_at = m.started_at;
    e.ended_at = m.ended_at;
    if (!m.end_reason.empty()) e.end_reason = m.end_reason;
    if (m.score0 && m.score1) e.match_score = std::array<int, 2>{*m.score0, *m.score1};
    e.winner = m.winner;
    out.matches.push_back(std::move(e));
  }
  return out;
}

Archive::Reply Archive::read(const protocol::GetReplay& r, const std::string&) {
  // Ask first whether it is over: a match still being played gives nothing away.
  const auto over = store_->match_over(r.match_id);
  if (!over) return make_error(ErrorCode::unknown_match, "there is no match " + r.match_id);
  if (!*over)
    return make_error(ErrorCode::match_not_finished,
                      "match " + r.match_id + " is still being played; its replay is published when it ends");
  // Over: nothing is hidden any more, so every seed is published with the record.
  const auto m = store_->match(r.match_id, true);
  if (!m) return make_error(ErrorCode::unknown_match, "there is no match " + r.match_id);
  protocol::Replay out;
  out.match_id = m->start.uid;
  out.table_id = m->start.table_id;
  out.rated = m->start.rated;
  out.started_at = m->start.started_at;
  out.ended_at = *m->ended_at;
  out.end_reason = m->end_reason;
  if (m->score0 && m->score1) out.match_score = std::array<int, 2>{*m->score0, *m->score1};
  out.winner = m->winner;
  DecodedRecord decoded = decode_record(*m);
  if (!decoded.record)
    return make_error(ErrorCode::internal_error,
                      "match " + r.match_id + " is unreadable in the store: " + decoded.error);
  out.record = std::move(*decoded.record);
  out.by_bot = std::move(decoded.by_bot);
  for (const store::SeatRow& s : m->start.seats) out.seats.push_back({s.seat, s.team, s.player, s.name});
  for (const store::HandRow& h : m->hands) {
    // The result is stored as the text of the event's `hand_result`, written by this server; a
    // text that no longer parses is published as null rather than failing the whole replay.
    protocol::json result =
        h.result_json.empty() ? protocol::json(nullptr) : protocol::json::parse(h.result_json, nullptr, false);
    if (result.is_discarded()) result = nullptr;
    out.deals.push_back({h.number, static_cast<Seat>(h.dealer), h.commitment, h.seed, std::move(result)});
  }
  return out;
}

Archive::Reply Archive::read(const protocol::GetAnalysis& r, const std::string&) {
  {
    std::lock_guard lock(cache_mutex_);
    for (auto it = cache_.begin(); it != cache_.end(); ++it)
      if (it->match_id == r.match_id && it->deal_number == r.deal_number) {
        cache_.splice(cache_.begin(), cache_, it);
        return cache_.front();
      }
  }
  // The same checks as a replay: nothing of a match still being played is analysed.
  Reply replay = read(protocol::GetReplay{r.match_id});
  if (std::holds_alternative<protocol::Error>(replay)) return replay;
  const Record& record = std::get<protocol::Replay>(replay).record;
  bots::Solver solver;
  const bots::AnalysisResult result = bots::analyse_deal(record, r.deal_number, solver);
  if (result.error) {
    if (result.error->code == "no_such_deal") {
      protocol::Error e =
          make_error(ErrorCode::invalid_field, "match " + r.match_id + " has no deal " + std::to_string(r.deal_number));
      e.field = "deal_number";
      return e;
    }
    return make_error(ErrorCode::internal_error,
                      "match " + r.match_id + " could not be analysed: " + result.error->message);
  }
  protocol::Analysis out;
  out.match_id = r.match_id;
  out.deal_number = r.deal_number;
  out.declarer = result.analysis->declarer;
  for (const bots::PlayCost& p : result.analysis->plays)
    out.plays.push_back({p.action, p.seat, p.card, p.value, p.best, p.cost, p.best_cards});
  std::lock_guard lock(cache_mutex_);
  cache_.push_front(out);
  if (cache_.size() > kCachedAnalyses) cache_.pop_back();
  return out;
}

std::string Archive::message(const Reply& r, const protocol::RequestId& id) {
  return std::visit([&](const auto& m) { return protocol::serialize(m, id); }, r);
}

std::pair<http::status, std::string> Archive::http_response(const Reply& r) {
  if (const auto* e = std::get_if<protocol::Error>(&r)) {
    http::status status = http::status::internal_server_error;
    switch (e->code) {
      case ErrorCode::missing_field:
      case ErrorCode::invalid_field:
        status = http::status::bad_request;
        break;
      case ErrorCode::unknown_player:
      case ErrorCode::unknown_ladder:
      case ErrorCode::unknown_match:
        status = http::status::not_found;
        break;
      case ErrorCode::match_not_finished:
        status = http::status::conflict;
        break;
      case ErrorCode::too_fast:
        status = http::status::too_many_requests;
        break;
      default:
        break;
    }
    protocol::json j = {{"error", protocol::to_string(e->code)}, {"message", e->message}};
    if (e->field) j["field"] = *e->field;
    // An analysis's deal is the query's `deal` over HTTP: its errors name that, not the WebSocket
    // request's `deal_number`.
    if (e->field == "deal_number") {
      j["field"] = "deal";
      std::string message = e->message;
      for (std::size_t at; (at = message.find("deal_number")) != std::string::npos;) message.replace(at, 11, "deal");
      j["message"] = message;
    }
    return {status, j.dump(-1, ' ', false, protocol::json::error_handler_t::replace)};
  }
  return {http::status::ok, message(r, {})};
}

bool http_api(Archive& a, std::string_view target, std::function<void(http::status, std::string)> respond) {
  const std::optional<protocol::json> request = archive_request(target);
  if (!request) return false;
  // An id must be valid percent-encoding: a `%` followed by two hex digits, or none.
  if (!percent_decoded(target.substr(0, target.find('?')))) {
    respond(
        http::status::bad_request,
        R"({"error":"bad_path","message":"the path is not valid percent-encoding: a % must start two hex digits"})");
    return true;
  }
  // The same checks as the WebSocket requests, so both give the same codes for the same mistakes.
  protocol::ParsedRequest parsed =
      protocol::parse_request(request->dump(-1, ' ', false, protocol::json::error_handler_t::replace));
  auto answer = [respond](Archive::Reply r) {
    auto [status, body] = Archive::http_response(r);
    respond(status, std::move(body));
  };
  if (auto* e = std::get_if<protocol::Error>(&parsed.body)) {
    answer(*e);
    return true;
  }
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, protocol::GetProfile> || std::is_same_v<R, protocol::GetLeaderboard> ||
                      std::is_same_v<R, protocol::GetHistory> || std::is_same_v<R, protocol::GetReplay> ||
                      std::is_same_v<R, protocol::GetAnalysis>)
          a.ask(r, std::string(), answer);
      },
      std::get<protocol::Request>(parsed.body));
  return true;
}

}  // namespace atout::server
