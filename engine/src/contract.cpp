// Text forms of contract modes.
#include "atout/contract.hpp"

namespace atout {

std::string to_string(Trump t) {
  switch (t.mode) {
    case Mode::no_trumps:
      return "no_trumps";
    case Mode::all_trumps:
      return "all_trumps";
    case Mode::suit:
      break;
  }
  return to_string(t.suit);
}

std::optional<Trump> parse_trump(std::string_view text) {
  if (text == "no_trumps") return Trump::no_trumps();
  if (text == "all_trumps") return Trump::all_trumps();
  if (auto s = parse_suit(text)) return Trump::of(*s);
  return std::nullopt;
}

}  // namespace atout
