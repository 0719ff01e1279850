// The JSON-lines log format: spdlog's pattern formatter with one custom flag that writes the
// message as the body of a JSON string.
#include "atout/server/json_log.hpp"

#include <spdlog/pattern_formatter.h>

namespace atout::server {

namespace {

// %* in the pattern: the record's message, escaped for the inside of a JSON string.
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm& /*time*/, spdlog::memory_buf_t& dest) override {
    static constexpr char kHex[] = "0123456789abcdef";
    for (const char ch : msg.payload) {
      const auto byte = static_cast<unsigned char>(ch);
      switch (ch) {
        case '"':
          append(dest, "\\\"");
          break;
        case '\\':
          append(dest, "\\\\");
          break;
        case '\n':
          append(dest, "\\n");
          break;
        case '\r':
          append(dest, "\\r");
          break;
        case '\t':
          append(dest, "\\t");
          break;
        default:
          if (byte < 0x20 || byte == 0x7f) {
            const char escaped[] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 0xf]};
            dest.append(escaped, escaped + sizeof escaped);
          } else {
            dest.push_back(ch);
          }
      }
    }
  }
  [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }

 private:
  static void append(spdlog::memory_buf_t& dest, std::string_view s) { dest.append(s.data(), s.data() + s.size()); }
};

}  // namespace

std::unique_ptr<spdlog::formatter> make_json_log_formatter() {
  auto f = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  f->add_flag<JsonEscapedMessage>('*').set_pattern(
      R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","thread":%t,"message":"%*"})");
  return f;
}

}  // namespace atout::server
