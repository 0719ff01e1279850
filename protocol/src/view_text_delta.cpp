// Per-seat deltas worked out on the events' text (ViewText): the same patch as view_delta on two
// trees, with only what changed parsed.
#include <algorithm>
#include <cassert>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
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

// One member of a patch being written: its text, `"key":value`, and its key as the patch orders
// keys (unescaped, as the tree of serialize(Delta) holds them): the key's own text unless it has
// escapes.
struct Piece {
  std::string text;
  std::uint32_t key_size = 0;  // the key as written, suffix included, after the opening quote
  std::optional<std::string> unescaped;

  std::string_view order() const {
    return unescaped ? std::string_view(*unescaped) : std::string_view(text).substr(1, key_size);
  }
};

// A patch member `written` (a key as written, between its quotes) with `suffix` ("+", "-", "#" or
// none), of value text `value`.
Piece piece(std::string_view written, std::string_view suffix, std::string_view value) {
  Piece p;
  p.text.reserve(written.size() + suffix.size() + value.size() + 3);
  p.text.push_back('"');
  p.text.append(written);
  p.text.append(suffix);
  p.text.append("\":");
  p.text.append(value);
  p.key_size = static_cast<std::uint32_t>(written.size() + suffix.size());
  if (written.find('\\') != std::string_view::npos) p.unescaped = key_of(written) + std::string(suffix);
  return p;
}

// An object of these members, written as dump() writes it: keys in order.
void write_object(std::vector<Piece>& pieces, std::string& out) {
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.order() < b.order(); });
  std::size_t size = out.size() + pieces.size() + 2;
  for (const Piece& p : pieces) size += p.text.size();
  out.reserve(size);
  out.push_back('{');
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i) out.push_back(',');
    out.append(pieces[i].text);
  }
  out.push_back('}');
}

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// put_array on text: `next` is the array's text now, `previous` its text before (null: there was
// none). Elements are compared by their text; the patch takes the texts of what it sends (text as
// dump() writes it is one text per value), and only the table form needs the array parsed.
Piece array_piece(std::string_view key, const std::string_view* previous, std::string_view next) {
  std::vector<std::string_view> after, before;
  split_array(next, after);
  const bool was_array = previous && previous->front() == '[';
  if (was_array) split_array(*previous, before);
  if (grew(before, after)) {
    const char* begin = after[before.size()].data();
    const char* end = after.back().data() + after.back().size();
    std::string appended(1, '[');
    appended.append(begin, end);
    appended.push_back(']');
    return piece(key, "+", appended);
  }
  std::optional<json> short_form;
  if (was_array) short_form = lost(before, after);
  if (short_form) {
    const std::string gone = dumped(*short_form);
    if (gone.size() + 1 < next.size()) return piece(key, "-", gone);
  } else if ((short_form = as_table(json::parse(next)))) {
    const std::string table = dumped(*short_form);
    if (table.size() + 1 < next.size()) return piece(key, "#", table);
  }
  return piece(key, "", next);
}

// The delta between two views' texts, written as text: `previous` and `next` are members of one
// object in each (`before` and `after` hold the members of their object values).
class TextDelta {
 public:
  TextDelta(const ViewText& before, const ViewText& after) : before_(before), after_(after) {}

  // The patch's members for the object whose members were `previous` and are `next`.
  void diff(std::vector<Piece>& out, Members previous, Members next) const {
    std::size_t cursor = 0;
    for (const ViewText::Member& m : previous)
      if (!find_member(after_, next, before_.key(m), cursor)) out.push_back(piece(before_.key(m), "", "null"));
    cursor = 0;
    for (const ViewText::Member& m : next) {
      const ViewText::Member* old = find_member(before_, previous, after_.key(m), cursor);
      if (old && before_.value(*old) == after_.value(m)) continue;
      out.push_back(member_piece(old, m));
    }
  }

 private:
  // How a key changed from `old` (null: it was not there) to `now`, whose texts differ, as
  // view_delta does for one key of two trees. Texts that differ are values that differ.
  Piece member_piece(const ViewText::Member* old, const ViewText::Member& now) const {
    const std::string_view key = after_.key(now);
    const std::string_view value = after_.value(now);
    const std::optional<std::string_view> old_value =
        old ? std::optional<std::string_view>(before_.value(*old)) : std::nullopt;
    if (value.front() == '{') {
      // Key by key: from nothing when it was no object, as view_delta does.
      std::vector<Piece> sub;
      diff(sub, old_value && old_value->front() == '{' ? children(before_, *old) : Members{}, children(after_, now));
      std::string text;
      write_object(sub, text);
      return piece(key, "", text);
    }
    if (value.front() == '[') return array_piece(key, old_value ? &*old_value : nullptr, value);
    return piece(key, "", value);
  }

  static Members children(const ViewText& view, const ViewText::Member& m) {
    return Members(view.members()).subspan(m.begin, m.end - m.begin);
  }

  const ViewText& before_;
  const ViewText& after_;
};

std::vector<Piece> patch_pieces(const ViewText& previous, const ViewText& next) {
  std::vector<Piece> pieces;
  pieces.reserve(12);
  TextDelta(previous, next)
      .diff(pieces, Members(previous.members()).first(previous.top()), Members(next.members()).first(next.top()));
  return pieces;
}

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
  std::vector<Piece> pieces = patch_pieces(previous, next);
  std::string text;
  write_object(pieces, text);
  return json::parse(text);
}

std::string serialize_delta(const ViewText& previous, const ViewText& next, const std::string& table_id,
                            std::uint64_t seq, std::uint64_t base, const RequestId& id) {
  std::vector<Piece> pieces = patch_pieces(previous, next);
  // The frame, as serialize(Delta) puts it around the patch.
  pieces.push_back(piece("type", "", R"("delta")"));
  pieces.push_back(piece("table_id", "", dumped(table_id)));
  if (base + 1 != seq) {
    pieces.push_back(piece("seq", "", std::to_string(seq)));
    pieces.push_back(piece("base", "", std::to_string(base)));
  }
  if (const auto* n = std::get_if<std::int64_t>(&id)) pieces.push_back(piece("id", "", std::to_string(*n)));
  if (const auto* s = std::get_if<std::string>(&id)) pieces.push_back(piece("id", "", dumped(*s)));
  std::string text;
  write_object(pieces, text);
  return text;
}

}  // namespace atout::protocol
