// Text forms of cards, suits and card sets.
#include "atout/card.hpp"

#include <cctype>

namespace atout {

namespace {
constexpr char kRankLetters[] = "789TJQKA";
constexpr char kSuitLetters[] = "CDHS";
constexpr const char* kSuitNames[] = {"clubs", "diamonds", "hearts", "spades"};

char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }
}  // namespace

Card CardSet::nth(int n) const {
  std::uint32_t b = bits_;
  for (int i = 0; i < n; ++i) b &= b - 1;
  return Card::from_index(std::countr_zero(b));
}

char suit_letter(Suit s) { return kSuitLetters[static_cast<int>(s)]; }
char rank_letter(Rank r) { return kRankLetters[static_cast<int>(r)]; }

std::string to_string(Card c) { return {rank_letter(c.rank()), suit_letter(c.suit())}; }
std::string to_string(Suit s) { return kSuitNames[static_cast<int>(s)]; }

std::string to_string(CardSet s) {
  std::string out;
  for (Card c : s) {
    if (!out.empty()) out += ' ';
    out += to_string(c);
  }
  return out;
}

std::optional<Suit> parse_suit(std::string_view text) {
  if (text.size() == 1) {
    for (int i = 0; i < kSuits; ++i)
      if (upper(text[0]) == kSuitLetters[i]) return static_cast<Suit>(i);
    return std::nullopt;
  }
  for (int i = 0; i < kSuits; ++i) {
    const std::string_view name = kSuitNames[i];
    if (name.size() != text.size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < name.size(); ++k)
      same = same && (name[k] == std::tolower(static_cast<unsigned char>(text[k])));
    if (same) return static_cast<Suit>(i);
  }
  return std::nullopt;
}

std::optional<Card> parse_card(std::string_view text) {
  std::string_view rank_part;
  char suit_char = 0;
  if (text.size() == 2) {
    rank_part = text.substr(0, 1);
    suit_char = text[1];
  } else if (text.size() == 3 && text.substr(0, 2) == "10") {
    rank_part = "T";
    suit_char = text[2];
  } else {
    return std::nullopt;
  }
  int rank = -1;
  for (int i = 0; i < kRanks; ++i)
    if (upper(rank_part[0]) == kRankLetters[i]) rank = i;
  if (rank < 0) return std::nullopt;
  const auto suit = parse_suit(std::string_view(&suit_char, 1));
  if (!suit) return std::nullopt;
  return Card(*suit, static_cast<Rank>(rank));
}

}  // namespace atout
