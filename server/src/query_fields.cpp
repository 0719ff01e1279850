// Query-string fields into a request: one parser for every HTTP route that takes a query.
#include "atout/server/query_fields.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace atout::server {

void add_query_fields(std::string_view query, std::initializer_list<std::string_view> numeric,
                      std::initializer_list<std::string_view> text, nlohmann::json& request, std::size_t max_chars) {
  auto named = [](std::initializer_list<std::string_view> keys, std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const bool is_number = named(numeric, key);
    if (!is_number && !named(text, key)) continue;
    const std::string_view value = eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    long long n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (is_number && ec == std::errc() && end == value.data() + value.size() && !value.empty()) {
      request[std::string(key)] = n;
    } else {
      request[std::string(key)] = std::string(value.substr(0, max_chars));
    }
  }
}

}  // namespace atout::server
