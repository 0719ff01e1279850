// The numbers of table ids ("t<n>"), never handed out twice for the life of the database. They are
// taken from blocks that the store reserved durably before any number in them is used, so a crash
// skips what is left of a block but never repeats a number. Without a store, numbers count from 1
// in memory (nothing outlives the process then). Single-threaded: its owner serialises the calls.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace atout::server {

class TableNumbers {
 public:
  static constexpr std::uint64_t kBlock = 1000;

  // In memory: every number from 1 is free.
  TableNumbers() = default;
  // From the store: [first, first + kBlock) is reserved already.
  explicit TableNumbers(std::uint64_t first);

  // The next number, or nullopt while none is reserved (the store is behind or failing).
  std::optional<std::uint64_t> take();
  std::uint64_t left() const;

  // Whether the owner should reserve another block now: half of what is reserved is used and no
  // reservation is under way. A true answer marks one as under way, until reserved() is called.
  bool start_reservation();
  // The store's answer: the first number of a new block of kBlock, or nullopt when it failed (the
  // next take() then starts another reservation).
  void reserved(std::optional<std::uint64_t> first);

 private:
  struct Block {
    std::uint64_t next;
    std::uint64_t end;
  };
  bool in_memory_ = true;
  std::uint64_t memory_next_ = 1;
  std::deque<Block> blocks_;
  bool asking_ = false;
};

}  // namespace atout::server
