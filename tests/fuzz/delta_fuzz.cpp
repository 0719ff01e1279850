// Fuzz target: the delta format (view_delta.hpp). Input: a previous view as JSON, a newline, then
// a second JSON document, read both as a delta a client would apply and as the next view a table
// would send. Checked: applying a delta never crashes and either refuses it or gives an object
// that holds every plain value the delta set and none of the keys it removed; a delta is refused
// only when it is not an object or an array operation in it does not fit (an append or a removal
// on what is not an array, removal indices out of order or range, a malformed table); and for any
// two views the format can say (no key ending in "+", "-" or "#" in their objects, no null in the
// next one's objects, at any depth), the previous view with view_delta(previous, next) applied is
// exactly the next view, and the delta the server works out on the two views' text is the same.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "atout/protocol/view_delta.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
using atout::protocol::json;

// A document, or a discarded (null) value when the text is not JSON.
json parse(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

// A key naming an array operation: "key+" appends, "key-" removes by index, "key#" sets a table.
bool is_op(const std::string& key) {
  return key.size() > 1 && (key.back() == '+' || key.back() == '-' || key.back() == '#');
}
std::string op_target(const std::string& key) { return key.substr(0, key.size() - 1); }

// Whether `delta` holds more than one key for the array `name` (set whole, appended, removed from,
// or set as a table): what it then becomes depends on the order the keys are applied in.
bool several_keys_for(const json& delta, const std::string& name) {
  int n = delta.contains(name) ? 1 : 0;
  for (const char op : {'+', '-', '#'}) n += delta.contains(name + op) ? 1 : 0;
  return n > 1;
}

// Whether no object of `view`, at any depth through objects and arrays, holds an operation's key
// (and, without `nulls`, a null): what a view never holds.
bool view_like(const json& view, bool nulls) {
  if (view.is_array()) {
    for (const json& e : view)
      if (!view_like(e, nulls)) return false;
    return true;
  }
  if (!view.is_object()) return true;
  for (const auto& [key, value] : view.items())
    if ((!nulls && value.is_null()) || is_op(key) || !view_like(value, nulls)) return false;
  return true;
}

// A table of objects as the format defines it: a first row of key names, then rows of as many values.
bool well_formed_table(const json& table) {
  if (!table.is_array() || table.empty() || !table[0].is_array()) return false;
  for (const json& k : table[0])
    if (!k.is_string()) return false;
  for (std::size_t r = 1; r < table.size(); ++r)
    if (!table[r].is_array() || table[r].size() != table[0].size()) return false;
  return true;
}

// Removal indices that fit an array of `size`: unsigned, strictly ascending, each below `size`.
bool fitting_indices(const json& indices, std::size_t size) {
  if (!indices.is_array()) return false;
  std::size_t next = 0;
  for (const json& i : indices) {
    if (!i.is_number_unsigned() || i.get<std::size_t>() < next || i.get<std::size_t>() >= size) return false;
    next = i.get<std::size_t>() + 1;
  }
  return true;
}

// Whether applying `delta` to `view` may be refused: the delta is not an object, or somewhere an
// array operation does not fit what it applies to (or several keys name one array).
bool refusable(const json& view, const json& delta) {
  if (!delta.is_object()) return true;
  for (const auto& [key, value] : delta.items()) {
    if (is_op(key)) {
      const std::string name = op_target(key);
      if (several_keys_for(delta, name)) return true;
      if (key.back() == '#') {
        if (!well_formed_table(value)) return true;
        continue;
      }
      const json* target = view.is_object() && view.contains(name) ? &view.at(name) : nullptr;
      if (target == nullptr || !target->is_array() || !value.is_array()) return true;
      if (key.back() == '-' && !fitting_indices(value, target->size())) return true;
    } else if (value.is_object()) {
      const json inner = view.is_object() && view.contains(key) ? view.at(key) : json();
      if (refusable(inner, value)) return true;
    }
  }
  return false;
}

// What `delta` says of the view it was applied to, checked on `result`.
void check_applied(const json& result, const json& delta) {
  require(result.is_object(), "a delta applied gives something other than an object");
  for (const auto& [key, value] : delta.items()) {
    if (is_op(key)) {
      if (key.back() == '#' && !several_keys_for(delta, op_target(key))) {
        const std::string name = op_target(key);
        require(result.contains(name) && result.at(name).is_array() && result.at(name).size() + 1 == value.size(),
                "a table the delta set is not there with one object per row");
      }
      continue;
    }
    if (several_keys_for(delta, key)) continue;  // another key of the delta changes the same array
    if (value.is_null()) {
      require(!result.contains(key), "a key the delta removed is still there");
    } else if (value.is_object()) {
      require(result.contains(key), "a key the delta patched is missing");
      check_applied(result.at(key), value);
    } else {
      require(result.contains(key) && result.at(key) == value, "a value the delta set is not there");
    }
  }
}

}  // namespace

// Whether `j` holds a number with a fraction, at any depth.
bool holds_fraction(const json& j) {
  if (j.is_number_float()) return true;
  if (!j.is_structured()) return false;
  for (const json& e : j)
    if (holds_fraction(e)) return true;
  return false;
}

// `view` without the keys that frame an event (type, table_id, seq, base, id), as a view is.
json without_frame(json view) {
  for (const char* k : {"type", "table_id", "seq", "base", "id"}) view.erase(k);
  return view;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  const json previous = parse(input.substr(0, newline));
  const json second = parse(input.substr(newline + 1));
  if (previous.is_discarded() || second.is_discarded()) return 0;

  // The second document as a delta.
  const auto applied = atout::protocol::apply_view_delta(previous, second);
  if (applied)
    check_applied(*applied, second);
  else
    require(refusable(previous, second), "a delta refused whose array operations all fit");

  // The second document as the next view.
  // (A previous view may hold nulls: a patch removes them like any other value.)
  if (previous.is_object() && second.is_object() && view_like(previous, true) && view_like(second, false)) {
    const json delta = atout::protocol::view_delta(previous, second);
    require(delta.is_object(), "a delta between two views is not an object");
    const auto rebuilt = atout::protocol::apply_view_delta(previous, delta);
    require(rebuilt.has_value(), "a delta between two views is refused");
    require(*rebuilt == second, "a view rebuilt from its delta differs");
    // Nothing changed: nothing to send.
    if (previous == second) require(delta.empty(), "a delta between equal views is not empty");
    // The server's way, on the views' text: the same patch, once the frame keys it leaves to the
    // message are gone. (Views hold no fractions: 1.0 and 1 are equal values with other texts.)
    if (!holds_fraction(previous) && !holds_fraction(second)) {
      const auto text = [](const json& j) { return std::make_shared<const std::string>(j.dump()); };
      const atout::protocol::ViewText before(text(previous)), after(text(second));
      const json on_trees = atout::protocol::view_delta(without_frame(previous), without_frame(second));
      require(atout::protocol::view_delta(before, after) == on_trees,
              "the delta worked out on text differs from the delta on trees");
      require(atout::protocol::serialize_delta(before, after, "t-1", 9, 8, {}) ==
                  atout::protocol::serialize(atout::protocol::Delta{"t-1", 9, 8, on_trees, {}}),
              "the delta message written on text differs from the tree's");
    }
  }
  return 0;
}
