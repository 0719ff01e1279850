// Per-seat deltas worked out on the events' text (ViewText): the same patch as view_delta on two
// trees, with only what changed parsed.
#include <cassert>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "atout/protocol/view_delta.hpp"
#include "view_delta_forms.hpp"

namespace atout::protocol {

using namespace delta_forms;

namespace {

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

// The members of the object whose text is `s`, a part of `text` starting at offset `at`, appended
// to `out`.
void split_object(std::string_view s, std::size_t at, std::vector<ViewText::Member>& out) {
  assert(!s.empty() && s.front() == '{');
  const auto offset = [at](std::size_t i) { return static_cast<std::uint32_t>(at + i); };
  std::size_t i = 1;
  while (i < s.size() && s[i] == '"') {
    const std::size_t key_end = string_end(s, i);
    const std::size_t start = key_end + 1;  // past the colon
    const std::size_t end = value_end(s, start);
    out.push_back({.key_at = offset(i + 1),
                   .key_size = static_cast<std::uint32_t>(key_end - i - 2),
                   .value_at = offset(start),
                   .value_size = static_cast<std::uint32_t>(end - start)});
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

// The member of `members` (of `view`) with `key`, searched from `cursor` on (members come in the
// same order in two views, so the next one is usually the one), or null.
const ViewText::Member* find_member(const ViewText& view, Members members, std::string_view key, std::size_t& cursor) {
  for (std::size_t n = 0; n < members.size(); ++n) {
    const std::size_t i = (cursor + n) % members.size();
    if (view.key(members[i]) == key) {
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
  if (grew(before, after)) {
    patch[key + "+"] = parse_elements(after, before.size());
    return;
  }
  std::optional<json> short_form;
  if (was_array) short_form = lost(before, after);
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
  TextDelta(const ViewText& before, const ViewText& after) : before_(before), after_(after) {}

  void diff(json& patch, Members previous, Members next) const {
    std::size_t cursor = 0;
    for (const ViewText::Member& m : previous)
      if (!find_member(after_, next, before_.key(m), cursor)) patch[key_of(before_.key(m))] = nullptr;
    cursor = 0;
    for (const ViewText::Member& m : next) {
      const ViewText::Member* old = find_member(before_, previous, after_.key(m), cursor);
      if (old && before_.value(*old) == after_.value(m)) continue;
      put_member(patch, old, m);
    }
  }

 private:
  // Puts into `patch` how a key changed from `old` (null: it was not there) to `now`, whose texts
  // differ, as view_delta does for one key of two trees. Text as dump() writes it is one text per
  // value, so texts that differ are values that differ.
  void put_member(json& patch, const ViewText::Member* old, const ViewText::Member& now) const {
    const std::string_view value = after_.value(now);
    const std::optional<std::string_view> old_value =
        old ? std::optional<std::string_view>(before_.value(*old)) : std::nullopt;
    const char kind = value.front();
    if (kind == '{') {
      // Key by key: from nothing when it was no object, as view_delta does.
      json sub = json::object();
      diff(sub, old_value && old_value->front() == '{' ? children(before_, *old) : Members{}, children(after_, now));
      patch[key_of(after_.key(now))] = std::move(sub);
    } else if (kind == '[') {
      put_array_text(patch, key_of(after_.key(now)), old_value ? &*old_value : nullptr, value);
    } else {
      patch[key_of(after_.key(now))] = json::parse(value);
    }
  }

  static Members children(const ViewText& view, const ViewText::Member& m) {
    return Members(view.members()).subspan(m.begin, m.end - m.begin);
  }

  const ViewText& before_;
  const ViewText& after_;
};

}  // namespace

ViewText::ViewText(std::shared_ptr<const std::string> event_text) : text_(std::move(event_text)) {
  // Split into a buffer kept by the thread, then copied once at its size: the view is held until
  // the connection's next event, so it should not keep room it does not use.
  thread_local std::vector<Member> split;
  split.clear();
  split_object(*text_, 0, split);
  split.erase(std::remove_if(
                  split.begin(), split.end(),
                  [this](const Member& m) { return std::find(kFrame.begin(), kFrame.end(), key(m)) != kFrame.end(); }),
              split.end());
  top_ = static_cast<std::uint32_t>(split.size());
  // Each object value's members after the others, breadth first; an index, as the vector grows.
  for (std::size_t i = 0; i < split.size(); ++i) {
    const std::string_view v = value(split[i]);
    if (v.front() != '{') continue;
    const auto begin = static_cast<std::uint32_t>(split.size());
    split_object(v, split[i].value_at, split);
    split[i].begin = begin;
    split[i].end = static_cast<std::uint32_t>(split.size());
  }
  members_.assign(split.begin(), split.end());
}

json view_delta(const ViewText& previous, const ViewText& next) {
  json patch = json::object();
  TextDelta(previous, next)
      .diff(patch, Members(previous.members()).first(previous.top()), Members(next.members()).first(next.top()));
  return patch;
}

}  // namespace atout::protocol
