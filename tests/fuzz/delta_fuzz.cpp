// Fuzz target: the delta format (view_delta.hpp). Input: a previous view as JSON, a newline, then
// a second JSON document, read both as a delta a client would apply and as the next view a table
// would send. Checked: applying a delta never crashes and either refuses it or gives an object
// that holds every plain value the delta set and none of the keys it removed; a delta is refused
// only when it is not an object or appends to what is not an array; and for any two views the
// format can say (no key ending in "+" in their objects, no null in the next one's), the previous
// view with view_delta(previous, next) applied is exactly the next view.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "atout/protocol/view_delta.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
using atout::protocol::json;

// A document, or a discarded (null) value when the text is not JSON.
json parse(std::string_view text) { return json::parse(text.begin(), text.end(), nullptr, false); }

bool is_append(const std::string& key) { return key.size() > 1 && key.back() == '+'; }

// Whether no object of `view`, at any depth through objects, holds a key ending in "+" (and, with
// `nulls`, a null): what a view never holds (arrays are sent whole, so what they hold does not
// matter). A merge patch can say any change between two such views.
bool view_like(const json& view, bool nulls) {
  if (!view.is_object()) return true;
  for (const auto& [key, value] : view.items())
    if ((!nulls && value.is_null()) || is_append(key) || !view_like(value, nulls)) return false;
  return true;
}

// Whether applying `delta` to `view` may be refused: the delta is not an object, or somewhere it
// appends (a "+" key) to what is missing or not an array, or appends what is not an array.
bool refusable(const json& view, const json& delta) {
  if (!delta.is_object()) return true;
  for (const auto& [key, value] : delta.items()) {
    if (is_append(key)) {
      if (delta.contains(key.substr(0, key.size() - 1))) return true;  // the same delta sets what it appends to
      const json* target = view.is_object() && view.contains(key.substr(0, key.size() - 1))
                               ? &view.at(key.substr(0, key.size() - 1))
                               : nullptr;
      if (target == nullptr || !target->is_array() || !value.is_array()) return true;
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
    if (is_append(key)) continue;  // another key of the delta may name the same array
    const std::string appended = key + "+";
    if (value.is_null()) {
      require(!result.contains(key), "a key the delta removed is still there");
    } else if (value.is_object()) {
      require(result.contains(key), "a key the delta patched is missing");
      check_applied(result.at(key), value);
    } else if (!delta.contains(appended)) {
      require(result.contains(key) && result.at(key) == value, "a value the delta set is not there");
    }
  }
}

}  // namespace

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
    require(refusable(previous, second), "a delta refused that names no missing array");

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
  }
  return 0;
}
