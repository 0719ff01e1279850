// A public table's lobby row as the cluster keeps it in Redis (hash atout:lobby, field the table
// id) and sends it on the bus: "<node id>\n<summary text>".
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "atout/server/lobby.hpp"

namespace atout::server::cluster {

struct RemoteRow {
  std::string node_id;
  std::shared_ptr<const LobbySnapshot::Row> row;
};

std::string encode_row(const std::string& node_id, const std::string& summary_text);
// The row of a stored value; nullopt when it is not one (a node of another version wrote it).
std::optional<RemoteRow> decode_row(const std::string& value);

}  // namespace atout::server::cluster
