// Per-seat deltas: JSON merge patches (RFC 7396) between two views of one recipient, where an
// array that only grew is sent as its new elements (the key with "+" after it).
#include "atout/protocol/view_delta.hpp"

#include <algorithm>

#include "message_json.hpp"

namespace atout::protocol {

namespace {

// `patch` applied to `target` in place; false when an append names no array.
bool apply_into(json& target, const json& patch) {
  if (!target.is_object()) target = json::object();
  for (const auto& [key, value] : patch.items()) {
    if (key.size() > 1 && key.back() == '+') {
      const auto grown = target.find(key.substr(0, key.size() - 1));
      if (grown == target.end() || !grown->is_array() || !value.is_array()) return false;
      grown->insert(grown->end(), value.begin(), value.end());
    } else if (value.is_null()) {
      target.erase(key);
    } else if (value.is_object()) {
      if (!apply_into(target[key], value)) return false;
    } else {
      target[key] = value;
    }
  }
  return true;
}

// True when `next` is `previous` with elements added at the end.
bool extends(const json& previous, const json& next) {
  return previous.is_array() && next.is_array() && !previous.empty() && next.size() > previous.size() &&
         std::equal(previous.begin(), previous.end(), next.begin());
}

}  // namespace

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
    } else if (*old == value) {
      continue;
    } else if (old->is_object() && value.is_object()) {
      patch[key] = view_delta(*old, value);
    } else if (extends(*old, value)) {
      patch[key + "+"] = json(value.begin() + static_cast<std::ptrdiff_t>(old->size()), value.end());
    } else {
      patch[key] = value;
    }
  }
  return patch;
}

std::optional<json> apply_view_delta(json view, const json& delta) {
  if (!delta.is_object() || !apply_into(view, delta)) return std::nullopt;
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
