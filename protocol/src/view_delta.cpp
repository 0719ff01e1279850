// Per-seat deltas as JSON merge patches (RFC 7396) between two views of one recipient.
#include "atout/protocol/view_delta.hpp"

#include "message_json.hpp"

namespace atout::protocol {

json event_view(const Event& e) {
  json j = to_json(e);
  j.erase("type");
  j.erase("table_id");
  j.erase("seq");
  j.erase("id");
  return j;
}

json view_delta(const json& previous, const json& next) {
  if (!previous.is_object() || !next.is_object()) return next;
  json patch = json::object();
  for (const auto& [key, old_value] : previous.items())
    if (!next.contains(key)) patch[key] = nullptr;
  for (const auto& [key, value] : next.items()) {
    const auto old = previous.find(key);
    if (old == previous.end()) {
      patch[key] = value;
    } else if (*old != value) {
      // Only an object on both sides is patched inside; anything else is replaced whole.
      patch[key] = old->is_object() && value.is_object() ? view_delta(*old, value) : value;
    }
  }
  return patch;
}

std::optional<json> apply_view_delta(json view, const json& delta) {
  if (!delta.is_object()) return std::nullopt;
  view.merge_patch(delta);
  return view;
}

json to_json(const Delta& d) {
  json j = message("delta");
  j["table_id"] = d.table_id;
  j["seq"] = d.seq;
  j["base"] = d.base;
  j["patch"] = d.patch;
  put_id(j, d.id);
  return j;
}

std::string serialize(const Delta& d) { return to_json(d).dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace atout::protocol
