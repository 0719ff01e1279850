// Error codes and errors: their names, their list, and the one function that makes an error.
#include "atout/protocol/basics.hpp"

#include "wire_enums.hpp"

namespace atout::protocol {

std::string to_string(ErrorCode c) { return json(c).get<std::string>(); }

const std::vector<ErrorCode>& all_error_codes() {
  static const std::vector<ErrorCode> codes = [] {
    std::vector<ErrorCode> v;
    for (int i = 0; i <= static_cast<int>(ErrorCode::origin_not_allowed); ++i) v.push_back(static_cast<ErrorCode>(i));
    return v;
  }();
  return codes;
}

Error make_error(ErrorCode code, std::string message, std::optional<std::string> table_id) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.table_id = std::move(table_id);
  return e;
}

Error make_moving_error(std::string message, std::string table_id, std::int64_t takeover_ms) {
  Error e = make_error(ErrorCode::unknown_table, std::move(message), std::move(table_id));
  e.moving = true;
  e.takeover_ms = takeover_ms;
  return e;
}

}  // namespace atout::protocol
