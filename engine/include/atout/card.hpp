// Cards, suits, ranks and 32-bit card sets: the value types every rule is written in.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace atout {

enum class Suit : std::uint8_t { clubs = 0, diamonds = 1, hearts = 2, spades = 3 };
// Natural order, lowest first; it is also the order of sequences.
enum class Rank : std::uint8_t { seven = 0, eight, nine, ten, jack, queen, king, ace };

inline constexpr int kSuits = 4;
inline constexpr int kRanks = 8;
inline constexpr int kCards = 32;

// A card is suit * 8 + rank, so that each suit occupies one byte of a CardSet.
class Card {
 public:
  constexpr Card() = default;
  constexpr Card(Suit s, Rank r) : id_(static_cast<std::uint8_t>(static_cast<int>(s) * 8 + static_cast<int>(r))) {}
  static constexpr Card from_index(int i) { return Card(static_cast<Suit>(i >> 3), static_cast<Rank>(i & 7)); }

  constexpr int index() const { return id_; }
  constexpr Suit suit() const { return static_cast<Suit>(id_ >> 3); }
  constexpr Rank rank() const { return static_cast<Rank>(id_ & 7); }
  constexpr bool operator==(const Card&) const = default;
  constexpr auto operator<=>(const Card&) const = default;

 private:
  std::uint8_t id_ = 0;
};

// A set of cards as a bitset: bit (suit * 8 + rank).
class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(std::uint32_t bits) : bits_(bits) {}
  static constexpr CardSet of(Card c) { return CardSet(1u << c.index()); }
  static constexpr CardSet suit_mask(Suit s) { return CardSet(0xFFu << (static_cast<int>(s) * 8)); }
  static constexpr CardSet rank_mask(Rank r) { return CardSet(0x01010101u << static_cast<int>(r)); }
  // The 32-card deck (7 to ace) or the 24-card deck (9 to ace).
  static constexpr CardSet deck32() { return CardSet(0xFFFFFFFFu); }
  static constexpr CardSet deck24() { return CardSet(0xFCFCFCFCu); }

  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool contains(Card c) const { return (bits_ >> c.index()) & 1u; }
  constexpr void insert(Card c) { bits_ |= 1u << c.index(); }
  constexpr void erase(Card c) { bits_ &= ~(1u << c.index()); }
  // The 8-bit rank mask of one suit.
  constexpr std::uint32_t suit_bits(Suit s) const { return (bits_ >> (static_cast<int>(s) * 8)) & 0xFFu; }
  constexpr CardSet in_suit(Suit s) const { return *this & suit_mask(s); }
  // Lowest-indexed card; the set must not be empty.
  constexpr Card first() const { return Card::from_index(std::countr_zero(bits_)); }
  // The n-th card in index order (0-based); n must be below size().
  Card nth(int n) const;

  constexpr CardSet operator|(CardSet o) const { return CardSet(bits_ | o.bits_); }
  constexpr CardSet operator&(CardSet o) const { return CardSet(bits_ & o.bits_); }
  constexpr CardSet operator-(CardSet o) const { return CardSet(bits_ & ~o.bits_); }
  constexpr CardSet& operator|=(CardSet o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr CardSet& operator&=(CardSet o) {
    bits_ &= o.bits_;
    return *this;
  }
  constexpr CardSet& operator-=(CardSet o) {
    bits_ &= ~o.bits_;
    return *this;
  }
  constexpr bool operator==(const CardSet&) const = default;

  class iterator {
   public:
    constexpr explicit iterator(std::uint32_t b) : b_(b) {}
    constexpr Card operator*() const { return Card::from_index(std::countr_zero(b_)); }
    constexpr iterator& operator++() {
      b_ &= b_ - 1;
      return *this;
    }
    constexpr bool operator!=(const iterator& o) const { return b_ != o.b_; }
    constexpr bool operator==(const iterator& o) const { return b_ == o.b_; }

   private:
    std::uint32_t b_;
  };
  constexpr iterator begin() const { return iterator(bits_); }
  constexpr iterator end() const { return iterator(0); }

 private:
  std::uint32_t bits_ = 0;
};

// Text forms: a card is rank then suit letter, e.g. "JH", "TS", "9D", "AC" ("10S" is also read).
std::string to_string(Card c);
std::string to_string(Suit s);  // "clubs", "diamonds", "hearts", "spades"
char suit_letter(Suit s);       // 'C', 'D', 'H', 'S'
char rank_letter(Rank r);       // '7' '8' '9' 'T' 'J' 'Q' 'K' 'A'
std::optional<Card> parse_card(std::string_view text);
std::optional<Suit> parse_suit(std::string_view text);  // a name or a letter, any case
std::string to_string(CardSet s);                       // space-separated cards

}  // namespace atout
