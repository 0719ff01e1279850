// The deal generator: SHA-256 vectors, seed text, determinism, shuffle and cut bounds.
#include "atout/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "atout/sha256.hpp"

namespace atout {
namespace {

TEST(Sha256, StandardVectors) {
  // FIPS 180-4 examples.
  EXPECT_EQ(to_hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(to_hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(to_hex(sha256(std::string(1000, 'a'))), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(Seed, HexRoundTripAndRejects) {
  const Seed s{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  EXPECT_EQ(s.hex(), "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(Seed::parse(s.hex()), s);
  EXPECT_EQ(Seed::parse("0123456789ABCDEFFEDCBA9876543210"), s);
  EXPECT_FALSE(Seed::parse("0123").has_value());
  EXPECT_FALSE(Seed::parse("0123456789abcdeffedcba987654321g").has_value());
}

TEST(Rng, SameSeedSameStreamDifferentSeedDifferentStream) {
  Rng a(Seed{1, 2}), b(Seed{1, 2}), c(Seed{1, 3});
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng r(Seed{7, 7});
  for (std::uint32_t n : {1u, 2u, 3u, 7u, 32u, 1000u}) {
    std::vector<int> seen(n, 0);
    for (int i = 0; i < 20000; ++i) {
      const auto x = r.below(n);
      ASSERT_LT(x, n);
      ++seen[x];
    }
    for (std::uint32_t k = 0; k < n && n <= 32; ++k) EXPECT_GT(seen[k], 0);
  }
}

TEST(Rng, ShuffleIsAPermutationAndDeterministic) {
  std::vector<Card> a, b;
  for (Card c : CardSet::deck32()) a.push_back(c);
  b = a;
  Rng r1(Seed{5, 5}), r2(Seed{5, 5});
  shuffle(a, r1);
  shuffle(b, r2);
  EXPECT_EQ(a, b);
  CardSet s;
  for (Card c : a) s.insert(c);
  EXPECT_EQ(s, CardSet::deck32());
  std::vector<Card> sorted;
  for (Card c : CardSet::deck32()) sorted.push_back(c);
  EXPECT_NE(a, sorted);
}

TEST(Rng, CutLiftsAtLeastThreeAndLeavesAtLeastThree) {
  // Bazar rules: at least three cards must be cut.
  std::vector<Card> base;
  for (Card c : CardSet::deck32()) base.push_back(c);
  Rng r(Seed{3, 1});
  std::vector<bool> seen(33, false);
  for (int i = 0; i < 5000; ++i) {
    std::vector<Card> d = base;
    cut(d, r);
    const auto at = static_cast<std::size_t>(std::find(base.begin(), base.end(), d[0]) - base.begin());
    ASSERT_GE(at, 3u);
    ASSERT_LE(at, 29u);
    ASSERT_TRUE(std::equal(d.begin(), d.end() - static_cast<long>(at), base.begin() + static_cast<long>(at)));
    seen[at] = true;
  }
  for (std::size_t k = 3; k <= 29; ++k) EXPECT_TRUE(seen[k]) << k;
}

TEST(Rng, DealSeedsDifferPerDeal) {
  const Seed m{11, 12};
  EXPECT_EQ(derive_deal_seed(m, 0), derive_deal_seed(m, 0));
  EXPECT_NE(derive_deal_seed(m, 0), derive_deal_seed(m, 1));
  EXPECT_NE(derive_deal_seed(m, 0), derive_deal_seed(Seed{11, 13}, 0));
}

TEST(Card, TextForms) {
  EXPECT_EQ(to_string(Card(Suit::spades, Rank::jack)), "JS");
  EXPECT_EQ(parse_card("10h"), Card(Suit::hearts, Rank::ten));
  EXPECT_EQ(parse_card("TH"), Card(Suit::hearts, Rank::ten));
  EXPECT_FALSE(parse_card("1H").has_value());
  EXPECT_FALSE(parse_card("JX").has_value());
  EXPECT_FALSE(parse_card("").has_value());
  EXPECT_EQ(CardSet::deck32().size(), 32);
  EXPECT_EQ(CardSet::deck24().size(), 24);  // simple belote rules: nine to ace
  EXPECT_FALSE(CardSet::deck24().contains(Card(Suit::clubs, Rank::eight)));
}

}  // namespace
}  // namespace atout
