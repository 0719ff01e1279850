// The HTTP API's read routes into requests (see api_routes.hpp).
#include "atout/server/api_routes.hpp"

#include <string>

#include "atout/server/percent_decoding.hpp"
#include "atout/server/query_fields.hpp"

namespace atout::server {

namespace {

// An id or ladder as the request carries it: percent-decoded (a browser sends `bot:rules` as
// `bot%3Arules`); text that is not valid percent-encoding is passed on as it came.
std::string segment_text(std::string_view segment) { return percent_decoded(segment).value_or(std::string(segment)); }

}  // namespace

std::optional<nlohmann::json> archive_request(std::string_view target) {
  const auto q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? std::string_view{} : target.substr(q + 1);
  auto starts = [&](std::string_view prefix) { return path.substr(0, prefix.size()) == prefix; };
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };

  nlohmann::json request;
  if (starts("/api/players/") && ends("/matches") && path.size() >= 13 + 8) {
    const std::string_view id = path.substr(13, path.size() - 13 - 8);
    request = {{"type", "get_history"}, {"player_id", segment_text(id)}};
    add_query_fields(query, {"offset", "limit"}, {}, request, 32);
  } else if (starts("/api/players/")) {
    request = {{"type", "get_profile"}, {"player_id", segment_text(path.substr(13))}};
  } else if (starts("/api/leaderboard/")) {
    request = {{"type", "get_leaderboard"}, {"ladder", segment_text(path.substr(17))}};
    add_query_fields(query, {"offset", "limit"}, {}, request, 32);
  } else if (starts("/api/matches/") && ends("/replay") && path.size() >= 13 + 7) {
    request = {{"type", "get_replay"}, {"match_id", segment_text(path.substr(13, path.size() - 13 - 7))}};
  } else if (starts("/api/matches/") && ends("/analysis") && path.size() >= 13 + 9) {
    request = {{"type", "get_analysis"}, {"match_id", segment_text(path.substr(13, path.size() - 13 - 9))}};
    nlohmann::json query_fields = nlohmann::json::object();
    add_query_fields(query, {"deal"}, {}, query_fields);
    if (query_fields.contains("deal")) request["deal_number"] = query_fields["deal"];
  } else {
    return std::nullopt;
  }
  return request;
}

nlohmann::json tables_request(std::string_view query) {
  nlohmann::json request = {{"type", "list_tables"}};
  add_query_fields(query, {"offset", "limit", "min_free"}, {"variant", "status"}, request);
  return request;
}

}  // namespace atout::server
