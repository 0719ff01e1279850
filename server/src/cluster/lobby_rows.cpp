// Lobby rows across nodes: the summary's text travels as is; its variant, status and free seats
// are read back from it for the lobby's filters.
#include "atout/server/cluster/lobby_rows.hpp"

#include <nlohmann/json.hpp>

namespace atout::server::cluster {

std::string encode_row(const std::string& node_id, const std::string& summary_text) {
  return node_id + "\n" + summary_text;
}

std::optional<RemoteRow> decode_row(const std::string& value) {
  const auto newline = value.find('\n');
  if (newline == std::string::npos) return std::nullopt;
  RemoteRow out;
  out.node_id = value.substr(0, newline);
  auto row = std::make_shared<LobbySnapshot::Row>();
  row->text = value.substr(newline + 1);
  const nlohmann::json j = nlohmann::json::parse(row->text, nullptr, false);
  if (!j.is_object() || !j.contains("variant") || !j["variant"].is_string() || !j.contains("status") ||
      !j["status"].is_string() || !j.contains("seats") || !j["seats"].is_array())
    return std::nullopt;
  row->variant = j["variant"].get<std::string>();
  const std::string status = j["status"].get<std::string>();
  bool known = false;
  for (const protocol::TableStatus s : {protocol::TableStatus::waiting, protocol::TableStatus::playing,
                                        protocol::TableStatus::paused, protocol::TableStatus::finished}) {
    if (protocol::to_string(s) != status) continue;
    row->status = s;
    known = true;
  }
  if (!known) return std::nullopt;
  for (const nlohmann::json& seat : j["seats"])
    if (seat.is_object() && (!seat.contains("player_id") || seat["player_id"].is_null())) ++row->free_seats;
  out.row = std::move(row);
  return out;
}

}  // namespace atout::server::cluster
