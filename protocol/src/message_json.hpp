// Pieces every message's JSON form starts from (private to the protocol library).
#pragma once

#include <string_view>

#include "atout/protocol/basics.hpp"
#include "atout/protocol/engine_json.hpp"

namespace atout::protocol {

// Echoes a request's id; a request without one gets a reply without one.
inline void put_id(json& j, const RequestId& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) j["id"] = *n;
  if (const auto* s = std::get_if<std::string>(&id)) j["id"] = *s;
}

// A server message of `type`, answering the request `id` when there is one.
inline json message(std::string_view type, const RequestId& id = {}) {
  json j = {{"type", type}};
  put_id(j, id);
  return j;
}

}  // namespace atout::protocol
