// Which error codes each request can be answered with. docs/protocol.md lists the same codes in
// each request's section, and a test keeps the two equal.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "atout/protocol/basics.hpp"

namespace atout::protocol {

struct RequestErrors {
  std::string_view type;         // the request's `type`
  std::vector<ErrorCode> codes;  // what its handler may answer, beyond the codes any request may get
};

// One entry per request type, in the order of docs/protocol.md. A request without fields of its
// own (ping, list_tables ...) has an empty list.
const std::vector<RequestErrors>& request_errors();

// The codes any request may get, whatever its type: a frame that is not a request (bad_json,
// bad_message, unknown_type), no `type` (missing_field), an `id` or `type` of the wrong form
// (invalid_field), a request other than hello or ping before hello (hello_required), and a failure
// of the server (internal_error).
const std::vector<ErrorCode>& any_request_errors();

// The codes `type` may be answered with beyond any_request_errors(); empty for an unknown type.
std::span<const ErrorCode> errors_of(std::string_view type);

}  // namespace atout::protocol
