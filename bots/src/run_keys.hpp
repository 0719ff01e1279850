// The double-dummy solver's view of the cards left for its transposition tables: positions that
// differ only in which low cards of equal points are left are keyed as one.
//
// A run is a set of kMinRun or more of a suit's cards, all in the hands when the solve starts,
// adjacent there in strength and worth the same points (the seven, eight and nine of a plain suit or
// of No Trumps). Two trick boundaries whose cards left differ only within runs, with as many of each
// run's cards left and the same hands holding them from the strongest down, are the same position:
// no other card lies between a run's cards, so every trick is won by the same hand for the same
// points. Each such set of cards left is keyed by the smallest of them, which is itself a position of
// the same deal (every card stays in the hand it was dealt to for a whole solve), so the key stays
// exact.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace atout::bots::solver_detail {

class RunKeys {
 public:
  // Runs of two (a seven and an eight) are reached again too rarely to pay for the key's reads
  // (measured: 0.01 % fewer nodes on the mean, All Trumps, whose runs are all of two, 1 to 3 % slower).
  static constexpr int kMinRun = 3;

  RunKeys() {
    for (auto& suit : key_)
      for (int b = 0; b < 256; ++b) suit[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(b);
  }

  // The keys for a solve from `hands` (by seat; internal card indices, suit * 8 + strength) whose
  // cards are worth `points`. With `enabled` false, every card is keyed as it is.
  void build(const std::array<std::uint32_t, 4>& hands, const std::array<int, 32>& points, bool enabled) {
    std::array<int, 32> holder{};
    for (int s = 0; s < 4; ++s)
      for (std::uint32_t m = hands[static_cast<std::size_t>(s)]; m; m &= m - 1)
        holder[static_cast<std::size_t>(std::countr_zero(m))] = s;
    const std::uint32_t live = hands[0] | hands[1] | hands[2] | hands[3];
    any_ = false;
    for (int suit = 0; suit < 4; ++suit) {
      auto& out = key_[static_cast<std::size_t>(suit)];
      if (changed_[static_cast<std::size_t>(suit)]) {
        for (int b = 0; b < 256; ++b) out[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(b);
        changed_[static_cast<std::size_t>(suit)] = false;
      }
      if (!enabled) continue;
      const int shift = suit * 8;
      // Each run: its cards' bits within the suit's byte.
      for (std::uint32_t rest = (live >> shift) & 0xFFu; rest;) {
        const int low = std::countr_zero(rest);
        std::uint32_t run = 1u << low;
        rest &= rest - 1;
        while (rest && points[static_cast<std::size_t>(shift + std::countr_zero(rest))] ==
                           points[static_cast<std::size_t>(shift + low)]) {
          run |= rest & (~rest + 1);
          rest &= rest - 1;
        }
        if (std::popcount(run) < kMinRun) continue;
        // The key of each set within the run: from its weakest card up, each card replaced by the
        // weakest card of the run above the previous one that the same hand holds. Each card is then
        // as low as any set of the same hands could have it, so the key is the smallest such set.
        std::array<std::uint8_t, 256> key_of{};
        for (std::uint32_t sub = run;; sub = (sub - 1) & run) {
          std::uint32_t key = 0;
          std::uint32_t free = run;
          for (std::uint32_t m = sub; m; m &= m - 1) {
            const int h = holder[static_cast<std::size_t>(shift + std::countr_zero(m))];
            std::uint32_t f = free;
            while (holder[static_cast<std::size_t>(shift + std::countr_zero(f))] != h) f &= f - 1;
            const std::uint32_t pick = f & (~f + 1);
            key |= pick;
            free &= ~((pick << 1) - 1);
          }
          key_of[sub] = static_cast<std::uint8_t>(key);
          if (sub == 0) break;
        }
        for (int b = 0; b < 256; ++b) {
          const std::uint32_t sub = static_cast<std::uint32_t>(b) & run;
          out[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>((out[static_cast<std::size_t>(b)] & ~run) |
                                                                       key_of[static_cast<std::size_t>(sub)]);
        }
        changed_[static_cast<std::size_t>(suit)] = true;
        any_ = true;
      }
    }
  }

  // The cards left (all four hands), as the table keys them.
  std::uint32_t of(std::uint32_t cards) const {
    if (!any_) return cards;
    return std::uint32_t{key_[0][cards & 0xFFu]} | (std::uint32_t{key_[1][(cards >> 8) & 0xFFu]} << 8) |
           (std::uint32_t{key_[2][(cards >> 16) & 0xFFu]} << 16) | (std::uint32_t{key_[3][cards >> 24]} << 24);
  }

 private:
  std::array<std::array<std::uint8_t, 256>, 4> key_{};  // by suit, the key of each byte of cards
  std::array<bool, 4> changed_{};                       // suits whose keys are not their bytes
  bool any_ = false;                                    // some suit's keys are not its bytes
};

}  // namespace atout::bots::solver_detail
