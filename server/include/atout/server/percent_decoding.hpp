// Percent-decoding of a URL path segment (RFC 3986), for the HTTP API's ids: a browser writes
// `bot:rules` as `bot%3Arules` (encodeURIComponent), and the id it means is the decoded one.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace atout::server {

// The decoded text of `segment`, or nullopt when it is not valid percent-encoding (a `%` not
// followed by two hex digits). `+` stays `+`: it means a space only in a query string.
std::optional<std::string> percent_decoded(std::string_view segment);

}  // namespace atout::server
