// The per-address connection cap and the message-credit bucket.
#include "atout/server/limits.hpp"

#include <algorithm>

namespace atout::server {

// ---- message_credits -----------------------------------------------------------------------------

MessageCredits::MessageCredits(double burst, double rate, std::chrono::steady_clock::time_point start)
    : burst_(burst), rate_(rate), credits_(burst), last_(start) {}

bool MessageCredits::take(std::chrono::steady_clock::time_point now, double n) {
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  if (elapsed > 0) {
    credits_ = std::min(burst_, credits_ + elapsed * rate_);
    last_ = now;
  }
  if (credits_ < n) return false;
  credits_ -= n;
  return true;
}

std::chrono::milliseconds MessageCredits::wait(double n) const {
  if (credits_ >= n) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>((n - credits_) / rate_));
}

// ---- http_read_limiter ---------------------------------------------------------------------------

std::optional<std::chrono::milliseconds> HttpReadLimiter::admit(const net::ip::address& address,
                                                                std::chrono::steady_clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (buckets_.size() > kPruneAbove) {
    // A bucket untouched for as long as it takes to refill is as good as a new one.
    const auto refill = std::chrono::duration<double>(burst_ / rate_);
    std::erase_if(buckets_, [&](const auto& kv) { return now - kv.second.last >= refill; });
  }
  auto it = buckets_.find(address);
  if (it == buckets_.end()) it = buckets_.emplace(address, Bucket{MessageCredits(burst_, rate_, now), now}).first;
  it->second.last = now;
  if (it->second.credits.take(now)) return std::nullopt;
  return std::max(it->second.credits.wait(), std::chrono::milliseconds(1));
}

std::size_t HttpReadLimiter::tracked() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

// ---- ip_slot -------------------------------------------------------------------------------------

IpSlot::IpSlot(std::shared_ptr<ConnLimiter> owner, net::ip::address address, bool capped)
    : owner_(std::move(owner)), address_(std::move(address)), capped_(capped) {}

IpSlot::IpSlot(IpSlot&& other) noexcept
    : owner_(std::move(other.owner_)), address_(other.address_), capped_(other.capped_) {}

IpSlot& IpSlot::operator=(IpSlot&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
    address_ = other.address_;
    capped_ = other.capped_;
  }
  return *this;
}

IpSlot::~IpSlot() { release(); }

void IpSlot::release() {
  if (!owner_) return;
  owner_->release(address_, capped_);
  owner_.reset();
}

// ---- conn_limiter --------------------------------------------------------------------------------

ConnLimiter::ConnLimiter(int max_per_ip, std::shared_ptr<server::Metrics> m)
    : max_per_ip_(max_per_ip), metrics_(std::move(m)) {}

std::optional<IpSlot> ConnLimiter::admit(const net::ip::address& address) {
  metrics_->connections_total.fetch_add(1, std::memory_order_relaxed);
  if (max_per_ip_ > 0) {
    std::lock_guard lock(mutex_);
    int& n = open_[address];
    if (n >= max_per_ip_) {
      metrics_->ip_refusals.fetch_add(1, std::memory_order_relaxed);
      return std::nullopt;
    }
    ++n;
  }
  metrics_->connections_open.fetch_add(1, std::memory_order_relaxed);
  return IpSlot(shared_from_this(), address, max_per_ip_ > 0);
}

int ConnLimiter::open_from(const net::ip::address& address) const {
  std::lock_guard lock(mutex_);
  const auto it = open_.find(address);
  return it == open_.end() ? 0 : it->second;
}

void ConnLimiter::release(const net::ip::address& address, bool capped) {
  metrics_->connections_open.fetch_sub(1, std::memory_order_relaxed);
  if (!capped) return;
  std::lock_guard lock(mutex_);
  const auto it = open_.find(address);
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

}  // namespace atout::server
