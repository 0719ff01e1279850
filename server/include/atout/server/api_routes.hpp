// The HTTP API's read routes as the WebSocket requests they stand for, so that both forms go
// through the same parser and give the same codes for the same mistakes. Pure: no socket, no store.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace atout::server {

// The request of an archive read, from the whole target (path and query):
// /api/players/<id> (get_profile), /api/players/<id>/matches (get_history, offset and limit),
// /api/leaderboard/<ladder> (get_leaderboard, offset and limit), /api/matches/<id>/replay
// (get_replay), /api/matches/<id>/analysis (get_analysis, deal). Each id or ladder is
// percent-decoded; one that is not valid percent-encoding is passed on as it came (the HTTP
// route answers such a path with bad_path before asking). Empty for any other target.
std::optional<nlohmann::json> archive_request(std::string_view target);

// The list_tables request of /api/tables?<query> (offset, limit, min_free, variant, status).
nlohmann::json tables_request(std::string_view query);

}  // namespace atout::server
