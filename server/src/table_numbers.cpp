// Table numbers from durable blocks: see table_numbers.hpp.
#include "atout/server/table_numbers.hpp"

namespace atout::server {

TableNumbers::TableNumbers(std::uint64_t first) : in_memory_(false) { blocks_.push_back({first, first + kBlock}); }

std::optional<std::uint64_t> TableNumbers::take() {
  if (in_memory_) return memory_next_++;
  while (!blocks_.empty() && blocks_.front().next == blocks_.front().end) blocks_.pop_front();
  if (blocks_.empty()) return std::nullopt;
  return blocks_.front().next++;
}

std::uint64_t TableNumbers::left() const {
  std::uint64_t n = 0;
  for (const Block& b : blocks_) n += b.end - b.next;
  return n;
}

bool TableNumbers::start_reservation() {
  if (in_memory_ || asking_ || left() >= kBlock / 2) return false;
  asking_ = true;
  return true;
}

void TableNumbers::reserved(std::optional<std::uint64_t> first) {
  asking_ = false;
  if (first) blocks_.push_back({*first, *first + kBlock});
}

}  // namespace atout::server
