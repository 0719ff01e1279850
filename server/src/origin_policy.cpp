// The Origin check of WebSocket upgrades.
#include "atout/server/origin_policy.hpp"

#include <algorithm>
#include <cctype>

namespace atout::server {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An origin as browsers send it: scheme://host[:port], nothing after.
bool is_origin(std::string_view s) {
  const auto sep = s.find("://");
  if (sep == std::string_view::npos || sep == 0) return false;
  const std::string_view host = s.substr(sep + 3);
  return !host.empty() && host.find_first_of("/?#@ ") == std::string_view::npos;
}

}  // namespace

OriginPolicy::OriginPolicy(std::vector<std::string> allowed) {
  for (std::string& a : allowed) {
    if (a == "*") {
      any_ = true;
      continue;
    }
    std::string entry = lower(a);
    while (!entry.empty() && entry.back() == '/') entry.pop_back();
    allowed_.push_back(std::move(entry));
  }
}

std::vector<std::string> OriginPolicy::parse_list(std::string_view text, std::string& error) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view raw = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (raw.empty()) continue;
    std::string_view entry = raw;
    while (entry.size() > 1 && entry.back() == '/') entry.remove_suffix(1);
    if (entry != "*" && !is_origin(entry)) {
      error = "'" + std::string(raw) + "' is not an origin (scheme://host[:port]) nor *";
      return {};
    }
    out.emplace_back(entry);
  }
  return out;
}

bool OriginPolicy::allows(std::string_view origin, std::string_view scheme, std::string_view host) const {
  if (origin.empty() || any_) return true;
  const std::string o = lower(origin);
  if (!host.empty() && o == lower(scheme) + "://" + lower(host)) return true;
  return std::find(allowed_.begin(), allowed_.end(), o) != allowed_.end();
}

}  // namespace atout::server
