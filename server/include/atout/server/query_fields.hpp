// The fields of a URL query string, as the WebSocket request they stand for would carry them.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string_view>

namespace atout::server {

// Copies the query's `numeric` and `text` keys into `request`: a numeric key whose value is a whole
// integer as a number, anything else (including a numeric key with a bad value) as a string of at
// most `max_chars` characters, so that the protocol's own checks answer the HTTP and WebSocket
// forms of a request with the same codes. Other keys are ignored; a key without `=` is empty.
void add_query_fields(std::string_view query, std::initializer_list<std::string_view> numeric,
                      std::initializer_list<std::string_view> text, nlohmann::json& request,
                      std::size_t max_chars = 80);

}  // namespace atout::server
