// The double-dummy solver's transposition tables: what each search of a trick boundary proved, so
// that a position reached again (by another order of the same tricks, or by the next zero-window
// search) is not searched again. A large table for the deep positions, a small one for the last
// three tricks.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace atout::bots::solver_detail {

// Beyond any value a deal can have: "no bound".
constexpr int kInf = 30000;

// Both tables below keep one 64-bit word per trick boundary. Within one solve every card stays in the
// hand it was dealt to, so the cards left say which hand holds each: with the seat on lead and the
// trick flags, they key a trick boundary exactly. An entry is:
//   bits  0-31  the cards left          bits 32-35  the seat on lead and the trick flags
//   bits 36-40  the best lead found     bits 41-43  a tag, not 0 (each table says what it holds)
//   bits 44-53  the lower bound         bits 54-63  the upper bound (each offset by kValueBias)
// An entry of all zeros is empty.
namespace entry {

using Entry = std::uint64_t;
using Key = Entry;  // the key bits of an entry

inline constexpr Entry kKeyBits = (Entry{1} << 36) - 1;
inline constexpr int kValueBias = 512;
inline constexpr int kValueMax = 1023;

// The key of a trick boundary: the cards left in every hand, the seat on lead and the trick flags
// (two bits: which sides have taken a trick).
inline Key key(std::uint32_t cards_left, int seat, int flags) {
  return Key{cards_left} | (Key(static_cast<unsigned>(seat | (flags << 2))) << 32);
}
inline int move(Entry e) { return static_cast<int>((e >> 36) & 31u); }
inline int tag(Entry e) { return static_cast<int>((e >> 41) & 7u); }
// A lower bound below the range is stored as the range's bottom, an upper bound above it as its
// top: both still hold. The bottom and top read back as no bound.
inline int lower(Entry e) {
  const int v = static_cast<int>((e >> 44) & 1023u);
  return v == 0 ? -kInf : v - kValueBias;
}
inline int upper(Entry e) {
  const int v = static_cast<int>(e >> 54);
  return v == kValueMax ? kInf : v - kValueBias;
}
inline Entry make(Key k, int best_move, int tag, int lo, int hi) {
  const int l = std::clamp(lo + kValueBias, 0, kValueMax);
  const int h = std::clamp(hi + kValueBias, 0, kValueMax);
  return k | (Entry(static_cast<unsigned>(best_move)) << 36) | (Entry(static_cast<unsigned>(tag)) << 41) |
         (Entry(static_cast<unsigned>(l)) << 44) | (Entry(static_cast<unsigned>(h)) << 54);
}
// The bounds (lo, hi) tightened by a search's result `best` in the window (a0, b0) it was given.
inline void tighten(int best, int a0, int b0, int& lo, int& hi) {
  if (best <= a0) {
    hi = std::min(hi, best);
  } else if (best >= b0) {
    lo = std::max(lo, best);
  } else {
    lo = hi = best;
  }
}
inline std::size_t hash(Key k, std::uint64_t mask) {
  std::uint64_t h = k * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return static_cast<std::size_t>(h & mask);
}

}  // namespace entry

// The table of the boundaries before the last three tricks. Buckets of eight entries, one cache line
// each, so that a probe reads one line; kept small (1 MiB by default) because on the machines
// measured a random read past about 2 MiB costs ten times one within it. An entry's tag is its
// tricks left. A full bucket replaces the entry with the fewest tricks left, the cheapest to search
// again.
class TranspositionTable {
 public:
  using Entry = entry::Entry;
  using Key = entry::Key;

  // 2^bits entries (bits >= 3).
  explicit TranspositionTable(int bits)
      : buckets_(std::size_t{1} << std::max(0, bits - 3)),
        generation_of_(buckets_.size(), 0),
        mask_(buckets_.size() - 1) {}

  // Forgets every entry at once: a bucket written in an earlier solve reads as empty, so the table
  // is never cleared between solves.
  void new_solve() {
    if (++generation_ == 0) {
      std::fill(generation_of_.begin(), generation_of_.end(), std::uint16_t{0});
      generation_ = 1;
    }
  }

