// Finds every card named anywhere in a serialized message, without trusting its structure.
#pragma once

#include <string_view>

#include "atout/card.hpp"

namespace atout::server::testing {

// Every JSON string value of the text that reads as a card ("JS", "10H", "th", ...). Keys are
// skipped; no message has a key that reads as a card, and values are what carry cards.
inline CardSet cards_in(std::string_view json_text) {
  CardSet out;
  std::size_t i = 0;
  while ((i = json_text.find('"', i)) != std::string_view::npos) {
    std::size_t end = i + 1;
    while (end < json_text.size() && json_text[end] != '"') end += json_text[end] == '\\' ? 2 : 1;
    if (end >= json_text.size()) break;
    const std::string_view s = json_text.substr(i + 1, end - i - 1);
    std::size_t after = end + 1;
    while (after < json_text.size() && json_text[after] == ' ') ++after;
    const bool is_key = after < json_text.size() && json_text[after] == ':';
    if (!is_key && (s.size() == 2 || s.size() == 3))
      if (const auto c = parse_card(s)) out.insert(*c);
    i = end + 1;
  }
  return out;
}

}  // namespace atout::server::testing
