// Per-seat deltas: JSON merge patches (RFC 7396) between two views of one recipient, where an
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

namespace atout::protocol {

namespace {

// `key` names an array operation when it ends in one of these (views have no such key).
constexpr std::string_view kArrayOps = "+-#";

// The keys that frame an event or a delta message; a view (and so a patch) has none of them.
constexpr std::array<std::string_view, 5> kFrame{"type", "table_id", "seq", "base", "id"};

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

// True when `next` is `previous` with elements added at the end.
bool extends(const json& previous, const json& next) {
  return previous.is_array() && next.is_array() && !previous.empty() && next.size() > previous.size() &&
         std::equal(previous.begin(), previous.end(), next.begin());
}

// The indices of the elements `next` lost, when it is `previous` with some removed (order kept).
std::optional<json> removed(const json& previous, const json& next) {
  if (!previous.is_array() || !next.is_array() || next.size() >= previous.size()) return std::nullopt;
  json gone = json::array();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < previous.size(); ++i) {
    if (kept < next.size() && previous[i] == next[kept])
      ++kept;
    else
      gone.push_back(i);
  }
  if (kept != next.size()) return std::nullopt;
  return gone;
}

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

// What a character is to the scan of a value's text: 0 nothing to it, 1 a quote, 2 an opening
// bracket, 3 a closing one.
constexpr std::array<std::uint8_t, 256> kScan = [] {
  std::array<std::uint8_t, 256> t{};
  t['"'] = 1;
  t['{'] = t['['] = 2;
  t['}'] = t[']'] = 3;
  return t;
}();

// The end of the JSON string that opens at `s[i]` (a quote): the index just past its closing quote.
std::size_t string_end(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\')
      ++i;
    else if (s[i] == '"')
      return i + 1;
  }
  return s.size();
}

// The end of the JSON value that starts at `s[i]`, in text as dump() writes it (no spaces): just
// past its closing bracket or quote, or at the comma or bracket that follows a number or literal.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (i >= s.size()) return s.size();
  if (s[i] == '"') return string_end(s, i);
  if (s[i] != '{' && s[i] != '[') {
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;
    return i;
  }
  int depth = 0;
  while (i < s.size()) {
    switch (kScan[static_cast<unsigned char>(s[i])]) {
      case 1:
        i = string_end(s, i);
        continue;
      case 2:
        ++depth;
        break;
      case 3:
        if (--depth == 0) return i + 1;
        break;
      default:
        break;
    }
    ++i;
  }
  return s.size();
}

// The members of the object whose text is `s`, appended to `out`.
void split_object(std::string_view s, std::vector<ViewText::Member>& out) {
  assert(!s.empty() && s.front() == '{');
  std::size_t i = 1;
  while (i < s.size() && s[i] == '"') {
    const std::size_t key_end = string_end(s, i);
    const std::string_view key = s.substr(i + 1, key_end - i - 2);
    const std::size_t start = key_end + 1;  // past the colon
    const std::size_t end = value_end(s, start);
    out.push_back({key, s.substr(start, end - start)});
    i = end < s.size() && s[end] == ',' ? end + 1 : end;
  }
}

// A key as the patch holds it: the text between its quotes, unescaped when it has escapes.
std::string key_of(std::string_view written) {
  if (written.find('\\') == std::string_view::npos) return std::string(written);
  std::string quoted(1, '"');
  quoted.append(written);
  quoted.push_back('"');
  return json::parse(quoted).get<std::string>();
}

using Members = std::span<const ViewText::Member>;

// The member of `members` with `key`, searched from `cursor` on (members come in the same order in
// two views, so the next one is usually the one), or null.
const ViewText::Member* find_member(Members members, std::string_view key, std::size_t& cursor) {
  for (std::size_t n = 0; n < members.size(); ++n) {
    const std::size_t i = (cursor + n) % members.size();
    if (members[i].key == key) {
      cursor = i + 1;
      return &members[i];
    }
  }
  return nullptr;
}

// The elements of the array whose text is `s`, appended to `out`.
void split_array(std::string_view s, std::vector<std::string_view>& out) {
  assert(!s.empty() && s.front() == '[');
  if (s.size() < 2 || s[1] == ']') return;
  for (std::size_t i = 1; i < s.size();) {
    const std::size_t end = value_end(s, i);
    out.push_back(s.substr(i, end - i));
    if (end >= s.size() || s[end] != ',') break;
    i = end + 1;
  }
}

