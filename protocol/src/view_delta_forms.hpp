// The pieces of the delta format that both ways of working a delta out share: on JSON trees
// (view_delta.cpp) and on the events' text (view_text_delta.cpp). Private to the protocol library.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "atout/protocol/basics.hpp"

namespace atout::protocol::delta_forms {

// The keys that frame an event or a delta message; a view (and so a patch) has none of them.
inline constexpr std::array<std::string_view, 5> kFrame{"type", "table_id", "seq", "base", "id"};

// True when `next` is `previous` with elements added at the end (sequences of JSON values, or of
// their texts).
template <typename Sequence>
bool grew(const Sequence& previous, const Sequence& next) {
  return !previous.empty() && next.size() > previous.size() &&
         std::equal(previous.begin(), previous.end(), next.begin());
}

// The indices of the elements `next` lost, when it is `previous` with some removed (order kept).
template <typename Sequence>
std::optional<json> lost(const Sequence& previous, const Sequence& next) {
  if (next.size() >= previous.size()) return std::nullopt;
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

// `next` as a table of objects ("key#"), when it is two or more objects.
std::optional<json> as_table(const json& next);

}  // namespace atout::protocol::delta_forms
