// The JSON forms of the replies read from the store: profiles, leaderboards, histories, replays.
#include "atout/protocol/archive_messages.hpp"

#include "message_json.hpp"

namespace atout::protocol {

namespace {

json rating_json(const RatingInfo& r) {
  return {{"ladder", r.ladder}, {"mu", r.mu}, {"sigma", r.sigma}, {"ordinal", r.ordinal}, {"matches", r.matches}};
}

template <typename T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

json to_json(const Profile& m, const RequestId& id) {
  json j = message("profile", id);
  j["player_id"] = m.player_id;
  j["name"] = m.name;
  j["created_at"] = m.created_at;
  j["last_seen"] = m.last_seen;
  json ratings = json::array();
  for (const RatingInfo& r : m.ratings) ratings.push_back(rating_json(r));
  j["ratings"] = ratings;
  return j;
}

json to_json(const Leaderboard& m, const RequestId& id) {
  json j = message("leaderboard", id);
  j["ladder"] = m.ladder;
  j["offset"] = m.page.offset;
  j["limit"] = m.page.limit;
  j["total"] = m.total;
  json entries = json::array();
  for (const LeaderboardEntry& e : m.entries) {
    json x = rating_json(e.rating);
    x.erase("ladder");
    x["rank"] = e.rank;
    x["player_id"] = e.player_id;
    x["name"] = e.name;
    entries.push_back(std::move(x));
  }
  j["entries"] = entries;
  return j;
}

json to_json(const History& m, const RequestId& id) {
  json j = message("history", id);
  j["player_id"] = m.player_id;
  j["offset"] = m.page.offset;
  j["limit"] = m.page.limit;
  json matches = json::array();
  for (const HistoryEntry& e : m.matches)
    matches.push_back({{"match_id", e.match_id},
                       {"variant", e.variant},
                       {"seat", e.seat},
                       {"team", e.team},
                       {"started_at", e.started_at},
                       {"ended_at", or_null(e.ended_at)},
                       {"end_reason", or_null(e.end_reason)},
                       {"match_score", or_null(e.match_score)},
                       {"winner", or_null(e.winner)}});
  j["matches"] = matches;
  return j;
}

json to_json(const Replay& m, const RequestId& id) {
  // The record's own fields at the top level, so the message is itself a record.
  json j = to_json(m.record);
  j["type"] = "replay";
  put_id(j, id);
  j["match_id"] = m.match_id;
  j["table_id"] = m.table_id;
  json seats = json::array();
  for (const ReplaySeat& s : m.seats)
    seats.push_back({{"seat", s.seat}, {"team", s.team}, {"player_id", s.player_id}, {"name", s.name}});
  j["seats"] = seats;
  json deals = json::array();
  for (const ReplayDeal& d : m.deals)
    deals.push_back({{"deal_number", d.hand},
                     {"dealer", d.dealer},
                     {"commitment", d.commitment},
                     {"seed", d.seed},
                     {"result", d.result}});
  j["deals"] = deals;
  j["rated"] = m.rated;
  j["started_at"] = m.started_at;
  j["ended_at"] = m.ended_at;
  j["end_reason"] = m.end_reason;
  j["match_score"] = or_null(m.match_score);
  j["winner"] = or_null(m.winner);
  json bots = json::array();
  for (std::size_t i = 0; i < m.by_bot.size(); ++i)
    if (m.by_bot[i]) bots.push_back({{"action", i}, {"by_bot", to_string(*m.by_bot[i])}});
  j["bot_actions"] = bots;
  return j;
}

json to_json(const Analysis& m, const RequestId& id) {
  json j = {{"type", "analysis"}};
  put_id(j, id);
  j["match_id"] = m.match_id;
  j["deal_number"] = m.deal_number;
  j["declarer"] = m.declarer == kNoSeat ? json(nullptr) : json(m.declarer);
  json plays = json::array();
  for (const PlayAnalysis& p : m.plays)
    plays.push_back({{"action", p.action},
                     {"seat", p.seat},
                     {"card", to_json(p.card)},
                     {"value", p.value},
                     {"best", p.best},
                     {"cost", p.cost},
                     {"best_cards", to_json(p.best_cards)}});
  j["plays"] = plays;
  return j;
}

}  // namespace atout::protocol