  std::size_t bucket_of(Key k) const { return entry::hash(k, mask_); }
  // The entry of `k` in bucket `b` of this solve, or null.
  const Entry* find(std::size_t b, Key k) const {
    if (generation_of_[b] != generation_) return nullptr;
    for (const Entry& e : buckets_[b].entries)
      if (matches(e, k)) return &e;
    return nullptr;
  }

  // Stores what a search of `k` found: `best` against the window (a0, b0) it was given, its best
  // lead and its tricks left (`depth`, 1 to 7).
  void store(std::size_t b, Key k, int best, int a0, int b0, int best_move, int depth) {
    Bucket& bucket = buckets_[b];
    if (generation_of_[b] != generation_) {
      generation_of_[b] = generation_;
      bucket.entries.fill(0);
    }
    Entry* slot = nullptr;
    int lo = -kInf, hi = kInf;
    for (Entry& e : bucket.entries) {
      if (matches(e, k)) {
        slot = &e;
        lo = entry::lower(e);
        hi = entry::upper(e);
        break;
      }
    }
    if (!slot) {
      // An empty entry, or else the one with the fewest tricks left (the cheapest to search again).
      slot = &bucket.entries[0];
      for (Entry& e : bucket.entries)
        if (entry::tag(e) < entry::tag(*slot)) slot = &e;
    }
    entry::tighten(best, a0, b0, lo, hi);
    *slot = entry::make(k, best_move, depth, lo, hi);
  }

 private:
  struct alignas(64) Bucket {
    std::array<Entry, 8> entries;
  };
  static_assert(sizeof(Bucket) == 64);

  static bool matches(Entry e, Key k) { return (e & entry::kKeyBits) == k && entry::tag(e) != 0; }

  std::vector<Bucket> buckets_;
  std::vector<std::uint16_t> generation_of_;  // which solve each bucket was last written in
  std::uint64_t mask_ = 0;
  std::uint16_t generation_ = 0;
};

// The table of the boundaries of the last three tricks, which are most of the boundaries a search
// visits and the cheapest to search again. It is small (2^14 entries, 128 KiB, by default) so that
// it stays in a core's second-level cache, which most probes of the large table miss; and it keeps
// these numerous, short-lived positions from pushing the costlier ones out of the large table
// (measured: about a tenth less time a solve, for 1 to 3 % more nodes at the median). One entry a slot (direct-mapped),
// each store replacing what was there: the positions of the last tricks are revisited soon after they are searched, by
// another order of the same tricks or by the next zero-window test, or not at all. An entry's tag is the number of the
// solve that wrote it (1 to 7); every seventh solve the table is cleared (128 KiB, against a
// solve's milliseconds).
class NearTable {
 public:
  using Entry = entry::Entry;
  using Key = entry::Key;

  // 2^bits entries.
  explicit NearTable(int bits) : slots_(std::size_t{1} << bits, 0), mask_(slots_.size() - 1) {}

  void new_solve() {
    if (++solve_ == 8) {
      std::fill(slots_.begin(), slots_.end(), Entry{0});
      solve_ = 1;
    }
  }

  std::size_t slot_of(Key k) const { return entry::hash(k, mask_); }
  // The entry of `k` in slot `s` of this solve, or null.
  const Entry* find(std::size_t s, Key k) const { return matches(slots_[s], k) ? &slots_[s] : nullptr; }
  // Stores what a search of `k` found: `best` against the window (a0, b0) it was given, and its best
  // lead. What the slot held of `k` is kept; anything else there is replaced.
  void store(std::size_t s, Key k, int best, int a0, int b0, int best_move) {
    Entry& e = slots_[s];
    int lo = -kInf, hi = kInf;
    if (matches(e, k)) {
      lo = entry::lower(e);
      hi = entry::upper(e);
    }
    entry::tighten(best, a0, b0, lo, hi);
    e = entry::make(k, best_move, solve_, lo, hi);
  }

 private:
  bool matches(Entry e, Key k) const { return (e & entry::kKeyBits) == k && entry::tag(e) == solve_; }

  std::vector<Entry> slots_;
  std::size_t mask_ = 0;
  int solve_ = 0;  // 1 to 7 once a solve has begun; 0 matches no entry
};

}  // namespace atout::bots::solver_detail
