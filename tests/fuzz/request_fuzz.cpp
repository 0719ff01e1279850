// Fuzz target: one WebSocket text frame, as the request router reads it. Parsing never throws; a
// frame becomes either a typed request or an error whose code is one its type may be answered
// with; a parsed request written back to JSON parses into the same request.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "atout/protocol/request_errors.hpp"
#include "atout/protocol/requests.hpp"
#include "fuzz_check.hpp"

namespace {

using atout::fuzz::require;
namespace protocol = atout::protocol;

bool allowed_code(protocol::ErrorCode code, std::string_view type) {
  const auto& any = protocol::any_request_errors();
  if (std::find(any.begin(), any.end(), code) != any.end()) return true;
  const auto own = protocol::errors_of(type);
  return std::find(own.begin(), own.end(), code) != own.end();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const protocol::ParsedRequest parsed = protocol::parse_request(text);
  if (const auto* e = std::get_if<protocol::Error>(&parsed.body)) {
    // The type the frame claimed, when it claimed one: its error must be among its documented codes.
    std::string type;
    if (auto j = protocol::parse_text(text); j && j.value->is_object()) {
      if (auto t = j.value->find("type"); t != j.value->end() && t->is_string()) type = t->get<std::string>();
    }
    require(allowed_code(e->code, type), "an error code the request's type does not document");
    require(!e->message.empty(), "an error without a message");
    return 0;
  }
  const auto& request = std::get<protocol::Request>(parsed.body);
  const protocol::json first = protocol::to_json(request, parsed.id);
  const protocol::ParsedRequest again = protocol::parse_request(first.dump());
  require(std::holds_alternative<protocol::Request>(again.body), "a parsed request written back does not parse");
  require(again.id == parsed.id, "a parsed request's id changes when written back");
  const auto& request2 = std::get<protocol::Request>(again.body);
  require(protocol::type_of(request2) == protocol::type_of(request), "a request's type changes when written back");
  require(protocol::to_json(request2, again.id) == first, "a request changes when written back and read again");
  return 0;
}
