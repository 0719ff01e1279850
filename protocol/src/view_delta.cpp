// Per-seat deltas on JSON trees: merge patches (RFC 7396) between two views of one recipient, where an
// array may be sent in a shorter form under its key with an operation after it: "+" its new
// elements, "-" the indices of those it lost, "#" a table of objects.
#include "atout/protocol/view_delta.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <span>
#include <string_view>
#include <vector>

#include "message_json.hpp"
#include "view_delta_forms.hpp"

namespace atout::protocol {

namespace delta_forms {

// `next` as a table (see from_table), when it is two or more objects.
std::optional<json> as_table(const json& next) {
  if (!next.is_array() || next.size() < 2) return std::nullopt;
  std::vector<std::string> keys;
  for (const json& e : next) {
    if (!e.is_object()) return std::nullopt;
    for (const auto& [k, v] : e.items())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  json table = json::array({json(keys)});
  for (const json& e : next) {
    json row = json::array();
    for (const std::string& k : keys) {
      const auto v = e.find(k);
      row.push_back(v == e.end() ? json(nullptr) : *v);
    }
    table.push_back(std::move(row));
  }
  return table;
}

}  // namespace delta_forms

using namespace delta_forms;

namespace {

// `key` names an array operation when it ends in one of these (views have no such key).
constexpr std::string_view kArrayOps = "+-#";

// `target` with the elements at `indices` (ascending, each within it) removed; false otherwise.
bool remove_at(json& target, const json& indices) {
  if (!target.is_array() || !indices.is_array()) return false;
  std::size_t next_allowed = 0;
  for (const json& i : indices) {
    if (!i.is_number_unsigned() || i.get<std::size_t>() < next_allowed || i.get<std::size_t>() >= target.size())
      return false;
    next_allowed = i.get<std::size_t>() + 1;
  }
  for (auto i = indices.rbegin(); i != indices.rend(); ++i)
    target.erase(target.begin() + static_cast<std::ptrdiff_t>(i->get<std::size_t>()));
  return true;
}

// The array of objects a table stands for: its first row names the keys, each other row gives one
// object's values in that order, null where the object has no such key. nullopt if malformed.
std::optional<json> from_table(const json& table) {
  if (!table.is_array() || table.empty() || !table[0].is_array()) return std::nullopt;
  const json& keys = table[0];
  for (const json& k : keys)
    if (!k.is_string()) return std::nullopt;
  json out = json::array();
  for (std::size_t r = 1; r < table.size(); ++r) {
    const json& row = table[r];
    if (!row.is_array() || row.size() != keys.size()) return std::nullopt;
    json o = json::object();
    for (std::size_t c = 0; c < keys.size(); ++c)
      if (!row[c].is_null()) o[keys[c].get<std::string>()] = row[c];
    out.push_back(std::move(o));
  }
  return out;
}

// `patch` applied to `target` in place; false when an array operation does not fit.
bool apply_into(json& target, const json& patch) {
  if (!target.is_object()) target = json::object();
  for (const auto& [key, value] : patch.items()) {
    const char op = key.size() > 1 ? key.back() : '\0';
    if (op != '\0' && kArrayOps.find(op) != std::string_view::npos) {
      const std::string name = key.substr(0, key.size() - 1);
      if (op == '#') {
        auto whole = from_table(value);
        if (!whole) return false;
        target[name] = std::move(*whole);
        continue;
      }
      const auto old = target.find(name);
      if (old == target.end()) return false;
      if (op == '-') {
        if (!remove_at(*old, value)) return false;
      } else {
        if (!old->is_array() || !value.is_array()) return false;
        old->insert(old->end(), value.begin(), value.end());
      }
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

bool extends(const json& previous, const json& next) {
  return previous.is_array() && next.is_array() && grew(previous, next);
}

std::optional<json> removed(const json& previous, const json& next) {
  if (!previous.is_array() || !next.is_array()) return std::nullopt;
  return lost(previous, next);
}

// Puts into `patch` a short way to say that `key` is now the array `next` (`previous` when it was
// one before): its new elements when it only grew; else the indices of those it lost, or else a
// table, when that is shorter than the array whole; or else whole.
void put_array(json& patch, const std::string& key, const json* previous, const json& next) {
  if (previous && extends(*previous, next)) {
    patch[key + "+"] = json(next.begin() + static_cast<std::ptrdiff_t>(previous->size()), next.end());
    return;
  }
  std::string short_key;
  std::optional<json> short_form;
  if (previous && (short_form = removed(*previous, next)))
    short_key = key + "-";
  else if ((short_form = as_table(next)))
    short_key = key + "#";
  if (short_form && short_form->dump().size() + 1 < next.dump().size())
    patch[short_key] = std::move(*short_form);
  else
    patch[key] = next;
}
}  // namespace

json event_view(const Event& e) {
  json j = to_json(e);
  for (const std::string_view k : kFrame) j.erase(std::string(k));
  return j;
}

json view_delta(const json& previous, const json& next) {
  if (!previous.is_object() || !next.is_object()) return next;
  json patch = json::object();
  for (const auto& [key, old_value] : previous.items())
    if (!next.contains(key)) patch[key] = nullptr;
  for (const auto& [key, value] : next.items()) {
    const auto old = previous.find(key);
    if (old != previous.end() && *old == value) continue;
    if (value.is_array()) {
      put_array(patch, key, old == previous.end() ? nullptr : &*old, value);
    } else if (value.is_object()) {
      // Key by key: from nothing when it was no object, so that its arrays get their short forms.
      patch[key] = view_delta(old != previous.end() && old->is_object() ? *old : json::object(), value);
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

namespace {

// A delta message around `patch` (see to_json(Delta)).
json delta_message(json patch, const Delta& d) {
  assert(patch.is_object());
  // A view has no key of the frame, so its patch cannot either.
  assert(std::none_of(kFrame.begin(), kFrame.end(), [&](std::string_view k) { return patch.contains(k); }));
  json j = std::move(patch);
  j["type"] = "delta";
  j["table_id"] = d.table_id;
  // Live play always builds on the event just before: seq and base are then left out.
  if (d.base + 1 != d.seq) {
    j["seq"] = d.seq;
    j["base"] = d.base;
  }
  put_id(j, d.id);
  return j;
}

std::string text_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

json to_json(const Delta& d) { return delta_message(d.patch, d); }

std::string serialize(const Delta& d) { return text_of(delta_message(d.patch, d)); }

std::string serialize(Delta&& d) {
  json patch = std::move(d.patch);
  return text_of(delta_message(std::move(patch), d));
}

std::optional<json> rebuild_event(const json& held, const json& delta_message) {
  const json& d = delta_message;
  if (!held.is_object() || !d.is_object() || d.value("type", "") != "delta") return std::nullopt;
  const auto held_seq = held.find("seq");
  const auto table = held.find("table_id");
  if (held_seq == held.end() || !held_seq->is_number_unsigned() || table == held.end() ||
      d.value("table_id", json()) != *table)
    return std::nullopt;
  std::uint64_t seq = held_seq->get<std::uint64_t>() + 1;
  if (d.contains("seq") || d.contains("base")) {
    const json& s = d.value("seq", json());
    if (!s.is_number_unsigned() || d.value("base", json()) != *held_seq) return std::nullopt;
    seq = s.get<std::uint64_t>();
  }
  json view = held;
  json patch = d;
  for (const std::string_view k : kFrame) {
    view.erase(std::string(k));
    patch.erase(std::string(k));
  }
  auto whole = apply_view_delta(std::move(view), patch);
  if (!whole) return std::nullopt;
  (*whole)["type"] = "event";
  (*whole)["table_id"] = *table;
  (*whole)["seq"] = seq;
  if (d.contains("id")) (*whole)["id"] = d["id"];
  return whole;
}

}  // namespace atout::protocol