// The array of `elements[from..]`, parsed: they lie one after the other in one text.
json parse_elements(const std::vector<std::string_view>& elements, std::size_t from) {
  const char* begin = elements[from].data();
  const char* end = elements.back().data() + elements.back().size();
  std::string text(1, '[');
  text.append(begin, end);
  text.push_back(']');
  return json::parse(text);
}

// put_array on text: `next` is the array's text now, `previous` its text before (null: there was
// none). Elements are compared by their text; only what goes into the patch is parsed.
void put_array_text(json& patch, const std::string& key, const std::string_view* previous, std::string_view next) {
  std::vector<std::string_view> after, before;
  split_array(next, after);
  const bool was_array = previous && previous->front() == '[';
  if (was_array) split_array(*previous, before);
  if (!before.empty() && after.size() > before.size() && std::equal(before.begin(), before.end(), after.begin())) {
    patch[key + "+"] = parse_elements(after, before.size());
    return;
  }
  std::optional<json> short_form;
  if (was_array && after.size() < before.size()) {
    // The indices of the elements it lost, when it only lost some (order kept).
    json gone = json::array();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (kept < after.size() && before[i] == after[kept])
        ++kept;
      else
        gone.push_back(i);
    }
    if (kept == after.size()) short_form = std::move(gone);
  }
  if (short_form && short_form->dump().size() + 1 < next.size()) {
    patch[key + "-"] = std::move(*short_form);
    return;
  }
  json whole = json::parse(next);
  if (!short_form && (short_form = as_table(whole)) && short_form->dump().size() + 1 < next.size())
    patch[key + "#"] = std::move(*short_form);
  else
    patch[key] = std::move(whole);
}

// The delta between two views' texts: `previous` and `next` are members of one object in each
// (`before` and `after` hold the members of their object values).
class TextDelta {
 public:
  TextDelta(const ViewText& before, const ViewText& after) : before_(before.members()), after_(after.members()) {}

  void diff(json& patch, Members previous, Members next) const {
    std::size_t cursor = 0;
    for (const ViewText::Member& m : previous)
      if (!find_member(next, m.key, cursor)) patch[key_of(m.key)] = nullptr;
    cursor = 0;
    for (const ViewText::Member& m : next) {
      const ViewText::Member* old = find_member(previous, m.key, cursor);
      if (old && old->value == m.value) continue;
      put_member(patch, old, m);
    }
  }

 private:
  // Puts into `patch` how a key changed from `old` (null: it was not there) to `now`, whose texts
  // differ, as view_delta does for one key of two trees. Text as dump() writes it is one text per
  // value, so texts that differ are values that differ.
  void put_member(json& patch, const ViewText::Member* old, const ViewText::Member& now) const {
    const char kind = now.value.front();
    if (kind == '{') {
      // Key by key: from nothing when it was no object, as view_delta does.
      json sub = json::object();
      diff(sub, old && old->value.front() == '{' ? children(before_, *old) : Members{}, children(after_, now));
      patch[key_of(now.key)] = std::move(sub);
    } else if (kind == '[') {
      put_array_text(patch, key_of(now.key), old ? &old->value : nullptr, now.value);
    } else {
      patch[key_of(now.key)] = json::parse(now.value);
    }
  }

  static Members children(const std::vector<ViewText::Member>& all, const ViewText::Member& m) {
    return Members(all).subspan(m.begin, m.end - m.begin);
  }

  const std::vector<ViewText::Member>& before_;
  const std::vector<ViewText::Member>& after_;
};

}  // namespace

ViewText::ViewText(std::shared_ptr<const std::string> event_text) : text_(std::move(event_text)) {
  members_.reserve(48);
  split_object(*text_, members_);
  members_.erase(
      std::remove_if(members_.begin(), members_.end(),
                     [](const Member& m) { return std::find(kFrame.begin(), kFrame.end(), m.key) != kFrame.end(); }),
      members_.end());
  top_ = static_cast<std::uint32_t>(members_.size());
  // Each object value's members after the others, breadth first; an index, as the vector grows.
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].value.front() != '{') continue;
    const auto begin = static_cast<std::uint32_t>(members_.size());
    const std::string_view value = members_[i].value;
    split_object(value, members_);
    members_[i].begin = begin;
    members_[i].end = static_cast<std::uint32_t>(members_.size());
  }
}

json view_delta(const ViewText& previous, const ViewText& next) {
  json patch = json::object();
  TextDelta(previous, next)
      .diff(patch, Members(previous.members()).first(previous.top()), Members(next.members()).first(next.top()));
  return patch;
}

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
